"""bench/live.py runs end to end at tiny sizes: the laptop's service on SQLite, then the
scaled-out one on a scratch schema of the real PostgreSQL with a redis-server of the
bench's own, gunicorn (web and live) and real Celery workers. Nothing here judges the
speed (timing has no place in a test); what it checks is that every result posted was
seen on the live stream, that every projection caught up, and that every client held
got the published change."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_SERVICES

BENCH = Path(__file__).resolve().parent.parent / "bench" / "live.py"

#: gunicorn, Celery workers and a redis-server of its own: ~50 s (trial 9, section 9), in
#: CI's slow set (.ci/run).
pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture
def redis_server() -> str:
    """The bench starts its own redis-server (never the shared one): it needs the binary."""
    found = shutil.which("redis-server")
    if found is None:
        message = "redis-server is not installed"
        if REQUIRE_SERVICES:
            pytest.fail(message + " (SCHNAPSEN_REQUIRE_SERVICES=1: CI requires it)")
        pytest.skip(message)
    return found


def test_a_quick_run_sees_every_result_live_and_reaches_every_client(
    postgres_url: str, redis_server: str
) -> None:
    env = {**os.environ, "SCHNAPSEN_TEST_POSTGRES_URL": postgres_url}
    run = subprocess.run(
        [sys.executable, str(BENCH), "--quick"],
        capture_output=True, text=True, timeout=180, check=False, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["bench"] == "live" and summary["quick"] is True

    for way in ("embedded", "redis"):
        figures = summary["latency"][way]
        assert figures["refused"] == 0, figures["first_refusal"]
        assert figures["results"] == 8  # 8 players, 2 rounds of 4 sheets
        assert figures["missed"] == 0
        assert 0 < figures["p50_ms"] <= figures["p95_ms"] <= figures["max_ms"]
        assert figures["rounds_drawn"] == 1 and figures["draw_event_p50_ms"] is not None

    cases = summary["throughput"]
    for name, workers, tournaments in (
        ("1_worker_1_tournament", 1, 1),
        ("1_worker_2_tournaments", 1, 2),
        ("2_workers_1_tournament", 2, 1),
        ("2_workers_2_tournaments", 2, 2),
    ):
        case = cases[name]
        assert (case["workers"], case["tournaments"]) == (workers, tournaments)
        assert case["events_per_run"] > 0 and case["events_per_s"] > 0
        assert len(case["runs"][0]["per_tournament_s"]) == tournaments
        assert case["events_per_cpu_s"] is None or case["events_per_cpu_s"] > 0
    assert set(cases["scaling"]) == {"1_tournament", "2_tournaments"}
    assert cases["one_result"]["seconds"] > 0
    assert cases["sweep_scan"]["events_in_log"] > 0

    fanout = summary["fanout"]
    assert fanout["held"] == fanout["clients"] == 50
    assert fanout["outcomes"] == {"200": 50}
    assert fanout["received"] == 50 and fanout["missed"] == 0
    assert 0 < fanout["p50_ms"] <= fanout["p95_ms"] <= fanout["max_ms"]

    assert set(summary["targets"]) == {
        "embedded_p95_ms", "redis_p95_ms", "fanout_clients", "fanout_max_ms",
    }  # fmt: skip
    assert all(isinstance(t["pass"], bool) for t in summary["targets"].values())

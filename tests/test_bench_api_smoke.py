"""bench/api.py runs end to end: the service under gunicorn on a scratch schema of the real
PostgreSQL, a second of GETs each way and a few dozen result POSTs. Nothing here judges
the speed (timing has no place in a test); what it checks is that every figure is there
and that the writes lost nothing and doubled nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_SERVICES

BENCH = Path(__file__).resolve().parent.parent / "bench" / "api.py"

pytestmark = pytest.mark.postgres


def test_a_quick_run_reports_every_figure_and_loses_or_doubles_no_result(
    postgres_url: str,
) -> None:
    env = {**os.environ, "SCHNAPSEN_TEST_POSTGRES_URL": postgres_url}
    run = subprocess.run(
        [sys.executable, str(BENCH), "--quick"],
        capture_output=True, text=True, timeout=300, check=False, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["bench"] == "api"
    for case, status in (("plain", 200), ("not_modified", 304)):
        figures = summary["standings"][case]
        assert figures["status"] == status
        assert figures["requests_per_s"] > 0
        assert 0 < figures["p50_ms"] <= figures["p99_ms"]
        assert figures["errors"] == 0
        assert figures["worker_cpu_ms"] is None or figures["worker_cpu_ms"] > 0
    writes = summary["writes"]
    assert writes["writes_per_s"] > 0
    assert 0 < writes["p50_ms"] <= writes["p99_ms"]
    assert writes["worker_cpu_ms"] is None or writes["worker_cpu_ms"] > 0
    assert writes["failed"] == 0
    assert writes["retries"] >= 1
    assert writes["retries_replayed"] == writes["retries"]
    assert summary["lost"] == 0 and summary["doubled"] == 0
    assert writes["others_decided"] == 0
    assert set(summary["targets"]) == {
        "standings_per_s", "standings_p99_ms", "standings_304_per_s",
        "standings_304_p99_ms", "writes_per_s",
    }  # fmt: skip
    assert all(isinstance(t["pass"], bool) for t in summary["targets"].values())


@pytest.mark.parametrize("setup", ["workers", "embedded"])
def test_the_writes_with_celery_workers_or_on_the_laptop_lose_and_double_nothing(
    postgres_url: str, setup: str
) -> None:
    """Trial 9, P2: the writes measured as the deploy guide runs the service (Redis and a
    Celery worker projecting) and as the laptop does (waitress, SQLite)."""
    if setup == "workers" and shutil.which("redis-server") is None:
        message = "redis-server is not installed (the bench starts its own)"
        if REQUIRE_SERVICES:
            pytest.fail(message + " (SCHNAPSEN_REQUIRE_SERVICES=1: CI requires it)")
        pytest.skip(message)
    env = {**os.environ, "SCHNAPSEN_TEST_POSTGRES_URL": postgres_url}
    run = subprocess.run(
        [sys.executable, str(BENCH), "--quick", "--writes-only", "--setup", setup],
        capture_output=True, text=True, timeout=300, check=False, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["server"]["setup"] == setup
    writes = summary["writes"]
    assert writes["writes_per_s"] > 0 and writes["failed"] == 0
    assert writes["retries_replayed"] == writes["retries"] >= 1
    assert summary["lost"] == 0 and summary["doubled"] == 0
    assert set(summary["targets"]) == {"writes_per_s"}
    assert summary["targets"]["writes_per_s"]["target"] == (
        ">= 100" if setup == "embedded" else ">= 300"
    )

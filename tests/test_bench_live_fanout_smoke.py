"""bench/live_fanout.py runs end to end at tiny sizes: the deploy's gevent stream
process (deploy/gunicorn/live.py) on a scratch schema of the real PostgreSQL with a
redis-server of the bench's own, its baseline and the current app one after the other.
Nothing here judges the speed; what it checks is that both rounds held every client and
every client got the published change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_bench_live_smoke import redis_server  # noqa: F401  (the fixture)

BENCH = Path(__file__).resolve().parent.parent / "bench" / "live_fanout.py"

pytestmark = pytest.mark.postgres


def test_a_quick_run_holds_every_client_in_both_rounds_and_reaches_each(
    postgres_url: str,
    redis_server: str,  # noqa: F811
) -> None:
    env = {**os.environ, "SCHNAPSEN_TEST_POSTGRES_URL": postgres_url}
    run = subprocess.run(
        [sys.executable, str(BENCH), "--quick"],
        capture_output=True, text=True, timeout=240, check=False, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["bench"] == "live_fanout" and summary["quick"] is True
    for name in ("baseline", "current"):
        fan = summary[name]
        assert fan["held"] == fan["clients"] == 50, (name, fan["outcomes"])
        assert fan["received"] == 50 and fan["missed"] == 0
        assert 0 < fan["p50_ms"] <= fan["p95_ms"] <= fan["max_ms"]
    assert set(summary["ratios"]) == {"connect_cpu", "connect_wall"}
    assert set(summary["targets"]) == {"fanout_clients", "fanout_max_ms"}
    assert summary["targets"]["fanout_clients"]["pass"] is True

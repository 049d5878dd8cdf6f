"""bench/standings_get.py runs end to end: the service and the Flask baseline under
gunicorn on a scratch schema of the real PostgreSQL, a second of each case. Nothing here
judges the speed (timing has no place in a test): every figure must be there, every
answer the one wanted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "standings_get.py"

pytestmark = pytest.mark.postgres


def test_a_quick_run_reports_every_case_and_the_ratios(postgres_url: str) -> None:
    env = {**os.environ, "SCHNAPSEN_TEST_POSTGRES_URL": postgres_url}
    run = subprocess.run(
        [sys.executable, str(BENCH), "--quick"],
        capture_output=True, text=True, timeout=300, check=False, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["bench"] == "standings_get"
    wanted = {"standings": 200, "standings_304": 304, "hello": 200, "blob": 200}
    for case, status in wanted.items():
        figures = summary["cases"][case]
        assert figures["status"] == status
        assert figures["requests_per_s"] > 0 and figures["errors"] == 0
        assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert set(summary["ratios"]) == {
        "standings_vs_hello", "standings_304_vs_hello", "standings_vs_blob",
    }  # fmt: skip
    assert all(value > 0 for value in summary["ratios"].values())
    assert isinstance(summary["target"]["pass"], bool)

"""bench/projection.py runs end to end at a small size on SQLite and PostgreSQL. Nothing
here judges the speed (timing has no place in a test): it checks that both ways of a
run were measured on both databases and that the rows they left equal a rebuild."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "projection.py"

pytestmark = pytest.mark.postgres


def test_a_quick_run_measures_both_ways_and_leaves_what_a_rebuild_gives(
    postgres_url: str,
) -> None:
    env = {**os.environ, "SCHNAPSEN_TEST_POSTGRES_URL": postgres_url}
    run = subprocess.run(
        [sys.executable, str(BENCH), "--quick"],
        capture_output=True, text=True, timeout=600, env=env, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["bench"] == "projection"
    for name in ("sqlite", "postgresql"):
        found = summary["results"][name]
        assert found["equals_rebuild"] is True, found
        assert found["incremental_wall_ms"] > 0 and found["whole_wall_ms"] > 0, found

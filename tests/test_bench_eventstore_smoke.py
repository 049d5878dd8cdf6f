"""bench/eventstore.py runs end to end: a SQLite-only smoke run, a few hundredths of a
second per measurement. Nothing here judges the figures: timing has no place in a test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "eventstore.py"


def test_the_last_line_is_json_with_every_sqlite_figure_ratio_and_target() -> None:
    run = subprocess.run(
        [sys.executable, str(BENCH), "--sqlite-only", "--quick", "--seconds", "0.02",
         "--repeat", "1"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    sqlite = summary["results"]["sqlite"]
    assert (sqlite["journal_mode"], sqlite["synchronous"]) == ("wal", "FULL")
    for side in ("store", "raw"):
        for figure in ("batch_events", "stream_read_events", "log_read_events"):
            assert sqlite[f"{side}_{figure}_per_s"] > 0
    assert summary["results"]["postgresql"] == {"skipped": "--sqlite-only"}
    assert set(summary["targets"]) == {
        "sqlite_batch_store_vs_raw",
        "sqlite_stream_read_store_vs_raw",
        "sqlite_log_read_store_vs_raw",
    }
    assert all(isinstance(t["pass"], bool) for t in summary["targets"].values())

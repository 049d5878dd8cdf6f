"""bench/pages_cpu.py runs end to end on a small field: both pages answer 200 and every
figure is there. Nothing here judges the speed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "pages_cpu.py"


def test_a_quick_run_loads_both_pages_and_reports_their_cpu() -> None:
    run = subprocess.run(
        [sys.executable, str(BENCH), "--quick"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["bench"] == "pages_cpu"
    assert set(summary["pages"]) == {"public_standings", "desk_rounds"}
    for figures in summary["pages"].values():
        assert figures["status"] == 200 and figures["bytes"] > 0
        assert 0 < figures["median_ms"] <= figures["max_ms"]
        assert figures["loads"] == 3 and isinstance(figures["pass"], bool)

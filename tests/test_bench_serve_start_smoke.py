"""bench/serve_start.py end to end at one round: ``tournament serve`` (used and fresh
instance) and a Flask hello under waitress each start and answer ``/healthz``, and the
bench prints its medians and ratios (speed P10). Nothing here judges the speed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "serve_start.py"


def test_a_quick_run_starts_serve_and_the_flask_hello_and_compares_them() -> None:
    run = subprocess.run(
        [sys.executable, str(BENCH), "--quick"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["bench"] == "serve_start" and figures["rounds"] == 1
    for case in ("used", "fresh", "hello"):
        assert figures[f"{case}_wall_s"] > 0
    assert figures["used_wall_ratio"] == round(figures["used_wall_s"] / figures["hello_wall_s"], 2)

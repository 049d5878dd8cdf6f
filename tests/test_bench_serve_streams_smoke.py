"""bench/serve_streams.py end to end: ``tournament serve`` with its defaults holds the
live streams of a Preisschnapsen (speed P12: at least 500; the default cap is 512, the
rest are refused with 503), one result reaches every stream held, and other requests
are answered meanwhile. Nothing here judges the speed; the bench prints it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "serve_streams.py"


def test_the_default_serve_holds_512_streams_and_one_result_reaches_them_all() -> None:
    run = subprocess.run(
        [sys.executable, str(BENCH), "--players", "8", "--clients", "520", "--gets", "3"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["held"] == 512
    assert figures["outcomes"] == {"200": 512, "503": 8}
    assert figures["result_reached"] == 512 and figures["result_missed"] == 0
    assert figures["ok"] is True

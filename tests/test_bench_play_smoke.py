"""bench/play.py runs end to end at tiny sizes (T-online): the laptop's service
(``tournament serve``, SQLite in a temporary folder, no Redis) with the players in a
process of their own, each seat holding its table's live stream and posting random legal
moves. Nothing here judges the speed (timing has no place in a test); what it checks is
that every stream was held, that every move was taken (no refusal: each was legal for
its seat, R0, at the version its screen showed), and that the opponent's screen showed
every one of them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "play.py"


def test_a_quick_run_shows_every_move_on_the_opponents_screen() -> None:
    run = subprocess.run(
        [sys.executable, str(BENCH), "--quick"],
        capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["bench"] == "play" and summary["quick"] is True

    one = summary["one_table"]
    assert one["held"] == one["streams"] == 8  # the small Swiss: 4 tables, 2 seats each
    assert one["refused"] == {}, one["first_refusal"]
    assert one["moves"] == 30 and one["measured"] == 30 and one["missed"] == 0
    assert 0 < one["p50_ms"] <= one["p95_ms"] <= one["max_ms"]

    many = summary["many_tables"]
    assert many["tables"] == many["active"] == 4
    assert many["held"] == many["streams"] == 8 and many["outcomes"] == {"200": 8}
    assert many["refused"] == {}, many["first_refusal"]
    assert many["moves"] > 0 and many["measured"] == many["moves"] and many["missed"] == 0
    assert 0 < many["p50_ms"] <= many["p95_ms"] <= many["max_ms"]
    assert many["server_cpu_s"] is None or many["server_cpu_s"] >= 0

    assert set(summary["targets"]) == {"one_table_p95_ms", "tables_held", "many_tables_p95_ms"}
    assert all(isinstance(t["pass"], bool) for t in summary["targets"].values())

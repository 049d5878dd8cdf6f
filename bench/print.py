"""Benchmark: a round's print packs rendered to PDF (WeasyPrint), as a worker renders them.

    .venv/bin/python bench/print.py [--players 80] [--runs 5] [--kinds table-cards,...]
                                    [--lang de|en]

Builds a Swiss of ``--players`` players (default 80: 40 tables), best of 3, with clubs,
round 1 played at random and round 2 drawn, then renders each kind ``--runs`` times and
reports the median seconds and the pages: ``table-cards`` (the 40 cards of round 2, with
the public page's QR code; target < 5 s on this shared 2-core machine), ``scoresheets``
(the round's 40 blank sheets) and ``crosstable``, in ``--lang`` (default German). What
is timed is the pack's document from the tournament state plus the PDF
(:func:`tournament.printing.packs.render`); the log's seal is a fixed string here
(sealing is a store write, not rendering). The first
render of a process loads fonts and the stylesheet: one untimed warm-up run goes first,
and its time is reported too. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from timing import median_time  # noqa: E402

from tournament.domain.commands.registration import create_tournament, register_player  # noqa: E402
from tournament.domain.commands.rounds import start_round  # noqa: E402
from tournament.domain.testing import Builder, random_match  # noqa: E402
from tournament.printing.packs import document, render  # noqa: E402

KINDS = ("table-cards", "scoresheets", "crosstable")
#: (figure, at most this many seconds).
TARGETS = {"table-cards": 5.0}
SEAL = "t1 @999   Seal #12 @4211 7KQM-3XJ9"
CLUBS = ("SV Schnapsen Krems", "ASK Bummerl Wien", "Cafe Zentral", "")


def evening(players: int, seed: int = 7) -> Builder:
    settings = {"name": "Bench-Turnier", "format": "swiss", "best_of": 3, "seed": seed}
    b = Builder(create_tournament("t1", settings))
    for i in range(1, players + 1):
        name = f"Spielerin {i} Mustermann-Huber"
        b.add(register_player(b.state, name, club=CLUBS[i % len(CLUBS)], rating=2000 - i))
    rng = random.Random(seed)
    b.add(start_round(b.state))
    for mid in b.state.rounds[-1].matches:
        random_match(b, b.state.matches[mid], rng)
    b.add(start_round(b.state))
    return b


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--players", type=int, default=80)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--lang", choices=("de", "en"), default="de")
    return parser.parse_args()


def main() -> None:
    args = options()
    b = evening(args.players)
    t = b.state
    figures: dict[str, Any] = {
        "players": args.players,
        "tables": len(t.rounds[-1].matches),
        "runs": args.runs,
        "lang": args.lang,
        "load_before": os.getloadavg()[0],
    }
    for kind in args.kinds.split(","):

        def run(kind: str = kind) -> int:
            found = document(
                kind, t, lambda: b.events, base_url="http://192.168.1.20:8080", lang=args.lang
            )
            return render(found, SEAL)[1]

        start = time.perf_counter()
        pages = run()
        warm_up = time.perf_counter() - start
        seconds = median_time(run, args.runs)
        target = TARGETS.get(kind)
        print(
            f"{kind:12} {pages:3} pages  median {seconds:6.2f} s of {args.runs}"
            f"  (first run {warm_up:.2f} s)"
            + (f"  target < {target} s: {'ok' if seconds < target else 'MISSED'}" if target else "")
        )
        key = kind.replace("-", "_")
        figures[f"{key}_s"] = round(seconds, 3)
        figures[f"{key}_pages"] = pages
        figures[f"{key}_first_s"] = round(warm_up, 3)
    figures["load_after"] = os.getloadavg()[0]
    figures["targets_met"] = all(
        figures[f"{k.replace('-', '_')}_s"] < v
        for k, v in TARGETS.items()
        if f"{k.replace('-', '_')}_s" in figures
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

"""Benchmark: registering a big field with the look-alike duplicate check (no store).

    .venv/bin/python bench/names.py [--players 4096] [--runs 5]

Every registration compares the new name and club with every registered player's as a
pairing sheet shows them (NFKC, case, invisible characters, Cyrillic/Greek look-alikes;
tournament/domain/model/text.py), so a players CSV of N rows does N²/2 comparisons. Times a
players import of N rows (CSV parsing, the plain-text checks, the duplicate check, the
fold) and, for scale, the same import with the comparison reduced to NFC + casefold (what
the check was before look-alikes were folded). Target: the whole import of 4,096 players
under 5 s. The last line is JSON.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from timing import median_time  # noqa: E402

from tournament.domain.commands import registration  # noqa: E402
from tournament.domain.commands.csvio import import_players  # noqa: E402
from tournament.domain.commands.registration import create_tournament  # noqa: E402
from tournament.domain.model.text import _KEYS  # noqa: E402

TARGET_S = 5.0


def players_csv(count: int) -> str:
    """A club list: names with umlauts and a few shared surnames, ten clubs."""
    rows = [f"Spieler{i} Größ-Hübner,SC Wörgl {i % 10},,{1000 + i % 2000}" for i in range(count)]
    return "name,club,category,rating\n" + "\n".join(rows) + "\n"


def nfc_casefold_keys(text: str) -> tuple[str, str]:
    """The comparison before look-alikes were folded: NFC and case only."""
    key = unicodedata.normalize("NFC", text).casefold()
    return key, key


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    created = create_tournament("bench", {"name": "Bench", "seed": 1})
    text = players_csv(args.players)

    def run() -> None:
        _KEYS.clear()  # every run computes each name's keys afresh, as a new process does
        events = import_players(created, io.StringIO(text))
        assert len(events) == args.players

    look_alike = median_time(run, args.runs)
    folded = registration.keys
    registration.keys = nfc_casefold_keys
    try:
        plain = median_time(run, args.runs)
    finally:
        registration.keys = folded
    print(
        f"players import of {args.players} rows, look-alike duplicate check: median "
        f"{look_alike:.3f} s over {args.runs} runs (target < {TARGET_S:.0f} s)"
    )
    print(
        f"same import, NFC + casefold comparison only: median {plain:.3f} s; "
        f"ratio {look_alike / plain:.2f}"
    )
    print(
        json.dumps(
            {
                "players": args.players,
                "runs": args.runs,
                "import_s": round(look_alike, 4),
                "nfc_casefold_import_s": round(plain, 4),
                "ratio": round(look_alike / plain, 3),
                "target_s": TARGET_S,
                "ok": look_alike < TARGET_S,
            }
        )
    )


if __name__ == "__main__":
    main()

"""Benchmark: pairing one Swiss round of 1,024 players (target: under 1 s).

    .venv/bin/python bench/pairing.py [--players 1024] [--runs 7] [--rounds 1,3,5,7,9,10]

Plays a Swiss tournament with seeded random results and, before each measured round,
times `swiss_round` on the standings, history and byes of that moment (the median of
several runs of the same call). Round 1 is the trivial case (one score group, no
history); later rounds have many score groups, floats and repeats to avoid. Also times a
lives-knockout draw and a double-elimination bracket state for the same field. The last
line is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from timing import median_time  # noqa: E402

from tournament.formats import (  # noqa: E402
    Bye,
    Game,
    LivesRules,
    RoundPairing,
    Standing,
    bracket_state,
    double_elimination,
    lives_round,
    swiss_round,
)

TARGET_S = 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--rounds", default="1,3,5,7,9,10", help="rounds to time, comma-separated")
    args = parser.parse_args()
    measured = sorted(int(r) for r in args.rounds.split(","))

    rng = random.Random(2024)
    field = [f"p{i:04d}" for i in range(1, args.players + 1)]
    score = dict.fromkeys(field, 0.0)
    games: list[Game] = []
    byes: list[Bye] = []
    swiss: dict[int, float] = {}
    for r in range(1, max(measured) + 1):
        table = [Standing(p, score[p]) for p in sorted(field, key=lambda p: -score[p])]

        def pair(r: int = r, table: list[Standing] = table) -> RoundPairing:
            return swiss_round(r, table, games, byes, seed=r)

        if r in measured:
            swiss[r] = median_time(pair, args.runs)
            print(f"swiss round {r:2d}, {args.players} players: {swiss[r] * 1000:8.1f} ms")
        rp = pair()
        for p in rp.pairings:
            winner = rng.choice(p.players)
            score[winner] += 1
            games.append(Game(r, p.player_a, p.player_b, p.first_dealer, winner))
        for b in rp.byes:
            score[b] += 1
            byes.append(Bye(r, b))

    lives_s = median_time(lambda: lives_round(1, field, LivesRules(lives=3), seed=1), args.runs)
    print(f"lives draw round 1, {args.players} players: {lives_s * 1000:8.1f} ms")
    bracket = double_elimination(field)
    bracket_s = median_time(lambda: bracket_state(bracket), args.runs)
    print(f"double elimination bracket state, {args.players} players: {bracket_s * 1000:8.1f} ms")

    worst = max(swiss.values())
    verdict = "met" if worst < TARGET_S else "MISSED"
    print(f"target: under {TARGET_S:.1f} s per Swiss round -> {verdict}")
    print(
        json.dumps(
            {
                "bench": "pairing",
                "players": args.players,
                "swiss_1024_round_median_s": round(statistics.median(swiss.values()), 4),
                "swiss_round_median_s_by_round": {str(r): round(t, 4) for r, t in swiss.items()},
                "swiss_worst_round_median_s": round(worst, 4),
                "lives_draw_median_s": round(lives_s, 4),
                "double_elim_state_median_s": round(bracket_s, 4),
                "target_s": TARGET_S,
            }
        )
    )


if __name__ == "__main__":
    main()

"""Benchmark: Swiss pairing time per round, its worst cases, and its quality.

    .venv/bin/python bench/pairing.py [--players 1024,4096] [--runs 3] [--domain]
                                      [--check 300]

- **Per round** (target: every round under 1 s at 1,024 players): a Swiss of each field
  size is played with seeded random results (no-shows, double no-shows, withdrawals, a
  late entry: tests/formats/swiss_sim.py) for ceil(log2 n) + 2 rounds; each round's
  `swiss_round` is timed on the standings, history and byes of that moment (median of
  `--runs` calls). The dealing balances after each round are counted too.
- **Worst cases**: histories made to defeat the local repairs, so that the whole-field
  fallback runs (it took ~35 s at 1,024 players before it was bounded): the bottom
  players have met everybody near them, one player has met everybody (a repeat is forced),
  every ideal game is a repeat, dealing clashes everywhere, the bottom player may only
  play the leader, the two bottom players may only play the leader (a failing search over
  the whole field proves the one repeat necessary).
- `--domain`: `start_round` through the tournament domain (standings, then the pairing)
  per round, first dealer `balanced` (the Swiss default), best of 3 entered as tallies.
- `--check N`: N generated tournaments (6-96 players, 5-9 rounds) with every round checked
  against the exact optimum by brute force (rules 1-5, see swiss_sim.check); prints the
  violations (must be 0), the dealing balances reached and what the dealing limit cost in
  completeness.

Also times a lives-knockout draw and a double-elimination bracket state. The last line is
JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from timing import median_time  # noqa: E402

from tests.formats.swiss_sim import Round, check, play  # noqa: E402
from tournament.formats import (  # noqa: E402
    Game,
    LivesRules,
    RoundPairing,
    Standing,
    bracket_state,
    double_elimination,
    lives_round,
    recommended_rounds,
    swiss_round,
)
from tournament.formats.model import first_deal_balance, meetings  # noqa: E402

TARGET_S = 1.0


def per_round(players: int, runs: int) -> dict[str, Any]:
    """Time every round of a generated Swiss; count the dealing balances after each."""
    rounds = recommended_rounds(players) + 2
    seen: list[Round] = []
    t = play(random.Random(2024), players, rounds, each_round=seen.append)
    times: dict[int, float] = {}
    for rnd in seen:

        def pair(rnd: Round = rnd) -> RoundPairing:
            return swiss_round(
                rnd.number, rnd.table, rnd.games_before, rnd.byes_before, seed=rnd.number
            )

        times[rnd.number] = median_time(pair, runs)
    at_two, worst = [], 0
    for rnd in seen:
        balance, _ = first_deal_balance(g for g in t.games if g.round_no <= rnd.number)
        at_two.append(sum(1 for b in balance.values() if abs(b) >= 2))
        worst = max(worst, *(abs(b) for b in balance.values()))
    print(
        f"swiss {players} players, per round (ms): "
        + " ".join(f"{r}:{s * 1000:.0f}" for r, s in times.items())
    )
    print(f"  players on +-2 after each round: {at_two}; largest balance ever: {worst}")
    return {"round_s": times, "on_two": at_two, "largest_balance": worst}


def worst_cases(players: int, runs: int) -> dict[str, float]:
    """Histories that force the whole-field fallback (see the module docstring)."""
    field = [f"p{i:05d}" for i in range(players)]
    groups = [Standing(p, 5 - i * 6 // players) for i, p in enumerate(field)]
    flat = [Standing(p, 0) for p in field]
    half = players // 2
    clashes = [
        Game(1, p, f"{p}-x{k}", p if i % 2 else f"{p}-x{k}")
        for i, p in enumerate(field)
        for k in range(2)
    ]
    cases: dict[str, tuple[int, list[Standing], list[Game]]] = {
        "bottom three met the bottom 300": (
            11,
            groups,
            [Game(1, x, y) for x in field[-3:] for y in field[-300:] if x != y],
        ),
        "one player met everybody": (11, groups, [Game(1, field[0], y) for y in field[1:]]),
        "every ideal game a repeat": (
            2,
            flat,
            [Game(1, field[i], field[i + half], field[i]) for i in range(half)],
        ),
        "half on +2, half on -2, interleaved": (3, flat, clashes),
        "bottom player may only play the leader": (
            11,
            groups,
            [Game(1, field[-1], y) for y in field[1:-1]],
        ),
        "bottom two may only play the leader": (
            11,
            groups,
            [Game(1, x, y) for x in field[-2:] for y in field[1:] if x != y],
        ),
    }
    out = {}
    for name, (number, table, history) in cases.items():

        def pair(
            number: int = number, table: list[Standing] = table, h: list[Game] = history
        ) -> RoundPairing:
            return swiss_round(number, table, h)

        seconds = median_time(pair, runs)
        met = meetings(history)
        repeats = sum(frozenset(p.players) in met for p in pair().pairings)
        print(f"  worst case at {players}: {name}: {seconds * 1000:.0f} ms, {repeats} repeat(s)")
        out[name] = seconds
    return out


def domain_rounds(players: int) -> list[float]:
    """`start_round` per round through the domain, first dealer balanced."""
    from tournament.domain import commands as c
    from tournament.domain.testing import Builder, random_match

    rounds = recommended_rounds(players) + 2
    config = {"name": "Bench", "format": "swiss", "best_of": 3, "seed": 1}
    b = Builder(c.create_tournament("bench", {**config, "options": {"rounds": rounds}}))
    for i in range(players):  # ratings stay in 0..4000 for any field size
        b.add(c.register_player(b.state, f"Player {i + 1}", rating=3999 - i * 4000 // players))
    rng = random.Random(1)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        b.add(c.start_round(b.state))
        times.append(time.perf_counter() - start)
        for mid in b.state.rounds[-1].matches:
            random_match(b, b.state.matches[mid], rng)
    print(
        f"start_round through the domain, {players} players (ms): "
        + " ".join(f"{r}:{s * 1000:.0f}" for r, s in enumerate(times, 1))
    )
    return times


def quality(tournaments: int) -> dict[str, Any]:
    """Generated tournaments, every round checked against the exact optimum."""
    tally: Counter[str] = Counter()
    largest: Counter[int] = Counter()

    def each(rnd: Round) -> None:
        v = check(rnd)
        tally["rounds"] += 1
        tally["avoidable repeats"] += v.repeats > v.best_repeats
        tally["avoidable dealing clashes"] += (v.repeats, v.clashes) > (
            v.best_repeats,
            v.best_clashes,
        )
        tally["bye not as documented"] += not v.bye_ok
        tally["completeness below the optimum"] += v.d != v.best_d
        # What the dealing limit (rule 2) costs the score groups: D against the optimum
        # of a pairing that ignores dealing.
        tally["completeness given up for the dealing limit"] += v.d > check(rnd, False).best_d

    rng = random.Random(7)
    start = time.perf_counter()
    for _ in range(tournaments):
        seed = rng.randrange(10**9)
        r = random.Random(seed)
        t = play(r, r.randint(6, 96), r.randint(5, 9), each_round=each)
        for rnd in t.rounds:
            balance, _ = first_deal_balance(g for g in t.games if g.round_no <= rnd.number)
            largest[max((abs(b) for b in balance.values()), default=0)] += 1
    rounds = tally["rounds"]
    within_one = largest[0] + largest[1]
    elapsed = time.perf_counter() - start
    print(f"checked {rounds} rounds of {tournaments} tournaments in {elapsed:.0f} s")
    for key in (
        "avoidable repeats",
        "avoidable dealing clashes",
        "bye not as documented",
        "completeness below the optimum",
        "completeness given up for the dealing limit",
    ):
        print(f"  {key}: {tally[key]}")
    print(
        "  largest dealing balance after a round: "
        + ", ".join(f"{b}: {n} rounds" for b, n in sorted(largest.items()))
        + f" (within +-1: {100 * within_one / rounds:.1f}%)"
    )
    return {
        "rounds": rounds,
        **{k.replace(" ", "_"): v for k, v in tally.items() if k != "rounds"},
        "largest_balance_rounds": {str(b): n for b, n in sorted(largest.items())},
        "within_one_share": round(within_one / rounds, 4),
    }


def timed(label: str, fn: Callable[[], object], runs: int) -> float:
    seconds = median_time(fn, runs)
    print(f"{label}: {seconds * 1000:8.1f} ms")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="1024,4096", help="field sizes, comma-separated")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--domain", action="store_true", help="also time start_round")
    parser.add_argument("--check", type=int, default=0, metavar="N", help="quality run")
    args = parser.parse_args()
    sizes = [int(n) for n in args.players.split(",")]

    result: dict[str, Any] = {"bench": "pairing", "target_s": TARGET_S}
    for n in sizes:
        rounds = per_round(n, args.runs)
        worst = worst_cases(n, args.runs)
        result[f"swiss_{n}"] = {
            "round_median_s": {str(r): round(s, 4) for r, s in rounds["round_s"].items()},
            "worst_round_s": round(max(rounds["round_s"].values()), 4),
            "players_on_two_per_round": rounds["on_two"],
            "largest_balance": rounds["largest_balance"],
            "worst_case_s": {k: round(s, 4) for k, s in worst.items()},
        }
        if args.domain:
            times = domain_rounds(n)
            result[f"swiss_{n}"]["start_round_s"] = [round(s, 4) for s in times]
    field = [f"p{i:04d}" for i in range(1, sizes[0] + 1)]
    result["lives_draw_median_s"] = round(
        timed(
            f"lives draw round 1, {sizes[0]} players",
            lambda: lives_round(1, field, LivesRules(lives=3), seed=1),
            args.runs,
        ),
        4,
    )
    bracket = double_elimination(field)
    result["double_elim_state_median_s"] = round(
        timed(
            f"double elimination bracket state, {sizes[0]} players",
            lambda: bracket_state(bracket),
            args.runs,
        ),
        4,
    )
    if args.check:
        result["check"] = quality(args.check)

    key = f"swiss_{1024 if 1024 in sizes else sizes[0]}"
    worst_round = result[key]["worst_round_s"]
    worst_case = max(result[key]["worst_case_s"].values())
    result["ok"] = worst_round < TARGET_S and worst_case < TARGET_S
    verdict = "met" if result["ok"] else "MISSED"
    print(
        f"target: every Swiss round and every worst case under {TARGET_S:.1f} s at "
        f"{key.split('_')[1]} players -> {verdict} (slowest round {worst_round:.3f} s, "
        f"slowest worst case {worst_case:.3f} s); median round "
        f"{statistics.median(result[key]['round_median_s'].values()):.3f} s"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()

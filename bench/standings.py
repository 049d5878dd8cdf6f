"""Benchmark: standings of big Swiss tournaments rebuilt, updated by one result, paired.

    .venv/bin/python bench/standings.py [--players 64,256,1024,4096] [--rounds 9] [--runs 3]
                                        [--store]

For each field size, builds a Swiss of that many players over ``--rounds`` rounds (default
9), every match best of 3 entered hand by hand as paper results through the domain's
commands (about 60 hand events per player), then measures, each the median of ``--runs``:

- full rebuild: fold every event of the tournament and rank it (what a new process or
  ``--as-of`` does; target < 1 s at 1,024 players);
- incremental update after one result: apply one more ``result.hand_recorded`` (the
  deciding hand of a match of the last round) to the folded state and compute the
  standings again (what a long-running service does; target < 20 ms at 4,096 players);
- ``start_round`` of every round, from the state folded before it and ranked afresh (what
  ``tournament round start`` does): the standings, then the format's pairing. The worst
  round is reported (target < 1 s at 1,024 players; the pairing is the Swiss engine's).

With ``--store`` the events are also appended to a fresh SQLite event store and the
rebuild is measured from the store (read + fold + standings). The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from timing import median_time  # noqa: E402

from tournament.domain import commands as c  # noqa: E402
from tournament.domain.model.state import Tournament, fold  # noqa: E402
from tournament.domain.standings import standings  # noqa: E402
from tournament.domain.testing import Builder, random_hands, registered  # noqa: E402

#: (figure, field size it is judged at, at most this).
TARGETS = [
    ("full_rebuild_s", 1024, 1.0),
    ("incremental_ms", 4096, 20.0),
    ("worst_round_s", 1024, 1.0),
]


def build(players: int, rounds: int, seed: int) -> Builder:
    """The tournament's events, every round paired and played."""
    b = Builder(
        registered(
            players, seed=seed, best_of=3, first_dealer="seeded_draw", options={"rounds": rounds}
        )
    )
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        b.add(c.start_round(b.state))
        for mid in b.state.rounds[-1].matches:
            random_hands(b, b.state.matches[mid], rng)
        print(f"  round {number}: {len(b.events)} events so far", file=sys.stderr)
    return b


def afresh(t: Tournament) -> Tournament:
    """``t`` as a new process has it: ranked from scratch at its first standings."""
    t.ranking = None
    t.touched = None
    return t


def pairing_times(events: list[Any], rounds: int, runs: int) -> list[float]:
    """Median seconds of ``start_round`` per round, from the state folded before it."""
    starts = [i for i, e in enumerate(events) if e.type == "round.started"]
    times = []
    for number, index in enumerate(starts[:rounds], 1):
        prior = fold(events[:index])
        times.append(median_time(lambda prior=prior: c.start_round(afresh(prior)), runs))
        print(f"  round {number}: paired in {times[-1]:.3f} s", file=sys.stderr)
    return times


def incremental(b: Builder, runs: int) -> float:
    """Median seconds of one more deciding hand applied and the standings computed."""
    events = b.events
    last = set(b.state.rounds[-1].matches)
    deciding = {}
    for index, e in enumerate(events):
        if e.type == "result.hand_recorded" and e.payload["match_id"] in last:
            deciding[e.payload["match_id"]] = index
    held = sorted(deciding.values())[-max(runs, 5) :]
    keep = [e for i, e in enumerate(events) if i not in set(held)]
    state = fold(keep)
    standings(state)
    times = []
    for i in held:
        start = time.perf_counter()
        state.apply(events[i])
        standings(state)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def from_store(events: list[Any], runs: int) -> float:
    from tournament.app.service import TournamentService
    from tournament.eventstore import SQLEventStore, migrate

    url = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    migrate.upgrade(url)
    store = SQLEventStore(url)
    version = 0
    for i in range(0, len(events), 5000):
        batch = events[i : i + 5000]
        store.append("tournament-test", batch, expected_version=version)
        version += len(batch)
    return median_time(lambda: standings(TournamentService(store).state("test")), runs)


def measure(players: int, args: argparse.Namespace) -> dict[str, Any]:
    print(f"{players} players:", file=sys.stderr)
    start = time.perf_counter()
    b = build(players, args.rounds, args.seed)
    events = b.events
    hands = sum(1 for e in events if e.type == "result.hand_recorded")
    built = time.perf_counter() - start
    full = median_time(lambda: standings(fold(events)), args.runs)
    step = incremental(b, args.runs)
    rounds = pairing_times(events, args.rounds, args.runs)
    worst = max(range(len(rounds)), key=rounds.__getitem__)
    result: dict[str, Any] = {
        "players": players,
        "events": len(events),
        "hand_events": hands,
        "full_rebuild_s": round(full, 4),
        "incremental_ms": round(step * 1000, 3),
        "worst_round_s": round(rounds[worst], 4),
        "worst_round": worst + 1,
        "rounds_s": [round(r, 4) for r in rounds],
    }
    print(f"{players} players: {len(events):,} events ({hands:,} hands) built in {built:.1f} s")
    print(f"  full rebuild (fold + standings)         {full:8.3f} s")
    print(f"  one more result (apply + standings)     {step * 1000:8.2f} ms")
    print(f"  start_round, worst of {len(rounds)} (round {worst + 1})     {rounds[worst]:8.3f} s")
    print(f"  start_round per round: {', '.join(f'{r:.3f}' for r in rounds)} s")
    if args.store:
        stored = from_store(events, args.runs)
        print(f"  full rebuild from SQLite (read + fold + standings) {stored:.3f} s")
        result["store_rebuild_s"] = round(stored, 4)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", default="64,256,1024,4096", help="field sizes, comma list")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--store", action="store_true", help="also measure the rebuild from SQLite")
    args = parser.parse_args()

    sizes = [measure(int(n), args) for n in args.players.split(",")]
    by_size = {s["players"]: s for s in sizes}
    checked = {
        f"{figure}@{players}": by_size[players][figure] <= limit
        for figure, players, limit in TARGETS
        if players in by_size
    }
    result = {
        "bench": "standings",
        "rounds": args.rounds,
        "best_of": 3,
        "runs": args.runs,
        "sizes": sizes,
        "targets": {f"{figure}@{players}": limit for figure, players, limit in TARGETS},
        "met": checked,
        "ok": all(checked.values()),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()

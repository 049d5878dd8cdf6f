"""Benchmark: standings of a big Swiss rebuilt from events, updated by one result, paired.

    .venv/bin/python bench/standings.py [--players 1024] [--rounds 9] [--runs 5] [--store]

Builds a tournament of ``--players`` players (default 1,024) over ``--rounds`` Swiss rounds
(default 9), every match best of 3 entered hand by hand as paper results through the
domain's commands (~55,000 hand events), then measures, each the median of ``--runs``:

- full rebuild: fold every event of the tournament and compute the standings
  (target < 2 s);
- incremental update after one result: apply one more ``result.hand_recorded`` (the
  deciding hand of a match) to the folded state and compute the standings again
  (target < 20 ms);
- Swiss pairing of one round: ``start_round`` for round ``--rounds`` on the folded state
  of the rounds before (standings, then the formats' pairing; target < 1 s).

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
from tournament.domain.standings import standings  # noqa: E402
from tournament.domain.state import fold  # noqa: E402
from tournament.domain.testing import Builder, random_hands, registered  # noqa: E402

TARGETS = {"full_rebuild_s": 2.0, "incremental_ms": 20.0, "swiss_pairing_s": 1.0}


def build(players: int, rounds: int, seed: int) -> tuple[Builder, list[float], list[Any]]:
    """The tournament's events; pairing times per round; the held-back deciding hands."""
    b = Builder(
        registered(
            players, seed=seed, best_of=3, first_dealer="seeded_draw", options={"rounds": rounds}
        )
    )
    rng = random.Random(seed)
    pairing: list[float] = []
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        b.add(c.start_round(b.state))
        pairing.append(time.perf_counter() - start)
        for mid in b.state.rounds[-1].matches:
            random_hands(b, b.state.matches[mid], rng)
        print(
            f"round {number}: paired in {pairing[-1]:.3f} s, {len(b.events)} events so far",
            file=sys.stderr,
        )
    return b, pairing, []


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--store", action="store_true", help="also measure the rebuild from SQLite")
    args = parser.parse_args()

    start = time.perf_counter()
    b, pairing, _ = build(args.players, args.rounds, args.seed)
    events = b.events
    hands = sum(1 for e in events if e.type == "result.hand_recorded")
    print(f"built {len(events)} events ({hands} hands) in {time.perf_counter() - start:.1f} s")

    full = median_time(lambda: standings(fold(events)), args.runs)
    print(f"full rebuild (fold {len(events)} events + standings): {full:.3f} s")

    # Incremental: hold back the deciding hand of some matches of the last round, then
    # apply them one at a time and recompute the standings after each.
    last = {m for m in b.state.rounds[-1].matches}
    deciding = {}
    for index, e in enumerate(events):
        if e.type == "result.hand_recorded" and e.payload["match_id"] in last:
            deciding[e.payload["match_id"]] = index
    held = sorted(deciding.values())[-max(args.runs, 5) :]
    keep = [e for i, e in enumerate(events) if i not in set(held)]
    state = fold(keep)
    standings(state)
    times = []
    for i in held:
        t0 = time.perf_counter()
        state.apply(events[i])
        standings(state)
        times.append(time.perf_counter() - t0)
    incremental = statistics.median(times)
    print(f"incremental update after one result (apply + standings): {incremental * 1000:.2f} ms")

    # Pairing of the last round again, from the state before it (median of runs).
    before_last = next(
        i
        for i, e in enumerate(events)
        if e.type == "round.started" and e.payload["round"] == args.rounds
    )
    prior = fold(events[:before_last])
    swiss = median_time(lambda: c.start_round(prior), args.runs)
    print(
        f"Swiss pairing of round {args.rounds} (standings + pairing): {swiss:.3f} s; "
        "per round while building: "
        f"max {max(pairing):.3f} s"
    )

    result: dict[str, Any] = {
        "bench": "standings",
        "players": args.players,
        "rounds": args.rounds,
        "best_of": 3,
        "events": len(events),
        "hand_events": hands,
        "full_rebuild_s": round(full, 4),
        "incremental_ms": round(incremental * 1000, 3),
        "swiss_pairing_s": round(swiss, 4),
    }
    if args.store:
        from tournament.domain.service import TournamentService
        from tournament.eventstore import SQLEventStore, migrate

        url = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
        migrate.upgrade(url)
        store = SQLEventStore(url)
        version = 0
        for i in range(0, len(events), 5000):
            batch = events[i : i + 5000]
            store.append("tournament-test", batch, expected_version=version)
            version += len(batch)
        stored = median_time(lambda: standings(TournamentService(store).state("test")), args.runs)
        print(f"full rebuild from SQLite (read + fold + standings): {stored:.3f} s")
        result["store_rebuild_s"] = round(stored, 4)
    result["targets"] = TARGETS
    result["ok"] = all(result[k] <= v for k, v in TARGETS.items())
    print(json.dumps(result))


if __name__ == "__main__":
    main()

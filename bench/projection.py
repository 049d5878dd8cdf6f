"""Benchmark: a projection run's fixed cost -- one hand entered in a big tournament, then
the run that brings its projection up to date (trial 9, P4: 4.65 s at 1,024 players).

    .venv/bin/python bench/projection.py             # 1,024 players, SQLite and PostgreSQL
    .venv/bin/python bench/projection.py --quick     # 64 players: the smoke test's run

A Swiss of ``--players`` (best of 3, two rounds played, the third drawn) is stored and
projected once. Then, ``--runs`` times, in turns: one paper hand of an open match is
appended and projected (1) the way a worker does it, writing only what changed, and (2)
as a run that rewrites the tournament's rows whole (the same projector with its memory
of the rows it wrote and encoded dropped: what every run did before), so that both see the same
machine. Each figure is the median wall and process CPU of the run (the fold of the new
event, the rows worked out, the transaction); the ratio is the median of the per-turn
ratios; the incremental runs' CPU also apart, by whether their hand left its match open
(the run re-encodes that match's line only) or decided it (standings again). After the
last run the stored rows are compared with a rebuild from scratch.

Target: an incremental run at 1,024 players well under 100 ms (median, wall). SQLite in
a temporary folder; PostgreSQL at ``SCHNAPSEN_TEST_POSTGRES_URL`` (or ``--postgres-url``)
in a scratch schema dropped at the end (skipped with one line if unreachable). The last
line is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import api_stage as stage  # noqa: E402
from live_services import sqlite_store  # noqa: E402
from live_throughput import Staged, one_hand  # noqa: E402

from tournament.app.service import TournamentService  # noqa: E402
from tournament.eventstore import SQLEventStore, migrate  # noqa: E402
from tournament.projections.runner import Projector, stored  # noqa: E402

TID = "bench-projection"
TARGET_MS = 100.0


def measure(run: Callable[[], object]) -> tuple[float, float]:
    """(wall ms, process CPU ms) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return 1000 * (time.perf_counter() - wall), 1000 * (time.process_time() - cpu)


def case(url: str, players: int, runs: int) -> dict[str, Any]:
    """The figures on the store at ``url`` (migrated, empty)."""
    store = SQLEventStore(url)
    try:
        service = TournamentService(store)
        stage.tournament(service, TID, players, played=2, seed=1)
        projector = Projector(store, TournamentService(store))
        first = measure(lambda: projector.project(TID))
        staged = Staged(service, TID, random.Random(0))
        figures: dict[str, list[tuple[float, float]]] = {"incremental": [], "whole": []}
        split: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
        for _ in range(runs):
            for way in ("incremental", "whole"):
                b = staged.builder
                mid = next(m for m in b.state.rounds[-1].matches if not b.state.matches[m].decided)
                staged._store(b.add(one_hand(b, b.state.matches[mid], staged.rng)))
                decided = b.state.matches[mid].decided
                if way == "whole":  # as every run was: every row encoded and rewritten
                    for memory in ("_written", "_memos"):  # (a checkout without them: same)
                        getattr(projector, memory, {}).clear()
                figures[way].append(measure(lambda: projector.project(TID)))
                if way == "incremental":  # a hand that decides its match changes standings
                    split[decided].append(figures[way][-1])
        with store.engine.connect() as conn:
            equal = stored(conn, TID) == projector.rebuild(TID).comparable()  # type: ignore[union-attr]
    finally:
        store.close()
    out: dict[str, Any] = {"first_run_ms": round(first[0], 1)}
    for way, found in figures.items():
        out[f"{way}_wall_ms"] = round(statistics.median(w for w, _ in found), 1)
        out[f"{way}_cpu_ms"] = round(statistics.median(c for _, c in found), 1)
    out["incremental_vs_whole"] = round(
        statistics.median(
            i[0] / w[0] for i, w in zip(figures["incremental"], figures["whole"], strict=True)
        ),
        3,
    )
    for decided, found in split.items():  # the incremental runs, by what their hand did
        name = "deciding" if decided else "open"
        out[f"{name}_runs"] = len(found)
        out[f"{name}_cpu_ms"] = round(statistics.median(c for _, c in found), 1) if found else None
    out["equals_rebuild"] = equal
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="64 players, 3 runs")
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--postgres-url", default=stage.PG_URL)
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.players, args.runs = 64, 3
    before = stage.uptime()
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        print(f"sqlite, {args.players} players ...", file=sys.stderr, flush=True)
        results["sqlite"] = case(sqlite_store(folder), args.players, args.runs)
    if not args.sqlite_only:
        try:
            with stage.scratch_schema(args.postgres_url) as url:
                migrate.upgrade(url)
                print(f"postgresql, {args.players} players ...", file=sys.stderr, flush=True)
                results["postgresql"] = case(url, args.players, args.runs)
        except Exception as error:  # unreachable: said in one line, the rest stands
            results["postgresql"] = {"skipped": f"{type(error).__name__}: {error}"[:300]}
    print(f"load before: {before}\nload after:  {stage.uptime()}")
    print(f"one hand, then its projection run ({args.players} players, median of {args.runs}):")
    targets = {}
    for name, r in results.items():
        if "skipped" in r:
            print(f"  {name:10s} skipped: {r['skipped']}")
            continue
        print(f"  {name:10s} incremental {r['incremental_wall_ms']:8.1f} ms "
              f"(CPU {r['incremental_cpu_ms']:.1f})   whole rewrite {r['whole_wall_ms']:8.1f} ms "
              f"(CPU {r['whole_cpu_ms']:.1f})   ratio {r['incremental_vs_whole']}   "
              f"equals a rebuild: {r['equals_rebuild']}")  # fmt: skip
        print(f"  {name:10s} incremental CPU: hand leaving its match open {r['open_cpu_ms']} ms "
              f"({r['open_runs']} runs), hand deciding it {r['deciding_cpu_ms']} ms "
              f"({r['deciding_runs']} runs)")  # fmt: skip
        met = r["incremental_wall_ms"] < TARGET_MS and r["equals_rebuild"]
        targets[f"{name}_incremental_ms"] = {
            "value": r["incremental_wall_ms"], "target": f"< {TARGET_MS:g}", "pass": met
        }  # fmt: skip
        print(f"  {name:10s} target < {TARGET_MS:g} ms: {'met' if met else 'MISSED'}")
    summary = {"bench": "projection", "players": args.players, "runs": args.runs,
               "load": {"before": before}, "results": results, "targets": targets}  # fmt: skip
    print(json.dumps(summary))


if __name__ == "__main__":
    main()

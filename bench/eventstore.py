"""Benchmark of the event store against its baselines, PostgreSQL and SQLite, in one run.

    .venv/bin/python bench/eventstore.py                  # everything (about 3-4 minutes)
    .venv/bin/python bench/eventstore.py --quick          # a smoke run (under a minute)
    .venv/bin/python bench/eventstore.py --sqlite-only    # or --postgres-only; --seconds N

Every figure is the median of ``--repeat`` repetitions (3) of ``--seconds`` (2) each; the
cases of a part take turns, so that a noisy neighbour slows them alike. The store is used
through its public API only (``SQLEventStore(url).append/read_stream/read_all``), with the
events the service writes (``hand.action``: registered, checked), an expected version and
an idempotency key on every append. The tables, then the targets with pass/fail; the last
line is JSON with every figure, ratio and target.

PostgreSQL (``SCHNAPSEN_TEST_POSTGRES_URL``; skipped with one line if unreachable), in
scratch schemas made and dropped by the run:

* Single appends, one event each, by 1, 4 and 16 writer processes, each with its own
  connection and its own 4 streams: appends/s of all together, p50/p99 ms per append
  (bench/eventstore_writers.py). Baselines, same processes and clock:
  - raw INSERT: psycopg 3 itself, autocommit, one INSERT per event (one round trip), of the
    row the store writes into es_events (same bytes) into a table of es_events' columns,
    keys and indexes, positions from an identity. The store also checks the version and
    writes an idempotency row; the baseline is the floor: a plain INSERT's cost.
  - eventsourcing recorder: the ``eventsourcing`` library's PostgreSQL application
    recorder, ``insert_events`` of one event per call, in its default mode (pipelined,
    table lock) and with ``enable_db_functions`` (one function call), each its own schema.
* Batched appends, 100 events each, one writer: events/s beside one multi-row INSERT of
  the same 100 rows through psycopg (one statement, one round trip, one transaction) and a
  ``COPY`` of them (the fastest way in), both into the raw table.
* Reads: a 1,000-event stream read whole, and the global log's first 10,000 events in
  pages of 1,000 (events/s), beside psycopg SELECTs of the same rows of the store's own
  table with payload and metadata decoded by ``json.loads``: same bytes, same decoding.

SQLite (a temporary file; the store opened by its URL, through ``sqlite3``): one writer.
Single appends (for information) and 100-event batches beside raw ``sqlite3`` inserts
(``executemany`` in one ``BEGIN IMMEDIATE`` transaction) of the same rows into a table of
the same shape in the same file, on a connection set up by the store's own function (same
journal mode, synchronous, busy timeout); reads as on PostgreSQL, ``json.loads`` both sides;
and, for information, hands/s loaded and folded through the engine (``load_hand``).

Targets: PostgreSQL at 16 writers, the store >= 0.6x the raw INSERT's appends/s, >= 5x
the eventsourcing recorder in both modes, p99 < 25 ms (1 and 4 writers for information);
SQLite batched appends and both reads >= 0.8x raw ``sqlite3``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import eventstore_pg as pg
from eventstore_sqlite import run_sqlite

PG_URL = os.environ.get(
    "SCHNAPSEN_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
WRITERS = [1, 4, 16]
TARGET_WRITERS = 16
Json = dict[str, Any]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="0.25 s per measurement")
    parser.add_argument("--seconds", type=float, help="seconds per repetition (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (default 3)")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--sqlite-only", action="store_true")
    only.add_argument("--postgres-only", action="store_true")
    args = parser.parse_args(argv)
    if args.seconds is None:
        args.seconds = 0.25 if args.quick else 2.0
    if args.seconds <= 0 or args.repeat < 1:
        parser.error("--seconds must be > 0 and --repeat >= 1")
    args.log_events = 5000 if args.quick else 10_000
    return args


def run_postgres(args: argparse.Namespace) -> Json:
    why = pg.unreachable(PG_URL)
    if why is not None:
        print(f"PostgreSQL not reachable at {pg.shown(PG_URL)} ({why}): its part is skipped")
        return {"skipped": f"unreachable: {why}"}
    print("postgresql ...", file=sys.stderr, flush=True)
    with pg.scratch(PG_URL) as where:
        single = pg.concurrent(where, WRITERS, args.seconds, args.repeat)
        batched = pg.batched(where, args.seconds, args.repeat)
        reads = pg.reads(where, args.seconds, args.repeat, args.log_events)
    return {
        "single": {
            kind: {str(n): dataclasses.asdict(f) for n, f in by_count.items()}
            for kind, by_count in single.items()
        },
        "batched": batched,
        "reads": reads,
    }


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or not b else round(a / b, 3)


def round_ratio(store: Json, other: Json) -> float | None:
    """The median of the per-round ratios (each round measured both side by side), or
    the ratio of the medians when the rounds are not known."""
    mine, theirs = store.get("rounds") or [], other.get("rounds") or []
    if mine and len(mine) == len(theirs) and all(theirs):
        return round(statistics.median(a / b for a, b in zip(mine, theirs, strict=True)), 3)
    return ratio(store.get("appends_per_s"), other.get("appends_per_s"))


def ratios_of(results: Json) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    p = results.get("postgresql", {})
    if "single" in p:
        store = p["single"]["store"]
        for base in ("raw_insert", "es_default", "es_functions"):
            for n in map(str, WRITERS):
                other = p["single"].get(base, {}).get(n, {})
                out[f"pg_single_{n}w_store_vs_{base}"] = round_ratio(store[n], other)
        b, r = p["batched"], p["reads"]
        out["pg_batch_store_vs_raw_multirow_insert"] = ratio(
            b["store_batch_events_per_s"], b["raw_multirow_insert_events_per_s"]
        )
        out["pg_batch_store_vs_raw_copy"] = ratio(
            b["store_batch_events_per_s"], b["raw_copy_events_per_s"]
        )
        for what in ("stream", "log"):
            out[f"pg_{what}_read_store_vs_raw"] = ratio(
                r[f"store_{what}_read_events_per_s"], r[f"raw_{what}_read_events_per_s"]
            )
    s = results.get("sqlite", {})
    if "store_batch_events_per_s" in s:
        out["sqlite_single_store_vs_raw"] = ratio(
            s["store_single_appends_per_s"], s["raw_single_inserts_per_s"]
        )
        out["sqlite_batch_store_vs_raw"] = ratio(
            s["store_batch_events_per_s"], s["raw_batch_events_per_s"]
        )
        for what in ("stream", "log"):
            out[f"sqlite_{what}_read_store_vs_raw"] = ratio(
                s[f"store_{what}_read_events_per_s"], s[f"raw_{what}_read_events_per_s"]
            )
    return out


def targets_of(results: Json, ratios: dict[str, float | None]) -> dict[str, Json]:
    """Each target measured in this run: its value, the bound and whether it is met
    (None: a baseline could not be measured)."""
    wanted: list[tuple[str, float | None, str, float]] = []
    n = TARGET_WRITERS
    p = results.get("postgresql", {})
    if "single" in p:
        wanted += [
            (f"pg_{n}w_store_vs_raw_insert", ratios[f"pg_single_{n}w_store_vs_raw_insert"],
             ">=", 0.6),
            (f"pg_{n}w_store_vs_es_default", ratios.get(f"pg_single_{n}w_store_vs_es_default"),
             ">=", 5),
            (f"pg_{n}w_store_vs_es_functions",
             ratios.get(f"pg_single_{n}w_store_vs_es_functions"), ">=", 5),
            (f"pg_{n}w_store_p99_ms", p["single"]["store"][str(n)]["p99_ms"], "<", 25),
        ]  # fmt: skip
    if "sqlite" in results and "skipped" not in results["sqlite"]:
        wanted += [
            (name, ratios[name], ">=", 0.8)
            for name in (
                "sqlite_batch_store_vs_raw",
                "sqlite_stream_read_store_vs_raw",
                "sqlite_log_read_store_vs_raw",
            )
        ]
    out = {}
    for name, value, op, bound in wanted:
        met = None if value is None else (value >= bound if op == ">=" else value < bound)
        out[name] = {"value": value, "target": f"{op} {bound}", "pass": met}
    return out


def rounded(value: Any) -> Any:
    """``value`` with its floats rounded for reading: rates to 0.1, ms and ratios to 0.001."""
    if isinstance(value, float):
        return round(value, 1 if abs(value) >= 100 else 3)
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    return value


def _num(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def print_tables(results: Json, args: argparse.Namespace) -> None:
    how = f"medians of {args.repeat} x {args.seconds:g} s"
    p = results.get("postgresql", {})
    if "single" in p:
        print(f"\n== PostgreSQL: single appends, one event each ({how})")
        print(f"  {'writer':<14}{'processes':>10}{'appends/s':>12}{'p50 ms':>9}{'p99 ms':>9}")
        for kind, by_count in p["single"].items():
            for n, f in by_count.items():
                print(f"  {kind:<14}{n:>10}{_num(f['appends_per_s']):>12}"
                      f"{_num(f['p50_ms'], 1):>9}{_num(f['p99_ms'], 1):>9}")  # fmt: skip
        print(f"\n== PostgreSQL: batches of 100 events, one writer ({how})")
        _rows(p["batched"], "events/s")
        print(f"\n== PostgreSQL: reads, json.loads on both sides ({how})")
        _rows(p["reads"], "events/s")
    s = results.get("sqlite", {})
    if "store_batch_events_per_s" in s:
        print(f"\n== SQLite: journal_mode={s['journal_mode']}, synchronous={s['synchronous']}"
              f" on both sides ({how})")  # fmt: skip
        _rows({k: v for k, v in s.items() if isinstance(v, float)}, "per s")


def _rows(figures: Json, unit: str) -> None:
    for name, value in figures.items():
        print(f"  {name.removesuffix('_per_s'):<36}{_num(value):>12} {unit}")


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    results: Json = {}
    if args.postgres_only:
        results["sqlite"] = {"skipped": "--postgres-only"}
    else:
        print("sqlite ...", file=sys.stderr, flush=True)
        results["sqlite"] = run_sqlite(args.seconds, args.repeat, args.log_events)
    if args.sqlite_only:
        results["postgresql"] = {"skipped": "--sqlite-only"}
    else:
        results["postgresql"] = run_postgres(args)
    ratios = ratios_of(results)
    targets = targets_of(results, ratios)
    print_tables(results, args)
    print("\n== Ratios (store / baseline)")
    if not ratios:
        print("  (none measured)")
    for name, value in ratios.items():
        print(f"  {name:<44}{_num(value, 2):>8}")
    print("\n== Targets")
    if not targets:
        print("  (none measured)")
    for name, t in targets.items():
        verdict = {True: "PASS", False: "FAIL", None: "n/a "}[t["pass"]]
        print(f"  {verdict}  {name:<36}{_num(t['value'], 2):>10}  (target {t['target']})")
    summary = {"bench": "eventstore", "seconds": args.seconds, "repeat": args.repeat,
               "results": results, "ratios": ratios, "targets": targets,
               "all_targets_pass": all(t["pass"] is True for t in targets.values())}  # fmt: skip
    print(json.dumps(rounded(summary)))


if __name__ == "__main__":
    main()

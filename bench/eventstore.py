"""Benchmark of the event store on SQLite and PostgreSQL.

    .venv/bin/python bench/eventstore.py            # both databases (PostgreSQL if reachable)
    .venv/bin/python bench/eventstore.py --quick    # fewer repetitions

For each database, in one run and on the same database:

* single appends/s: one event per append, with every guarantee on (expected version,
  idempotency key, hash chain, gap-safe lock), against a raw SQLAlchemy insert of the
  same row in its own transaction and the ``eventsourcing`` library's recorder;
* batched appends: 100 events per append (events/s), against a raw SQLAlchemy
  ``executemany`` of the same rows and the recorder's 100-event ``insert_events``;
* reads (events/s): a 1,000-event stream, and the global log in pages of 1,000, each
  against a raw SQLAlchemy select of the same rows;
* folds: hands/s to load and fold a hand stream (is a snapshot cache needed?).

The store is given the engine, as before; on SQLite the single appends, batched appends
and stream reads are also timed on a store opened by the URL (``*_by_url``), through the
``sqlite3`` module without SQLAlchemy, as every organiser command opens it.

Medians of several repetitions. Targets: batched >= 0.8x raw, single >= 2x the recorder
on PostgreSQL, reads >= 100,000 events/s. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.randomplay import random_records
from tournament.db import make_engine
from tournament.domain.hands import action_event, dealt_event, load_hand
from tournament.eventstore import NewEvent, SQLEventStore, migrate
from tournament.eventstore.schema import events as events_table

PG_URL = os.environ.get(
    "SCHNAPSEN_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
CARDS = ["AH", "TH", "KH", "QH", "JH", "AS", "TS", "KS", "QS", "JS"]


def new_event(i: int) -> NewEvent:
    payload = {"seat": i % 2, "action": "play", "card": CARDS[i % 10]}
    return NewEvent("hand.action", payload, {"actor": "bench", "source": "live"})


def raw_table(metadata: sa.MetaData) -> sa.Table:
    """es_events' columns, keys and indexes (tournament.eventstore.schema) as ``bench_raw``:
    the same table without the store around it."""
    table = events_table.to_metadata(metadata, name="bench_raw")
    for constraint in table.constraints:  # names are unique per schema on PostgreSQL
        if isinstance(constraint.name, str):
            constraint.name = constraint.name.replace("es_events", "bench_raw")
    return table


class Raw:
    """Plain SQLAlchemy Core inserts of the rows the store wrote."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self.table = raw_table(sa.MetaData())
        self.table.create(engine)
        self.next = 0
        self.as_text = engine.dialect.name == "sqlite"  # String(36) there, like es_events

    def rows(self, count: int) -> list[dict[str, Any]]:
        stream = f"raw-{uuid.uuid4().hex[:8]}"
        out = []
        for i in range(count):
            self.next += 1
            out.append({
                "position": self.next,
                "event_id": str(uuid.uuid4()) if self.as_text else uuid.uuid4(),
                "stream_id": stream,
                "version": i + 1, "type": "hand.action", "schema_version": 1,
                "payload": '{"action":"play","card":"AH","seat":1}',
                "metadata": '{"actor":"bench","source":"live"}',
                "recorded_at": _now(), "prev_hash": "0" * 64, "hash": "f" * 64,
            })  # fmt: skip
        return out


def _now() -> Any:
    from datetime import UTC, datetime

    return datetime.now(UTC)


def _times(n: int, run: Callable[[], object]) -> None:
    """Run ``n`` times, keeping no result alive (as a caller that reads and folds does)."""
    for _ in range(n):
        run()


def rate(count: int, run: Callable[[], object], repeat: int) -> float:
    """Median of ``repeat`` runs, in operations per second."""
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


def es_recorder(kind: str, location: str) -> Any:
    """The eventsourcing library's application recorder on the same database, or None."""
    try:
        if kind == "sqlite":
            from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

            recorder = SQLiteApplicationRecorder(SQLiteDatastore(db_name=location))
        else:
            from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

            url = sa.make_url(PG_URL)
            datastore = PostgresDatastore(
                dbname=url.database or "", host=url.host or "127.0.0.1", port=url.port or 5432,
                user=url.username or "postgres", password=url.password or "", schema=location,
            )  # fmt: skip
            recorder = PostgresApplicationRecorder(datastore, events_table_name="es_bench")
        recorder.create_table()
        return recorder
    except ImportError:
        return None


def es_events(count: int) -> list[Any]:
    from eventsourcing.persistence import StoredEvent

    oid = uuid.uuid4()
    state = b'{"action":"play","card":"AH","seat":1}'
    return [StoredEvent(oid, i + 1, "hand.action", state) for i in range(count)]


def bench(
    kind: str, engine: sa.Engine, es_location: str, repeat: int, url: str | None = None
) -> dict[str, float]:
    migrate.upgrade(engine)
    store = SQLEventStore(engine)
    by_url = SQLEventStore(url) if url else None  # SQLite through sqlite3, no SQLAlchemy
    raw = Raw(engine)
    recorder = es_recorder(kind, es_location)
    out: dict[str, float] = {}
    n_single, n_batches = 200, 10

    def store_single() -> None:
        stream = f"s-{uuid.uuid4().hex[:8]}"
        for i in range(n_single):
            store.append(
                stream, [new_event(i)], expected_version=i, idempotency_key=uuid.uuid4().hex
            )

    def raw_single() -> None:
        for row in raw.rows(n_single):
            with engine.begin() as conn:
                conn.execute(sa.insert(raw.table), row)

    def store_batched() -> None:
        for _ in range(n_batches):
            batch = [new_event(i) for i in range(100)]
            store.append(f"b-{uuid.uuid4().hex[:8]}", batch, 0, idempotency_key=uuid.uuid4().hex)

    def raw_batched() -> None:
        for _ in range(n_batches):
            rows = raw.rows(100)
            with engine.begin() as conn:
                conn.execute(sa.insert(raw.table), rows)

    # Reads: a long stream, and the whole global log page by page.
    store.append("long", [new_event(i) for i in range(1000)], None)
    for _ in range(4):
        raw_batched()  # the raw table gets as many rows to read as the log

    def raw_read() -> None:
        with engine.connect() as conn:
            conn.execute(sa.select(raw.table).where(raw.table.c.position > 0)).all()

    log_size = [0]

    def global_read() -> None:
        log_size[0] = sum(1 for _ in store.iter_all(0, 1000))

    cases: list[tuple[str, int, Callable[[], object]]] = [
        ("single_appends_per_s", n_single, store_single),
        ("raw_single_inserts_per_s", n_single, raw_single),
        ("batched_events_per_s", 100 * n_batches, store_batched),
        ("raw_batched_events_per_s", 100 * n_batches, raw_batched),
        ("stream_read_events_per_s", 5000, lambda: _times(5, lambda: store.read_stream("long"))),
    ]
    if by_url is not None:

        def by_url_single() -> None:
            stream = f"u-{uuid.uuid4().hex[:8]}"
            for i in range(n_single):
                by_url.append(stream, [new_event(i)], i, idempotency_key=uuid.uuid4().hex)

        def by_url_batched() -> None:
            for _ in range(n_batches):
                batch = [new_event(i) for i in range(100)]
                stream = f"ub-{uuid.uuid4().hex[:8]}"
                by_url.append(stream, batch, 0, idempotency_key=uuid.uuid4().hex)

        cases += [
            ("single_appends_by_url_per_s", n_single, by_url_single),
            ("batched_events_by_url_per_s", 100 * n_batches, by_url_batched),
            ("stream_read_events_by_url_per_s", 5000,
             lambda: _times(5, lambda: by_url.read_stream("long"))),
        ]  # fmt: skip
    if recorder is not None:
        oid = uuid.uuid4()
        from eventsourcing.persistence import StoredEvent

        recorder.insert_events([StoredEvent(oid, i + 1, "t", b"{}") for i in range(1000)])
        cases += [
            ("eventsourcing_single_per_s", n_single,
             lambda: [recorder.insert_events(es_events(1)) for _ in range(n_single)]),
            ("eventsourcing_batched_events_per_s", 100 * n_batches,
             lambda: [recorder.insert_events(es_events(100)) for _ in range(n_batches)]),
            ("eventsourcing_stream_read_events_per_s", 5000,
             lambda: _times(5, lambda: recorder.select_events(oid))),
        ]  # fmt: skip
    # Round-robin, so that a noisy neighbour slows every case alike; medians per case.
    rates: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    rates["global_read_events_per_s"] = []
    rates["raw_read_rows_per_s"] = []
    for _ in range(repeat):
        for name, count, run in cases:
            rates[name].append(rate(count, run, 1))
        start = time.perf_counter()
        global_read()
        rates["global_read_events_per_s"].append(log_size[0] / (time.perf_counter() - start))
        rates["raw_read_rows_per_s"].append(rate(raw.next, raw_read, 1))
    out.update({name: statistics.median(values) for name, values in rates.items()})

    # Folding live hands: load the stream and replay it through the engine.
    hands = []
    for record in random_records(seed=5, count=50):
        stream = f"hand-{uuid.uuid4()}"
        events = [dealt_event([c.code for c in record.deck], record.dealer)]
        events += [action_event(a) for a in record.actions]
        store.append(stream, events, 0)
        hands.append(stream)
    out["hand_loads_per_s"] = rate(len(hands), lambda: [load_hand(store, h) for h in hands], repeat)
    out["events"] = float(len(store.read_all()))
    if by_url is not None:
        by_url.close()
    return out


def postgres_reachable() -> bool:
    url = sa.make_url(PG_URL)
    try:
        with socket.create_connection((url.host or "127.0.0.1", url.port or 5432), 1):
            return True
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 repetitions instead of 7")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    results: dict[str, dict[str, float]] = {}

    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.sqlite3"
        engine = make_engine(url)
        results["sqlite"] = bench("sqlite", engine, f"{folder}/es.sqlite3", repeat, url)
        engine.dispose()

    if postgres_reachable():
        schema = f"bench_{os.getpid()}"
        admin = sa.create_engine(PG_URL, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
        try:
            engine = make_engine(PG_URL, connect_args={"options": f"-csearch_path={schema}"})
            results["postgresql"] = bench("postgresql", engine, schema, repeat)
            engine.dispose()
        finally:
            with admin.connect() as conn:
                conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
            admin.dispose()
    else:
        print(f"PostgreSQL not reachable at {PG_URL}: skipped", file=sys.stderr)

    targets: dict[str, Any] = {}
    for kind, r in results.items():
        print(f"\n== {kind} (medians of {repeat} runs)")
        for key, value in r.items():
            print(f"  {key:42s} {value:>12,.0f}")
        targets[f"{kind}_batched_vs_raw"] = round(
            r["batched_events_per_s"] / r["raw_batched_events_per_s"], 2
        )
        targets[f"{kind}_single_vs_raw"] = round(
            r["single_appends_per_s"] / r["raw_single_inserts_per_s"], 2
        )
        if "eventsourcing_single_per_s" in r:
            targets[f"{kind}_single_vs_eventsourcing"] = round(
                r["single_appends_per_s"] / r["eventsourcing_single_per_s"], 2
            )
        reads = [r["stream_read_events_per_s"], r["global_read_events_per_s"]]
        targets[f"{kind}_min_read_events_per_s"] = round(
            min(*reads, r.get("stream_read_events_by_url_per_s", reads[0]))
        )
        for case in ("single_appends", "batched_events", "stream_read_events"):
            if f"{case}_by_url_per_s" in r:  # the same store by URL (sqlite3) / on the engine
                targets[f"{kind}_{case}_by_url_vs_engine"] = round(
                    r[f"{case}_by_url_per_s"] / r[f"{case}_per_s"], 2
                )
    met = {
        "batched_at_least_0.8x_raw": all(
            v >= 0.8 for k, v in targets.items() if k.endswith("batched_vs_raw")
        ),
        "single_at_least_2x_eventsourcing_on_postgresql": targets.get(
            "postgresql_single_vs_eventsourcing", 0
        )
        >= 2,
        "reads_at_least_100k_per_s": all(
            v >= 100_000 for k, v in targets.items() if k.endswith("min_read_events_per_s")
        ),
    }
    print("\nratios:", json.dumps(targets))
    print("targets met:", json.dumps(met))
    print(json.dumps({"bench": "eventstore", "repeat": repeat, "results": results,
                      "ratios": targets, "targets_met": met}))  # fmt: skip


if __name__ == "__main__":
    main()

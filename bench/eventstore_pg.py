"""The event store benchmark's PostgreSQL part: concurrent single appends, batched appends
and reads, each beside its baselines, in scratch schemas made for the run and dropped
after it (the store's tables by its own migrations, the raw table, one schema per mode
of the ``eventsourcing`` recorder)."""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import eventstore_writers as writers
import psycopg
import sqlalchemy as sa
from eventstore_rows import (
    BATCH,
    PG_RAW_TABLE,
    RAW_BATCH_INSERT,
    RAW_COPY,
    STREAM_EVENTS,
    bench_event,
    fill_log,
    new_stream,
    pg_row,
    read_cases,
)
from timing import median_rates

from tournament.eventstore import SQLEventStore, migrate


@dataclasses.dataclass(frozen=True)
class Scratch:
    """Where the run writes: the store and the raw table in ``schema``, each mode of the
    eventsourcing recorder in a schema of its own."""

    url: str  # as given (SQLAlchemy)
    dsn: str  # for psycopg
    schema: str
    es_schemas: dict[str, str]

    @property
    def store_url(self) -> str:
        """The URL the store is opened on: the scratch schema first on the search path."""
        url = sa.make_url(self.url).update_query_dict({"options": f"-csearch_path={self.schema}"})
        return url.render_as_string(hide_password=False)

    def connect(self) -> psycopg.Connection[Any]:
        """A raw psycopg connection (autocommit) on the scratch schema, in UTC as the
        store's connections are."""
        options = f"-csearch_path={self.schema} -ctimezone=UTC"
        return psycopg.connect(self.dsn, autocommit=True, options=options)

    def job(self, kind: str, seconds: float, repeat: int) -> writers.WriterJob:
        schema = self.es_schemas.get(kind, self.schema)
        return writers.WriterJob(kind, self.store_url, self.dsn, schema, seconds, repeat)


def shown(url: str) -> str:
    """``url`` without its password, to print."""
    return sa.make_url(url).render_as_string(hide_password=True)


def psycopg_dsn(url: str) -> str:
    return sa.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def unreachable(url: str) -> str | None:
    """Why PostgreSQL at ``url`` cannot be used (None: it can)."""
    try:
        psycopg.connect(psycopg_dsn(url), connect_timeout=3).close()
    except (psycopg.Error, sa.exc.ArgumentError) as error:
        return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return None


@contextlib.contextmanager
def scratch(url: str) -> Iterator[Scratch]:
    """Fresh schemas for one run, with every table the run needs; dropped afterwards."""
    base = f"bench_es_{os.getpid()}"
    es_schemas = {"es_default": f"{base}_esd", "es_functions": f"{base}_esf"}
    made = Scratch(url, psycopg_dsn(url), base, es_schemas)
    names = [base, *es_schemas.values()]
    with psycopg.connect(made.dsn, autocommit=True) as admin:
        for name in names:
            admin.execute(f"CREATE SCHEMA {name}")
    try:
        migrate.upgrade(made.store_url)
        with made.connect() as conn:
            conn.execute(PG_RAW_TABLE)
        if writers.HAVE_EVENTSOURCING:
            for kind in es_schemas:
                datastore = writers.es_datastore(made.job(kind, 0, 0))
                writers.es_recorder(datastore).create_table()
                datastore.close()
        yield made
    finally:
        with psycopg.connect(made.dsn, autocommit=True) as admin:
            for name in names:
                admin.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")


def concurrent(
    where: Scratch, counts: list[int], seconds: float, repeat: int
) -> dict[str, dict[int, writers.Figures]]:
    """Single appends with each number of writer processes, for every kind of writer.

    The kinds take turns (trial 9, P9): each round measures every number of writers of
    every kind once, then the next round; so a neighbour's load that comes and goes
    slows every kind alike, and each kind's figures are the medians over the rounds
    (with each round's appends/s kept, for ratios round by round)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["eventstore_writers"])
    kinds = list(writers.KINDS)
    if not writers.HAVE_EVENTSOURCING:
        print("eventsourcing is not installed: its recorder is not measured", file=sys.stderr)
        kinds = kinds[:2]
    rounds: dict[str, dict[int, list[writers.Figures]]] = {
        kind: {count: [] for count in counts} for kind in kinds
    }
    for number in range(1, repeat + 1):
        for count in counts:
            for kind in kinds:
                print(f"  postgresql: round {number}/{repeat}: {kind}, {count} writers ...",
                      file=sys.stderr, flush=True)  # fmt: skip
                rounds[kind][count].append(
                    writers.run_writers(context, where.job(kind, seconds, 1), count)
                )
    return {
        kind: {count: writers.Figures.median_of(found) for count, found in by_count.items()}
        for kind, by_count in rounds.items()
    }


def batched(where: Scratch, seconds: float, repeat: int) -> dict[str, float]:
    """Events/s of 100-event appends by one writer: the store, one INSERT of the 100 rows
    (one round trip: psycopg's pipelined ``executemany`` takes four, a sync each for BEGIN,
    the rows, COMMIT and the pipeline's end), and one COPY of them (two round trips)."""
    print("  postgresql: batched appends ...", file=sys.stderr, flush=True)
    store = SQLEventStore(where.store_url)
    conn = where.connect()
    cursor = conn.cursor()

    def store_batch() -> int:
        events = [bench_event() for _ in range(BATCH)]
        store.append(new_stream("b"), events, 0, idempotency_key=uuid.uuid4().hex)
        return BATCH

    def raw_multirow() -> int:
        stream = new_stream("rb")
        values = [x for v in range(1, BATCH + 1) for x in pg_row(stream, v)]
        cursor.execute(RAW_BATCH_INSERT, values)  # autocommit: its own transaction
        return BATCH

    def raw_copy() -> int:
        stream = new_stream("rc")
        with cursor.copy(RAW_COPY) as copy:  # autocommit: the COPY is its own transaction
            for version in range(1, BATCH + 1):
                copy.write_row(pg_row(stream, version))
        return BATCH

    try:
        for step in (store_batch, raw_multirow, raw_copy):
            step()  # warm: connections made, statements prepared
        rates = median_rates(
            {
                "store_batch_events_per_s": store_batch,
                "raw_multirow_insert_events_per_s": raw_multirow,
                "raw_copy_events_per_s": raw_copy,
            },
            seconds,
            repeat,
        )
    finally:
        conn.close()
        store.close()
    return rates


def reads(where: Scratch, seconds: float, repeat: int, log_events: int) -> dict[str, float]:
    """Events/s of reading a 1,000-event stream whole and the first ``log_events`` of the
    global log in pages of 1,000: the store, and raw SELECTs of the same rows of its table
    with payload and metadata decoded (``json.loads``) as the store decodes them."""
    print("  postgresql: reads ...", file=sys.stderr, flush=True)
    store = SQLEventStore(where.store_url)
    conn = where.connect()
    cursor = conn.cursor()
    stream = new_stream("long")
    store.append(stream, [bench_event() for _ in range(STREAM_EVENTS)], 0)
    fill_log(store, log_events)

    def fetch(sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        cursor.execute(sql, params)
        return cursor.fetchall()

    cases = read_cases(store, stream, log_events, "%s", fetch)
    try:
        for step in cases.values():
            step()  # warm: the pages cached, statements prepared
        return median_rates(cases, seconds, repeat)
    finally:
        conn.close()
        store.close()

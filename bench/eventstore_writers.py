"""Concurrent single appends on PostgreSQL: N writer processes, one event per append.

Each writer is a process of its own (forkserver: forked from a server that has already
imported everything below, so 16 writers start in a moment), with its own connection and
its own few streams, appending round-robin to them. It connects and appends once before
the clock starts; then, every repetition, all writers start together (a barrier) and
append for the same number of seconds, timing each append. The parent adds up the
appends and takes the latencies of all writers together.

The four kinds of writer (:data:`KINDS`):

* ``store`` -- ``SQLEventStore(url).append(stream, [event], version, idempotency_key=...)``;
* ``raw_insert`` -- psycopg 3, autocommit, one INSERT of the same row per event;
* ``es_default`` / ``es_functions`` -- the ``eventsourcing`` library's PostgreSQL
  application recorder, ``insert_events([event])``, in its default mode and with
  ``enable_db_functions``.
"""

from __future__ import annotations

import dataclasses
import itertools
import statistics
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import psycopg
import sqlalchemy.dialects.postgresql.psycopg  # noqa: F401  (the store's engine: preloaded)
from eventstore_rows import ES_STATE, RAW_INSERT, bench_event, new_stream, pg_row
from timing import percentile

from tournament.eventstore import SQLEventStore

try:  # imported here so that the fork server has it loaded for every writer
    from eventsourcing.persistence import StoredEvent as EsEvent
    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

    HAVE_EVENTSOURCING = True
except ImportError:  # the bench then reports the recorder as not measured
    HAVE_EVENTSOURCING = False

KINDS = ("store", "raw_insert", "es_default", "es_functions")
ES_TABLE = "bench_events"
STREAMS_PER_WRITER = 4
#: How long the parent waits for a writer to report before it gives up on the run.
REPORT_TIMEOUT_S = 300.0


@dataclasses.dataclass(frozen=True)
class WriterJob:
    kind: str
    store_url: str  # SQLAlchemy URL, search_path set to the scratch schema
    dsn: str  # the same database for psycopg
    schema: str  # where this kind writes
    seconds: float
    repeat: int
    writer: int = 0


@dataclasses.dataclass(frozen=True)
class Figures:
    """One kind at one number of writers: medians over the repetitions."""

    appends_per_s: float
    p50_ms: float
    p99_ms: float
    #: Appends/s of each round, in the order the rounds ran (the kinds took turns).
    rounds: tuple[float, ...] = ()

    @classmethod
    def median_of(cls, found: list[Figures]) -> Figures:
        """The medians of rounds measured one at a time."""
        return cls(
            statistics.median(f.appends_per_s for f in found),
            statistics.median(f.p50_ms for f in found),
            statistics.median(f.p99_ms for f in found),
            tuple(f.appends_per_s for f in found),
        )


Appender = tuple[Callable[[], None], Callable[[], None]]  # (append one event, close)


class _Streams:
    """A writer's own streams, taken in turn, with the version each is at."""

    def __init__(self, prefix: str) -> None:
        self.ids = [new_stream(prefix) for _ in range(STREAMS_PER_WRITER)]
        self.versions = [0] * STREAMS_PER_WRITER
        self._turn = itertools.cycle(range(STREAMS_PER_WRITER))

    def next(self) -> tuple[int, str, int]:
        """(index, stream id, its version) of the next stream in turn."""
        k = next(self._turn)
        return k, self.ids[k], self.versions[k]


def _store(job: WriterJob) -> Appender:
    store = SQLEventStore(job.store_url)
    streams = _Streams(f"w{job.writer}")

    def append() -> None:
        k, stream, version = streams.next()
        store.append(stream, [bench_event()], version, idempotency_key=uuid.uuid4().hex)
        streams.versions[k] = version + 1

    return append, store.close


def _raw_insert(job: WriterJob) -> Appender:
    conn = psycopg.connect(job.dsn, autocommit=True, options=f"-csearch_path={job.schema}")
    cursor = conn.cursor()
    streams = _Streams(f"r{job.writer}")

    def append() -> None:
        k, stream, version = streams.next()
        cursor.execute(RAW_INSERT, pg_row(stream, version + 1))
        streams.versions[k] = version + 1

    return append, conn.close


def es_datastore(job: WriterJob) -> Any:
    """The recorder's datastore on the job's schema, in the job's mode."""
    url = psycopg.conninfo.conninfo_to_dict(job.dsn)
    return PostgresDatastore(
        dbname=str(url.get("dbname", "")), host=str(url.get("host", "127.0.0.1")),
        port=str(url.get("port", 5432)), user=str(url.get("user", "postgres")),
        password=str(url.get("password", "")), schema=job.schema,
        enable_db_functions=job.kind == "es_functions",
    )  # fmt: skip


def es_recorder(datastore: Any) -> Any:
    """The recorder under test, on ``datastore``."""
    return PostgresApplicationRecorder(datastore, events_table_name=ES_TABLE)


def _eventsourcing(job: WriterJob) -> Appender:
    datastore = es_datastore(job)
    recorder = es_recorder(datastore)
    datastore.register_type_adapters()  # the parent created the table, type and function
    streams = [uuid.uuid4() for _ in range(STREAMS_PER_WRITER)]
    versions = [0] * STREAMS_PER_WRITER
    turn = itertools.cycle(range(STREAMS_PER_WRITER))

    def append() -> None:
        k = next(turn)
        recorder.insert_events([EsEvent(streams[k], versions[k] + 1, "hand.action", ES_STATE)])
        versions[k] += 1

    return append, datastore.close


APPENDERS: dict[str, Callable[[WriterJob], Appender]] = {
    "store": _store,
    "raw_insert": _raw_insert,
    "es_default": _eventsourcing,
    "es_functions": _eventsourcing,
}


def writer_main(job: WriterJob, barrier: Any, reports: Any) -> None:
    """One writer process: connect, append once, then per repetition append for
    ``job.seconds`` after the barrier and report (writer, repetition, appends, seconds,
    latencies in ms)."""
    try:
        append, close = APPENDERS[job.kind](job)
        append()  # connected, statements prepared, before the clock starts
    except Exception as error:
        reports.put(("error", job.writer, f"{type(error).__name__}: {error}".splitlines()[0]))
        return
    try:
        for rep in range(job.repeat):
            try:
                barrier.wait(timeout=REPORT_TIMEOUT_S)
            except threading.BrokenBarrierError:
                return  # another writer failed: the parent stops the run
            latencies = []
            start = time.perf_counter()
            deadline = start + job.seconds
            while True:
                before = time.perf_counter()
                append()
                after = time.perf_counter()
                latencies.append((after - before) * 1000)
                if after >= deadline:
                    break
            reports.put(("ok", job.writer, rep, len(latencies), after - start, latencies))
    except Exception as error:
        reports.put(("error", job.writer, f"{type(error).__name__}: {error}".splitlines()[0]))
    finally:
        close()


def run_writers(context: Any, job: WriterJob, writers: int) -> Figures:
    """``writers`` processes of ``job.kind`` for ``job.repeat`` repetitions: appends/s of
    all together (appends over the longest writer's seconds) and p50/p99 of every append,
    each the median over the repetitions. A writer's error stops the run (SystemExit)."""
    barrier = context.Barrier(writers)
    reports = context.Queue()
    procs = [
        context.Process(
            target=writer_main, args=(dataclasses.replace(job, writer=w), barrier, reports)
        )
        for w in range(writers)
    ]
    for proc in procs:
        proc.start()
    per_rep: list[list[tuple[int, float, list[float]]]] = [[] for _ in range(job.repeat)]
    try:
        for _ in range(writers * job.repeat):
            report = reports.get(timeout=REPORT_TIMEOUT_S)
            if report[0] == "error":
                barrier.abort()
                raise SystemExit(f"{job.kind} writer {report[1]} of {writers}: {report[2]}")
            _, _, rep, count, seconds, latencies = report
            per_rep[rep].append((count, seconds, latencies))
    finally:
        for proc in procs:
            proc.join(timeout=30)
            if proc.is_alive():
                proc.terminate()
                proc.join()
    rates, p50s, p99s = [], [], []
    for reps in per_rep:
        latencies = [x for _, _, lat in reps for x in lat]
        rates.append(sum(c for c, _, _ in reps) / max(s for _, s, _ in reps))
        p50s.append(percentile(latencies, 0.50))
        p99s.append(percentile(latencies, 0.99))
    return Figures(statistics.median(rates), statistics.median(p50s), statistics.median(p99s))

"""The event store benchmark's SQLite part: one writer (SQLite has one), in a temporary
file. The store is opened by its URL, through the ``sqlite3`` module, as every organiser
command opens it; the raw baseline is a ``sqlite3`` connection set up by the same function
as the store's own (:func:`tournament.db.connect_sqlite`: WAL, ``synchronous=FULL``, busy
timeout, foreign keys, transactions by hand), writing to a table of the same shape in the
same file and taking the write lock as the store does (``BEGIN IMMEDIATE``)."""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import uuid
from pathlib import Path

from eventstore_rows import (
    BATCH,
    SQLITE_RAW_INSERT,
    SQLITE_RAW_TABLE,
    STREAM_EVENTS,
    bench_event,
    fill_log,
    new_stream,
    read_cases,
    sqlite_row,
)
from timing import median_rates

from engine.randomplay import random_records
from tournament import db
from tournament.domain.model.hands import action_event, dealt_event, load_hand, new_hand_stream_id
from tournament.eventstore import SQLEventStore, migrate

STREAMS = 4  # single appends go round-robin to a few streams, as on PostgreSQL


def run_sqlite(seconds: float, repeat: int, log_events: int) -> dict[str, float | str]:
    """Every SQLite figure: single and batched appends, stream and log reads, each beside
    raw ``sqlite3``; hands loaded and folded; and the pragmas both sides ran with."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        url = f"sqlite:///{path}"
        migrate.upgrade(url)
        store = SQLEventStore(url)
        raw = db.connect_sqlite(path)
        try:
            raw.execute(SQLITE_RAW_TABLE)
            figures: dict[str, float | str] = {
                "journal_mode": raw.execute("PRAGMA journal_mode").fetchone()[0],
                "synchronous": {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(
                    raw.execute("PRAGMA synchronous").fetchone()[0], "?"
                ),
            }
            print("  sqlite: appends ...", file=sys.stderr, flush=True)
            figures.update(appends(store, raw, seconds, repeat))
            print("  sqlite: reads ...", file=sys.stderr, flush=True)
            figures.update(reads(store, raw, seconds, repeat, log_events))
            figures.update(hand_loads(store, seconds, repeat))
        finally:
            raw.close()
            store.close()
    return figures


def _in_transaction(raw: sqlite3.Connection, sql: str, rows: list[tuple[object, ...]]) -> None:
    """``rows`` inserted in one transaction under the write lock, as the store appends."""
    raw.execute("BEGIN IMMEDIATE")
    try:
        raw.executemany(sql, rows)
    except BaseException:
        raw.rollback()
        raise
    raw.commit()


def appends(
    store: SQLEventStore, raw: sqlite3.Connection, seconds: float, repeat: int
) -> dict[str, float]:
    streams = [new_stream("s") for _ in range(STREAMS)]
    versions = [0] * STREAMS
    raw_streams = [new_stream("rs") for _ in range(STREAMS)]
    raw_versions = [0] * STREAMS
    turn = [0]

    def store_single() -> int:
        k = turn[0] = (turn[0] + 1) % STREAMS
        store.append(streams[k], [bench_event()], versions[k], idempotency_key=uuid.uuid4().hex)
        versions[k] += 1
        return 1

    def raw_single() -> int:
        k = turn[0] = (turn[0] + 1) % STREAMS
        raw_versions[k] += 1
        _in_transaction(raw, SQLITE_RAW_INSERT, [sqlite_row(raw_streams[k], raw_versions[k])])
        return 1

    def store_batch() -> int:
        events = [bench_event() for _ in range(BATCH)]
        store.append(new_stream("b"), events, 0, idempotency_key=uuid.uuid4().hex)
        return BATCH

    def raw_batch() -> int:
        stream = new_stream("rb")
        rows = [sqlite_row(stream, v) for v in range(1, BATCH + 1)]
        _in_transaction(raw, SQLITE_RAW_INSERT, rows)
        return BATCH

    cases = {
        "store_single_appends_per_s": store_single,
        "raw_single_inserts_per_s": raw_single,
        "store_batch_events_per_s": store_batch,
        "raw_batch_events_per_s": raw_batch,
    }
    for step in cases.values():
        step()  # warm
    return median_rates(cases, seconds, repeat)


def reads(
    store: SQLEventStore, raw: sqlite3.Connection, seconds: float, repeat: int, log_events: int
) -> dict[str, float]:
    """A 1,000-event stream read whole and the first ``log_events`` of the global log in
    pages of 1,000: the store, and raw SELECTs of the same rows of its table with payload
    and metadata decoded (``json.loads``) as the store decodes them."""
    stream = new_stream("long")
    store.append(stream, [bench_event() for _ in range(STREAM_EVENTS)], 0)
    fill_log(store, log_events)
    cases = read_cases(
        store, stream, log_events, "?", lambda sql, params: raw.execute(sql, params).fetchall()
    )
    for step in cases.values():
        step()  # warm
    return median_rates(cases, seconds, repeat)


def hand_loads(store: SQLEventStore, seconds: float, repeat: int) -> dict[str, float]:
    """Hands/s read and folded through the engine (``load_hand``), for information: is a
    snapshot cache needed? (docs/event-store.md says no.)"""
    hands = []
    for record in random_records(seed=5, count=50):
        stream = new_hand_stream_id()
        events = [dealt_event([card.code for card in record.deck], record.dealer)]
        events += [action_event(action) for action in record.actions]
        store.append(stream, events, 0)
        hands.append(stream)

    def load_all() -> int:
        for stream in hands:
            load_hand(store, stream)
        return len(hands)

    return median_rates({"hand_loads_per_s": load_all}, seconds, repeat)

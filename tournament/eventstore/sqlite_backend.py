"""The store on SQLite: the append algorithm in Python, under SQLite's single write lock.

``BEGIN IMMEDIATE`` takes the database's write lock before the first read, so no other
writer can move the stream or log heads between the read and the insert; the lock goes
with the ``COMMIT``. SQLite has one writer at a time, so that lock is also every stream's
lock for a decision and its append (:meth:`SQLiteBackend.locked`). The connections come
from :mod:`.sqlite_connections` (the ``sqlite3`` module's own, or SQLAlchemy's pool):
this module never imports SQLAlchemy.

Stored ids and times are text; reading them back is the hot loop of every read, so
:func:`text_uuid` and :func:`text_time` return exactly what ``uuid.UUID`` and
``datetime.fromisoformat`` would, skipping work those do for inputs the store never writes.
"""

from __future__ import annotations

import contextlib
import sqlite3
import uuid
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from tournament.eventstore import sqlite_connections
from tournament.eventstore.backends import (
    COLUMNS,
    INSERT,
    KEY_RETENTION_FLOOR_DAYS,
    SQL,
    Appended,
    AppendResult,
    Backend,
    Conflict,
    Head,
    Prepared,
    Replay,
    Row,
    WriteTx,
    not_ready,
)
from tournament.eventstore.chain import GENESIS, event_hash, format_time
from tournament.eventstore.errors import DuplicateEventError
from tournament.eventstore.seals import Seal
from tournament.eventstore.sqlite_connections import (
    DEFAULT_WRITE_WAIT_S,
    SQLiteConnections,
    StoreBusyError,
    is_busy,
)

INSERT_TUPLES = f"INSERT INTO es_events ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

_new = object.__new__
_set = object.__setattr__
_UNKNOWN = uuid.SafeUUID.unknown


def text_uuid(text: str) -> uuid.UUID:
    """``uuid.UUID(text)`` for the ``str(UUID)`` form, without UUID.__init__'s general
    parsing; 32 alphanumerics are exactly what UUID accepts after removing the dashes."""
    digits = text.replace("-", "")
    if len(digits) != 32 or not digits.isalnum():
        return uuid.UUID(text)
    value = _new(uuid.UUID)
    _set(value, "int", int(digits, 16))
    _set(value, "is_safe", _UNKNOWN)
    return value


def text_time(text: str) -> datetime:
    """A stored naive UTC time (SQLite) as an aware datetime."""
    try:
        return datetime.fromisoformat(text + "+00:00")  # one C call instead of two
    except ValueError:  # not the store's own form: the general path, or its error
        return datetime.fromisoformat(text).replace(tzinfo=UTC)


def db_time(moment: datetime) -> str:
    """``recorded_at`` as stored on SQLite: naive UTC text, SQLAlchemy's own DateTime form
    on SQLite, so that SQLAlchemy (backups, projections) reads it back too."""
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")


def chain_links(
    stream_id: str, head: Head, events: Sequence[Prepared], now: datetime
) -> tuple[list[tuple[int, int, str, str]], list[tuple[Any, ...]]]:
    """Step 5 of the append algorithm: positions, versions and chained hashes after
    ``head``; and the rows to insert (tuples in ``COLUMNS`` order)."""
    stamp = format_time(now)
    stored_at = db_time(now)
    prev = head.hash or GENESIS
    position, version = head.position, head.version
    links, rows = [], []
    for p in events:
        position += 1
        version += 1
        event_id = str(p.event_id)
        digest = event_hash(
            prev, stream_id, version, event_id, p.type, p.schema_version,
            stamp, p.metadata_json, p.payload_json,
        )  # fmt: skip
        links.append((position, version, prev, digest))
        rows.append(
            (position, event_id, stream_id, version, p.type, p.schema_version,
             p.payload_json, p.metadata_json, stored_at, prev, digest)
        )  # fmt: skip
        prev = digest
    return links, rows


class _SQLiteWrite(WriteTx):
    sql = SQL

    def insert(self, rows: Sequence[Any], key_row: dict[str, Any] | None) -> None:
        try:
            if rows:
                statement = INSERT_TUPLES if isinstance(rows[0], tuple) else INSERT
                self.conn.executemany(statement, rows)
        except sqlite3.IntegrityError as error:
            raise DuplicateEventError(f"an event id is already stored: {error}") from None
        if key_row is not None:
            self.conn.execute(self.sql.insert_key, key_row)

    def append(
        self,
        stream_id: str,
        events: Sequence[Prepared],
        expected: int | None,
        key: str | None,
        now: datetime,
    ) -> AppendResult:
        head = self.head(stream_id, key)
        if head.key_stream is not None:
            return Replay(head.key_stream, head.key_first or 0, head.key_last or 0)
        if expected is not None and head.version != expected:
            return Conflict(head.version)
        if not events:
            return Appended([], None)
        if head.last_at is not None and head.last_at > db_time(now):
            # The clock went back (a laptop's clock set right): times never do in the log.
            now = text_time(head.last_at)
        links, rows = chain_links(stream_id, head, events, now)
        key_row = None
        if key is not None:
            key_row = {
                "k": key, "s": stream_id, "first": head.version + 1,
                "last": head.version + len(events), "ra": db_time(now),
            }  # fmt: skip
        self.insert(rows, key_row)
        return Appended(links, now)


class SQLiteBackend(Backend):
    sql = SQL
    native = False

    def __init__(self, connections: SQLiteConnections) -> None:
        self.connections = connections

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with self.connections.connect() as conn:
            try:
                yield conn
            except sqlite3.OperationalError as error:
                if "no such table" in str(error):
                    raise not_ready(error) from None
                raise

    def close(self) -> None:
        self.connections.close()

    def append(
        self,
        stream_id: str,
        events: Sequence[Prepared],
        expected: int | None,
        key: str | None,
        now: datetime,
    ) -> AppendResult:
        with self.write() as tx:
            return tx.append(stream_id, events, expected, key, now)

    @contextlib.contextmanager
    def write(self) -> Iterator[WriteTx]:
        with self._connect() as conn:
            # SQLite's busy handler queues the writers (a process-level queue was tried:
            # a lock handed to a thread that must then wait for the GIL sits idle, and
            # bench/play.py's 200 tables answered ten times slower). Past the wait, the
            # write fails with StoreBusyError, which the web answers 503: never 500.
            wait = sqlite_connections.WRITE_WAIT_S
            if wait != DEFAULT_WRITE_WAIT_S:  # shortened (the tests)
                conn.execute(f"PRAGMA busy_timeout={int(wait * 1000)}")
            # The write lock before the first read: no other writer can move the heads.
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                if is_busy(error):
                    raise StoreBusyError(sqlite_connections.WRITE_WAIT_S) from None
                raise
            try:
                yield _SQLiteWrite(conn, self)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def locked(self, stream_id: str) -> contextlib.AbstractContextManager[WriteTx]:
        # SQLite has one writer at a time: its write lock is every stream's lock.
        return self.write()

    def _seal(self, row: tuple[Any, ...]) -> Seal:
        seq, position, events, head, digests, at, reason, key_id, mac = row
        return Seal(seq, position, events, head, digests, text_time(at), reason, key_id, mac)

    def add_seal(self, seal: Seal) -> bool:
        with self.write() as tx:
            last = tx.conn.execute("SELECT max(seq), max(position) FROM es_seals").fetchone()
            if (last[0] or 0) + 1 != seal.seq or seal.position < (last[1] or 0):
                return False
            tx.conn.execute(
                "INSERT INTO es_seals (seq, position, events, head, digests, sealed_at, "
                "reason, key_id, mac) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (seal.seq, seal.position, seal.events, seal.head, seal.digests,
                 db_time(seal.sealed_at), seal.reason, seal.key_id, seal.mac),
            )  # fmt: skip
        return True

    def clock(self) -> datetime:
        return datetime.now(UTC)

    def expire_keys(self, before: datetime) -> int:
        floor = datetime.now(UTC) - timedelta(days=KEY_RETENTION_FLOOR_DAYS)
        with self.write() as tx:
            gone = tx.conn.execute(
                "DELETE FROM es_idempotency WHERE recorded_at < ?", (db_time(min(before, floor)),)
            )
            return int(gone.rowcount)

    def rows(self, raw: list[tuple[Any, ...]]) -> list[Row]:
        return [
            (p, text_uuid(e), s, v, t, sv, pl, md, text_time(ra), ph, h)
            for (p, e, s, v, t, sv, pl, md, ra, ph, h) in raw
        ]

    def db_time(self, moment: datetime) -> Any:
        return db_time(moment)

    def db_uuid(self, value: uuid.UUID) -> Any:
        return str(value)

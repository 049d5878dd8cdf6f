"""What both databases' backends share: the one append algorithm's statements, values
and steps. The backends themselves are :mod:`.sqlite_backend` and :mod:`.postgres_backend`.

Both run the same append algorithm (docs/event-store.md, "One append algorithm"):
take the stream's lock, check the idempotency key, read the stream's head, check the
expected version, take positions, chain the hashes, insert, commit. They differ in where
it runs:

* SQLite: in Python, after ``BEGIN IMMEDIATE`` has taken the database's single write
  lock, which is every stream's lock and the log's; positions are the log's max + 1.
* PostgreSQL: in the server function ``es_append()`` (tournament/migrations/versions/0003), one
  round trip and one implicit transaction: the stream's advisory lock to the commit, the
  append lock only while it takes the transaction's id and its positions from a sequence
  (advisory locks need no privilege, unlike ``LOCK TABLE``). The contract tests run both.

:meth:`Backend.locked` is the stream's lock for a decision and its append
(``append_decided``): on SQLite the same single write lock; on PostgreSQL the stream's
advisory lock, held while the caller decides, with ``es_append()`` called inside the
same transaction. The append lock is taken after the stream's lock and released before
the commit, so the two cannot deadlock.

:meth:`Backend.write` (the append lock plus raw inserts) is also what import uses. Both
backends talk to the DBAPI connection directly: the append and the reads are the hot
paths, and SQLAlchemy's per-statement work cost more than the database's. Nothing here
imports SQLAlchemy.
"""

from __future__ import annotations

import contextlib
import dataclasses
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from tournament.eventstore.errors import EventStoreError, StoreNotReadyError

if TYPE_CHECKING:
    import sqlalchemy as sa

    from tournament.eventstore.seals import Seal

#: The youngest idempotency key that may be deleted (expired): the guards refuse any
#: younger (tournament.eventstore.schema), so a client's retry within a day is recognised.
KEY_RETENTION_FLOOR_DAYS = 1

COLUMNS = (
    "position, event_id, stream_id, version, type, schema_version, payload, metadata, "
    "recorded_at, prev_hash, hash"
)
INSERT = (
    f"INSERT INTO es_events ({COLUMNS}) VALUES (:p, :e, :s, :v, :t, :sv, :pl, :md, :ra, :ph, :h)"
)
INSERT_KEY = (
    "INSERT INTO es_idempotency (key, stream_id, first_version, last_version, recorded_at) "
    "VALUES (:k, :s, :first, :last, :ra)"
)
# Stream head, global head (and the log's last time) and any earlier use of the
# idempotency key, in one statement.
HEAD = (
    "SELECT (SELECT coalesce(max(position), 0) FROM es_events),"
    " coalesce((SELECT max(version) FROM es_events WHERE stream_id = :s), 0),"
    " (SELECT hash FROM es_events WHERE stream_id = :s ORDER BY version DESC LIMIT 1),"
    " (SELECT stream_id FROM es_idempotency WHERE key = :k),"
    " (SELECT first_version FROM es_idempotency WHERE key = :k),"
    " (SELECT last_version FROM es_idempotency WHERE key = :k),"
    " (SELECT recorded_at FROM es_events ORDER BY position DESC LIMIT 1)"
)
READ_STREAM = (
    f"SELECT {COLUMNS} FROM es_events WHERE stream_id = :s AND version >= :lo "
    "AND version <= :hi ORDER BY version"
)
READ_ALL = f"SELECT {COLUMNS} FROM es_events WHERE position > :after ORDER BY position LIMIT :n"
STREAM_VERSION = "SELECT coalesce(max(version), 0) FROM es_events WHERE stream_id = :s"
_SEALS = "SELECT seq, position, events, head, digests, sealed_at, reason, key_id, mac FROM es_seals"
READ_KEY = (
    "SELECT stream_id, first_version, last_version, recorded_at FROM es_idempotency WHERE key = :k"
)


INSERT_SEAL = (
    "INSERT INTO es_seals (seq, position, events, head, digests, sealed_at, reason, key_id, mac)"
    " VALUES (:seq, :position, :events, :head, :digests, :sealed_at, :reason, :key_id, :mac)"
)


class Statements(NamedTuple):
    """The statements both backends run, in one driver's placeholder style."""

    head: str
    insert: str
    insert_key: str
    read_stream: str
    read_all: str
    stream_version: str
    read_key: str
    insert_seal: str


#: The statements with ``:name`` placeholders, as written above (sqlite3's style).
SQL = Statements(
    HEAD, INSERT, INSERT_KEY, READ_STREAM, READ_ALL, STREAM_VERSION, READ_KEY, INSERT_SEAL
)

#: A row as stored, in ``COLUMNS`` order, with event_id and recorded_at decoded.
Row = tuple[int, uuid.UUID, str, int, str, int, str, str, datetime, str, str]


class Head(NamedTuple):
    position: int  # the global log's last position (0: empty)
    version: int  # the stream's version (0: no stream)
    hash: str | None
    key_stream: str | None  # the stream the idempotency key was used for, if any
    key_first: int | None
    key_last: int | None
    last_at: Any  # the log's last event's time, as the driver returns it (None: empty)


class Prepared(NamedTuple):
    """A checked event, its payload and metadata already canonical JSON text."""

    event_id: uuid.UUID
    type: str
    schema_version: int
    payload: dict[str, Any]
    metadata: dict[str, Any]
    payload_json: str
    metadata_json: str


class Appended(NamedTuple):
    links: list[tuple[int, int, str, str]]  # (position, version, prev_hash, hash) per event
    at: datetime | None  # recorded_at of every event (None: nothing appended)


class Replay(NamedTuple):
    """The idempotency key was used before: for these versions of this stream."""

    stream_id: str
    first: int
    last: int


class Conflict(NamedTuple):
    actual: int  # the stream's version, which was not the expected one


AppendResult = Appended | Replay | Conflict


class KeyRow(NamedTuple):
    """An ``es_idempotency`` row: the append a key was first used for."""

    stream_id: str
    first: int
    last: int
    recorded_at: Any  # as the driver returns it (see Backend.native)


def not_ready(error: Exception) -> StoreNotReadyError:
    """The error for a database without the store's tables (or its function)."""
    return StoreNotReadyError(
        f"the database has no event store tables ({error}): run `tournament db upgrade`"
    )


class WriteTx:
    """One write transaction, holding the append lock (:meth:`Backend.write`) or the
    stream's lock (:meth:`Backend.locked`)."""

    sql: Statements

    def __init__(self, conn: Any, backend: Backend) -> None:
        self.conn = conn
        self.backend = backend

    def head(self, stream_id: str, key: str | None) -> Head:
        return Head(*self.conn.execute(self.sql.head, {"s": stream_id, "k": key}).fetchone())

    def insert(self, rows: Sequence[Any], key_row: dict[str, Any] | None) -> None:
        """Insert rows: dicts keyed like ``INSERT``'s parameters (or, on SQLite, tuples
        in ``COLUMNS`` order); and the idempotency key."""
        raise NotImplementedError

    def insert_seal(self, seal: Seal) -> None:
        """Insert a restored seal as it is (import, into an empty store)."""
        values = dataclasses.asdict(seal)
        values["sealed_at"] = self.backend.db_time(seal.sealed_at)
        self.conn.execute(self.sql.insert_seal, values)

    def read_stream(self, stream_id: str, lo: int, hi: int) -> list[tuple[Any, ...]]:
        """Rows of the stream, read inside this transaction (after its lock was taken)."""
        rows: list[tuple[Any, ...]] = self.conn.execute(
            self.sql.read_stream, {"s": stream_id, "lo": lo, "hi": hi}
        ).fetchall()
        return rows

    def key(self, key: str) -> KeyRow | None:
        row = self.conn.execute(self.sql.read_key, {"k": key}).fetchone()
        return None if row is None else KeyRow(*row)

    def key_and_stream(
        self, key: str, stream_id: str, lo: int, hi: int
    ) -> tuple[KeyRow | None, list[tuple[Any, ...]]]:
        """:meth:`key` and :meth:`read_stream` at once: in one round trip where the
        driver pipelines (PostgreSQL); the rows are wasted only for a replay (rare)."""
        return self.key(key), self.read_stream(stream_id, lo, hi)

    def append(
        self,
        stream_id: str,
        events: Sequence[Prepared],
        expected: int | None,
        key: str | None,
        now: datetime,
    ) -> AppendResult:
        """Steps 2-6 of the append algorithm inside this transaction (the caller holds
        the lock and commits)."""
        raise NotImplementedError

    def append_then(
        self,
        stream_id: str,
        events: Sequence[Prepared],
        expected: int | None,
        key: str | None,
        now: datetime,
    ) -> Callable[[], AppendResult]:
        """:meth:`append`, its outcome to be read once the transaction has committed
        (PostgreSQL sends the append and the COMMIT together)."""
        result = self.append(stream_id, events, expected, key, now)
        return lambda: result


class Backend:
    #: The statements in this driver's placeholder style.
    sql: Statements
    #: Whether the driver returns uuid.UUID and aware datetimes itself (else: text).
    native: bool

    def _connect(self) -> contextlib.AbstractContextManager[Any]:
        """The driver's own connection, checked out of the backend's pool."""
        raise NotImplementedError

    def close(self) -> None:
        """Close the connections of the backend's own pool (not an engine it was given)."""

    def append(
        self,
        stream_id: str,
        events: Sequence[Prepared],
        expected: int | None,
        key: str | None,
        now: datetime,
    ) -> AppendResult:
        """Steps 1-6 of the append algorithm (docs/event-store.md), atomically."""
        raise NotImplementedError

    def write(self) -> contextlib.AbstractContextManager[WriteTx]:
        """A transaction holding the append lock (import's way in)."""
        raise NotImplementedError

    def locked(self, stream_id: str) -> contextlib.AbstractContextManager[WriteTx]:
        """A transaction holding ``stream_id``'s lock: commits at the end of the block,
        rolls back if it raises."""
        raise NotImplementedError

    def read_key(self, key: str) -> tuple[KeyRow, list[tuple[Any, ...]]] | None:
        """The key's row and the rows of the events it names."""
        with self._connect() as conn:
            row = conn.execute(self.sql.read_key, {"k": key}).fetchone()
            if row is None:
                return None
            used = KeyRow(*row)
            events: list[tuple[Any, ...]] = conn.execute(
                self.sql.read_stream, {"s": used.stream_id, "lo": used.first, "hi": used.last}
            ).fetchall()
            return used, events

    def read_stream(self, stream_id: str, lo: int, hi: int) -> list[tuple[Any, ...]]:
        """Rows as the driver returns them (see :meth:`rows`)."""
        with self._connect() as conn:
            rows: list[tuple[Any, ...]] = conn.execute(
                self.sql.read_stream, {"s": stream_id, "lo": lo, "hi": hi}
            ).fetchall()
            return rows

    def read_all(self, after: int, limit: int) -> list[tuple[Any, ...]]:
        with self._connect() as conn:
            rows: list[tuple[Any, ...]] = conn.execute(
                self.sql.read_all, {"after": after, "n": limit}
            ).fetchall()
            return rows

    def rows(self, raw: list[tuple[Any, ...]]) -> list[Row]:
        """Driver rows as :data:`Row` (event_id a UUID, recorded_at an aware datetime)."""
        raise NotImplementedError

    def expire_keys(self, before: datetime) -> int:
        """Delete the idempotency keys recorded before ``before`` (never one younger than
        a day: the guards refuse); returns how many."""
        raise NotImplementedError

    # --- seals (tournament.eventstore.seals) ------------------------------------------
    def seals(self, after_seq: int = 0) -> list[Seal]:
        """Every seal after ``after_seq``, in order."""
        with self._connect() as conn:
            rows = conn.execute(f"{_SEALS} WHERE seq > {int(after_seq)} ORDER BY seq").fetchall()
        return [self._seal(row) for row in rows]

    def last_seal(self) -> Seal | None:
        with self._connect() as conn:
            row = conn.execute(f"{_SEALS} ORDER BY seq DESC LIMIT 1").fetchone()
        return None if row is None else self._seal(row)

    def _seal(self, row: tuple[Any, ...]) -> Seal:
        from tournament.eventstore.seals import Seal

        return Seal(*row)

    def add_seal(self, seal: Seal) -> bool:
        """Store ``seal`` if it follows the last one (False: another process sealed first)."""
        raise NotImplementedError

    def clock(self) -> datetime:
        """The time a seal is stamped with (PostgreSQL: the server's clock)."""
        raise NotImplementedError

    def stream_version(self, stream_id: str) -> int:
        with self._connect() as conn:
            return int(conn.execute(self.sql.stream_version, {"s": stream_id}).fetchone()[0])

    def db_time(self, moment: datetime) -> Any:
        """How ``recorded_at`` is passed to the driver."""
        raise NotImplementedError

    def db_uuid(self, value: uuid.UUID) -> Any:
        raise NotImplementedError


def make_backend(engine: sa.Engine) -> Backend:
    """The backend on a SQLAlchemy engine's pool (the store's way for an engine it is
    given, and for PostgreSQL)."""
    if engine.dialect.name == "sqlite":
        from tournament.eventstore.sqlite_backend import SQLiteBackend
        from tournament.eventstore.sqlite_connections import EngineConnections

        return SQLiteBackend(EngineConnections(engine))
    if engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg":
        from tournament.eventstore.postgres_backend import PostgresBackend

        return PostgresBackend(engine)
    raise EventStoreError(
        f"the event store runs on SQLite or PostgreSQL with psycopg 3, not {engine.url!r}"
    )

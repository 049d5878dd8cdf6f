"""The two places the store touches a database driver: SQLite and PostgreSQL.

Both run the same append algorithm (docs/event-store.md, "One append algorithm"):
take the append lock, check the idempotency key, read the stream and log heads, check
the expected version, chain the hashes, insert, commit. They differ in where it runs:

* SQLite: here in Python, after ``BEGIN IMMEDIATE`` has taken the database's single
  write lock (:meth:`SQLiteBackend.append`).
* PostgreSQL: in the server function ``es_append()`` (migrations/versions/0002), one
  round trip and one implicit transaction, under ``pg_advisory_xact_lock`` on a key
  derived from the events table's oid (an advisory lock needs no privilege beyond the
  app role's SELECT and INSERT, unlike ``LOCK TABLE``). The contract tests run both.

:meth:`Backend.locked` is the stream's lock for a decision and its append
(``append_decided``): on SQLite the same single write lock; on PostgreSQL an advisory
transaction lock on a key derived from the stream id (and the events table's oid), held
while the caller decides, with ``es_append()`` called inside the same transaction. The
stream lock is taken before the append lock and never while holding it, so the two cannot
deadlock, and writers of different streams wait for each other only for the append itself.

:meth:`Backend.write` (the append lock plus raw inserts) is also what import uses. Both
backends talk to the DBAPI connection directly, checked out of SQLAlchemy's pool:
the append and the reads are the hot paths, and SQLAlchemy's per-statement work cost
more than the database's.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

import sqlalchemy as sa

from tournament.db import sqlite_path
from tournament.eventstore.chain import GENESIS, event_hash, format_time
from tournament.eventstore.errors import (
    DuplicateEventError,
    EventStoreError,
    StoreMissingError,
    StoreNotReadyError,
)

COLUMNS = (
    "position, event_id, stream_id, version, type, schema_version, payload, metadata, "
    "recorded_at, prev_hash, hash"
)
INSERT = (
    f"INSERT INTO es_events ({COLUMNS}) VALUES (:p, :e, :s, :v, :t, :sv, :pl, :md, :ra, :ph, :h)"
)
INSERT_TUPLES = f"INSERT INTO es_events ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
INSERT_KEY = (
    "INSERT INTO es_idempotency (key, stream_id, first_version, last_version, recorded_at) "
    "VALUES (:k, :s, :first, :last, :ra)"
)
# Stream head, global head and any earlier use of the idempotency key, in one statement.
HEAD = (
    "SELECT (SELECT coalesce(max(position), 0) FROM es_events),"
    " coalesce((SELECT max(version) FROM es_events WHERE stream_id = :s), 0),"
    " (SELECT hash FROM es_events WHERE stream_id = :s ORDER BY version DESC LIMIT 1),"
    " (SELECT stream_id FROM es_idempotency WHERE key = :k),"
    " (SELECT first_version FROM es_idempotency WHERE key = :k),"
    " (SELECT last_version FROM es_idempotency WHERE key = :k)"
)
READ_STREAM = (
    f"SELECT {COLUMNS} FROM es_events WHERE stream_id = :s AND version >= :lo "
    "AND version <= :hi ORDER BY version"
)
READ_ALL = f"SELECT {COLUMNS} FROM es_events WHERE position > :after ORDER BY position LIMIT :n"
STREAM_VERSION = "SELECT coalesce(max(version), 0) FROM es_events WHERE stream_id = :s"
READ_KEY = (
    "SELECT stream_id, first_version, last_version, recorded_at FROM es_idempotency WHERE key = :k"
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


#: sqlite3's ``:name`` placeholders, as written above.
SQLITE_SQL = Statements(HEAD, INSERT, INSERT_KEY, READ_STREAM, READ_ALL, STREAM_VERSION, READ_KEY)

#: A row as stored, in ``COLUMNS`` order, with event_id and recorded_at decoded.
Row = tuple[int, uuid.UUID, str, int, str, int, str, str, datetime, str, str]


class Head(NamedTuple):
    position: int  # the global log's last position (0: empty)
    version: int  # the stream's version (0: no stream)
    hash: str | None
    key_stream: str | None  # the stream the idempotency key was used for, if any
    key_first: int | None
    key_last: int | None


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


def _pyformat(sql: str) -> str:
    """``:name`` placeholders to psycopg's ``%(name)s``."""
    return re.sub(r":(\w+)", r"%(\1)s", sql)


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

    def read_stream(self, stream_id: str, lo: int, hi: int) -> list[tuple[Any, ...]]:
        """Rows of the stream, read inside this transaction (after its lock was taken)."""
        rows: list[tuple[Any, ...]] = self.conn.execute(
            self.sql.read_stream, {"s": stream_id, "lo": lo, "hi": hi}
        ).fetchall()
        return rows

    def key(self, key: str) -> KeyRow | None:
        row = self.conn.execute(self.sql.read_key, {"k": key}).fetchone()
        return None if row is None else KeyRow(*row)

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

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine

    def _connect(self) -> contextlib.AbstractContextManager[Any]:
        """The driver's own connection, checked out of the engine's pool."""
        raise NotImplementedError

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

    #: Whether the driver returns uuid.UUID and aware datetimes itself (else: text).
    native: bool

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

    def stream_version(self, stream_id: str) -> int:
        with self._connect() as conn:
            return int(conn.execute(self.sql.stream_version, {"s": stream_id}).fetchone()[0])

    def db_time(self, moment: datetime) -> Any:
        """How ``recorded_at`` is passed to the driver."""
        raise NotImplementedError

    def db_uuid(self, value: uuid.UUID) -> Any:
        raise NotImplementedError


def make_backend(engine: sa.Engine) -> Backend:
    if engine.dialect.name == "sqlite":
        return SQLiteBackend(engine)
    if engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg":
        return PostgresBackend(engine)
    raise EventStoreError(
        f"the event store runs on SQLite or PostgreSQL with psycopg 3, not {engine.url!r}"
    )


def chain_links(
    stream_id: str, head: Head, events: Sequence[Prepared], now: datetime, backend: Backend
) -> tuple[list[tuple[int, int, str, str]], list[tuple[Any, ...]]]:
    """Positions, versions and chained hashes after ``head``; and the rows to insert
    (tuples in ``COLUMNS`` order)."""
    stamp = format_time(now)
    db_now = backend.db_time(now)
    db_uuid = backend.db_uuid
    text_ids = not backend.native
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
            (position, event_id if text_ids else db_uuid(p.event_id), stream_id, version,
             p.type, p.schema_version,
             p.payload_json, p.metadata_json, db_now, prev, digest)
        )  # fmt: skip
        prev = digest
    return links, rows


# --- SQLite ------------------------------------------------------------------------------


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


def _sqlite_rows(raw: list[tuple[Any, ...]]) -> list[Row]:
    return [
        (p, text_uuid(e), s, v, t, sv, pl, md, text_time(ra), ph, h)
        for (p, e, s, v, t, sv, pl, md, ra, ph, h) in raw
    ]


def _not_ready(error: Exception) -> StoreNotReadyError:
    return StoreNotReadyError(
        f"the database has no event store tables ({error}): run `tournament db upgrade`"
    )


def _missing(engine: sa.Engine) -> StoreMissingError | None:
    """The error for a SQLite file that is not there (engines never create one)."""
    path = sqlite_path(engine.url)
    if path is None or path.exists():
        return None
    return StoreMissingError(
        f"there is no database file {path}: `tournament db upgrade` creates one"
    )


class _SQLiteWrite(WriteTx):
    sql = SQLITE_SQL

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
            return Appended([])
        links, rows = chain_links(stream_id, head, events, now, self.backend)
        key_row = None
        if key is not None:
            key_row = {
                "k": key, "s": stream_id, "first": head.version + 1,
                "last": head.version + len(events), "ra": self.backend.db_time(now),
            }  # fmt: skip
        self.insert(rows, key_row)
        return Appended(links)


class SQLiteBackend(Backend):
    sql = SQLITE_SQL

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            checked_out = self.engine.connect()
        except sa.exc.OperationalError:
            missing = _missing(self.engine)
            if missing is not None:
                raise missing from None
            raise
        with checked_out as conn:
            driver = conn.connection.driver_connection
            assert isinstance(driver, sqlite3.Connection)
            if driver.isolation_level is not None:
                raise EventStoreError("use tournament.db.make_engine for SQLite engines")
            try:
                yield driver
            except sqlite3.OperationalError as error:
                if "no such table" in str(error):
                    raise _not_ready(error) from None
                raise

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
            # The write lock before the first read: no other writer can move the heads.
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield _SQLiteWrite(conn, self)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def locked(self, stream_id: str) -> contextlib.AbstractContextManager[WriteTx]:
        # SQLite has one writer at a time: its write lock is every stream's lock.
        return self.write()

    native = False

    def rows(self, raw: list[tuple[Any, ...]]) -> list[Row]:
        return _sqlite_rows(raw)

    def db_time(self, moment: datetime) -> Any:
        # SQLAlchemy's SQLite DateTime text form, so SQLAlchemy reads it back too.
        return moment.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")

    def db_uuid(self, value: uuid.UUID) -> Any:
        return str(value)


# --- PostgreSQL --------------------------------------------------------------------------

#: psycopg's ``%(name)s`` placeholders.
PG_SQL = Statements(*map(_pyformat, SQLITE_SQL))
_PG_APPEND = (
    "SELECT * FROM es_append(%s, %s, %s, %s, %s, %s::uuid[], %s::text[], %s::int[], "
    "%s::text[], %s::text[])"
)


def _text_array(values: list[str]) -> str:
    """A PostgreSQL array literal of ``values`` (each quoted, ``\\`` and ``"`` escaped)."""
    if not values:
        return "{}"
    quoted = [v.replace("\\", "\\\\").replace('"', '\\"') for v in values]
    return '{"' + '","'.join(quoted) + '"}'


def _pg_rows(raw: list[tuple[Any, ...]]) -> list[Row]:
    return raw  # psycopg already gives uuid.UUID and aware datetimes


#: A stream's lock: an advisory transaction lock on a 64-bit hash of the stream id,
#: seeded with the events table's oid so that each schema has its own keys. Two streams
#: whose hashes collide merely wait for each other.
_PG_STREAM_LOCK = (
    "SELECT pg_advisory_xact_lock(hashtextextended(%s, ('es_events'::regclass::oid)::bigint))"
)


def _es_append(
    conn: Any,
    stream_id: str,
    events: Sequence[Prepared],
    expected: int | None,
    key: str | None,
    now: datetime,
) -> AppendResult:
    """One call of ``es_append()`` on ``conn`` (in autocommit: its own transaction)."""
    import psycopg

    params = _es_append_params(stream_id, events, expected, key, now)
    try:
        rows = conn.execute(_PG_APPEND, params, prepare=True, binary=True).fetchall()
    except psycopg.errors.UniqueViolation as error:
        raise DuplicateEventError(f"an event id is already stored: {error}") from None
    except psycopg.errors.UndefinedFunction as error:
        raise _not_ready(error) from None
    return _append_result(rows)


def _es_append_params(
    stream_id: str,
    events: Sequence[Prepared],
    expected: int | None,
    key: str | None,
    now: datetime,
) -> tuple[Any, ...]:
    # Arrays are passed as array literals: psycopg's list adaptation costs more than
    # the rest of a single append's client side together.
    return (
        stream_id, expected, key, now, format_time(now),
        "{" + ",".join([str(e.event_id) for e in events]) + "}",
        _text_array([e.type for e in events]),
        "{" + ",".join([str(e.schema_version) for e in events]) + "}",
        _text_array([e.payload_json for e in events]),
        _text_array([e.metadata_json for e in events]),
    )  # fmt: skip


def _append_result(rows: list[Any]) -> AppendResult:
    """What ``es_append()`` returned: a replay, a conflict, or the appended links."""
    if rows and rows[0][0] == "replay":
        _, _, first, key_stream, last = rows[0]
        return Replay(key_stream, first, int(last))
    if rows and rows[0][0] == "conflict":
        return Conflict(rows[0][2])
    return Appended([(p, v, ph, h) for _, p, v, ph, h in rows])


class _PostgresWrite(WriteTx):
    sql = PG_SQL

    def insert(self, rows: Sequence[Any], key_row: dict[str, Any] | None) -> None:
        if rows:
            with self.conn.cursor() as cur:
                cur.executemany(self.sql.insert, rows)
        if key_row is not None:
            self.conn.execute(self.sql.insert_key, key_row)


class _PostgresLocked(WriteTx):
    """A stream's transaction (in pipeline mode): the append runs ``es_append()`` inside
    it, which takes the append lock until this transaction commits."""

    sql = PG_SQL

    def append(
        self,
        stream_id: str,
        events: Sequence[Prepared],
        expected: int | None,
        key: str | None,
        now: datetime,
    ) -> AppendResult:
        return _es_append(self.conn, stream_id, events, expected, key, now)

    def append_then(
        self,
        stream_id: str,
        events: Sequence[Prepared],
        expected: int | None,
        key: str | None,
        now: datetime,
    ) -> Callable[[], AppendResult]:
        # Queued, not fetched: its rows arrive with the COMMIT's reply, and an error (a
        # duplicate event id) when the transaction ends (Backend.locked maps it).
        cursor = self.conn.execute(
            _PG_APPEND, _es_append_params(stream_id, events, expected, key, now),
            prepare=True, binary=True,
        )  # fmt: skip
        return lambda: _append_result(cursor.fetchall())


class PostgresBackend(Backend):
    sql = PG_SQL

    @contextlib.contextmanager
    def _connect(self) -> Iterator[Any]:
        import psycopg

        # The pool's raw connection, switched to autocommit while the store holds it (a
        # read is one statement, an append one es_append() call: no BEGIN/COMMIT round
        # trips) and switched back before it returns to the pool, where SQLAlchemy users
        # of the same engine expect a transactional connection.
        pooled = self.engine.raw_connection()
        conn: Any = pooled.driver_connection
        try:
            conn.autocommit = True
            try:
                yield conn
            finally:
                conn.autocommit = False
        except psycopg.errors.UndefinedTable as error:
            pooled.close()
            raise _not_ready(error) from None
        except psycopg.OperationalError:
            pooled.invalidate()  # a broken connection must not go back to the pool
            raise
        except BaseException:
            pooled.close()
            raise
        pooled.close()

    def append(
        self,
        stream_id: str,
        events: Sequence[Prepared],
        expected: int | None,
        key: str | None,
        now: datetime,
    ) -> AppendResult:
        with self._connect() as conn:
            # One round trip, one implicit transaction: see migrations/versions/0002.
            return _es_append(conn, stream_id, events, expected, key, now)

    @contextlib.contextmanager
    def write(self) -> Iterator[WriteTx]:
        import psycopg

        with self._connect() as conn:
            try:
                with conn.pipeline(), conn.transaction():
                    # The lock es_append() takes (migration 0002), held until COMMIT and
                    # released only after the commit is visible.
                    conn.execute("SELECT es_append_lock()")
                    yield _PostgresWrite(conn, self)
            except psycopg.errors.UniqueViolation as error:
                raise DuplicateEventError(f"an event id is already stored: {error}") from None

    @contextlib.contextmanager
    def locked(self, stream_id: str) -> Iterator[WriteTx]:
        import psycopg

        # Pipelined: BEGIN, the lock and the first read go in one round trip, the append
        # and COMMIT in a second (a plain append is one, but decides nothing).
        with self._connect() as conn:
            try:
                with conn.pipeline(), conn.transaction():
                    # Held to the end of the transaction, like the append lock; every
                    # statement after it (READ COMMITTED) sees what the previous holder
                    # committed.
                    conn.execute(_PG_STREAM_LOCK, (stream_id,), prepare=True)
                    yield _PostgresLocked(conn, self)
            except psycopg.errors.UniqueViolation as error:
                raise DuplicateEventError(f"an event id is already stored: {error}") from None
            except psycopg.errors.UndefinedFunction as error:
                raise _not_ready(error) from None

    native = True

    def rows(self, raw: list[tuple[Any, ...]]) -> list[Row]:
        return _pg_rows(raw)

    def db_time(self, moment: datetime) -> Any:
        return moment

    def db_uuid(self, value: uuid.UUID) -> Any:
        return value

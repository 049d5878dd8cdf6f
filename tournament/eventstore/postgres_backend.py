"""The store on PostgreSQL: the append algorithm in the server, ``es_append()``.

A single append is one call of ``es_append()`` (tournament/migrations/versions/0003): one round trip
and one implicit transaction. It holds the stream's advisory lock to its commit, and the
append lock only while it takes its transaction id and positions, so appends to different
streams commit side by side and share the disk's flushes. A decision and its append
(:meth:`PostgresBackend.locked`) take the stream's lock first and call ``es_append()``
inside the same transaction, pipelined: two round trips.

Reading the log (:meth:`PostgresBackend.read_all`) returns events only up to the first
one whose transaction is not older than every transaction still running: an older one
may still commit events with lower positions. The connections are psycopg 3's, checked
out of a SQLAlchemy engine's pool; psycopg is imported only by a store on PostgreSQL.
"""

from __future__ import annotations

import contextlib
import re
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tournament.eventstore import pg_append
from tournament.eventstore.backends import (
    COLUMNS,
    SQL,
    Appended,
    AppendResult,
    Backend,
    Conflict,
    KeyRow,
    Prepared,
    Replay,
    Row,
    Statements,
    WriteTx,
    not_ready,
)
from tournament.eventstore.errors import DuplicateEventError, StoreNotEmptyError

if TYPE_CHECKING:
    import sqlalchemy as sa

    from tournament.eventstore.seals import Seal


def _pyformat(sql: str) -> str:
    """``:name`` placeholders to psycopg's ``%(name)s``."""
    return re.sub(r":(\w+)", r"%(\1)s", sql)


#: psycopg's ``%(name)s`` placeholders.
PG_SQL = Statements(*map(_pyformat, SQL))
_PG_APPEND = (
    "SELECT * FROM es_append(%s, %s, %s, %s::uuid[], %s::text[], %s::int[], %s::text[], %s::text[])"
)
#: The log after a position, each row flagged ``held`` when its transaction is not older
#: than every transaction still running (see the module's docstring).
_PG_READ_ALL = (
    f"SELECT {COLUMNS}, e.tx_id >= h.x FROM es_events e, "
    "(SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS x) h "
    "WHERE e.position > %(after)s ORDER BY e.position LIMIT %(n)s"
)
#: How long a read of the log waits for older transactions to end before it returns
#: what is safe to read (a transaction left open holds the log back: `db check` says so).
HELD_WAIT_SECONDS = 2.0


def _text_array(values: list[str]) -> str:
    """A PostgreSQL array literal of ``values`` (each quoted, ``\\`` and ``"`` escaped)."""
    if not values:
        return "{}"
    quoted = [v.replace("\\", "\\\\").replace('"', '\\"') for v in values]
    return '{"' + '","'.join(quoted) + '"}'


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
) -> AppendResult:
    """One call of ``es_append()`` on ``conn`` (in autocommit: its own transaction)."""
    import psycopg

    params = _es_append_params(stream_id, events, expected, key)
    try:
        rows = conn.execute(_PG_APPEND, params, prepare=True, binary=True).fetchall()
    except psycopg.errors.UniqueViolation as error:
        raise DuplicateEventError(f"an event id is already stored: {error}") from None
    except psycopg.errors.UndefinedFunction as error:
        raise not_ready(error) from None
    return _append_result(rows)


def _call_es_append(conn: Any, params: tuple[Any, ...]) -> tuple[Any, ...]:
    """:func:`.pg_append.call`, its errors the store's (as :func:`_es_append` maps them)."""
    import psycopg

    try:
        return pg_append.call(conn, params)
    except psycopg.errors.UniqueViolation as error:
        raise DuplicateEventError(f"an event id is already stored: {error}") from None
    except psycopg.errors.UndefinedFunction as error:
        raise not_ready(error) from None
    except psycopg.errors.UndefinedTable as error:
        raise not_ready(error) from None


def _call_es_append_one(
    conn: Any, stream_id: str, event: Prepared, expected: int | None, key: str | None
) -> AppendResult | None:
    """One event through ``es_append_one()`` (migration 0008) at libpq's level, its errors
    the store's; None where the database has none for this role (then ``es_append()``)."""
    import psycopg

    params = (stream_id, expected, key, event.event_id, event.type, event.schema_version,
              event.payload_json, event.metadata_json)  # fmt: skip
    try:
        row = pg_append.call_one(conn, params)
    except psycopg.errors.UniqueViolation as error:
        raise DuplicateEventError(f"an event id is already stored: {error}") from None
    except psycopg.errors.UndefinedTable as error:
        raise not_ready(error) from None
    if row is None:
        return None
    status, position, first, last, prev, digest, at, key_stream = row
    if status == "replay":
        return Replay(key_stream, first, last)
    if status == "conflict":
        return Conflict(first)
    return Appended([(position, first, prev, digest)], at)


def _es_append_params(
    stream_id: str, events: Sequence[Prepared], expected: int | None, key: str | None
) -> tuple[Any, ...]:
    # Arrays are passed as array literals: psycopg's list adaptation costs more than
    # the rest of a single append's client side together. No time: the server's clock.
    return (
        stream_id, expected, key,
        "{" + ",".join([str(e.event_id) for e in events]) + "}",
        _text_array([e.type for e in events]),
        "{" + ",".join([str(e.schema_version) for e in events]) + "}",
        _text_array([e.payload_json for e in events]),
        _text_array([e.metadata_json for e in events]),
    )  # fmt: skip


def _append_result(rows: list[Any]) -> AppendResult:
    """What ``es_append()`` returned (one row: see migration 0003): a replay, a conflict,
    or the appended events' positions, versions and hashes."""
    status, positions, first, last, prev, hashes, at, key_stream = rows[0]
    if status == "replay":
        return Replay(key_stream, first, last)
    if status == "conflict":
        return Conflict(first)
    links = []
    for i, (position, digest) in enumerate(zip(positions, hashes, strict=True)):
        links.append((position, first + i, prev, digest))
        prev = digest
    return Appended(links, at if links else None)


_PG_RESTORE_EVENTS = (
    "SELECT es_restore_events(%s::bigint[], %s::uuid[], %s::text[], %s::int[], %s::text[], "
    "%s::int[], %s::text[], %s::text[], %s::timestamptz[], %s::text[], %s::text[])"
)
_PG_RESTORE_KEYS = (
    "SELECT es_restore_keys(%s::text[], %s::text[], %s::int[], %s::int[], %s::timestamptz[])"
)
_PG_RESTORE_SEAL = "SELECT es_restore_seal(%s, %s, %s, %s, %s, %s, %s, %s, %s)"
#: The keys of import's rows (backends.INSERT's and INSERT_KEY's parameters), in the
#: order of the restore functions' arrays.
_EVENT_PARAMS = ("p", "e", "s", "v", "t", "sv", "pl", "md", "ra", "ph", "h")
_KEY_PARAMS = ("k", "s", "first", "last", "ra")


class _PostgresWrite(WriteTx):
    """Import's transaction. The application's role may not INSERT into the event tables
    (deploy/postgres-roles.sql), so a restore goes through the functions of migration
    0003, which the database runs only while the store holds nothing another transaction
    wrote: restoring is no way to slip a backdated event into a live log."""

    sql = PG_SQL

    def insert(self, rows: Sequence[Any], key_row: dict[str, Any] | None) -> None:
        if rows:
            # One array per column; the function sets the position sequence above them.
            events = [[row[c] for row in rows] for c in _EVENT_PARAMS]
            self.conn.execute(_PG_RESTORE_EVENTS, events)
        if key_row is not None:
            self.conn.execute(_PG_RESTORE_KEYS, [[key_row[c]] for c in _KEY_PARAMS])

    def insert_seal(self, seal: Seal) -> None:
        """Restore a seal as it was made (its time too), after the events it covers."""
        self.conn.execute(
            _PG_RESTORE_SEAL,
            (seal.seq, seal.position, seal.events, seal.head, seal.digests, seal.sealed_at,
             seal.reason, seal.key_id, seal.mac),
        )  # fmt: skip


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
        return _es_append(self.conn, stream_id, events, expected, key)

    def key_and_stream(
        self, key: str, stream_id: str, lo: int, hi: int
    ) -> tuple[KeyRow | None, list[tuple[Any, ...]]]:
        # Both queued before either is fetched: one round trip (pipeline mode).
        used = self.conn.execute(self.sql.read_key, {"k": key}, prepare=True)
        rows = self.conn.execute(
            self.sql.read_stream, {"s": stream_id, "lo": lo, "hi": hi}, prepare=True
        )
        row = used.fetchone()
        return (None if row is None else KeyRow(*row)), rows.fetchall()

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
            _PG_APPEND, _es_append_params(stream_id, events, expected, key),
            prepare=True, binary=True,
        )  # fmt: skip
        return lambda: _append_result(cursor.fetchall())


def _release_session_locks(conn: Any) -> None:
    """After an error: es_append() holds the append lock at session level for a few
    statements; an error (a cancel) among them would leave it held by this pooled
    connection and every other writer waiting."""
    import psycopg

    try:
        conn.autocommit = True
        conn.execute("SELECT pg_advisory_unlock_all()")
        conn.autocommit = False  # as the pool's other users expect it
    except psycopg.Error:
        pass  # a broken connection: closing it releases everything anyway


class PostgresBackend(Backend):
    sql = PG_SQL
    native = True

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self._hot = pg_append.HotConnection(engine)

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
            raise not_ready(error) from None
        except psycopg.OperationalError:
            pooled.invalidate()  # a broken connection must not go back to the pool
            raise
        except BaseException:
            _release_session_locks(conn)
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
        # One round trip, one implicit transaction: see tournament/migrations/versions/0003;
        # at libpq's level, without the cursor's cost (pg_append's docstring), on the
        # backend's hot connection when no other thread is using it.
        # One event (most appends): es_append_one(), less work on both sides (0008).
        conn = self._hot.take()
        if conn is None:
            with self._connect() as pooled:
                return self._append_on(pooled, stream_id, events, expected, key)
        healthy = False
        try:
            result = self._append_on(conn, stream_id, events, expected, key)
            healthy = True
        finally:
            self._hot.give_back(conn, healthy)
        return result

    @staticmethod
    def _append_on(
        conn: Any,
        stream_id: str,
        events: Sequence[Prepared],
        expected: int | None,
        key: str | None,
    ) -> AppendResult:
        if len(events) == 1:
            result = _call_es_append_one(conn, stream_id, events[0], expected, key)
            if result is not None:
                return result
        params = _es_append_params(stream_id, events, expected, key)
        return _append_result([_call_es_append(conn, params)])

    def close(self) -> None:
        self._hot.close()

    @contextlib.contextmanager
    def write(self) -> Iterator[WriteTx]:
        import psycopg

        with self._connect() as conn:
            try:
                with conn.pipeline(), conn.transaction():
                    # The append lock es_append() takes for its positions (migration
                    # 0003), held here to the COMMIT: nobody takes positions meanwhile.
                    conn.execute("SELECT es_append_lock()")
                    yield _PostgresWrite(conn, self)
            except psycopg.errors.UniqueViolation as error:
                raise DuplicateEventError(f"an event id is already stored: {error}") from None
            except psycopg.errors.ObjectNotInPrerequisiteState as error:
                # The restore functions' refusal (a store that is not empty): one line.
                raise StoreNotEmptyError(
                    f"{error.diag.message_primary}; nothing was imported"
                ) from None
            except psycopg.errors.UndefinedFunction as error:
                raise not_ready(error) from None

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
                raise not_ready(error) from None

    def read_all(self, after: int, limit: int) -> list[tuple[Any, ...]]:
        """The log after ``after``, up to the first event an older transaction still
        running could yet commit events before. While there is such an event, it waits
        (up to :data:`HELD_WAIT_SECONDS`) for those transactions: so a reader sees every
        event committed before its read, and never one out of order."""
        deadline = time.monotonic() + HELD_WAIT_SECONDS
        pause = 0.0005
        with self._connect() as conn:
            while True:
                rows = conn.execute(
                    _PG_READ_ALL, {"after": after, "n": limit}, prepare=True
                ).fetchall()
                held = next((i for i, row in enumerate(rows) if row[11]), None)
                if held is None:
                    return [row[:11] for row in rows]
                if time.monotonic() + pause > deadline:
                    return [row[:11] for row in rows[:held]]
                time.sleep(pause)
                pause = min(pause * 2, 0.05)

    def add_seal(self, seal: Seal) -> bool:
        with self._connect() as conn:
            status = conn.execute(
                "SELECT es_seal(%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (seal.seq, seal.position, seal.events, seal.head, seal.digests,
                 seal.sealed_at, seal.reason, seal.key_id, seal.mac),
            ).fetchone()[0]  # fmt: skip
        return bool(status == "ok")

    def expire_keys(self, before: datetime) -> int:
        with self._connect() as conn:
            return int(conn.execute("SELECT es_expire_keys(%s)", (before,)).fetchone()[0])

    def clock(self) -> datetime:
        with self._connect() as conn:
            moment: datetime = conn.execute("SELECT clock_timestamp()").fetchone()[0]
        return moment

    def rows(self, raw: list[tuple[Any, ...]]) -> list[Row]:
        return raw  # psycopg already gives uuid.UUID and aware datetimes

    def db_time(self, moment: datetime) -> Any:
        return moment

    def db_uuid(self, value: uuid.UUID) -> Any:
        return value

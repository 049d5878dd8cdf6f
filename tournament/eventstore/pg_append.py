"""A plain append on PostgreSQL at libpq's level: one prepared ``es_append()`` call.

A single append's client side was mostly psycopg's own machinery, not the store's: the
cursor, the prepared-statement bookkeeping, the parameter dumpers and the loaders of
eight result columns cost more than everything else of an append together (issue 22,
"raw INSERT" baseline of bench/eventstore.py). Here the statement is prepared once per
connection under a name of its own, its parameters go as text (the arrays as the
literals :func:`~.postgres_backend._es_append_params` makes) and its one row comes back
as text the store parses itself: positions and hashes as plain lists, the time as
``to_char`` writes it for the hash chain. What the database does (migration 0003), the
events, hashes and the answer are exactly those of a call through psycopg's cursor.

libpq's blocking call releases the GIL (other threads run during the round trip). An
error is psycopg's own exception for the server's answer (``UniqueViolation`` ...), so
the callers map errors as they did.
"""

from __future__ import annotations

import os
import threading
import weakref
from datetime import UTC, datetime
from typing import Any

#: The name the statement is prepared under on each connection (psycopg's own are
#: ``_pg3_N``). A new name for a new form of the statement: an old connection may hold one.
STATEMENT = b"es_append_text_v1"
#: ``es_append()``'s row as text: the arrays flattened, the time as the hash chain
#: stamps it (UTC, microseconds), so parsing it needs no knowledge of DateStyle.
SQL = (
    b"SELECT a.status, array_to_string(a.positions, ','), a.first_version, a.last_version,"
    b" a.prev_hash, array_to_string(a.hashes, ','),"
    b" to_char(a.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US'),"
    b" a.key_stream"
    b" FROM es_append($1, $2::integer, $3, $4::uuid[], $5::text[], $6::integer[],"
    b" $7::text[], $8::text[]) a"
)
#: One event: ``es_append_one()`` (migration 0008), scalars in, its row as it is.
STATEMENT_ONE = b"es_append_one_text_v1"
SQL_ONE = (
    b"SELECT status, position, first_version, last_version, prev_hash, hash, stamp,"
    b" key_stream"
    b" FROM es_append_one($1, $2::integer, $3, $4::uuid, $5, $6::integer, $7, $8)"
)
#: Per connection: its encoding, once the statement is prepared there.
_prepared: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
#: Per connection: its encoding, once ``STATEMENT_ONE`` is prepared there; ``_ARRAYS_ONLY``
#: where the database cannot run it (still at 0007, or the role not granted it).
_prepared_one: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
_ARRAYS_ONLY = ""
_TUPLES_OK = 2
_COMMAND_OK = 1
#: SQLSTATE of a prepared statement the session does not have (``DEALLOCATE ALL``, a
#: pooler's reset): prepared again and run, nothing having run.
_NO_SUCH_STATEMENT = b"26000"
_ALREADY_PREPARED = "42P05"
#: ``es_append_one()`` missing or not the role's to run: nothing ran.
_NOT_HERE = {b"42883", b"42501"}  # undefined_function, insufficient_privilege


def call(conn: Any, params: tuple[Any, ...]) -> tuple[Any, ...]:
    """``es_append()``'s row for ``params`` (as ``_es_append_params`` gives them) on the
    psycopg connection ``conn`` in autocommit: (status, positions, first, last, prev,
    hashes, recorded_at, key_stream), typed as psycopg's cursor would give them."""
    encoding = _prepared.get(conn)
    if encoding is None:
        encoding = _prepare(conn)
    values = [None if v is None else str(v).encode(encoding) for v in params]
    result = conn.pgconn.exec_prepared(STATEMENT, values)
    if result.status != _TUPLES_OK:
        if result.error_field(_sqlstate()) == _NO_SUCH_STATEMENT:
            _prepared.pop(conn, None)
            encoding = _prepare(conn)
            result = conn.pgconn.exec_prepared(STATEMENT, values)
        if result.status != _TUPLES_OK:
            raise _error(result, encoding)
    return _row(result, encoding)


def call_one(conn: Any, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """``es_append_one()``'s row for one event on ``conn`` (autocommit): (status,
    position, first version, last version, prev_hash, hash, recorded_at, key_stream);
    None where the database has no ``es_append_one()`` for this role (the caller then
    calls :func:`call`). ``params``: stream, expected, key, event id, type, schema
    version, payload and metadata text."""
    encoding = _prepared_one.get(conn)
    if encoding == _ARRAYS_ONLY:
        return None
    if encoding is None:
        encoding = _prepare_one(conn)
        if encoding is None:
            return None
    values = [None if v is None else str(v).encode(encoding) for v in params]
    result = conn.pgconn.exec_prepared(STATEMENT_ONE, values)
    if result.status != _TUPLES_OK:
        code = result.error_field(_sqlstate())
        if code == _NO_SUCH_STATEMENT:
            _prepared_one.pop(conn, None)
            encoding = _prepare_one(conn)
            if encoding is None:
                return None
            result = conn.pgconn.exec_prepared(STATEMENT_ONE, values)
            code = None if result.status == _TUPLES_OK else result.error_field(_sqlstate())
        if code in _NOT_HERE:
            _prepared_one[conn] = _ARRAYS_ONLY
            return None
        if result.status != _TUPLES_OK:
            raise _error(result, encoding)
    status, position, first, last, prev, digest, stamp, key_stream = (
        None if v is None else v.decode(encoding)
        for v in [result.get_value(0, i) for i in range(8)]
    )
    return (
        status,
        None if position is None else int(position),
        None if first is None else int(first),
        None if last is None else int(last),
        prev,
        digest,
        None if stamp is None else datetime.fromisoformat(stamp),
        key_stream,
    )


def _prepare_one(conn: Any) -> str | None:
    """Prepare ``STATEMENT_ONE`` on ``conn``: its encoding, None (and remembered) where
    the database has no ``es_append_one()``."""
    encoding: str = conn.info.encoding
    result = conn.pgconn.prepare(STATEMENT_ONE, SQL_ONE)
    if result.status != _COMMAND_OK:
        code = result.error_field(_sqlstate())
        if code in _NOT_HERE:
            _prepared_one[conn] = _ARRAYS_ONLY
            return None
        error = _error(result, encoding)
        if getattr(error, "sqlstate", None) != _ALREADY_PREPARED:
            raise error
    _prepared_one[conn] = encoding
    return encoding


def _row(result: Any, encoding: str) -> tuple[Any, ...]:
    text = [result.get_value(0, i) for i in range(8)]
    status, positions, first, last, prev, hashes, at, key_stream = (
        None if v is None else v.decode(encoding) for v in text
    )
    return (
        status,
        None if positions is None else [int(p) for p in positions.split(",") if p],
        None if first is None else int(first),
        None if last is None else int(last),
        prev,
        None if hashes is None else [h for h in hashes.split(",") if h],
        None if at is None else datetime.fromisoformat(at).replace(tzinfo=UTC),
        key_stream,
    )


def _prepare(conn: Any) -> str:
    encoding: str = conn.info.encoding
    result = conn.pgconn.prepare(STATEMENT, SQL)
    if result.status != _COMMAND_OK:
        error = _error(result, encoding)
        if getattr(error, "sqlstate", None) != _ALREADY_PREPARED:
            raise error
    _prepared[conn] = encoding
    return encoding


def _sqlstate() -> int:
    from psycopg import pq

    return int(pq.DiagnosticField.SQLSTATE)


def _error(result: Any, encoding: str) -> Exception:
    """psycopg's exception for the server's error (as its cursor would raise it)."""
    import psycopg

    error: Exception = psycopg.errors.error_from_result(result, encoding=encoding)
    return error


class HotConnection:
    """One connection kept out of the engine's pool for plain appends, in autocommit for
    good: checking one out of SQLAlchemy's pool, switching it to autocommit and back and
    its reset on return cost as much as the append's own client side. It is taken from
    the engine (detached from its pool: made by the engine's ``connect`` hooks, with its
    settings) the first time, and is one connection more than the pool's; while another
    thread uses it, :meth:`take` gives None and the caller uses the pool as before.

    It lives as long as the engine's pool: ``engine.dispose()`` closes it too (a detached
    connection is no longer the pool's to close), and one in use as the engine is
    disposed is closed when it comes back. It calls itself ``append`` in
    ``pg_stat_activity`` (:func:`tournament.db.application_name`)."""

    def __init__(self, engine: Any) -> None:
        import sqlalchemy as sa

        self.engine = engine
        self._lock = threading.Lock()
        self._idle: Any = None  # the connection when nobody uses it
        self._made = False  # whether it exists (idle or in use)
        self._lent: Any = None  # the connection in use (None: closed meanwhile)
        self._closes = 0  # how many times it was closed
        self._pid = os.getpid()  # the process that made the connection
        sa.event.listen(engine, "engine_disposed", self._disposed)

    def _disposed(self, _engine: Any) -> None:
        self.close()

    def take(self) -> Any:
        """The connection (None: in use by another thread)."""
        from tournament.db import _gone

        with self._lock:
            conn, self._idle = self._idle, None
            if conn is None and self._made:
                return None
            self._made = True
            closes = self._closes
        if conn is not None and _gone(conn) is None:
            return self._lend(conn, closes)
        if conn is not None:
            conn.close()  # the server ended it (a restart): a new one
        made = None
        try:
            pooled = self.engine.raw_connection()
            conn = pooled.driver_connection
            pooled.detach()
            made = conn
            conn.autocommit = True
            self._name(conn)
        except BaseException:
            with self._lock:
                if self._closes == closes:
                    self._made = False
            if made is not None:
                made.close()
            raise
        self._pid = os.getpid()
        return self._lend(conn, closes)

    def _lend(self, conn: Any, closes: int) -> Any:
        with self._lock:
            if self._closes == closes:  # else closed meanwhile: closed as it comes back
                self._lent = conn
        return conn

    def _name(self, conn: Any) -> None:
        """Call the connection ``append`` (it was made as one of the engine's pool), unless
        the URL gave the name."""
        from tournament.db import application_name

        if "application_name" not in self.engine.url.query:
            conn.execute(
                "SELECT set_config('application_name', %s, false)",
                (application_name("append"),),
            )

    def give_back(self, conn: Any, healthy: bool) -> None:
        """Return ``conn``; one that saw an error is closed instead (which also releases
        any session lock ``es_append()`` may have held when it failed), and so is one
        lent out before the last :meth:`close`."""
        with self._lock:
            current = conn is self._lent
            if current:
                self._lent = None
                if healthy:
                    self._idle = conn
                    return
                self._made = False
        conn.close()

    def close(self) -> None:
        """Close the connection (made again on next use); one in use now is closed when
        it comes back. In a forked child (a worker process: ``dispose(close=False)``)
        the parent's connection is only forgotten: closing it would end the parent's."""
        with self._lock:
            conn, self._idle = self._idle, None
            self._made = False
            self._lent = None
            self._closes += 1
        if conn is not None and self._pid == os.getpid():
            conn.close()

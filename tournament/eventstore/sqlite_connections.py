"""Where the SQLite backend's connections come from: a pool of its own on the ``sqlite3``
module (:class:`SQLitePool`, a store opened on a ``sqlite:///PATH`` URL, the command
line's way: no SQLAlchemy imported), or SQLAlchemy's pool (:class:`EngineConnections`, a
store given an engine). Both hand out ``sqlite3`` connections set up alike
(:func:`tournament.db.configure_sqlite`: WAL, busy timeout, ``synchronous=FULL``, foreign
keys, transactions under the store's control), and neither creates a missing file.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> try:
    ...     with SQLitePool(folder / "none.sqlite3").connect() as conn:
    ...         pass
    ... except StoreMissingError as error:
    ...     print(str(error).replace(str(folder), "FOLDER"))
    there is no database file FOLDER/none.sqlite3: `tournament db upgrade` creates one
    >>> list(folder.iterdir())  # and none was created
    []
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from tournament import db
from tournament.eventstore.errors import EventStoreError, StoreMissingError

if TYPE_CHECKING:
    import sqlalchemy as sa


#: How long a writer waits for the database's write lock (SQLite's busy timeout) before
#: it gives up with :class:`StoreBusyError` (the web answers 503); the tests shorten it.
DEFAULT_WRITE_WAIT_S = db.BUSY_TIMEOUT_MS / 1000
WRITE_WAIT_S = DEFAULT_WRITE_WAIT_S


class StoreBusyError(EventStoreError):
    """The database's write lock was not free within :data:`WRITE_WAIT_S`: nothing was
    written; try again shortly (the web answers 503 with ``Retry-After``)."""

    def __init__(self, waited: float) -> None:
        super().__init__(f"the database was busy: no write lock within {waited:.1f} s")
        self.waited = waited


def is_busy(error: BaseException) -> bool:
    """Whether ``error`` is SQLite's "database is locked"/"busy" (another writer kept
    the lock beyond the busy timeout)."""
    if isinstance(error, StoreBusyError):
        return True
    original = getattr(error, "orig", error)  # SQLAlchemy wraps the driver's error
    if not isinstance(original, sqlite3.OperationalError):
        return False
    text = str(original).lower()
    return "database is locked" in text or "database is busy" in text


class SQLiteConnections(Protocol):
    """A source of configured ``sqlite3`` connections, one per ``with`` block."""

    def connect(self) -> contextlib.AbstractContextManager[sqlite3.Connection]: ...

    def close(self) -> None:
        """Close the connections this source opened itself."""


def missing_file(path: Path | None) -> StoreMissingError | None:
    """The error for a SQLite file that is not there (nothing here creates one)."""
    if path is None or path.exists():
        return None
    return StoreMissingError(
        f"there is no database file {path}: `tournament db upgrade` creates one"
    )


class SQLitePool:
    """Connections to the SQLite file at ``path`` through the ``sqlite3`` module, reused
    like SQLAlchemy's pool for the store (``pool_use_lifo``): the most recently returned
    first, since its page cache is the warm one; at most ``keep`` kept open while idle,
    any number in use (each thread takes its own; SQLite's locks and busy timeout queue
    the writers). Thread-safe."""

    def __init__(self, path: Path, keep: int = 20) -> None:
        self.path = path
        self.keep = keep
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        # Connections opened before the last close() are closed when they come back.
        self._generation = 0
        self._born: dict[int, int] = {}

    @contextlib.contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        conn = self._checkout()
        try:
            yield conn
        finally:
            self._checkin(conn)

    def _checkout(self) -> sqlite3.Connection:
        with self._lock:
            if self._idle:
                return self._idle.pop()
            generation = self._generation
        try:
            conn = db.connect_sqlite(self.path)
        except sqlite3.OperationalError:
            missing = missing_file(self.path)
            if missing is not None:
                raise missing from None
            raise
        with self._lock:
            self._born[id(conn)] = generation
        return conn

    def _checkin(self, conn: sqlite3.Connection) -> None:
        if conn.in_transaction:  # left open by an error the rollback itself met
            try:
                conn.rollback()
            except sqlite3.Error:
                self._discard(conn)
                return
        with self._lock:
            current = self._born.get(id(conn)) == self._generation
            if current and len(self._idle) < self.keep:
                self._idle.append(conn)
                return
        self._discard(conn)

    def _discard(self, conn: sqlite3.Connection) -> None:
        with self._lock:
            self._born.pop(id(conn), None)
        conn.close()

    def close(self) -> None:
        """Close the idle connections now, and those in use when they come back. The
        last connection to a file to close checkpoints the write-ahead log into it."""
        with self._lock:
            idle, self._idle = self._idle, []
            self._generation += 1
            for conn in idle:
                self._born.pop(id(conn), None)
        for conn in idle:
            conn.close()


class EngineConnections:
    """The ``sqlite3`` connections of a SQLAlchemy engine's pool (an engine from
    :func:`tournament.db.make_engine`, which the caller owns and disposes)."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine

    @contextlib.contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        import sqlalchemy as sa

        try:
            checked_out = self.engine.connect()
        except sa.exc.OperationalError:
            missing = missing_file(db.sqlite_path(self.engine.url))
            if missing is not None:
                raise missing from None
            raise
        with checked_out as conn:
            driver = conn.connection.driver_connection
            assert isinstance(driver, sqlite3.Connection)
            if driver.isolation_level is not None:
                raise EventStoreError("use tournament.db.make_engine for SQLite engines")
            yield driver

    def close(self) -> None:
        """Nothing: the engine's pool is its owner's to dispose."""

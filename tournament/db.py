"""SQLAlchemy engines configured for the event store's guarantees.

    >>> engine = make_engine("sqlite://")  # in memory, for a quick look
    >>> with engine.connect() as conn:
    ...     conn.exec_driver_sql("PRAGMA busy_timeout").scalar()
    30000

SQLite gets WAL mode (readers never block the writer), a busy timeout (writers queue
instead of failing at once), ``synchronous=FULL`` (an acknowledged commit survives a
power cut) and explicit transaction control, so that the store can ``BEGIN IMMEDIATE``:
taking the write lock before reading the stream head is what makes an append atomic.
Use the execution option ``sqlite_begin="IMMEDIATE"`` for any other read-then-write
transaction on SQLite (projections do).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from tournament.config import database_url

BUSY_TIMEOUT_MS = 30_000


def make_engine(url: str | sa.URL | None = None, **kwargs: Any) -> sa.Engine:
    """An engine for ``url`` (default: :func:`tournament.config.database_url`)."""
    url = sa.make_url(url or database_url())
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url, **kwargs)
    kwargs.setdefault("pool_size", 10)
    kwargs.setdefault("max_overflow", 20)
    engine = sa.create_engine(url, **kwargs)

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Timestamps come back in UTC whatever the server's default time zone.
        autocommit = dbapi_connection.autocommit
        dbapi_connection.autocommit = True
        dbapi_connection.execute("SET TIME ZONE 'UTC'")
        dbapi_connection.autocommit = autocommit

    return engine


def _sqlite_engine(url: sa.URL, **kwargs: Any) -> sa.Engine:
    if url.database and url.database != ":memory:":
        from pathlib import Path

        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    connect_args = kwargs.pop("connect_args", {})
    connect_args.setdefault("check_same_thread", False)
    connect_args.setdefault("timeout", BUSY_TIMEOUT_MS / 1000)
    kwargs.setdefault("pool_size", 20)
    kwargs.setdefault("max_overflow", 20)
    # Reuse the most recently used connection: its page cache is the warm one (each
    # SQLite connection keeps its own, and a write elsewhere makes the others re-read).
    kwargs.setdefault("pool_use_lifo", True)
    if not url.database or url.database == ":memory:":
        for option in ("pool_size", "max_overflow", "pool_use_lifo"):
            kwargs.pop(option)
    engine = sa.create_engine(url, connect_args=connect_args, **kwargs)

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control away from the sqlite3 module (it would BEGIN
        # DEFERRED on its own); SQLAlchemy's "begin" event below emits BEGIN instead.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(connection: sa.Connection) -> None:
        mode = connection.get_execution_options().get("sqlite_begin", "")
        connection.exec_driver_sql(f"BEGIN {mode}".strip())

    return engine


def is_sqlite(engine: sa.Engine) -> bool:
    return engine.dialect.name == "sqlite"

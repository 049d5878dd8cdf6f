"""Database connections configured for the event store's guarantees.

    >>> engine = make_engine("sqlite://")  # in memory, for a quick look
    >>> with engine.connect() as conn:
    ...     conn.exec_driver_sql("PRAGMA busy_timeout").scalar()
    30000

SQLite gets WAL mode (readers never block the writer), a busy timeout (writers queue
instead of failing at once), ``synchronous=FULL`` (an acknowledged commit survives a
power cut), foreign keys, and explicit transaction control, so that the store can ``BEGIN
IMMEDIATE``: taking the write lock before reading the stream head is what makes an append
atomic. Use the execution option ``sqlite_begin="IMMEDIATE"`` for any other
read-then-write transaction on SQLite (projections do).

A SQLite file is reached two ways with the same settings (:func:`configure_sqlite`):
through SQLAlchemy (:func:`make_engine`: Alembic, backups, projections, PostgreSQL), and
straight through the ``sqlite3`` module (:func:`connect_sqlite`), which is how the event
store opens a plain ``sqlite:///PATH`` URL: an organiser's command then never imports
SQLAlchemy, a third of its start-up. This module imports SQLAlchemy only where it is used.

Neither way creates a SQLite file or its folder: connecting to a file that is not there
fails (``unable to open database file``). Only :func:`create_sqlite_file`, which
``tournament db upgrade`` and the organiser's first write call, brings one into being, so
a mistyped path or a read-only command leaves nothing behind.

    >>> try:
    ...     make_engine("mysql://club@db/turnier")
    ... except DatabaseURLError as error:
    ...     print(error)
    the event store runs on SQLite or PostgreSQL, not mysql (mysql://club@db/turnier)
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

from tournament.config import database_url
from tournament.readable import readable_now

if TYPE_CHECKING:
    import sqlalchemy as sa

BUSY_TIMEOUT_MS = 30_000
#: Seconds to wait for a PostgreSQL server that does not answer (a wrong host, a firewall).
PG_CONNECT_TIMEOUT = 10

#: A SQLite URL naming a file and nothing else (no host, no options after ``?``): the
#: URLs :func:`sqlite_file` reads without SQLAlchemy, exactly as ``sa.make_url`` does.
_PLAIN_SQLITE = re.compile(r"sqlite(?:\+pysqlite)?:///(?P<database>[^?]*)\Z")
#: A URL of characters SQLAlchemy writes back as they are (it quotes "@", ":", "%", ...).
_PLAIN_PATH = re.compile(r"[a-z+]+:///[A-Za-z0-9_./ -]*\Z")


class DatabaseURLError(ValueError):
    """``DATABASE_URL`` (or ``--database-url``) names nothing the event store can run on."""


#: PostgreSQL connections each pool keeps open while quiet (a process has two pools: the
#: log's and the accounts'), and how many more it opens under load, closed again after.
#: Bounded so that a default deploy leaves a shared server room (docs/deploy.md, "How
#: many PostgreSQL connections"): 2 + 8 is 10 at most, above the 8 threads of a web
#: process, so a thread seldom waits for a connection of its own process. Fewer is safe
#: too: no code path holds one connection of a pool while it waits for a second from it,
#: so threads beyond the connections queue instead of deadlocking (issue 22).
POOL_SIZE = 2
MAX_OVERFLOW = 8


def pool_setting(name: str, default: int, environ: Mapping[str, str] | None = None) -> int:
    """A pool size from the environment: a whole number (at least 1 for the pool, 0 for
    the overflow), else :class:`DatabaseURLError` naming the variable.

    >>> pool_setting("SCHNAPSEN_DB_POOL_SIZE", 2, {"SCHNAPSEN_DB_POOL_SIZE": "5"})
    5
    >>> try:
    ...     pool_setting("SCHNAPSEN_DB_MAX_OVERFLOW", 8, {"SCHNAPSEN_DB_MAX_OVERFLOW": "-1"})
    ... except DatabaseURLError as error:
    ...     print(error)
    SCHNAPSEN_DB_MAX_OVERFLOW is '-1': a whole number of connections, at least 0
    """
    text = (os.environ if environ is None else environ).get(name, "").strip()
    if not text:
        return default
    least = 0 if name.endswith("OVERFLOW") else 1
    if not (text.isascii() and text.isdigit()) or int(text) < least:
        raise DatabaseURLError(
            f"{name} is {text!r:.20}: a whole number of connections, at least {least}"
        )
    return int(text)


def parse_url(url: str | sa.URL | None = None) -> sa.URL:
    """``url`` (default: :func:`tournament.config.database_url`) checked: SQLite, or
    PostgreSQL through psycopg 3 (``postgresql://`` without a driver means psycopg)."""
    import sqlalchemy as sa

    text = url or database_url()
    try:
        parsed = sa.make_url(text)
    except (sa.exc.ArgumentError, ValueError) as error:  # ValueError: a port that is no number
        why = (
            "its port is not a number"
            if isinstance(error, ValueError)
            else "give a file path, sqlite:///PATH or postgresql://USER@HOST/DATABASE"
        )
        raise DatabaseURLError(f"{safe_url(text)} is not a database URL: {why}") from None
    backend, driver = parsed.get_backend_name(), parsed.get_driver_name()
    if backend == "postgresql" and "+" not in parsed.drivername:
        parsed = parsed.set(drivername="postgresql+psycopg")
    elif backend == "postgresql" and driver != "psycopg":
        raise DatabaseURLError(
            f"PostgreSQL is reached through psycopg 3, not {driver}: write postgresql://... "
            f"({safe_url(parsed)})"
        )
    elif backend not in ("sqlite", "postgresql"):
        raise DatabaseURLError(
            f"the event store runs on SQLite or PostgreSQL, not {backend} ({safe_url(parsed)})"
        )
    return parsed


def safe_url(url: str | sa.URL) -> str:
    """``url`` for messages: its password hidden, even when the URL does not parse.

    >>> safe_url("postgresql://app:secret@db:port/club")
    "'postgresql://app:***@db:port/club'"
    >>> safe_url("sqlite:////srv/club/turnier.sqlite3")
    'sqlite:////srv/club/turnier.sqlite3'
    """
    if isinstance(url, str) and _PLAIN_SQLITE.match(url) and _PLAIN_PATH.match(url):
        return url  # no password, nothing SQLAlchemy would write otherwise (serve's start)
    import sqlalchemy as sa

    try:
        return sa.make_url(url).render_as_string(hide_password=True)
    except (sa.exc.ArgumentError, ValueError):
        return repr(re.sub(r"(://[^/@:]*:)[^/@]*@", r"\1***@", str(url)))


def sqlite_file(url: str) -> Path | None:
    """The file of a plain SQLite URL (``sqlite:///PATH``, no options after ``?``), read
    without SQLAlchemy and as it reads it (``%20`` is a space); None for anything else:
    PostgreSQL, a database in memory, a URL with options.

    >>> sqlite_file("sqlite:////srv/club/turnier%202026.sqlite3")
    PosixPath('/srv/club/turnier 2026.sqlite3')
    >>> sqlite_file("sqlite:///:memory:"), sqlite_file("sqlite:////srv/club.sqlite3?mode=ro")
    (None, None)
    """
    match = _PLAIN_SQLITE.match(url)
    if match is None:
        return None
    database = unquote(match["database"])
    if database in ("", ":memory:"):
        return None
    return Path(database).absolute()


def sqlite_path(url: str | sa.URL) -> Path | None:
    """The file of a SQLite URL (None: not SQLite, or in memory)."""
    if isinstance(url, str) and _PLAIN_SQLITE.match(url):
        return sqlite_file(url)
    import sqlalchemy as sa

    try:
        parsed = sa.make_url(url)
    except (sa.exc.ArgumentError, ValueError):
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).absolute()


def create_sqlite_file(url: str | sa.URL) -> None:
    """Create the SQLite file of ``url`` (and its folder) if it is not there yet: the one
    place a store file comes into being (``tournament db upgrade``, the first write)."""
    path = sqlite_path(url)
    if path is None or path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    sqlite3.connect(path).close()  # an empty file: a database with no tables


def configure_sqlite(connection: sqlite3.Connection) -> None:
    """The settings of every connection to a SQLite store, whichever way it was opened."""
    # Take transaction control away from the sqlite3 module (it would BEGIN DEFERRED on
    # its own): the store says BEGIN IMMEDIATE itself, SQLAlchemy's "begin" event BEGIN.
    connection.isolation_level = None
    cursor = connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def connect_sqlite(path: Path) -> sqlite3.Connection:
    """A connection to the SQLite file at ``path`` through the ``sqlite3`` module, set up
    as an engine's (:func:`configure_sqlite`); usable from any thread, one at a time. A
    file that is not there is not created (``unable to open database file``)."""
    connection = sqlite3.connect(
        f"file:{quote(str(path))}?mode=rw",  # mode=rw opens only a file that exists
        uri=True,
        timeout=BUSY_TIMEOUT_MS / 1000,
        check_same_thread=False,
    )
    try:
        configure_sqlite(connection)
    except sqlite3.OperationalError:
        connection.close()
        if not frozen_in_place(path):
            raise
        return _read_only(path)
    except BaseException:
        connection.close()
        raise
    return connection


def frozen_in_place(path: Path) -> bool:
    """A store nobody can write to: its folder takes no new file (a write-protected stick,
    a read-only mount) and no write-ahead log is there, so SQLite cannot make the index it
    needs to read a WAL file -- yet nothing can change the file either."""
    wal = path.with_name(path.name + "-wal")
    return path.exists() and not wal.exists() and not os.access(path.parent, os.W_OK)


def read_only_uri(path: Path) -> str:
    """How to open the SQLite file at ``path`` only to read it: ``mode=ro``, and where the
    file is frozen in place (:func:`frozen_in_place`) also ``immutable``, as SQLite then
    needs no lock or index file, which the folder could not take."""
    uri = f"file:{quote(str(path))}?mode=ro"
    return uri + "&immutable=1" if frozen_in_place(path) else uri


def _read_only(path: Path) -> sqlite3.Connection:
    """The file read as it is; a write through it is refused as a read-only database."""
    connection = sqlite3.connect(
        read_only_uri(path),
        uri=True,
        timeout=BUSY_TIMEOUT_MS / 1000,
        check_same_thread=False,
    )
    connection.isolation_level = None
    return connection


#: The label of this process's PostgreSQL connections (in ``application_name``).
APPLICATION_NAME = "SCHNAPSEN_DB_APPLICATION_NAME"
#: PostgreSQL keeps the first 63 bytes of an ``application_name``.
_NAME_BYTES = 63


def application_name(kind: str, environ: Mapping[str, str] | None = None) -> str:
    """What a PostgreSQL connection of ``kind`` calls itself (``pg_stat_activity``'s
    ``application_name``): the process's label, ``SCHNAPSEN_DB_APPLICATION_NAME``
    (default ``schnapsen``; a deploy may name its host and role), then the kind of
    connection: ``log`` (the event store's pool), ``append`` (its connection for plain
    appends), ``accounts``, ``migrate`` ... (docs/deploy.md). ASCII only, as PostgreSQL
    keeps it, and cut to 63 bytes at the label's end, so the kind always shows.

    >>> application_name("accounts", {})
    'schnapsen accounts'
    >>> application_name("log", {"SCHNAPSEN_DB_APPLICATION_NAME": "web-2 Straße"})
    'web-2 Stra?e log'
    """
    text = (os.environ if environ is None else environ).get(APPLICATION_NAME, "").strip()
    label = "".join(c if " " <= c <= "~" else "?" for c in text or "schnapsen")
    return f"{label[: _NAME_BYTES - len(kind) - 1]} {kind}"


def make_engine(url: str | sa.URL | None = None, *, kind: str = "db", **kwargs: Any) -> sa.Engine:
    """An engine for ``url`` (default: :func:`tournament.config.database_url`); on
    PostgreSQL its connections are named :func:`application_name` of ``kind`` (unless
    the URL names them itself)."""
    import sqlalchemy as sa

    parsed = parse_url(url)
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_engine(parsed, **kwargs)
    kwargs.setdefault("pool_size", pool_setting("SCHNAPSEN_DB_POOL_SIZE", POOL_SIZE))
    kwargs.setdefault("max_overflow", pool_setting("SCHNAPSEN_DB_MAX_OVERFLOW", MAX_OVERFLOW))
    connect_args = kwargs.pop("connect_args", {})
    connect_args.setdefault("connect_timeout", PG_CONNECT_TIMEOUT)
    if "application_name" not in parsed.query:
        connect_args.setdefault("application_name", application_name(kind))
    engine = sa.create_engine(parsed, connect_args=connect_args, **kwargs)

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Timestamps come back in UTC whatever the server's default time zone.
        autocommit = dbapi_connection.autocommit
        dbapi_connection.autocommit = True
        dbapi_connection.execute("SET TIME ZONE 'UTC'")
        dbapi_connection.autocommit = autocommit

    sa.event.listen(engine, "checkout", _refuse_dead_connection)
    return engine


def _refuse_dead_connection(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """At checkout, drop a pooled PostgreSQL connection the server has ended (a restart,
    a failover, an administrator's kill): the pool then opens a new one, so the first
    request after a restart succeeds instead of failing on a dead socket (attack F7).

    The test costs no round trip (``pool_pre_ping`` would cost one per checkout, a second
    one for every single append, 0.3-0.5 ms on the loopback; this test costs microseconds): an
    idle connection has nothing to read, so a socket that is readable holds the server's
    goodbye or its end of file.
    """
    gone = _gone(dbapi_connection)
    if gone is not None:
        import sqlalchemy as sa

        raise sa.exc.DisconnectionError(gone)


def _gone(dbapi_connection: Any) -> str | None:
    if dbapi_connection.closed or dbapi_connection.broken:
        return "the connection was closed"
    try:
        readable = readable_now(dbapi_connection.fileno())
    except ValueError:  # a descriptor beyond select()'s range: a failure says it later
        return None
    except OSError as error:
        return f"the connection's socket failed: {error}"
    return "the server ended the connection (a restart?)" if readable else None


def _sqlite_engine(url: sa.URL, **kwargs: Any) -> sa.Engine:
    import sqlalchemy as sa

    in_memory = not url.database or url.database == ":memory:"
    connect_args = kwargs.pop("connect_args", {})
    connect_args.setdefault("check_same_thread", False)
    connect_args.setdefault("timeout", BUSY_TIMEOUT_MS / 1000)
    kwargs.setdefault("pool_size", 20)
    kwargs.setdefault("max_overflow", 20)
    # Reuse the most recently used connection: its page cache is the warm one (each
    # SQLite connection keeps its own, and a write elsewhere makes the others re-read).
    kwargs.setdefault("pool_use_lifo", True)
    if in_memory:
        for option in ("pool_size", "max_overflow", "pool_use_lifo"):
            kwargs.pop(option)
    engine = sa.create_engine(url, connect_args=connect_args, **kwargs)

    if not in_memory and not url.query.get("mode"):

        @sa.event.listens_for(engine, "do_connect")
        def _never_create(_dialect: Any, record: Any, cargs: list[Any], cparams: Any) -> None:
            # sqlite3 creates a missing file on connect; mode=rw opens only one that exists.
            path = Path(cargs[0])
            if frozen_in_place(path):
                # A store on a read-only mount: read as it is, as connect_sqlite does, so
                # that export and verify (the rescue) work wherever the standings do.
                record.info["frozen"] = True
                cargs[0] = read_only_uri(path)
            else:
                cargs[0] = f"file:{quote(str(path))}?mode=rw"
            cparams["uri"] = True

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, record: Any) -> None:
        if record.info.get("frozen"):
            dbapi_connection.isolation_level = None  # WAL mode and the rest need writing
            return
        configure_sqlite(dbapi_connection)

    @sa.event.listens_for(engine, "begin")
    def _on_begin(connection: sa.Connection) -> None:
        mode = connection.get_execution_options().get("sqlite_begin", "")
        connection.exec_driver_sql(f"BEGIN {mode}".strip())

    return engine


def is_sqlite(engine: sa.Engine) -> bool:
    return engine.dialect.name == "sqlite"

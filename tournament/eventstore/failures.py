"""Database failures in the operator's words: one line saying what is wrong, and where.

The drivers say ``database is locked``, ``unable to open database file`` or print a
connection error over several lines; the organiser needs to know what to do. Every
command of the CLI turns an error through :func:`explain` (``tournament.cli.common``):

    >>> import sqlite3
    >>> explain(sqlite3.OperationalError("database is locked"), "sqlite:////srv/club.sqlite3")
    '/srv/club.sqlite3: another program is writing to the database; try again'
    >>> explain(ValueError("not a database problem"), "sqlite:////srv/club.sqlite3") is None
    True

A password in the URL is never shown (:func:`tournament.db.safe_url`). Neither SQLAlchemy
nor psycopg is imported here: an error of a library the command never loaded cannot have
been raised, so a command on SQLite through ``sqlite3`` loads neither to explain one.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import sys
from pathlib import Path

from tournament.db import PG_CONNECT_TIMEOUT, DatabaseURLError, safe_url, sqlite_path


def explain(error: BaseException, url: str | None) -> str | None:
    """One line for ``error``, met while using the store at ``url``; None when ``error`` is
    not about the database (the caller reports it otherwise)."""
    if isinstance(error, DatabaseURLError):
        return str(error)
    busy = sys.modules.get("tournament.eventstore.sqlite_connections")
    if busy is not None and isinstance(error, busy.StoreBusyError):  # no write lock in time
        path = sqlite_path(url) if url else None
        where = str(path) if path is not None else safe_url(url or "")
        return f"{where}: another program is writing to the database; try again"
    sa = sys.modules.get("sqlalchemy")  # loaded by everything that could raise its errors
    if sa is not None and isinstance(error, sa.exc.NoSuchModuleError | sa.exc.ArgumentError):
        return (
            f"{safe_url(url or '')} is not a database URL the event store can use: give a "
            "file path, sqlite:///PATH or postgresql://USER@HOST/DATABASE"
        )
    if sa is not None and isinstance(error, sa.exc.DBAPIError) and error.orig is not None:
        error = error.orig
    if isinstance(error, sqlite3.Error):
        return _sqlite(error, url)
    psycopg = sys.modules.get("psycopg")  # a SQLite command never loads psycopg
    if psycopg is not None and isinstance(error, psycopg.Error):
        return _postgres(error, url)
    return None


def first_line(error: BaseException) -> str:
    """The driver's first line, which says what went wrong (SQLAlchemy appends more)."""
    return (str(error).strip().splitlines() or [type(error).__name__])[0].strip()


def _sqlite(error: sqlite3.Error, url: str | None) -> str:
    text = str(error).lower()
    path = sqlite_path(url) if url else None
    where = str(path) if path is not None else safe_url(url or "")
    if "locked" in text or "busy" in text:
        return f"{where}: another program is writing to the database; try again"
    if "readonly" in text or "read-only" in text:
        return f"{where}: {_read_only(path)}; nothing stored"
    if "not a database" in text:
        return f"{where} is not a tournament database: it is not a SQLite database file"
    if "unable to open" in text and path is not None:
        return _cannot_open(path, error)
    if "disk is full" in text:
        return f"{where}: the disk is full; nothing stored"
    if "disk i/o error" in text:
        return f"{where}: disk I/O error (a failing or removed drive?); nothing stored"
    if "malformed" in text:
        return (
            f"{where}: the database file is damaged ({first_line(error)}); restore the last "
            "backup into a new file (`tournament import`)"
        )
    return f"database {where}: {first_line(error)}"


def _read_only(path: Path | None) -> str:
    """Why SQLite may not write (root's access() is true for permissions, but not for a
    read-only mount or an immutable file)."""
    if path is not None and _mounted_read_only(path if path.exists() else path.parent):
        return "it is on a drive or folder mounted read-only"
    if path is not None and path.exists() and not os.access(path, os.W_OK):
        return "the database file is read-only"
    if path is not None and not os.access(path.parent, os.W_OK):
        return f"its folder {path.parent} is read-only (SQLite writes its journal beside the file)"
    return "the database is read-only (a read-only file, folder or drive)"


def _mounted_read_only(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _cannot_open(path: Path, error: sqlite3.Error) -> str:
    from tournament.eventstore.migrate import missing_store

    if not path.exists():
        return str(missing_store(path))
    if path.is_dir():
        return f"{path} is a folder, not a tournament database file"
    if not os.access(path, os.R_OK):
        return f"cannot read {path}: permission denied"
    if not os.access(path.parent, os.W_OK):
        return (
            f"cannot open {path}: its folder {path.parent} is read-only, and SQLite needs to "
            f"create {path.name}-wal and {path.name}-shm beside the file"
        )
    return f"cannot open {path}: {first_line(error)}"


def _postgres(error: Exception, url: str | None) -> str:
    import sqlalchemy as sa  # a PostgreSQL store runs on SQLAlchemy's pool: loaded already

    text = str(error).lower()
    try:
        parsed = sa.make_url(url or "")
        host, port = parsed.host or "localhost", parsed.port or 5432
        user, database = parsed.username, parsed.database
    except (sa.exc.ArgumentError, ValueError):
        host, port, user, database = "?", 5432, None, None
    at = f"PostgreSQL at {host}:{port}"
    if "connection refused" in text:
        return (
            f"cannot connect to {at}: connection refused (is the server running, and is the "
            "port right?)"
        )
    if "database" in text and "does not exist" in text:
        return f"{at} has no database {database!r} (check the name in the URL)"
    if "role" in text and "does not exist" in text:
        return f"{at} has no role (user) {user!r}"
    if "password authentication failed" in text or "no password supplied" in text:
        return f"{at} refused the login of {user!r}: wrong or missing password"
    if "translate host name" in text or "name or service not known" in text:
        return f"cannot find the PostgreSQL host {host!r} (a typo in the host name?)"
    if "timeout expired" in text:
        return f"{at} does not answer (no reply within {PG_CONNECT_TIMEOUT} s)"
    if "pg_hba.conf" in text:
        return f"{at} does not accept connections from here ({first_line(error)})"
    if "too many clients" in text or "connection slots" in text:
        return f"{at} has no connection free; try again"
    if "server closed the connection" in text or "terminating connection" in text:
        return f"{at} closed the connection (a restart?); try again"
    if "read-only transaction" in text:
        return f"{at} is read-only (a standby?); nothing stored"
    return f"database {safe_url(url or '')}: {first_line(error)}"


#: The database is away or cannot take more: causes :func:`outage` names.
UNREACHABLE = "unreachable"
NO_CONNECTION = "no connection free"
DISK_FULL = "disk full"
READ_ONLY = "read-only"
DISK_ERROR = "disk error"

#: PostgreSQL's SQLSTATEs of an outage: the server going down or starting up, its
#: connection slots, its disk, a standby after a failover.
_PG_OUTAGES = {
    "57P01": UNREACHABLE,  # admin_shutdown: terminating connection (a fast shutdown)
    "57P02": UNREACHABLE,  # crash_shutdown (an immediate shutdown, a crash)
    "57P03": UNREACHABLE,  # cannot_connect_now: starting up or shutting down
    "53300": NO_CONNECTION,  # too_many_connections: "sorry, too many clients already"
    "53100": DISK_FULL,  # disk_full: "could not extend file"
    "25006": READ_ONLY,  # read_only_sql_transaction: a standby
}


def outage(error: BaseException) -> str | None:
    """The cause when ``error`` says the database cannot serve now (away, restarting,
    out of connections or disk, read-only), rather than that a request or the program
    is wrong: one of the constants above, or None. Such a failure stored nothing and
    heals by itself or by the operator's hand; the web answers 503 with Retry-After.

        >>> import sqlite3
        >>> outage(sqlite3.OperationalError("database or disk is full"))
        'disk full'
        >>> outage(sqlite3.OperationalError("no such table: es_events")) is None
        True
    """
    sa = sys.modules.get("sqlalchemy")
    if sa is not None:
        if isinstance(error, sa.exc.TimeoutError):  # the pool's: every connection in use
            return NO_CONNECTION
        if isinstance(error, sa.exc.DBAPIError) and error.orig is not None:
            if error.connection_invalidated:
                return UNREACHABLE
            error = error.orig
    if isinstance(error, sqlite3.Error):
        text = str(error).lower()
        if "disk is full" in text:
            return DISK_FULL
        if "disk i/o error" in text:
            return DISK_ERROR
        if "readonly" in text or "read-only" in text:
            return READ_ONLY
        return None
    if isinstance(error, OSError) and error.errno == errno.ENOSPC:
        return DISK_FULL
    psycopg = sys.modules.get("psycopg")
    if psycopg is None or not isinstance(error, psycopg.Error):
        return None
    state = getattr(error, "sqlstate", None)
    if state in _PG_OUTAGES:
        return _PG_OUTAGES[state]
    text = str(error).lower()
    if "could not extend file" in text or "no space left on device" in text:
        return DISK_FULL
    if "too many clients" in text or "connection slots" in text:  # at connect: no SQLSTATE
        return NO_CONNECTION
    if isinstance(error, psycopg.OperationalError) and (state is None or state[:2] == "08"):
        return UNREACHABLE  # refused, lost, timed out: the client's own, or class 08
    if isinstance(error, psycopg.InterfaceError) and "connection" in text:
        return UNREACHABLE  # "the connection is closed" (it was lost before)
    return None

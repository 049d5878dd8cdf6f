"""What ``/readyz`` finds, each check one line (``ok`` or what is wrong).

- The database, through the store's own pool on PostgreSQL (the connections requests
  use: a probe that opened a connection of its own said ready while the pool held dead
  ones, attack F7), or the SQLite file itself; and whether its disk is full: a write
  that failed so within :data:`DISK_FULL_MEMORY` seconds, or no free byte on the
  filesystem of the SQLite file (attack F10). Any of these: not ready.
- Redis, when one is configured: its loss makes the process *degraded*, never unready.
  Results are still stored without it and the pages say the standings are stale; a load
  balancer that took every host out for it would turn a Redis restart into a full outage
  (operator F4).
"""

from __future__ import annotations

import os
import time
from typing import Any

from flask import Flask, Response, current_app, request

from tournament.app.services import Services
from tournament.db import sqlite_path
from tournament.eventstore import failures
from tournament.eventstore.failures import DISK_FULL, explain

#: Seconds a write that failed on a full disk keeps ``/readyz`` saying so.
DISK_FULL_MEMORY = 30.0
_KEY = "schnapsen_write_failures"


def note_outage(app: Flask, cause: str) -> None:
    """Remember a request that failed for ``cause`` (:mod:`tournament.eventstore.failures`)."""
    if cause == DISK_FULL:
        app.extensions.setdefault(_KEY, {})[DISK_FULL] = time.monotonic()


def install(app: Flask) -> None:
    """Forget a full disk as soon as a write succeeds again (the operator made room)."""

    def _written(response: Response) -> Response:
        failures = app.extensions.get(_KEY)
        written = request.method not in ("GET", "HEAD", "OPTIONS")
        if failures and written and 200 <= response.status_code < 300:
            failures.pop(DISK_FULL, None)
        return response

    app.after_request(_written)


def database(found: Services, notes: dict[str, str] | None = None) -> str:
    from tournament.eventstore import migrate

    try:
        # A probe only looks: it neither creates nor migrates (the start did that).
        engine = None if sqlite_path(found.url) is not None else found.store.engine
        migrate.ensure_current(found.url, may_upgrade=False, may_create=False, engine=engine)
    except migrate.NewerSchemaError as error:
        # A newer release migrated while this host still runs the previous one (an
        # upgrade across hosts, docs/deploy.md#upgrading): its migrations only add, so
        # this process still serves; ready, and the note says why (operator F9).
        if notes is not None:
            notes["database"] = first_line(error)
    except Exception as error:  # any failure means: not ready, and why
        return explain(error, found.url) or first_line(error)
    return disk(found.url)


def disk(url: str) -> str:
    noted = current_app.extensions.get(_KEY, {}).get(DISK_FULL)
    if noted is not None and time.monotonic() - noted < DISK_FULL_MEMORY:
        ago = time.monotonic() - noted
        return f"disk full: a write failed {ago:.0f} s ago (the database or its disk is full)"
    path = sqlite_path(url)
    if path is not None:
        try:
            space = os.statvfs(path.parent)
        except OSError:
            return "ok"  # the file check above tells what is wrong with the folder
        if space.f_bavail == 0:
            return f"disk full: no space left on the filesystem of {path}"
    return "ok"


def redis(url: str) -> str:
    try:
        import redis as redis_py

        client: Any = redis_py.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        client.ping()
    except Exception as error:
        return first_line(error)
    return "ok"


def first_line(error: Exception) -> str:
    """The check's line for ``error``: its type and the driver's first line."""
    if not str(error).strip():
        return type(error).__name__
    return f"{type(error).__name__}: {failures.first_line(error)}"[:300]

"""Under overload a move is answered 503 with Retry-After, never 500, and stores nothing
(T-online): SQLite's write lock held beyond the writers' wait by another connection (the
command line, say, or a long write). The same move goes through once the lock is free."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Web
from tests.web.test_play_api import Table
from tournament.eventstore import sqlite_connections


@pytest.fixture
def table(web: Web, monkeypatch: pytest.MonkeyPatch) -> Table:
    found = Table(web)
    monkeypatch.setattr(sqlite_connections, "WRITE_WAIT_S", 0.3)  # the wait, short
    return found


def database(web: Web) -> Path:
    return Path(web.app.config["DATABASE_URL"].removeprefix("sqlite:///")).absolute()


@contextlib.contextmanager
def another_process_writing(web: Web) -> Iterator[None]:
    """SQLite's write lock taken by another connection, as another process would."""
    other = sqlite3.connect(database(web), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def a_legal_move(table: Table) -> tuple[int, dict[str, Any], int]:
    seat = table.seat_to_act()
    view = table.view(seat)
    action = {k: v for k, v in view["view"]["legal_actions"][0].items() if k != "seat"}
    return seat, action, view["version"]


def test_a_move_while_the_write_lock_is_held_is_503_with_retry_after_and_stores_nothing(
    table: Table,
) -> None:
    seat, action, version = a_legal_move(table)
    before = len(table.events())
    with another_process_writing(table.web):
        reply = table.move(seat, action, version)
    assert reply.status_code == 503, reply.get_data(as_text=True)
    assert int(reply.headers["Retry-After"]) > 0
    assert reply.mimetype == "application/problem+json"
    problem = reply.get_json()
    assert problem["status"] == 503 and "stored nothing" in problem["detail"]
    assert len(table.events()) == before, "nothing stored"
    # The retry that Retry-After asks for, once the lock is free: the same move, stored once.
    assert table.move(seat, action, version).status_code == 200
    assert len(table.events()) == before + 1

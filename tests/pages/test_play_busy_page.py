"""A move posted from the table's page while the database's write lock is held beyond
the writers' wait gets an error page (503, Retry-After), never a 500 or JSON, and
nothing is stored (T-online)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.pages.test_play_page import (
    legal_play,
    moment,
    online_match,
    page,
    phone,
    played,
    seat_to_act,
    version_of,
)
from tests.web.conftest import Web
from tests.web.test_sign_in import csrf_of
from tournament.eventstore import sqlite_connections


def test_a_page_move_under_a_held_write_lock_gets_a_503_page_and_stores_nothing(
    web: Web, club: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_connections, "WRITE_WAIT_S", 0.3)
    mid, a, b = online_match(web, club)
    before = moment(web, club, mid)
    assert before.state is not None
    seat = seat_to_act(before.state)
    code = (a, b)[seat]
    html = page(web, code)
    form = {
        "action": played(legal_play(before.state, seat)),
        "version": version_of(html),
        "csrf_token": csrf_of(html),
    }
    database = Path(web.app.config["DATABASE_URL"].removeprefix("sqlite:///")).absolute()
    with sqlite3.connect(database, isolation_level=None) as other:
        other.execute("BEGIN IMMEDIATE")  # another writer holds the lock beyond the wait
        reply = phone(web, code).post(f"/play/{code}/move", data=form)
        other.execute("ROLLBACK")
    assert reply.status_code == 503
    assert int(reply.headers["Retry-After"]) > 0
    assert reply.mimetype == "text/html"
    assert "try again" in reply.get_data(as_text=True)
    assert moment(web, club, mid).version == before.version, "nothing stored"

"""The standings GET answers from the body this process holds for the projection's
version, after one cheap lookup of the versions (trial 9, P1). What must hold: a result
is in the very next GET; a 304 only while nothing changed; and a process never answers
an old body as fresh after a result stored by another process on the same database
(two gunicorn workers, two hosts), Redis or not."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.databases import Database
from tests.web import played
from tests.web.conftest import Web, make_web
from tests.web.helpers import execute, tally
from tournament.app.service import TournamentService
from tournament.app.services import services
from tournament.domain import commands as c
from tournament.web.projected import SharedProbes

STANDINGS = "/api/v1/tournaments/{}/standings"


def a_round_open(web: Web) -> tuple[str, str]:
    """A Swiss with two rounds played and the third drawn: its id and an open match."""
    tid = played.swiss(web, rounds=2)
    execute(web, tid, lambda t: c.start_round(t))
    t = played.state(web, tid)
    return tid, next(m for m in t.rounds[-1].matches if not t.matches[m].decided)


def get(web: Web, tid: str, tag: str | None = None) -> Any:
    headers = {"If-None-Match": tag} if tag else {}
    return web.get(STANDINGS.format(tid), token=None, headers=headers)


def points(answer: Any) -> dict[int, int]:
    return {row["player_id"]: row["points"] for row in answer.get_json()["rows"]}


def test_a_result_is_in_the_next_standings_get(web: Web) -> None:
    tid, mid = a_round_open(web)
    before = get(web, tid)
    assert before.status_code == 200
    get(web, tid)  # answered from the body held for this version
    tally(web, tid, mid, "7 4 1 0 / 7 5 2", "7 4 2 0 / 7 6")
    after = get(web, tid)
    assert after.status_code == 200
    assert after.headers["ETag"] != before.headers["ETag"]
    assert after.get_json()["version"] > before.get_json()["version"]
    assert points(after) != points(before)


def test_a_304_only_while_nothing_changed(web: Web) -> None:
    tid, mid = a_round_open(web)
    tag = get(web, tid).headers["ETag"]
    assert get(web, tid, tag).status_code == 304
    assert get(web, tid, tag).status_code == 304
    tally(web, tid, mid, "7 4 1 0 / 7 5 2", "7 4 2 0 / 7 6")
    fresh = get(web, tid, tag)
    assert fresh.status_code == 200 and fresh.headers["ETag"] != tag
    assert get(web, tid, fresh.headers["ETag"]).status_code == 304


@pytest.fixture
def two_apps(pg_db: Database, tmp_path: Path) -> Iterator[tuple[Web, Web]]:
    """Two apps on one PostgreSQL schema, no Redis: as two gunicorn workers or hosts,
    each with its own process memory and its own projections."""
    first = make_web(pg_db.schema_url, tmp_path / "one")
    second = make_web(pg_db.schema_url, tmp_path / "two")
    yield first, second
    for app in (first, second):
        with app.app.app_context():
            services().store.close()


@pytest.mark.postgres
def test_two_apps_on_one_postgresql_never_serve_an_old_body_after_a_result_in_the_other(
    two_apps: tuple[Web, Web],
) -> None:
    writer, reader = two_apps
    tid, mid = a_round_open(writer)
    old = get(reader, tid)
    assert old.status_code == 200
    old_tag = old.headers["ETag"]
    assert get(reader, tid, old_tag).status_code == 304  # the reader holds this body
    tally(writer, tid, mid, "7 4 1 0 / 7 5 2", "7 4 2 0 / 7 6")  # projected in its request
    written = get(writer, tid).get_json()
    new = get(reader, tid, old_tag)
    assert new.status_code == 200 and new.headers["ETag"] != old_tag
    body = new.get_json()
    assert body["version"] == written["version"] and not body["projection"]["stale"]
    assert points(new) == {row["player_id"]: row["points"] for row in written["rows"]}


@pytest.mark.postgres
def test_a_result_stored_but_not_projected_yet_is_never_answered_as_fresh(
    two_apps: tuple[Web, Web],
) -> None:
    """The log moved on and the projection did not (its worker is slow or away): the
    reader's held body is the old version's, and says it is stale (its own ETag)."""
    writer, reader = two_apps
    tid, mid = a_round_open(writer)
    old = get(reader, tid)
    with writer.app.app_context():
        store = services().store
    # Stored through a service of its own (as the command line does): no projection run
    # follows, since no app was told.
    TournamentService(store).execute(
        tid, lambda t: c.record_tallies(t, mid, ["7 4 1 0 / 7 5 2", "7 4 2 0 / 7 6"])
    )
    new = get(reader, tid, old.headers["ETag"])
    assert new.status_code == 200
    body = new.get_json()
    assert body["projection"]["stale"] and body["projection"]["log_version"] > body["version"]
    assert new.headers["ETag"] != old.headers["ETag"]


def test_the_public_page_and_the_desk_rounds_show_a_result_at_once(web: Web) -> None:
    """Their standings table and pairings are rendered once per version (trial 9,
    section 7): a result is a new version, so the next load shows it."""
    tid, mid = a_round_open(web)
    page = web.get(f"/t/{tid}", token=None).get_data(as_text=True)
    desk = web.get(f"/desk/t/{tid}/rounds").get_data(as_text=True)
    version = played.state(web, tid).version
    assert f'data-version="{version}"' in page
    row = desk.split("desk-pairings")[1].split(f"?match={mid}")[0].rsplit("<tr", 1)[1]
    assert "<strong>" in row  # "missing", in the reader's language
    tally(web, tid, mid, "7 4 1 0 / 7 5 2", "7 4 2 0 / 7 6")
    page = web.get(f"/t/{tid}", token=None).get_data(as_text=True)
    desk = web.get(f"/desk/t/{tid}/rounds").get_data(as_text=True)
    assert f'data-version="{played.state(web, tid).version}"' in page
    row = desk.split("desk-pairings")[1].split(f"?match={mid}")[0].rsplit("<tr", 1)[1]
    assert "2:0" in row and "<strong>" not in row


def test_a_player_found_is_marked_only_on_their_own_page(web: Web) -> None:
    """The table rendered for ?me=1 is kept apart from the one without."""
    tid, _ = a_round_open(web)
    mine = web.get(f"/t/{tid}?me=1", token=None).get_data(as_text=True)
    plain = web.get(f"/t/{tid}", token=None).get_data(as_text=True)
    again = web.get(f"/t/{tid}?me=1", token=None).get_data(as_text=True)
    assert 'id="standing-1" class=" me" aria-current="true"' in mine
    assert 'aria-current="true"' not in plain.split('class="standings-body"')[1]
    assert 'id="standing-1" class=" me" aria-current="true"' in again


def test_a_shared_lookup_is_taken_only_by_requests_that_arrived_before_it_began() -> None:
    """SharedProbes: a request that arrives while a lookup runs must not take that
    lookup's answer (it may predate a write committed just before the request came), but
    the next one's; requests that wait together share that next one."""
    asked: list[int] = []
    first_running, release_first = threading.Event(), threading.Event()

    def lookup(tid: str) -> tuple[int, int]:
        asked.append(len(asked) + 1)
        number = len(asked)
        if number == 1:
            first_running.set()
            assert release_first.wait(30)
        return number, number

    shared = SharedProbes(lookup)  # type: ignore[arg-type]  # a stand-in for the lookup
    answers: dict[str, Any] = {}

    def ask(name: str) -> None:
        answers[name] = shared("cup")

    first = threading.Thread(target=ask, args=("first",))
    first.start()
    assert first_running.wait(30)
    later = [threading.Thread(target=ask, args=(f"later-{n}",)) for n in range(3)]
    for thread in later:
        thread.start()
    # Every later request is waiting (none may run a lookup while the first runs).
    until = time.monotonic() + 30
    while shared._state["cup"][4] < 3 and time.monotonic() < until:
        time.sleep(0.005)
    release_first.set()
    for thread in (first, *later):
        thread.join(30)
    assert answers["first"] == (1, 1)
    assert {answers[f"later-{n}"] for n in range(3)} == {(2, 2)}  # one lookup, after
    assert asked == [1, 2]

"""Operator F1: an online table's pages keep up while their stream is refused. With the
app's cap of live streams at 0 every stream answers 503; the seat's page and the room's
page then fetch the table every few seconds (table-poll.js), so the other seat and the
spectator see a move without a reload, and the badge says the page is refreshed, not
live. Once the process accepts streams again, the pages go back to their streams and
stop fetching: the next move arrives by the stream."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import Browse, Site
from tests.browser.desk_steps import phone
from tests.browser.harness import shot
from tests.browser.online_steps import (
    LIVE,
    SEAT_TABLE,
    TAKE,
    make_a_move,
    moment_of,
    moved_on,
    online_match,
    status_of,
    wait_for,
)
from tournament.web.live import live

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page

POLLING = "() => document.getElementById('live-badge').dataset.state === 'polling'"
#: A refused stream is logged by Chromium (the 503, the text/plain answer) and by htmx
#: (the EventSource's error event, as "[object Event]"): the refusal is what this test
#: is about.
REFUSED = r"503|EventSource|htmx:sseError|Failed to load resource|\[object Event\]"


def polled_for_table(path: str) -> bool:
    """A page's fetch of its table (``/play/<code>/table``, ``.../table/part``)."""
    return path.endswith("/table/part") or (path.startswith("/play/") and path.endswith("/table"))


@pytest.fixture
def refusing(tmp_path: Path) -> Iterator[Site]:
    """The app over HTTP with no room for a single live stream."""
    found = Site(tmp_path, with_admin=True, LIVE_MAX_STREAMS=0)
    yield found
    found.close()


def test_operator_f1_refused_streams_leave_the_seat_and_room_pages_polling_then_live_again(
    browse: Browse, refusing: Site
) -> None:
    site = refusing
    _, mid, codes = online_match(site)
    seats = []
    for code in codes:
        page = phone(browse, site)
        browse.watch(page).allow_console(REFUSED)
        page.goto(site.url(f"/play/{code}?lang=en"))
        page.locator(TAKE).click()
        page.wait_for_selector(SEAT_TABLE)
        page.wait_for_function(POLLING)
        seats.append(page)
    room = browse(site)
    browse.watch(room).allow_console(REFUSED)
    room.goto(site.url(f"/t/club/matches/{mid}/table?lang=de"))
    room.wait_for_function(POLLING)
    assert room.locator("#live-badge").inner_text() == "Alle paar Sekunden aktualisiert"
    assert seats[0].locator("#live-badge").inner_text() == "Refreshed every few seconds"
    shot(room, "watch-table-de-stream-refused-polling")

    rng = random.Random(22)

    def one_move() -> tuple[Page, Page]:
        """A move by the seat to act, through its page; the other seat and the room
        follow it."""
        (actor,) = [p for p in seats if status_of(p) == "turn"]
        (other,) = [p for p in seats if p is not actor]
        others_before, room_before = moment_of(other), moment_of(room)
        make_a_move(actor, rng, claims=0.0)
        wait_for(lambda: moved_on(other, others_before), "the other seat to see the move")
        wait_for(lambda: moved_on(room, room_before), "the room to see the move")
        return actor, other

    one_move()  # by polling: no stream was ever open
    assert all(p.evaluate(POLLING) for p in (*seats, room))

    # The process takes streams again: each page's next try of its stream is accepted.
    with site.app.app_context():
        live().hub.cap = 10
    for page in (*seats, room):
        page.wait_for_function(LIVE, timeout=90_000)
    fetched: list[str] = []
    for page in (*seats, room):
        page.on("request", lambda request: fetched.append(request.url))
    one_move()
    polled = [url for url in fetched if polled_for_table(urlsplit(url).path)]
    assert not polled, f"the pages still poll with their streams open: {polled}"
    shot(room, "watch-table-de-stream-back")

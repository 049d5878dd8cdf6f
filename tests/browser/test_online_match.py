"""A whole online match in three browsers at once (T-online, issue 12): seat 0 and seat 1
on phones at their ``/play/<code>`` pages, the room at the projector's table
(``/t/<tid>/matches/<mid>/table?projector=1``) on a large screen. The seats play a whole
Bummerl to its end through their pages, each move chosen at random from the legal ones
the page offers (a click or a key), the R16 claim or no-claim after the last trick
included; the room's page follows every move live, without a reload. With best of 1 the
Bummerl decides the match (R20): all three pages end on the Bummerl as the store records
it, and the public standings put the winner first.

Every text response and every live message each browser received is read afterwards:
none holds a card hidden from that browser at the moment it shows -- for a seat the
opponent's hand and the talon, for the room both hands and the talon -- and no browser
got a code it may not know: a seat not the other seat's, the room none (T-code)."""

from __future__ import annotations

import random
from functools import partial
from typing import TYPE_CHECKING

from tests.browser.conftest import Browse, Site
from tests.browser.online_steps import (
    LIVE,
    Received,
    assert_no_code,
    assert_nothing_hidden,
    hands,
    moment_of,
    online_match,
    play_until,
    seat_pages,
    shows_score,
    status_of,
    wait_for,
)
from tests.web.played import state

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import ViewportSize

PROJECTOR: ViewportSize = {"width": 1920, "height": 1080}


def test_two_seats_play_a_bummerl_the_room_watches_and_nobody_sees_a_hidden_card(
    browse: Browse, site: Site
) -> None:
    site.app.config["LIVE_KEEPALIVE"] = 1  # a closed stream frees its thread soon
    web, mid, codes = online_match(site, best_of=1)
    t = state(web, "club")
    names = [t.players[p].name for p in t.matches[mid].players]

    opened = seat_pages(browse, site, codes)
    seats = [page for page, _ in opened]
    room = browse(site)
    room.set_viewport_size(PROJECTOR)
    received = [*(r for _, r in opened), Received(room)]
    room.goto(site.url(f"/t/club/matches/{mid}/table?projector=1&lang=de"))
    room.wait_for_function(LIVE)
    assert room.locator("body.projector").count() == 1
    start = room.url
    seen_by_room: set[str] = set()

    def over() -> bool:  # the match decided, and its last hand too (R16's window closed)
        seen_by_room.add(moment_of(room))
        return all(status_of(page) == "over" for page in seats)

    moves = play_until(seats, over, random.Random(12), followers=[room], claims=0.1, seconds=150)

    done = state(web, "club").matches[mid]
    assert done.decided and room.locator("#table-status").get_attribute("data-status") == "over"
    wins = dict(zip(names, done.summary.bummerl, strict=True))
    assert sorted(wins.values()) in ([0, 1], [0, 2])  # a Schneiderbummerl counts 2 (R19)
    assert done.summary.winner is not None
    winner = names[done.summary.winner]
    score = f"{max(wins.values())}:0"
    for page in (*seats, room):
        wait_for(partial(shows_score, page, wins), f"the Bummerl result on {page.url}")
    for page in seats:
        assert f"Match over: {winner} wins {score}" in page.locator(".turn").inner_text()
    said = room.locator("#table-status").inner_text()
    assert said.startswith(f"Die Partie ist vorbei: {winner}"), said  # "Eva Pichler (5)"
    assert f"hat gewonnen, {score} in Bummerl (R20)" in said, said
    # the room followed live: a moment per move, on the page it opened (no reload)
    assert room.url == start and len(seen_by_room) > len(moves) // 2
    assert all(r.messages for r in received), "every page followed by SSE"

    texts = [r.take() for r in received]  # before any page leaves
    table = hands(site, mid)
    for seat in (0, 1):
        assert assert_nothing_hidden(texts[seat], seat, table) >= len(moves) // 2
        assert_no_code(texts[seat], [codes[1 - seat]])
    assert assert_nothing_hidden(texts[2], None, table) >= len(moves)
    assert_no_code(texts[2], codes)

    # The match decided, the public standings put its winner first (R20).
    room.goto(site.url("/t/club?lang=en"))
    first = room.locator("table.standings tbody tr").first.inner_text()
    assert winner in first, first
    standings = received[2].take()
    assert_nothing_hidden(standings, None, table)  # no table, so no card at all
    assert_no_code(standings, codes)

"""Playing online at two phones (T-online): each seat opens its table by its code, and a
whole Bummerl is played through the pages, each move chosen at random from what the page
offers (a click or a key), the other page following live (SSE, no reload). Both end
showing the Bummerl won as the store records it. Every page, fragment and live message
each browser received is read: none holds a card hidden from that seat at that moment
(the opponent's hand, the talon). The table is axe clean in German and English at phone
and desktop size."""

from __future__ import annotations

import random
from functools import partial
from typing import TYPE_CHECKING

from tests.browser.conftest import Browse, Site
from tests.browser.desk_steps import phone
from tests.browser.harness import View, assert_accessible, fits_width, in_every_view
from tests.browser.online_steps import (
    Received,
    assert_no_code,
    assert_nothing_hidden,
    hands,
    online_match,
    play_until,
    seat_pages,
    shows_score,
    status_of,
    wait_for,
)
from tests.web.played import state

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page


def test_two_phones_play_a_whole_bummerl_live_and_see_no_hidden_card(
    browse: Browse, site: Site
) -> None:
    site.app.config["LIVE_KEEPALIVE"] = 1  # a closed stream frees its thread soon
    web, mid, codes = online_match(site)
    t = state(web, "club")
    match = t.matches[mid]
    names = [t.players[p].name for p in match.players]
    opened = seat_pages(browse, site, codes)
    pages = [page for page, _ in opened]
    received = [r for _, r in opened]

    def one_bummerl_won() -> bool:  # and its last hand's R16 window closed
        won = sum(state(web, "club").matches[mid].summary.bummerl) > 0
        return won and all(status_of(p) != "claim" for p in pages)

    moves = play_until(pages, one_bummerl_won, random.Random(12))
    done = state(web, "club").matches[mid]
    wins = dict(zip(names, done.summary.bummerl, strict=True))
    for p in pages:
        wait_for(partial(shows_score, p, wins), f"the Bummerl result on {p.url}")
    assert sorted(wins.values()) in ([0, 1], [0, 2])  # a Schneiderbummerl counts 2 (R19)
    if done.decided:  # best of 3: two Bummerl end the match (R20)
        winner = names[done.summary.winner or 0]
        for p in pages:
            wait_for(partial(says, p, f"Match over: {winner} wins 2:0"), "the match's end")
    assert received[0].messages and received[1].messages, "the pages followed by SSE"

    table = hands(site, mid)
    for seat in (0, 1):
        texts = received[seat].take()
        assert assert_nothing_hidden(texts, seat, table) >= len(moves) // 2
        assert_no_code(texts, [codes[1 - seat]])


def says(page: Page, words: str) -> bool:
    return words in page.locator(".turn").inner_text()


def test_the_table_reads_well_in_both_languages_on_a_phone_and_a_laptop(
    page: Page, site: Site
) -> None:
    site.app.config["LIVE_KEEPALIVE"] = 1
    _, _, (first, _) = online_match(site)

    def look(view: View) -> None:
        assert page.locator("html").get_attribute("lang") == view.lang
        assert page.locator("h1").count() == 1
        assert page.locator("#table button[data-card]").count() == 5
        assert fits_width(page), "the table scrolls sideways"
        assert_accessible(page)

    in_every_view(page, site.url(f"/play/{first}"), look)


def test_the_first_phone_keeps_its_seat_and_the_other_phone_sees_no_card(
    browse: Browse, site: Site
) -> None:
    """T-online: the table card lies between the players; the opponent who scans my code
    gets a friendly refusal and not one card. My page waits for the opponent's seat, then
    follows live when it is opened (T-clock: nothing runs before)."""
    web, mid, codes = online_match(site)
    t = state(web, "club")
    names = [t.players[p].name for p in t.matches[mid].players]
    ((mine, received),) = seat_pages(browse, site, codes[:1])
    assert status_of(mine) == "joining"
    assert f"Waiting for {names[1]} to open their seat" in mine.inner_text("#table")
    thief = phone(browse, site)
    # The refusal is a 409: the browser logs it as a failed load, as it should.
    browse.watch(thief).allow_console(r"status of 409")
    seen = Received(thief)
    reply = thief.goto(site.url(f"/play/{codes[0]}?lang=en"))
    assert reply is not None and reply.status == 409
    assert "This seat is already open on another phone." in thief.inner_text("main")
    own = hands(site, mid)[0][-1].cards_of(0)
    texts = seen.take()
    assert texts and not any(f'data-card="{c.code}"' in text for text in texts for c in own)
    seat_pages(browse, site, codes[1:])  # the opponent opens their own seat
    wait_for(lambda: status_of(mine) in ("turn", "wait"), "the table to start")
    assert received.messages

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
from tests.browser.harness import PHONE, View, assert_accessible, fits_width, in_every_view, shot
from tests.browser.online_steps import (
    TAKE,
    Received,
    assert_no_code,
    assert_nothing_hidden,
    hands,
    online_match,
    play_until,
    seat_pages,
    settled,
    shows_score,
    status_of,
    take_seat,
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

    page.goto(site.url(f"/play/{first}?lang=en"))
    take_seat(page)  # opening the link took nothing: the phone taps "Take my seat"
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
    assert thief.locator(TAKE).count() == 0, "nothing to take"
    own = hands(site, mid)[0][-1].cards_of(0)
    texts = seen.take()
    assert texts and not any(f'data-card="{c.code}"' in text for text in texts for c in own)
    seat_pages(browse, site, codes[1:])  # the opponent opens their own seat
    wait_for(lambda: status_of(mine) in ("turn", "wait"), "the table to start")
    assert received.messages


def test_one_phone_holds_one_seat_in_german_and_a_released_phone_drops_its_turn(
    browse: Browse, site: Site
) -> None:
    """P1, AE-1, P11 on a 390x844 phone in German: opening the link shows whose seat it
    is and *Meinen Platz nehmen*, no card; the phone that took seat 0 is refused seat 1
    (in a second tab too) and the room's view of its own table; the opponent's own phone
    takes seat 1. After the organiser released seat 0 and a new phone took it, the old
    phone's live page says so, with its title, and no "Du bist dran" is left."""
    site.app.config["LIVE_KEEPALIVE"] = 1
    web, mid, codes = online_match(site)
    t = state(web, "club")
    names = [t.players[p].name for p in t.matches[mid].players]
    mine = phone(browse, site)
    browse.watch(mine).allow_console(r"status of 409")
    mine.goto(site.url(f"/play/{codes[0]}?lang=de"))
    assert f"Meinen Platz nehmen ({names[0]})" in mine.inner_text("main")
    assert mine.locator("[data-card]").count() == 0
    assert_accessible(mine)
    shot(mine, "play-take-seat-de-phone")
    take_seat(mine)
    assert status_of(mine) == "joining"
    other_tab = mine.context.new_page()  # the same phone (its watch allows the 409s)
    other_tab.set_viewport_size(PHONE)
    reply = other_tab.goto(site.url(f"/play/{codes[1]}?lang=de"))
    assert reply is not None and reply.status == 409
    assert f"Dieses Handy hält schon den anderen Platz dieses Tisches ({names[0]})" in (
        other_tab.inner_text("main")
    )
    assert other_tab.locator("[data-card]").count() == 0
    shot(other_tab, "play-both-seats-refused-de-phone")
    room = other_tab.goto(site.url(f"/t/club/matches/{mid}/table?lang=de"))
    assert room is not None and room.status == 409
    assert "Dieses Handy hält einen Platz an diesem Tisch" in other_tab.inner_text("main")
    other_tab.close()
    opponent = phone(browse, site)
    opponent.goto(site.url(f"/play/{codes[1]}?lang=de"))
    take_seat(opponent)
    wait_for(lambda: status_of(mine) in ("turn", "wait"), "the table to start")
    if status_of(mine) == "wait":  # make it seat 0's turn: the opponent leads a card
        settled(opponent)
        opponent.locator("#table button[data-key]:not([disabled])").first.click()
        wait_for(lambda: status_of(mine) == "turn", "seat 0's turn")
    assert mine.title().startswith("Du bist dran")
    with site.app.app_context():
        from tournament.web.live import play_service

        play_service().release_seat("club", mid, 0, by="Eva")
    new_phone = phone(browse, site)
    new_phone.goto(site.url(f"/play/{codes[0]}?lang=de"))
    take_seat(new_phone)
    mine.wait_for_selector("#table .status-taken")
    assert "schon auf einem anderen Handy offen" in mine.inner_text("#table .turn")
    # not on the screen, nor in the screen reader's announcement
    assert "Du bist dran" not in mine.inner_text("main")
    assert "schon auf einem anderen Handy offen" in mine.inner_text("#announce")
    assert mine.title().startswith("Platz schon offen")
    assert mine.locator("[data-card]").count() == 0
    shot(mine, "play-released-de-phone")

"""Watching an online table in a real browser (T-online): a spectator's page follows the
moves of both seats live, without a reload (SSE), and nothing that browser receives --
no response body, no stream message -- holds a card the room may not see at that moment:
no card of either hand or of the talon, and while the hand is played no won trick but
the last one lying open (T-watch, F9: the page may be open on a player's phone; open are
the card led, the face-up turn-up, the last trick and declared marriages, R2, R10). After
the hand its replay is stepped with the keys ← and →. Both pages pass axe in German and
English; a phone (390x844) and the projector (1920x1080) show a hand in play in German."""

from __future__ import annotations

from typing import Final

from tests.browser.conftest import Browse, Site
from tests.browser.harness import PHONE, assert_accessible, fits_width, shot, with_lang
from tests.browser.online_steps import Received, online_match
from tests.pages.table_cards import assert_no_hidden_card, hidden, room_hidden
from tournament.domain.views.onlineview import TableMoment
from tournament.web.live import play_service

MATCH = "1.1"

#: The narrowest phone still in use (an iPhone SE's first width): no sideways scroll.
NARROW: Final = {"width": 320, "height": 640}


def online_table(site: Site) -> str:
    """A Swiss of eight with round 1 drawn, its match 1.1 at an online table."""
    _, mid, _ = online_match(site, joined=True)
    assert mid == MATCH
    return "club"


def moment(site: Site) -> TableMoment:
    with site.app.app_context():
        return play_service().moment("club", MATCH)


def move(site: Site) -> None:
    """The seat to act moves, through the app's PlayService as a seat's screen would: a
    card (a marriage when it can), or "no claim" in the R16 window after the last trick."""
    now = moment(site)
    assert now.state is not None
    with site.app.app_context():
        play = play_service()
        if now.state.is_over:
            seat = now.state.legal_actions()[0].seat
            play.decline_claim("club", MATCH, seat, now.version)
            return
        legal = [a for a in now.state.legal_actions() if a.kind.word == "play"]
        action = ([a for a in legal if a.marriage] + legal)[0]
        play.act("club", MATCH, action.seat, action.to_json(), now.version)


def look_mid_hand(browse: Browse, site: Site, secret: set[str]) -> None:
    """A hand in play on a German phone (390x844) and on the projector (1920x1080): the
    last trick and the note that the won tricks come when the hand is over, no earlier
    trick and no points; screenshots of both."""
    phone = browse(site)
    phone.set_viewport_size(PHONE)
    received = Received(phone)
    phone.goto(site.url(f"/t/club/matches/{MATCH}/table?lang=de"))
    phone.locator("#live-badge").filter(has_text="Live").wait_for(timeout=5000)
    assert "Die gewonnenen Stiche werden gezeigt" in phone.locator("#table").inner_text()
    assert fits_width(phone), "the table page scrolls sideways on a phone"
    shot(phone, "watch-table-de-phone-hand-in-play")
    for text in received.take():  # before leaving the page: its bodies go with it
        assert_no_hidden_card(text, secret)
    phone.set_viewport_size({"width": 1920, "height": 1080})
    phone.goto(site.url(f"/t/club/matches/{MATCH}/table/projector?lang=de"))
    phone.locator("#live-badge").filter(has_text="Live").wait_for(timeout=5000)
    assert phone.locator("#table .last-trick").is_visible()
    fits = "document.documentElement.scrollHeight <= window.innerHeight + 1"
    assert phone.evaluate(fits), "the projector's table does not fit the screen"
    shot(phone, "watch-table-projector-de-hand-in-play", full_page=False)
    for text in received.take():
        assert_no_hidden_card(text, secret)


def test_a_spectator_follows_a_hand_live_and_never_receives_a_hidden_card(
    browse: Browse, site: Site
) -> None:
    online_table(site)
    watcher = browse(site)
    received = Received(watcher)
    watcher.goto(site.url(f"/t/club/matches/{MATCH}/table?lang=en"))
    watcher.locator("#live-badge").filter(has_text="Live").wait_for(timeout=30_000)
    assert_accessible(watcher)
    start = watcher.url
    checked = 0
    mid_hand_seen = False
    while moment(site).number == 1:
        now = moment(site)
        assert now.state is not None
        secret = room_hidden(now.state)
        for text in received.take():
            assert_no_hidden_card(text, secret)
            checked += 1
        if not mid_hand_seen and len(now.state.tricks) >= 2 and now.state.lead_card is None:
            # Two tricks won: the page shows the last one, not the first, and no points.
            table = watcher.locator("#table")
            assert table.locator(".last-trick").is_visible()
            assert table.locator(".tricks li").count() == 0
            assert "shown when the hand is over" in table.inner_text()
            assert "Points" not in table.locator(".scoreboard").inner_text()
            mid_hand_seen = True
            look_mid_hand(browse, site, secret)
        before = f"{now.number}.{now.version}"
        move(site)
        watcher.wait_for_function(
            "before => document.querySelector('#table .table-live').dataset.version !== before",
            arg=before,
            timeout=30_000,
        )
    assert mid_hand_seen
    # The new hand is dealt: what arrived with it hides the new hand's cards.
    now = moment(site)
    assert now.state is not None
    for text in received.take():
        assert_no_hidden_card(text, hidden(now.state))
        checked += 1
    assert checked > 10  # the page, and a message per move
    assert received.messages >= 10  # the stream's messages, as the browser got them
    assert watcher.url == start  # no reload: each move was swapped in
    assert "Previous hand:" in watcher.locator("#table").inner_text()
    watcher.locator("#hands-heading").wait_for()
    watcher.goto(with_lang(start, "de"))
    watcher.locator("#live-badge").filter(has_text="Live").wait_for(timeout=30_000)
    assert "Live-Tisch" not in watcher.content()  # the page itself is the live table
    assert_accessible(watcher)
    for text in received.take():  # before leaving the page: its bodies go with it
        assert_no_hidden_card(text, hidden(now.state))
    shot(watcher, "watch-table-de-desktop")
    watcher.set_viewport_size(PHONE)
    assert fits_width(watcher), "the table page scrolls sideways on a phone"
    shot(watcher, "watch-table-de-phone")
    watcher.set_viewport_size(NARROW)
    assert fits_width(watcher), "the table page scrolls sideways on a 320 px phone"
    shot(watcher, "watch-table-de-320")
    watcher.set_viewport_size({"width": 1920, "height": 1080})
    watcher.goto(site.url(f"/t/club/matches/{MATCH}/table/projector?lang=de"))
    watcher.locator("#live-badge").filter(has_text="Live").wait_for(timeout=30_000)
    fits = "document.documentElement.scrollHeight <= window.innerHeight + 1"
    assert watcher.evaluate(fits), "the projector's table does not fit the screen"
    shot(watcher, "watch-table-projector", full_page=False)
    for text in received.take():
        assert_no_hidden_card(text, hidden(now.state))


def test_the_replay_steps_by_keyboard(browse: Browse, site: Site) -> None:
    online_table(site)
    while moment(site).number == 1:
        move(site)
    viewer = browse(site)
    viewer.goto(site.url(f"/t/club/matches/{MATCH}/hands/1?lang=de"))
    assert "Schritt 0 von" in viewer.locator("#step-of").inner_text()
    assert_accessible(viewer)
    viewer.keyboard.press("ArrowRight")
    viewer.wait_for_url("**/hands/1?step=1")
    viewer.keyboard.press("ArrowRight")
    viewer.wait_for_url("**/hands/1?step=2")
    assert "Schritt 2 von" in viewer.locator("#step-of").inner_text()
    viewer.keyboard.press("ArrowLeft")
    viewer.wait_for_url("**/hands/1?step=1")
    assert "Schritt 1:" in viewer.locator("#step-now").inner_text()
    viewer.goto(site.url(f"/t/club/matches/{MATCH}/hands/1?lang=en&step=1"))
    assert "Step 1 of" in viewer.locator("#step-of").inner_text()
    assert_accessible(viewer)
    shot(viewer, "watch-replay-en-desktop")
    viewer.set_viewport_size(PHONE)
    assert fits_width(viewer), "the replay scrolls sideways on a phone"
    shot(viewer, "watch-replay-en-phone")
    viewer.set_viewport_size(NARROW)
    viewer.goto(site.url(f"/t/club/matches/{MATCH}/hands/1?lang=de&step=1"))
    assert fits_width(viewer), "the replay scrolls sideways on a 320 px phone"
    shot(viewer, "watch-replay-de-320")

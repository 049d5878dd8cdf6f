"""A double tap counts once (trial 7, F1; players.md "a double tap counts once"): on a
390x844 phone in German, a tap, 250 ms, a tap on the same spot. The table is swapped whole
after a move, so the second tap used to land on what replaced the card: the next card to
lead after the responder won the trick, and after the last trick the claim buttons (R16),
a false claim of 66. Now the second tap does nothing: the store holds exactly one move,
no claim; and keys pressed at a player's pace still play.

The phone holds seat 0; seat 1 and seat 0's other moves are played through the service,
steered (all cards are known to the test) so that the phone replies to a lead it wins
while the talon lasts, and replies to the last trick with a card that wins it."""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING

from engine import HandState
from engine.actions import Action, Kind
from tests.browser.conftest import Browse, Site
from tests.browser.desk_steps import phone
from tests.browser.harness import shot
from tests.browser.online_steps import moment_of, online_match, settled, take_seat, wait_for
from tournament.domain.commands.online import claim_window
from tournament.domain.views.onlineview import TableMoment
from tournament.web.live import play_service

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page

ME = 0  # the phone's seat

#: Counted in the page before any of its scripts: clicks that reached the window (before
#: the table's guard could stop them), and the moves the page sent and got answered.
_COUNT = """
window.__taps = { clicks: 0, sent: 0, done: 0 };
window.addEventListener("click", () => { window.__taps.clicks += 1; }, true);
document.addEventListener("htmx:beforeRequest", (event) => {
  window.__taps.sent += 1;
  event.detail.xhr.addEventListener("loadend", () => { window.__taps.done += 1; });
});
"""
_BOTH_TAPS_DONE = "n => window.__taps.clicks >= n + 2 && window.__taps.sent === window.__taps.done"


def plays(state: HandState) -> list[Action]:
    return [a for a in state.legal_actions() if a.kind == Kind.PLAY and not a.marriage]


def wins_trick(state: HandState, action: Action) -> bool:
    after = state.apply(action)
    return after.tricks[-1].winner == action.seat


def last_trick_won_by_my_reply(state: HandState) -> bool:
    """Some line of plays from here has the phone reply to the last trick and win it."""
    if state.is_over or not state.to_act:
        return False
    seat = state.to_act[0]
    last_reply = seat == ME and state.lead_card is not None and len(state.cards_of(ME)) == 1
    for action in plays(state):
        if last_reply:
            if wins_trick(state, action):
                return True
        elif last_trick_won_by_my_reply(state.apply(action)):
            return True
    return False


def winning_reply(state: HandState) -> Action | None:
    """The phone's reply that wins the trick, while the talon lasts (the hand stays five
    cards: the spot tapped holds the card to lead next)."""
    if state.to_act != (ME,) or state.lead_card is None or state.talon_count == 0:
        return None
    return next((a for a in plays(state) if wins_trick(state, a)), None)


def steer(state: HandState, replied: bool) -> Action:
    """A move for the service: the lead the phone can beat, then a line to the last trick
    the phone wins by its reply (when there is one), else the first card."""
    seat = state.to_act[0]
    options = plays(state)
    if not replied and seat != ME and state.lead_card is None:
        for lead in options:
            if winning_reply(state.apply(lead)) is not None:
                return lead
    if state.talon_count == 0:
        for action in options:
            if last_trick_won_by_my_reply(state.apply(action)):
                return action
    return options[0]


class Table:
    """The service's table, each call in an app context of its own (none is held while
    the browser waits on the site)."""

    def __init__(self, site: Site, mid: str) -> None:
        self.app, self.mid = site.app, mid

    def moment(self) -> TableMoment:
        with self.app.app_context():
            return play_service().moment("club", self.mid)

    def join(self, seat: int) -> None:
        with self.app.app_context():
            play_service().join("club", self.mid, seat, None)

    def act(self, seat: int, action: Action, version: int) -> None:
        with self.app.app_context():
            play_service().act("club", self.mid, seat, action.to_json(), version)

    def decline(self, seat: int, version: int) -> None:
        with self.app.app_context():
            play_service().decline_claim("club", self.mid, seat, version)


def shows(page: Page, m: TableMoment) -> None:
    """Wait until the phone shows this moment and takes taps."""
    wait_for(partial(shows_moment, page, f"{m.number}.{m.version}"), "the moment")
    settled(page)


def shows_moment(page: Page, moment: str) -> bool:
    return moment_of(page) == moment


def double_tap(page: Page, card: str) -> tuple[float, float]:
    """A tap on the card's centre, 250 ms (a double tap's pace: the point of the test), a
    tap on the same spot; then wait until both taps reached the page and every move it
    sent was answered."""
    box = page.locator(f"#table button[data-card='{card}']").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    clicks = page.evaluate("() => window.__taps.clicks")
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(250)
    page.touchscreen.tap(x, y)
    wait_for(lambda: page.evaluate(_BOTH_TAPS_DONE, clicks), "both taps, every move answered")
    return x, y


def test_a_double_tap_plays_one_card_and_never_presses_what_appears_under_the_finger(
    browse: Browse, site: Site
) -> None:
    site.app.config["LIVE_KEEPALIVE"] = 1
    _, mid, codes = online_match(site)
    page = phone(browse, site)
    page.add_init_script(_COUNT)
    page.goto(site.url(f"/play/{codes[ME]}?lang=de"))
    take_seat(page)
    replied = claimed = False
    started = time.monotonic()
    on = Table(site, mid)
    on.join(1 - ME)
    while not (replied and claimed):
        assert time.monotonic() - started < 120, "no hand gave both double taps"
        m = on.moment()
        state = m.state
        if state is None or not state.to_act:
            time.sleep(0.05)  # the next deal
            continue
        seat = state.to_act[0]
        if claim_window(state):  # the last trick won: no claim (R16), the next deal
            on.decline(seat, m.version)
            continue
        reply = winning_reply(state) if not replied else None
        last = (
            seat == ME
            and state.lead_card is not None
            and len(state.cards_of(ME)) == 1
            and wins_trick(state, plays(state)[0])
        )
        if reply is None and not (replied and last):
            action = steer(state, replied)
            on.act(seat, action, m.version)
            continue
        shows(page, m)
        card = reply.card if reply is not None else plays(state)[0].card
        assert card is not None
        x, y = double_tap(page, card.code)
        after = on.moment()
        assert (after.number, after.version) == (m.number, m.version + 1), (
            "one tap, one move: the second tap played nothing"
        )
        assert after.state is not None
        if reply is not None:  # the trick won: the phone leads next
            replied = True
            assert after.state.to_act == (ME,) and after.state.lead_card is None
            shot(page, "play-double-tap-won-trick-de-phone", full_page=False)
            # Keys at a player's pace still play: "1" leads the first card.
            shows(page, after)
            page.keyboard.press("1")
            played = f"{after.number}.{after.version + 1}"
            wait_for(partial(shows_moment, page, played), "the key's move")
        else:  # the last trick won: the R16 window, nothing claimed
            claimed = True
            # still the R16 window: neither a claim nor "no claim" was pressed
            assert claim_window(after.state) and after.state.to_act == (ME,)
            shot(page, "play-double-tap-last-trick-de-phone", full_page=False)
            # ... and "66 ansagen" / "Nicht ansagen" came where no card was
            buttons = page.locator("#table .hand button.action")
            assert buttons.count() == 2
            for n in range(buttons.count()):
                box = buttons.nth(n).bounding_box()
                assert box is not None
                inside = box["x"] <= x <= box["x"] + box["width"] and (
                    box["y"] <= y <= box["y"] + box["height"]
                )
                assert not inside, f"{buttons.nth(n).inner_text()} where the last card was"
            shows(page, after)
            page.keyboard.press("n")  # no claim, by its key: the next hand is dealt
            dealt = f"{after.number + 1}.1"
            wait_for(partial(shows_moment, page, dealt), "the next deal")

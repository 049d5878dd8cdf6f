"""Playing online at two phones (T-online): each seat opens its table by its code, and a
whole Bummerl is played through the pages, each move chosen at random from what the page
offers (a click or a key), the other page following live (SSE, no reload). Both end
showing the Bummerl won as the store records it. Every page, fragment and live message
each browser received is read: none holds a card hidden from that seat at that moment
(the opponent's hand, the talon). The table is axe clean in German and English at phone
and desktop size."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from engine import HandState
from tests.browser.conftest import Browse, Site
from tests.browser.desk_steps import phone
from tests.browser.harness import View, assert_accessible, fits_width, in_every_view
from tests.browser.test_report import round_one
from tests.web.conftest import Web
from tests.web.played import state
from tournament.domain.errors import DomainError
from tournament.domain.hands import apply_hand_event
from tournament.web.live import play_service

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page, Response

CARD = re.compile(r'data-card="([ATKQJ][CDHS])"')
NAME = re.compile(r"\b(Ace|Ten|King|Queen|Jack) of (clubs|diamonds|hearts|spades)\b")
RANKS = {"Ace": "A", "Ten": "T", "King": "K", "Queen": "Q", "Jack": "J"}
SUITS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
MOMENT = re.compile(r'data-version="(\d+)" data-hand="(\d+)"')
SEAT_TABLE = "#table .seat-table"


class Seen:
    """What one seat's browser received: (hand number, version, text) of each page,
    fragment and live message that shows a table."""

    def __init__(self) -> None:
        self.bodies: list[str] = []
        self.responses: list[Response] = []
        self.messages = 0

    def read_responses(self) -> None:
        for response in self.responses:
            kind = response.headers.get("content-type", "")
            if kind.startswith("text/html"):
                self.bodies.append(response.text())
        self.responses.clear()


def watch(page: Page, seen: Seen) -> None:
    page.on("response", lambda response: seen.responses.append(response))
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")

    def message(params: dict[str, Any]) -> None:
        seen.messages += 1
        seen.bodies.append(str(params.get("data", "")))

    cdp.on("Network.eventSourceMessageReceived", message)


def start_online(site: Site) -> tuple[Web, str, tuple[str, str]]:
    web, mid, codes = round_one(site)
    with site.app.app_context():
        play_service().start("club", mid, move_seconds=None)
    return web, mid, codes


def hands(site: Site, mid: str) -> list[list[HandState]]:
    """Every hand of the table, as its state after each version (index = version - 1)."""
    found: list[list[HandState]] = []
    with site.app.app_context():
        number = 1
        while True:
            try:
                _, hand = play_service().hand_at("club", mid, number)
            except DomainError:  # no such hand: all read
                return found
            states: list[HandState] = []
            current: HandState | None = None
            for event in hand.events:
                current = apply_hand_event(current, event)
                assert current is not None
                states.append(current)
            found.append(states)
            number += 1


def visible(hand: HandState, seat: int) -> set[str]:
    """The cards ``seat`` may see at this moment: its own hand, every card played, the
    turn-up while it lies face up, the cards of declared marriages."""
    cards = {c.code for c in hand.cards_of(seat)}
    for trick in hand.tricks:
        cards |= {trick.lead.code, trick.reply.code}
    if hand.lead_card is not None:
        cards.add(hand.lead_card.code)
    if hand.turnup is not None and not hand.is_closed:
        cards.add(hand.turnup.code)
    for marriage in hand.marriages:
        cards |= {marriage.led.code, marriage.shown.code}
    return cards


def cards_shown(body: str) -> set[str]:
    named = {RANKS[rank] + SUITS[suit] for rank, suit in NAME.findall(body)}
    return set(CARD.findall(body)) | named


def assert_nothing_hidden(seen: Seen, seat: int, all_hands: list[list[HandState]]) -> int:
    checked = 0
    for body in seen.bodies:
        found = MOMENT.search(body)
        shown = cards_shown(body)
        if found is None:
            assert not shown, f"cards without a moment: {shown}"
            continue
        version, number = int(found.group(1)), int(found.group(2))
        if number == 0:
            assert not shown
            continue
        hand = all_hands[number - 1][version - 1]
        hidden = shown - visible(hand, seat)
        assert not hidden, f"seat {seat} was sent {hidden}, hidden at hand {number} v{version}"
        checked += 1
    return checked


def moment_of(page: Page) -> str:
    root = page.locator(SEAT_TABLE)
    return f"{root.get_attribute('data-hand')}.{root.get_attribute('data-version')}"


def status_of(page: Page) -> str:
    return str(page.locator(SEAT_TABLE).get_attribute("data-status"))


def wait_for(check: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


def moved_on(page: Page, before: str) -> bool:
    return moment_of(page) != before


def shows_score(page: Page, wins: dict[str, int]) -> bool:
    return score_of(page) == wins


def score_of(page: Page) -> dict[str, int]:
    rows = page.locator("#table table.score tbody tr")
    found = {}
    for n in range(rows.count()):
        name = rows.nth(n).locator("th").inner_text().split(" (")[0].strip()
        found[name] = int(rows.nth(n).locator("td").first.inner_text())
    return found


def make_a_move(page: Page, rng: random.Random) -> str:
    """Click a button the page offers, or press its key."""
    buttons = page.locator("#table button[data-key]:not([disabled])")
    count = buttons.count()
    assert count, "the seat to act is offered nothing"
    button = buttons.nth(rng.randrange(count))
    key = str(button.get_attribute("data-key"))
    if rng.random() < 0.5:
        button.click()
        return f"click {key}"
    if key.startswith("m"):
        page.keyboard.press("m")
        page.keyboard.press(key[1])
    else:
        page.keyboard.press(key.upper() if key.isalpha() else key)
    return f"key {key}"


def test_two_phones_play_a_whole_bummerl_live_and_see_no_hidden_card(
    browse: Browse, site: Site
) -> None:
    site.app.config["LIVE_KEEPALIVE"] = 1  # a closed stream frees its thread soon
    web, mid, codes = start_online(site)
    t = state(web, "club")
    match = t.matches[mid]
    names = [t.players[p].name for p in match.players]
    pages: list[Page] = []
    seen = [Seen(), Seen()]
    for seat in (0, 1):
        player = phone(browse, site)
        watch(player, seen[seat])
        player.goto(site.url(f"/play/{codes[seat]}?lang=en"))
        player.wait_for_function(
            "() => document.getElementById('live-badge').dataset.state === 'live'"
        )
        pages.append(player)
    rng = random.Random(12)
    moves: list[str] = []
    started = time.monotonic()
    while sum(state(web, "club").matches[mid].summary.bummerl) == 0:
        assert time.monotonic() - started < 50, f"a Bummerl takes too long: {moves}"
        statuses = [status_of(p) for p in pages]
        acting = [s for s in (0, 1) if statuses[s] in ("turn", "claim")]
        assert acting, statuses  # one seat; both right after a marriage lead (R12b)
        seat = rng.choice(acting)
        before = moment_of(pages[seat])
        assert pages[seat].title().startswith("Your turn"), "whose turn, in the title too"
        assert moment_of(pages[1 - seat]) == before, "both pages show the same moment"
        moves.append(f"{seat}: {make_a_move(pages[seat], rng)}")
        for p in pages:  # the actor by its answer, the other live by SSE
            wait_for(partial(moved_on, p, before), f"{moves[-1]} to show")
        # both pages show the same moment (a page may have seen a deal the other not yet)
        wait_for(lambda: moment_of(pages[0]) == moment_of(pages[1]), "both pages to agree")
    done = state(web, "club").matches[mid]
    wins = dict(zip(names, done.summary.bummerl, strict=True))
    for p in pages:
        wait_for(partial(shows_score, p, wins), f"the Bummerl result on {p.url}")
    assert sorted(wins.values()) in ([0, 1], [0, 2])  # a Schneiderbummerl counts 2 (R19)
    if done.decided:  # best of 3: two Bummerl end the match (R20)
        winner = names[done.summary.winner or 0]
        for p in pages:
            assert f"Match over: {winner} wins 2:0" in p.locator(".turn").inner_text()
    assert seen[0].messages and seen[1].messages, "the pages followed by SSE"

    for s in seen:
        s.read_responses()
    all_hands = hands(site, mid)
    for seat in (0, 1):
        assert assert_nothing_hidden(seen[seat], seat, all_hands) >= len(moves) // 2
        assert codes[1 - seat] not in " ".join(seen[seat].bodies)


def test_the_table_reads_well_in_both_languages_on_a_phone_and_a_laptop(
    page: Page, site: Site
) -> None:
    site.app.config["LIVE_KEEPALIVE"] = 1
    _, _, (first, _) = start_online(site)

    def look(view: View) -> None:
        assert page.locator("html").get_attribute("lang") == view.lang
        assert page.locator("h1").count() == 1
        assert page.locator("#table button[data-card]").count() == 5
        assert fits_width(page), "the table scrolls sideways"
        assert_accessible(page)

    in_every_view(page, site.url(f"/play/{first}"), look)

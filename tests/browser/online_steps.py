"""Steps of the browser tests of online tables (T-online): a tournament with a match at an
online table, what a browser received (every text response and every live message, as
the browser saw them over the DevTools protocol), reading a table page's moment and
score, and two seats playing through their pages, each move chosen at random from what
the page offers (a click or a key), until a condition holds.

Which cards were hidden at a moment is in ``tests/pages/table_cards.py``."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from engine import HandState
from tests.browser.conftest import Browse, Site
from tests.browser.desk_steps import phone
from tests.pages.table_cards import assert_no_hidden_card, cards_in, hidden
from tests.web.conftest import Web
from tests.web.played import NAMES, register, run, state
from tournament.domain.commands.rounds import start_round
from tournament.domain.commands.tablecodes import match_codes
from tournament.domain.model.errors import DomainError
from tournament.domain.model.hands import apply_hand_event
from tournament.web.live import play_service

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page, Response

SECRET = b"browser-test-secret"  # the site's SECRET_KEY: the table codes' key (T-code)
#: A seat's table: ``data-version="<version>" data-hand="<hand>"``.
SEAT_MOMENT = re.compile(r'data-version="(\d+)" data-hand="(\d+)"')
#: The room's table: ``data-version="<hand>.<version>"``.
ROOM_MOMENT = re.compile(r'data-version="(\d+)\.(\d+)"')
SEAT_TABLE = "#table .seat-table"
#: A table page's stream is open (its badge says "Live").
LIVE = "() => document.getElementById('live-badge').dataset.state === 'live'"
ROOM_TABLE = "#table .table-live"
#: A seat's table takes taps and keys: no move on its way, and the settle time after a
#: new moment is over (play.js: a double tap counts once, F1).
SETTLED = """() => { const t = document.querySelector('#table .seat-table');
  return t !== null && !('settling' in t.dataset); }"""


# --- the tournament ------------------------------------------------------------------------


def online_match(
    site: Site, *, best_of: int = 3, joined: bool = False
) -> tuple[Web, str, tuple[str, str]]:
    """A Swiss of eight (``best_of``) with round 1 drawn, its first match at an online
    table without a clock; the match, and its two seats' codes (T-code). A seat is taken
    by the phone that taps *Take my seat* on it (T-online, :func:`take_seat`); with
    ``joined`` two devices outside the browser took them already (a test that plays
    through the service)."""
    web = Web(site.app)
    web._tokens["admin@club.at"] = site.admin_token  # the site's admin, not a new one
    web.ok(
        "POST",
        "/api/v1/tournaments",
        {"name": "Club Cup", "id": "club", "format": "swiss", "best_of": best_of, "seed": 7,
         "options": {"rounds": 3}},
        token=site.admin_token,
    )  # fmt: skip
    register(web, "club", NAMES)
    run(web, "club", lambda t: start_round(t))
    t = state(web, "club")
    mid = t.rounds[-1].matches[0]
    with site.app.app_context():
        play_service().start("club", mid, move_seconds=None)
        for seat in (0, 1) if joined else ():
            play_service().join("club", mid, seat, None)
    return web, mid, match_codes(SECRET, t, t.matches[mid])


def hands(site: Site, mid: str) -> list[list[HandState]]:
    """Every hand of the table as the store holds it, as its state after each version
    (index = version - 1)."""
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


# --- what a browser received ---------------------------------------------------------------


class Received:
    """What one browser page received: the body of each text response (pages, fragments,
    JSON, scripts; not the stream itself) and each live message (event name and data,
    over the DevTools protocol, as the browser got them)."""

    def __init__(self, page: Page) -> None:
        self.responses: list[Response] = []
        self.texts: list[str] = []
        self.messages = 0
        page.on("response", self._response)
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.cdp.on("Network.eventSourceMessageReceived", self._message)

    def _response(self, response: Response) -> None:
        self.responses.append(response)

    def _message(self, params: dict[str, Any]) -> None:
        self.messages += 1
        self.texts.append(f"{params.get('eventName')}\n{params.get('data')}")

    def read(self) -> None:
        """Keep the bodies received so far. Call it before the page leaves: the browser
        forgets a page's bodies when it goes."""
        for response in self.responses:
            kind = response.headers.get("content-type", "")
            textual = kind.startswith("text/") or "json" in kind or "javascript" in kind
            if textual and "event-stream" not in kind and not 300 <= response.status < 400:
                self.texts.append(response.text())
        self.responses.clear()

    def take(self) -> list[str]:
        """Bodies and messages since the last call (see :meth:`read`)."""
        self.read()
        found, self.texts = self.texts, []
        return found


def moment_in(text: str) -> tuple[int, int] | None:
    """The (hand number, version) a seat's or the room's table in ``text`` shows; None
    when it shows no table. One text shows one moment."""
    found = {(int(h), int(v)) for v, h in SEAT_MOMENT.findall(text)}
    found |= {(int(h), int(v)) for h, v in ROOM_MOMENT.findall(text)}
    assert len(found) <= 1, f"one text, several moments: {found}"
    return found.pop() if found else None


def assert_nothing_hidden(
    texts: Sequence[str], seat: int | None, table: list[list[HandState]]
) -> int:
    """No text holds a card hidden from ``seat`` (None: the room) at the moment it shows
    (the opponent's hands and the talon; for the room, both hands and the talon); a text
    that shows no table holds no card at all. The number of tables checked."""
    checked = 0
    for text in texts:
        at = moment_in(text)
        if at is None or at[0] == 0:  # no table, or before the first deal
            assert not cards_in(text), f"cards without a hand: {cards_in(text)}\n{text[:300]}"
            continue
        number, version = at
        assert_no_hidden_card(text, hidden(table[number - 1][version - 1], seat), seat)
        checked += 1
    return checked


def code_forms(code: str) -> tuple[str, ...]:
    """A table code as it may be written: ``XDMYNM``, ``XDM-YNM``, ``xdmynm``."""
    dashed = f"{code[:3]}-{code[3:]}"
    return code, dashed, code.lower(), dashed.lower()


def assert_no_code(texts: Sequence[str], codes: Sequence[str]) -> None:
    for text in texts:
        for code in codes:
            for form in code_forms(code):
                assert form not in text, f"table code {form} sent:\n{text[:300]}"


#: The button of a seat nobody holds: *Take my seat* (a POST: opening the link takes nothing).
TAKE = "form[action$='/seat'] button[type=submit]"


def take_seat(page: Page) -> None:
    """Tap *Take my seat* on the seat's page and wait for its table, live."""
    page.locator(TAKE).click()
    page.wait_for_selector(SEAT_TABLE)
    page.wait_for_function(LIVE)


def seat_pages(browse: Browse, site: Site, codes: Sequence[str]) -> list[tuple[Page, Received]]:
    """Each seat's table on a phone of its own (``/play/<code>``, in English): the link
    opened, *Take my seat* tapped, live; and what its browser receives from the start."""
    found = []
    for code in codes:
        page = phone(browse, site)
        received = Received(page)
        page.goto(site.url(f"/play/{code}?lang=en"))
        received.read()  # the seat's page before it was taken: checked too
        take_seat(page)
        found.append((page, received))
    return found


# --- reading a table page ------------------------------------------------------------------


#: What a table page shows now, read in one step (see :func:`moment_of`).
_MOMENT = """() => {
  const seat = document.querySelector('#table .seat-table');
  if (seat) {
    const over = seat.dataset.status === 'over' ? '/over' : '';
    return seat.dataset.hand + '.' + seat.dataset.version + over;
  }
  const room = document.querySelector('#table .table-live');
  const status = document.getElementById('table-status');
  const over = status && status.dataset.status === 'over' ? '/over' : '';
  return (room ? room.dataset.version : '') + over;
}"""


def moment_of(page: Page) -> str:
    """``<hand>.<version>`` of the table a seat's or the room's page shows now, and
    ``/over`` once the match is over: the "no claim" (R16) that ends a match changes no
    hand's version, only that."""
    return str(page.evaluate(_MOMENT))


def status_of(page: Page) -> str:
    return str(page.locator(SEAT_TABLE).get_attribute("data-status"))


def wait_for(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


def moved_on(page: Page, before: str) -> bool:
    return moment_of(page) != before


def score_of(page: Page) -> dict[str, int]:
    """Bummerl won by each player, as a seat's or the room's score table shows them."""
    rows = page.locator("#table table.score tbody tr, #table table.scoreboard tbody tr")
    found = {}
    for n in range(rows.count()):
        head = rows.nth(n).locator("th")
        name = head.evaluate("th => th.firstChild.textContent").split(" (")[0].strip()
        found[name] = int(rows.nth(n).locator("td").first.inner_text())
    return found


def shows_score(page: Page, wins: dict[str, int]) -> bool:
    return score_of(page) == wins


# --- playing -------------------------------------------------------------------------------


def settled(page: Page) -> None:
    """Wait until the seat's table takes a tap (:data:`SETTLED`), as a player looks before
    tapping."""
    wait_for(lambda: bool(page.evaluate(SETTLED)), f"the table to settle on {page.url}")


def make_a_move(page: Page, rng: random.Random, claims: float = 1.0) -> str:
    """Click a button the page offers, or press its key. A claim of 66 in the middle of a
    hand is kept among the choices with the odds ``claims`` (a random claim is mostly
    false and ends the hand, R13, R15): lower odds let more hands reach their last trick
    and its winner's choice, claim or no claim (R16)."""
    settled(page)
    buttons = page.locator("#table button[data-key]:not([disabled])")
    keys = [str(buttons.nth(n).get_attribute("data-key")) for n in range(buttons.count())]
    assert keys, "the seat to act is offered nothing"
    if status_of(page) == "turn" and len(keys) > 1 and "6" in keys and rng.random() >= claims:
        keys.remove("6")
    key = rng.choice(keys)
    if rng.random() < 0.5:
        page.locator(f"#table button[data-key='{key}']").click()
        return f"click {key}"
    if key.startswith("m"):
        page.keyboard.press("m")
        page.keyboard.press(key[1])
    else:
        page.keyboard.press(key.upper() if key.isalpha() else key)
    return f"key {key}"


def play_until(
    seats: Sequence[Page],
    done: Callable[[], bool],
    rng: random.Random,
    *,
    followers: Sequence[Page] = (),
    claims: float = 1.0,
    seconds: float = 90,  # each move waits for the table to settle (play.js, F1)
) -> list[str]:
    """The seats' pages move at random until ``done()``: after each move the actor's page
    shows its answer and every other page (the other seat's, the ``followers``) the same
    moment live (SSE, no reload). ``claims``: see :func:`make_a_move`. The moves made, as
    ``<seat>: click|key <key>`` (``<seat>!`` in the R16 window after the last trick)."""
    moves: list[str] = []
    pages = [*seats, *followers]
    started = time.monotonic()
    while not done():
        assert time.monotonic() - started < seconds, f"a Bummerl takes too long: {moves}"
        statuses = [status_of(p) for p in seats]
        acting = [s for s in (0, 1) if statuses[s] in ("turn", "claim")]
        assert acting, statuses  # one seat; both right after a marriage lead (R12b)
        seat = rng.choice(acting)
        before = moment_of(seats[seat])
        assert seats[seat].title().startswith("Your turn"), "whose turn, in the title too"
        for p in pages:
            assert moment_of(p) == before, f"{p.url} shows another moment"
        window = "!" if statuses[seat] == "claim" else ""  # R16: claim or no claim
        moves.append(f"{seat}{window}: {make_a_move(seats[seat], rng, claims)}")
        for p in pages:  # the actor by its answer, the others live by SSE
            wait_for(partial(moved_on, p, before), f"{moves[-1]} to show on {p.url}")
        # all show the same moment (a page may have seen a deal another not yet)
        wait_for(lambda: len({moment_of(p) for p in pages}) == 1, "the pages to agree")
    return moves

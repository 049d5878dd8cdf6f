"""On a 390x844 phone the player's own cards and the buttons to play them stay on the
first screen through a whole hand, and never move (trial 5, P3): whatever comes and goes
above them ("Last trick", the clock, the marriages, the turn line), the cards' boxes lie
inside the screen on every turn, at the same height and in the same places, so the thumb
that tapped a card last time finds one there again."""

from __future__ import annotations

import random
from functools import partial
from typing import TYPE_CHECKING, Any

from tests.browser.conftest import Browse, Site
from tests.browser.desk_steps import phone
from tests.browser.harness import PHONE, shot
from tests.browser.online_steps import (
    make_a_move,
    moment_of,
    moved_on,
    online_match,
    status_of,
    take_seat,
    wait_for,
)

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page

#: The boxes (relative to the screen) of the seat's cards and of the buttons that act.
_BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
  return {
    cards: [...document.querySelectorAll('#table .hand .play-card')].map(box),
    actions: [...document.querySelectorAll('#table .hand button.action')].map(box),
    hand: Number(document.querySelector('#table .seat-table').dataset.hand),
    lastTrick: document.querySelector('#table .last') !== null,
  };
}"""


def on_screen(box: dict[str, float]) -> bool:
    return (
        box["top"] >= 0
        and box["left"] >= 0
        and box["bottom"] <= PHONE["height"]
        and box["right"] <= PHONE["width"]
    )


def look(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(_BOXES)
    return found


def test_on_a_phone_the_own_cards_stay_on_the_first_screen_and_never_move(
    browse: Browse, site: Site
) -> None:
    site.app.config["LIVE_KEEPALIVE"] = 1
    _, _, codes = online_match(site)
    pages = []
    for code in codes:
        page = phone(browse, site)
        page.goto(site.url(f"/play/{code}?lang=de"))
        take_seat(page)  # opening the link takes nothing: "Meinen Platz nehmen" (AE-1)
        pages.append(page)
    rng = random.Random(21)
    places: list[list[tuple[float, float]] | None] = [None, None]
    last_trick_seen = [False, False]
    shown_actions: list[int] = []
    turns = 0
    while all(look(p)["hand"] == 1 for p in pages) and turns < 40:
        for seat, page in enumerate(pages):
            seen = look(page)
            if status_of(page) == "turn":
                assert seen["cards"] or seen["actions"], f"seat {seat}: nothing to play with"
            off = [b for b in seen["cards"] + seen["actions"] if not on_screen(b)]
            assert not off, f"seat {seat}, turn {turns}: off the first screen: {off}"
            slots = [(b["top"], b["left"]) for b in seen["cards"]]
            known = places[seat]
            if known is None:
                places[seat] = slots
            else:  # fewer cards once the talon is gone: the rest keep their places
                assert slots == known[: len(slots)], (
                    f"seat {seat}, turn {turns}: the cards moved from {known} to {slots}"
                )
            last_trick_seen[seat] |= seen["lastTrick"]
            if turns == 3:
                shot(page, f"play-seat-{seat}-de-phone-mid-hand", full_page=False)
            if seen["lastTrick"] and seen["actions"] and not shown_actions:
                shown_actions.append(seat)
                shot(page, f"play-seat-{seat}-de-phone-last-trick-and-buttons", full_page=False)
        acting = [s for s in (0, 1) if status_of(pages[s]) in ("turn", "claim")]
        assert acting
        seat = rng.choice(acting)
        before = moment_of(pages[seat])
        make_a_move(pages[seat], rng, claims=0.05)
        for page in pages:
            wait_for(partial(moved_on, page, before), "the move to show on both phones")
        wait_for(lambda: len({moment_of(p) for p in pages}) == 1, "the phones to agree")
        turns += 1
    assert turns >= 10, "a hand of many turns was looked at"
    assert any(last_trick_seen), "'Last trick' came and went while the cards stayed"

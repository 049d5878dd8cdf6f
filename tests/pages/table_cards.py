"""Which cards a spectator may see of an online table now (T-online), and which cards a
page or a stream message shows: shared by the page tests and the browser test."""

from __future__ import annotations

import re

from engine import HandState

#: A card's code as the record writes it (``TH``), standing alone.
CARD = re.compile(r"\b[ATKQJ][CDHS]\b")
#: A card as the pages write it (``public_play.card``): the suit's sign, its name for a
#: screen reader, the rank in the reader's language (German: D for Dame, B for Bube).
SHOWN = re.compile(
    r'<span aria-hidden="true">([♣♦♥♠])</span><span class="visually-hidden">[^<]*</span>'
    r"(A|10|K|Q|J|D|B)</span>"
)
SIGNS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
RANKS = {"A": "A", "10": "T", "K": "K", "Q": "Q", "J": "J", "D": "Q", "B": "J"}


def hidden(state: HandState) -> set[str]:
    """The cards nobody in the room may see: both hands and the talon. Open are the cards
    played, the turn-up while it lies face up (R2), and a declared marriage's partner,
    which was shown (R10)."""
    cards = {c.code for seat in (0, 1) for c in state.cards_of(seat)}
    cards |= {c.code for c in state.talon}
    if state.turnup is not None and not state.is_closed:
        cards.discard(state.turnup.code)
    for marriage in state.marriages:
        cards.discard(marriage.shown.code)
    return cards


def cards_shown(html: str) -> set[str]:
    """The cards a page shows."""
    return {RANKS[rank] + SIGNS[sign] for sign, rank in SHOWN.findall(html)}


def assert_no_hidden_card(text: str, secret: set[str]) -> None:
    """Neither shown as a card nor written as a code anywhere (an attribute, a comment,
    a title): no card of ``secret``."""
    shown = cards_shown(text)
    assert not shown & secret, f"hidden cards on a spectator's screen: {shown & secret}"
    codes = set(CARD.findall(text))
    assert not codes & secret, f"hidden card codes in the spectator's text: {codes & secret}"

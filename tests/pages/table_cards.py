"""Which cards of an online table are hidden from a seat or from the room at a moment
(T-online), and which cards a page, a fragment or a stream message shows: shared by the
page tests and the browser tests."""

from __future__ import annotations

import json
import re

from engine import HandState
from engine.cards import ALL_CARDS
from engine.views import table_view

#: A card's code as the record and the seat's page write it (``TH``, ``data-card="TH"``,
#: ``value="TH+marriage"``), standing alone.
CARD = re.compile(r"\b[ATKQJ][CDHS]\b")
#: A card as the room's pages write it (``public_play.card``): the suit's sign, its name
#: for a screen reader, the rank in the reader's language (German: D for Dame, B for Bube).
SHOWN = re.compile(
    r'<span aria-hidden="true">([♣♦♥♠])</span><span class="visually-hidden">[^<]*</span>'
    r"(A|10|K|Q|J|D|B)</span>"
)
SIGNS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
RANKS = {"A": "A", "10": "T", "K": "K", "Q": "Q", "J": "J", "D": "Q", "B": "J"}
#: A card as a seat's page names it for a screen reader, in English.
NAMED = re.compile(r"\b(Ace|Ten|King|Queen|Jack) of (clubs|diamonds|hearts|spades)\b")
NAME_RANKS = {"Ace": "A", "Ten": "T", "King": "K", "Queen": "Q", "Jack": "J"}
NAME_SUITS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
#: A form's CSRF token: random letters, in which a card's code may stand by chance.
TOKEN = re.compile(r'name="csrf_token" value="[^"]*"')


def hidden(state: HandState, seat: int | None = None) -> set[str]:
    """The cards ``seat`` may not see at this moment (None: the room, who may see neither
    hand): the other hand (both hands) and the talon. Open are one's own hand, the cards
    played, the turn-up while it lies face up (R2), and a declared marriage's partner,
    which was shown (R10)."""
    cards = {c.code for s in (0, 1) if s != seat for c in state.cards_of(s)}
    cards |= {c.code for c in state.talon}
    if state.turnup is not None and not state.is_closed:
        cards.discard(state.turnup.code)
    for marriage in state.marriages:
        cards.discard(marriage.shown.code)
    return cards


def room_hidden(state: HandState) -> set[str]:
    """The cards the room may not see now (T-watch): while the hand is played, all but
    what both players at the table may see (the engine's table view: the turn-up, the
    card led, the last trick while it lies open, declared marriages), so no won trick
    but the last; once nobody may act on the hand, only what :func:`hidden` says."""
    if not state.to_act:
        return hidden(state)
    seen = set(CARD.findall(json.dumps(table_view(state).to_json())))
    return {str(card) for card in ALL_CARDS} - seen


def cards_shown(html: str) -> set[str]:
    """The cards a room's page shows."""
    return {RANKS[rank] + SIGNS[sign] for sign, rank in SHOWN.findall(html)}


def cards_in(text: str) -> set[str]:
    """Every card a text holds: shown as a card, named, or written as a code anywhere (an
    attribute, a comment, a title)."""
    named = {NAME_RANKS[rank] + NAME_SUITS[suit] for rank, suit in NAMED.findall(text)}
    return cards_shown(text) | named | set(CARD.findall(TOKEN.sub("", text)))


def assert_no_hidden_card(text: str, secret: set[str], seat: int | None = None) -> None:
    """No card of ``secret`` in ``text`` (``seat``: whose browser got it; None: the room's)."""
    whose = "the room" if seat is None else f"seat {seat}"
    leaked = cards_in(text) & secret
    assert not leaked, f"hidden cards sent to {whose}: {sorted(leaked)}\n{text[:300]}"

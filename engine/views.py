"""What one seat, or a spectator, may see of a hand.

A view never reveals the opponent's hand or the order of the talon. The only hidden card
that can show is the partner card of a marriage (R10): declaring shows it, and it stays
known while it is still in the declarer's hand.

    >>> from engine import HandState
    >>> from engine.views import player_view, spectator_view
    >>> deck = "QS AH TC KC QC JH KH TD AD AS TS JS JD KD QD JC KS QH TH AC".split()
    >>> state = HandState.deal(deck, dealer=0)
    >>> view = player_view(state, seat=1)
    >>> [c.code for c in view.hand], view.turnup.code, view.opponent_card_count
    (['TC', 'AD', 'TD', 'AH', 'QS'], 'KH', 5)
    >>> spectator_view(state).talon_count
    10

What a seat may look at in its own won tricks follows the visibility variants: by default
its whole pile; with ``own-tricks-hidden`` only the last trick played; with
``first-tricks-visible`` its first trick (and the last trick played). The last trick, by
whoever won it, stays visible to everyone until the next card is led (source 000).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.actions import Action
from engine.cards import Card, Suit, is_seat
from engine.hand import HandState, Trick
from engine.outcome import Outcome


@dataclasses.dataclass(frozen=True)
class ShownMarriage:
    """A declared marriage as everyone saw it; ``shown`` is None once that card was played."""

    seat: int
    suit: Suit
    value: int
    led: Card
    shown: Card | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "suit": self.suit.letter,
            "value": self.value,
            "led": self.led.code,
            "shown": None if self.shown is None else self.shown.code,
        }


@dataclasses.dataclass(frozen=True)
class TableView:
    """The public part of a hand, which players and spectators share."""

    dealer: int
    trump: Suit
    turnup: Card | None  # face up under the talon; None once closed (turned down) or drawn
    talon_count: int
    closed_by: int | None
    card_counts: tuple[int, int]
    tricks_won: tuple[int, int]
    leader: int
    lead: Card | None
    lead_is_marriage: bool
    last_trick: Trick | None  # visible until the next card is led
    marriages: tuple[ShownMarriage, ...]
    to_act: tuple[int, ...]
    outcome: Outcome | None  # only once the hand is over

    def to_json(self) -> dict[str, Any]:
        last = self.last_trick
        return {
            "dealer": self.dealer,
            "trump": self.trump.letter,
            "turnup": None if self.turnup is None else self.turnup.code,
            "talon_count": self.talon_count,
            "closed_by": self.closed_by,
            "card_counts": list(self.card_counts),
            "tricks_won": list(self.tricks_won),
            "leader": self.leader,
            "lead": None if self.lead is None else self.lead.code,
            "lead_is_marriage": self.lead_is_marriage,
            "last_trick": None
            if last is None
            else {
                "leader": last.leader,
                "lead": last.lead.code,
                "reply": last.reply.code,
                "winner": last.winner,
            },
            "marriages": [m.to_json() for m in self.marriages],
            "to_act": list(self.to_act),
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }


@dataclasses.dataclass(frozen=True)
class PlayerView:
    """What ``seat`` may see: the table, its own cards, and its own tricks per the variants."""

    seat: int
    table: TableView
    hand: tuple[Card, ...]
    visible_own_tricks: tuple[Trick, ...]
    own_points: int | None  # None when the variant hides the seat's own pile
    legal_actions: tuple[Action, ...]

    @property
    def turnup(self) -> Card | None:
        return self.table.turnup

    @property
    def opponent_card_count(self) -> int:
        return self.table.card_counts[1 - self.seat]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "table": self.table.to_json(),
            "hand": [c.code for c in self.hand],
            "own_tricks": [[t.lead.code, t.reply.code] for t in self.visible_own_tricks],
            "own_points": self.own_points,
            "legal_actions": [a.to_json() for a in self.legal_actions],
        }


def table_view(state: HandState) -> TableView:
    tricks = state.tricks
    last = tricks[-1] if tricks and state.lead_card is None else None
    held = (state.hand_mask(0), state.hand_mask(1))
    marriages = tuple(
        ShownMarriage(
            m.seat,
            m.suit,
            m.value,
            m.led,
            m.shown if held[m.seat] & m.shown.mask else None,
        )
        for m in state.marriages
    )
    over = state.is_over
    return TableView(
        dealer=state.dealer,
        trump=state.trump,
        turnup=None if state.is_closed else state.turnup,
        talon_count=state.talon_count,
        closed_by=state.closed_by,
        card_counts=(len(state.cards_of(0)), len(state.cards_of(1))),
        tricks_won=state.tricks_won,
        leader=state.leader,
        lead=state.lead_card,
        lead_is_marriage=state.lead_is_marriage,
        last_trick=last,
        marriages=marriages,
        to_act=state.to_act,
        outcome=state.outcome() if over else None,
    )


def spectator_view(state: HandState) -> TableView:
    """The public view: the table only, no hand and no talon order."""
    return table_view(state)


def player_view(state: HandState, seat: int) -> PlayerView:
    """What ``seat`` may see of ``state``."""
    if not is_seat(seat):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    rules = state.rules
    tricks = state.tricks
    own = [t for t in tricks if t.winner == seat]
    # The last trick lies open until the next card is led; the variants add nothing (PB) or
    # the seat's first trick (PA) to that.
    on_display = [tricks[-1]] if tricks and state.lead_card is None else []
    last_own = [t for t in on_display if t.winner == seat]
    if rules.own_tricks_hidden:
        visible = last_own
        points = None
    elif rules.first_tricks_visible:
        visible = own[:1] + [t for t in last_own if t not in own[:1]]
        points = None
    else:
        visible = own
        points = state.points[seat]
    legal = tuple(a for a in state.legal_actions() if a.seat == seat)
    return PlayerView(
        seat=seat,
        table=table_view(state),
        hand=tuple(state.cards_of(seat)),
        visible_own_tricks=tuple(visible),
        own_points=points,
        legal_actions=legal,
    )

"""Hand-made deals for rule tests: name each seat's five cards, the turn-up and the talon."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Action, HandState, Ruleset
from engine.cards import ALL_CARDS


def deck_for(forehand: str, dealer: str, turnup: str, talon: str = "") -> list[str]:
    """The 20-card deck (top first) that deals these cards (R2).

    ``talon`` lists the talon's top cards in drawing order; the cards not named anywhere
    follow in index order.
    """
    fh, dl, top = forehand.split(), dealer.split(), talon.split()
    assert len(fh) == 5 and len(dl) == 5, "five cards each"
    named = [*fh, *dl, turnup, *top]
    assert len(set(named)) == len(named), "a card named twice"
    rest = [c.code for c in ALL_CARDS if c.code not in named]
    return [*fh[:3], *dl[:3], turnup, *fh[3:], *dl[3:], *top, *rest]


def deal(
    forehand: str,
    dealer: str,
    turnup: str,
    talon: str = "",
    *,
    dealer_seat: int = 0,
    variants: Sequence[str] = (),
) -> HandState:
    """Deal with seat ``dealer_seat`` dealing (default 0, so seat 1 is forehand)."""
    deck = deck_for(forehand, dealer, turnup, talon)
    return HandState.deal(deck, dealer_seat, Ruleset.from_names(variants))


def play(state: HandState, actions: str) -> HandState:
    """Apply actions written in the text notation, e.g. ``"1:AH 0:QC 1:claim"``."""
    for text in actions.split():
        state = state.apply(Action.parse(text))
    return state


def codes(cards: Sequence[object]) -> list[str]:
    return sorted(str(c) for c in cards)

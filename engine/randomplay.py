"""Random legal hands, deterministic for a seed: test data and benchmark input.

The policy is random but biased so that every rule gets exercised: exchanges are usually
made, the talon is sometimes closed, marriages are usually declared, a seat with 66 claims
most of the time, and now and then a seat claims falsely or lets a correct claim pass.

    >>> from engine.randomplay import random_records
    >>> [r.outcome().complete for r in random_records(seed=7, count=3)]
    [True, True, True]
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from engine.actions import Action, Kind
from engine.cards import ALL_CARDS
from engine.hand import HandState
from engine.record import GameRecord
from engine.rules import Ruleset


def random_deck(rng: random.Random) -> list[str]:
    deck = [card.code for card in ALL_CARDS]
    rng.shuffle(deck)
    return deck


def choose_action(state: HandState, rng: random.Random) -> Action:
    """Pick one legal action with a bias towards interesting play."""
    legal = state.legal_actions()
    claims = [a for a in legal if a.kind == Kind.CLAIM]
    if claims:
        claim = claims[0]
        reaches_66 = state.points[claim.seat] >= 66
        if reaches_66 and rng.random() < 0.9:
            return claim
        if not reaches_66 and rng.random() < 0.03:
            return claim  # a false claim (R15, R14)
    exchanges = [a for a in legal if a.kind == Kind.EXCHANGE]
    if exchanges and rng.random() < 0.8:
        return exchanges[0]
    closes = [a for a in legal if a.kind == Kind.CLOSE]
    if closes and rng.random() < 0.12:
        return closes[0]
    plays = [a for a in legal if a.kind == Kind.PLAY]
    marriages = [a for a in plays if a.marriage]
    if marriages and rng.random() < 0.85:
        return rng.choice(marriages)
    return rng.choice([a for a in plays if not a.marriage] or plays)


def random_record(
    rng: random.Random, variants: Sequence[str] = (), dealer: int | None = None
) -> GameRecord:
    """One complete random hand, with its ``outcome`` stored beside the actions."""
    rules = Ruleset.from_names(variants)
    deck = random_deck(rng)
    seat = rng.randrange(2) if dealer is None else dealer
    state = HandState.deal(deck, seat, rules)
    actions: list[Action] = []
    while not state.is_over:
        action = choose_action(state, rng)
        state = state.apply(action)
        actions.append(action)
    last_claim = state.legal_actions()  # after the last trick its winner may still claim
    if last_claim:
        reaches_66 = state.points[last_claim[0].seat] >= 66
        if rng.random() < (0.9 if reaches_66 else 0.03):
            state = state.apply(last_claim[0])
            actions.append(last_claim[0])
    record = GameRecord(state.deck, seat, tuple(variants), tuple(actions))
    return GameRecord(
        record.deck,
        record.dealer,
        record.variants,
        record.actions,
        {"outcome": state.outcome().to_json()},
    )


def random_records(seed: int, count: int, variants: Sequence[str] = ()) -> Iterator[GameRecord]:
    rng = random.Random(seed)
    for _ in range(count):
        yield random_record(rng, variants)

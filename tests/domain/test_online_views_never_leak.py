"""Hidden cards never leave the server (T-online): over 10,000 random moments of a hand,
a seat's view holds no card that seat may not see, and the spectators' view none that the
room may not see, wherever in the JSON it might hide.

What a reader may see at a moment (docs/rules.md R2, R7, R9, R10; engine.views):

- a seat: its own hand, the cards played to tricks so far, the card led now, the face-up
  turn-up while the talon is open (turned down by closing, R9; drawn after the fifth
  trick, R7), and the partner card of a declared marriage while still in hand (R10);
- the spectators: the same without any hand.

Never: the talon's order, the other seat's hand.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from engine import HandState, Ruleset
from engine.outcome import Outcome
from engine.randomplay import choose_action, random_deck
from engine.views import table_view
from tests.domain.online_table import take_both
from tournament.domain.commands import online
from tournament.domain.model.state import Tournament
from tournament.domain.testing import Builder, paired
from tournament.domain.views.onlineview import TableMoment, seat_view, spectator_view

MATCH = "1.1"
STREAM = "hand-property"
STATES = 10_000
VARIANTS: tuple[tuple[str, ...], ...] = ((), ("own-tricks-hidden",), ("first-tricks-visible",))
#: A card code as a whole token anywhere in the JSON text: a value, a key, inside a string.
CARD = re.compile(r"(?<![A-Za-z0-9])([AKQJT][CDHS])(?![A-Za-z0-9])")
NOW = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


def online_tournament(variants: tuple[str, ...]) -> Tournament:
    b = Builder(paired(2, best_of=3, variants=list(variants)))
    b.add(online.start_online(b.state, MATCH, move_seconds=60))
    take_both(b, MATCH, NOW)
    return b.state


def hand_states(rng: random.Random, variants: tuple[str, ...]) -> list[HandState]:
    """Every state of one random hand, the deal first; after the tenth trick, also the
    last trick's winner's claim (R16) when the policy makes it."""
    state = HandState.deal(random_deck(rng), rng.randrange(2), Ruleset.from_names(variants))
    states = [state]
    while not state.is_over:
        state = state.apply(choose_action(state, rng))
        states.append(state)
    if state.legal_actions() and rng.random() < 0.5:
        states.append(state.apply(state.legal_actions()[0]))
    return states


def kinds(before: HandState | None, state: HandState) -> set[str]:
    """What is special about this moment (the cases the property must cover)."""
    found = set()
    if state.lead_is_marriage:
        found.add("marriage lead")
    if before is not None and state.is_closed and not before.is_closed:
        found.add("just closed")
    if state.is_closed:
        found.add("closed")
    if state.is_exhausted and not state.is_closed:
        found.add("exhausted")
    if state.is_over and state.legal_actions():
        found.add("tenth trick")
    if state.is_over:
        found.add("over")
    return found


def moments(rng: random.Random) -> Iterator[tuple[TableMoment, set[str]]]:
    tournaments = {variants: online_tournament(variants) for variants in VARIANTS}
    made = 0
    while made < STATES:
        variants = rng.choice(VARIANTS)
        states = hand_states(rng, variants)
        # One moment at random, and each special moment of the hand at most once.
        picked = {rng.randrange(len(states))}
        seen: set[str] = set()
        for index in range(1, len(states)):
            new = kinds(states[index - 1], states[index]) - seen
            if new - {"closed", "over"}:
                picked.add(index)
                seen |= new
        for index in sorted(picked):
            state = states[index]
            deadline = NOW + timedelta(seconds=rng.randrange(-30, 60))
            clock = online.Clock(60, deadline, deadline <= NOW)
            previous = (
                Outcome(True, (70, 30), (6, 4), 0, 2, "claim") if rng.random() < 0.5 else None
            )
            moment = TableMoment(
                tournaments[variants], MATCH, STREAM, state, index + 1, 2, clock,
                previous, rng.randrange(2) if previous else None,
            )  # fmt: skip
            yield moment, kinds(states[index - 1] if index else None, state)
            made += 1


def public_cards(state: HandState) -> set[str]:
    """The cards the room may see now (no hand)."""
    shown = {c.code for t in state.tricks for c in (t.lead, t.reply)}
    if state.lead_card is not None:
        shown.add(state.lead_card.code)
    if state.turnup is not None and not state.is_closed:
        shown.add(state.turnup.code)
    for seat in (0, 1):
        held = {c.code for c in state.cards_of(seat)}
        shown |= {m.shown.code for m in state.marriages if m.seat == seat} & held
    return shown


def cards_in(body: dict[str, Any]) -> set[str]:
    return set(CARD.findall(json.dumps(body)))


def keys_in(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_in(inner)


def test_no_view_ever_holds_a_card_hidden_from_its_reader() -> None:
    rng = random.Random(12)
    covered: Counter[str] = Counter()
    for moment, special in moments(rng):
        covered.update(special)
        state = moment.state
        assert state is not None
        public = public_cards(state)
        room = spectator_view(moment)
        assert cards_in(room) <= public, (state, cards_in(room) - public)
        assert "talon" not in set(keys_in(room)) and "hand" not in set(keys_in(room))
        if state.to_act:  # in play (or the R16 claim window): no card points on the wall
            assert room["view"]["points"] is None
            # ... and no won trick but the last, which table_view shows while it lies
            # open (T-watch): a player must not follow both piles on a phone (F9).
            assert room["view"]["tricks"] == [] and room["view"]["tricks_shown"] is False
            assert cards_in(room) <= cards_in(table_view(state).to_json())
            assert room["view"]["outcome"] is None or room["view"]["outcome"]["points"] is None
        for seat in (0, 1):
            own = {c.code for c in state.cards_of(seat)}
            other = {c.code for c in state.cards_of(1 - seat)}
            view = seat_view(moment, seat)
            seen = cards_in(view)
            assert seen <= own | public, (seat, state, seen - own - public)
            # The other seat's cards show only where the rules show them (a marriage).
            assert seen & other <= public
            assert "talon" not in set(keys_in(view))
            hands = [v["hand"] for v in _dicts(view) if "hand" in v]
            assert hands == [[c.code for c in state.cards_of(seat)]]
    for case in ("marriage lead", "just closed", "exhausted", "tenth trick", "over"):
        assert covered[case] >= 50, (case, covered)


def test_after_a_marriage_lead_it_is_the_reply_s_turn_and_the_leader_may_claim_R12b() -> None:
    """Both seats may act after a marriage lead (R12b), but the turn is the replier's:
    the leader waits, its view keeps only the claim; the room names the replier."""
    rng = random.Random(7)
    seen = 0
    for moment, special in moments(rng):
        state = moment.state
        assert state is not None
        if "marriage lead" not in special or not state.lead_is_marriage or state.is_over:
            continue
        if moment.clock.expired:
            continue
        leader, replier = state.leader, 1 - state.leader
        lead_view, reply_view = seat_view(moment, leader), seat_view(moment, replier)
        assert (lead_view["status"], reply_view["status"]) == ("wait", "turn")
        kinds = {a["action"] for a in lead_view["view"]["legal_actions"]}
        assert kinds <= {"claim"}
        assert kinds == {a.kind.word for a in state.legal_actions() if a.seat == leader}
        assert all(a["action"] == "play" for a in reply_view["view"]["legal_actions"])
        assert spectator_view(moment)["to_play"] == replier == lead_view["to_play"]
        seen += 1
        if seen >= 20:
            break
    assert seen >= 20


def _dicts(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from _dicts(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _dicts(inner)


def test_the_card_pattern_finds_codes_wherever_they_hide() -> None:
    """The property's search is no weaker than its claim: a code inside a longer string,
    as a key or a bare value, is found; words and ids are not mistaken for codes."""
    body = {"a": "1:AH+marriage", "QS": 1, "b": ["TC"], "c": "KD,JH", "d": "ASK ATS tournament"}
    assert cards_in(body) == {"AH", "QS", "TC", "KD", "JH"}

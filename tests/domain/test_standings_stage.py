"""Standings say what they are: before round 1, a round drawn, during it, after it; and
the end of a round is the state before the next round was drawn."""

from __future__ import annotations

import random

from tournament.domain import commands as c
from tournament.domain.model.state import fold
from tournament.domain.standings.progress import Stage, changed_since, end_of_round
from tournament.domain.testing import Builder, random_match, registered


def test_the_heading_says_before_drawn_during_and_after_a_round() -> None:
    b = Builder(registered(players=5, seed=4))
    assert Stage.of(b.state).heading() == "before round 1 (in seed order)"
    b.add(c.start_round(b.state))
    assert Stage.of(b.state).heading() == (
        "before any result (round 1 drawn: 0 of 2 matches decided, the bye counted)"
    )
    rng = random.Random(1)
    first, second = b.state.rounds[0].matches
    random_match(b, b.state.matches[first], rng)
    assert Stage.of(b.state).heading() == "during round 1: 1 of 2 matches decided"
    random_match(b, b.state.matches[second], rng)
    assert Stage.of(b.state).heading() == "after round 1"
    b.add(c.start_round(b.state))
    assert Stage.of(b.state).heading() == (
        "after round 1 (round 2 drawn: 0 of 2 matches decided, the bye counted)"
    )


def test_the_end_of_a_round_is_the_state_before_the_next_draw_that_stands() -> None:
    b = Builder(registered(players=4, seed=4))
    rng = random.Random(2)
    b.add(c.start_round(b.state))
    for mid in b.state.rounds[0].matches:
        random_match(b, b.state.matches[mid], rng)
    b.add(c.start_round(b.state))
    b.add(c.cancel_round(b.state, why="a late arrival"))
    b.add(c.start_round(b.state))  # round 2 drawn again: the end of round 1 is before it
    cut = end_of_round(b.events, b.state, 1)
    assert cut == len(b.events) - 1
    assert Stage.of(fold(b.events, upto=cut)).heading() == "after round 1"
    assert end_of_round(b.events, b.state, 2) is None  # round 3 not drawn: the end is now
    assert changed_since(b.events[cut:], b.state, 1) == 0
    rid = b.state.matches["1.1"].entries[0].result_id
    b.add(c.correct_result(b.state, rid, None, by="ref", reason="wrong table"))
    assert changed_since(b.events[cut:], b.state, 1) == 1

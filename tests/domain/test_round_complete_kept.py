"""T-round: whether a round is complete is kept by the fold (the round's open matches),
not worked out by walking every match of the round on each result; after every event it
says what the walk says, and a replay of the log derives the same."""

from __future__ import annotations

import copy
import random

from tests.domain.test_bracket_never_played import final_drawn
from tournament.domain import commands as c
from tournament.domain.model.state import Tournament, fold
from tournament.domain.testing import Builder, random_match, registered, win, won_by


def walked(t: Tournament, number: int) -> bool:
    """Whether round ``number`` is complete, every match of it looked at."""
    return all(t.settled(t.matches[m]) for m in t.rounds[number - 1].matches)


def agrees_after_every_event(events: list) -> None:
    t = Tournament()
    for n, event in enumerate(events, 1):
        t.apply(event)
        for number in range(1, t.current_round + 1):
            assert t.round_complete(number) == walked(t, number), (n, event.type, number)
    replayed = fold(events)
    assert replayed.unsettled == t.unsettled


def test_a_swiss_round_is_complete_with_its_last_result_and_open_again_after_a_correction() -> None:
    b = Builder(registered(players=7, seed=5, best_of=3, options={"rounds": 4}))
    b.add(c.start_round(b.state))
    rng = random.Random(3)
    for mid in b.state.rounds[0].matches:
        assert not b.state.round_complete()
        random_match(b, b.state.matches[mid], rng)
    assert b.state.round_complete()
    rid = b.state.matches["1.1"].entries[-1].result_id
    b.add(c.correct_result(b.state, rid, None, by="Schiri", reason="voided"))
    assert not b.state.round_complete(1)
    b.add(c.record_tally(b.state, "1.1", won_by(b, "1.1", b.state.matches["1.1"].players[0])))
    assert b.state.round_complete(1)
    agrees_after_every_event(b.events)


def test_a_cancelled_round_leaves_nothing_open_and_its_redraw_is_open_again() -> None:
    b = Builder(registered(players=6, seed=2, best_of=1, options={"rounds": 3}))
    b.add(c.start_round(b.state))
    b.add(c.cancel_round(b.state, why="wrong seeding"))
    assert b.state.unsettled.get(1) is None
    b.add(c.start_round(b.state))
    assert not b.state.round_complete()
    agrees_after_every_event(b.events)


def test_a_withdrawal_that_drops_the_match_settles_it() -> None:
    b = Builder(registered(players=6, seed=2, best_of=1, options={"rounds": 3}))
    b.add(c.start_round(b.state))
    rng = random.Random(1)
    mids = b.state.rounds[0].matches
    for mid in mids[1:]:
        random_match(b, b.state.matches[mid], rng)
    leaving = b.state.matches[mids[0]].players[0]
    b.add(c.withdraw(b.state, leaving, policy="drop"))
    assert b.state.matches[mids[0]].dropped and b.state.round_complete()
    agrees_after_every_event(b.events)


def test_a_bracket_match_the_bracket_no_longer_has_does_not_keep_the_round_open() -> None:
    b, rid = final_drawn()
    assert not b.state.round_complete()
    match = b.state.matches[b.state.result_match[rid]]
    b.add(c.correct_result(b.state, rid, {"tally": won_by(b, match.match_id, 3)}, by="ref",
                           reason="misread"))  # fmt: skip
    assert b.state.round_complete()  # the final nobody played is vacated
    agrees_after_every_event(b.events)


def test_a_trial_copy_with_other_matches_walks_its_own() -> None:
    b = Builder(registered(players=4, seed=2, best_of=1, options={"rounds": 3}))
    b.add(c.start_round(b.state))
    first, second = b.state.rounds[0].matches
    win(b, first, b.state.matches[first].players[0])
    later = Builder(b.events)  # the same tournament with the second match decided too
    win(later, second, later.state.matches[second].players[0])
    trial = copy.copy(b.state)  # as results.py tries an entry: the one match replaced
    trial.matches = {**b.state.matches, second: later.state.matches[second]}
    assert trial.round_complete() and not b.state.round_complete()

"""T-round: a round is never drawn over an open match of any round, one a correction made
undecided again included; a result entered in an old round flags the later draws."""

from __future__ import annotations

import random

import pytest

from tournament.domain import commands as c
from tournament.domain.model.errors import ConflictError
from tournament.domain.standings.pairing import finished
from tournament.domain.standings.progress import Stage, open_matches
from tournament.domain.testing import Builder, play_round, random_match, registered
from tournament.domain.views.preview import preview


def two_rounds_of_six() -> tuple[Builder, str]:
    """A 6-player Swiss, best of 3: round 1 played (1.1 won 2:0 by seat a, two tallies),
    round 2 drawn. Returns the builder and the result id of 1.1's second Bummerl."""
    b = Builder(registered(players=6, seed=5, best_of=3, options={"rounds": 4}))
    b.add(c.start_round(b.state))
    for mid in b.state.rounds[0].matches:
        b.add(c.record_tally(b.state, mid, "7 4 1 0 / 7 5"))
        b.add(c.record_tally(b.state, mid, "7 4 1 0 / 7 5"))
    b.add(c.start_round(b.state))
    return b, b.state.matches["1.1"].entries[1].result_id


def reopen(b: Builder, rid: str) -> None:
    """The trial's correction: the second Bummerl's columns were swapped, so 1.1 is 1:1."""
    b.add(c.correct_result(b.state, rid, {"tally": "7 5 / 7 4 1 0"}, by="Schiri",
                           reason="Spalten vertauscht"))  # fmt: skip


def play_round_two(b: Builder) -> None:
    rng = random.Random(3)
    for mid in b.state.rounds[1].matches:
        random_match(b, b.state.matches[mid], rng)


def test_a_round_is_not_drawn_over_a_match_a_correction_reopened() -> None:
    b, rid = two_rounds_of_six()
    reopen(b, rid)
    play_round_two(b)
    assert b.state.round_complete()  # the latest round is complete: the old check passed
    assert Stage.of(b.state).heading() == "after round 2; open again: 1.1"
    with pytest.raises(ConflictError) as refused:
        c.start_round(b.state)
    m = b.state.matches["1.1"]
    assert refused.value.rule == "T-round"
    assert refused.value.message.startswith(
        f"round 3 cannot be drawn: match 1.1 (round 1, {' v '.join(m.labels)}) is open again "
        "after a correction: enter its deciding Bummerl first"
    )
    b.add(c.record_tally(b.state, "1.1", "7 4 1 0 / 7 6"))
    assert c.start_round(b.state)[0].type == "round.started"


def test_every_open_match_is_named_not_only_the_first_eight() -> None:
    b = Builder(registered(players=40, seed=2))
    b.add(c.start_round(b.state))
    with pytest.raises(ConflictError) as refused:
        c.start_round(b.state)
    ids = ", ".join(f"1.{n}" for n in range(1, 21))
    assert f"round 1 is not complete: no result yet for {ids} (" in refused.value.message
    assert "more" not in refused.value.message


def test_a_result_entered_in_an_old_round_flags_the_later_matches_of_both_players() -> None:
    b, rid = two_rounds_of_six()
    reopen(b, rid)
    m = b.state.matches["1.1"]
    later = {mid for p in m.players for mid in b.state.player_matches[p] if mid.startswith("2.")}
    for mid in later:  # the organiser looked at the correction's flags already
        b.add(c.clear_flag(b.state, mid))
    b.add(c.record_tally(b.state, "1.1", "7 5 / 7 4 1 0"))  # the deciding Bummerl
    assert b.state.matches["1.1"].decided
    for mid in later:
        [flag] = b.state.matches[mid].flags
        assert flag.startswith("result of match 1.1 (round 1) entered after this match was drawn")
    others = set(b.state.rounds[1].matches) - later
    assert not any(b.state.matches[mid].flags for mid in others)


def test_a_result_of_the_current_round_flags_nothing() -> None:
    b, _ = two_rounds_of_six()
    b.add(c.record_tally(b.state, "2.1", "7 4 1 0 / 7 5"))
    assert not any(m.flags for m in b.state.matches.values())


def test_the_correction_preview_says_the_match_is_open_again() -> None:
    b, rid = two_rounds_of_six()
    fix = c.correct_result(b.state, rid, {"tally": "7 5 / 7 4 1 0"}, by="Schiri", reason="x")
    lines = preview(b.events, fix).lines()
    assert (
        "match 1.1 is open again: enter its deciding Bummerl (`round start` refuses the next "
        "round until it is decided)"
    ) in lines


def test_a_tournament_is_not_finished_while_a_match_is_open_again() -> None:
    b = Builder(registered(players=4, seed=5, best_of=3, options={"rounds": 1}))
    b.add(c.start_round(b.state))
    for mid in b.state.rounds[0].matches:
        b.add(c.record_tally(b.state, mid, "7 4 1 0 / 7 5"))
        b.add(c.record_tally(b.state, mid, "7 4 1 0 / 7 5"))
    assert finished(b.state)
    rid = b.state.matches["1.2"].entries[1].result_id
    b.add(c.correct_result(b.state, rid, None, by="Schiri", reason="wrong table"))
    assert not finished(b.state)
    assert [m.match_id for m in open_matches(b.state)] == ["1.2"]


def test_a_later_match_of_both_players_is_flagged_once() -> None:
    """A Swiss rematch (or a grand-final reset) holds both players of the changed match:
    one flag, not one per player."""
    b = Builder(registered(players=2, options={"rounds": 2}))
    play_round(b, random.Random(1))
    first = b.state.matches["1.1"].entries[-1].result_id
    b.add(c.start_round(b.state, pairings=[(1, 2)]))  # the same two again, by hand
    b.add(c.correct_result(b.state, first, None, by="ref", reason="wrong sheet"))
    assert len(b.state.matches[b.state.rounds[1].matches[0]].flags) == 1

"""A knockout match that nobody played and that a correction upstream takes out of the
bracket is void by itself: it frees its slot, keeps no round open and takes no result;
undo the correction before the slot is drawn again and it is back. A match with something
recorded in it still holds its slot until the organiser voids it. And a knockout match
needs a winner: a double no-show is refused there (the other formats keep it)."""

from __future__ import annotations

import pytest

from tournament.domain import commands as c
from tournament.domain.commands.live import deal_live_hand
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.domain.standings import pairing
from tournament.domain.standings.progress import draw_refusal, open_matches
from tournament.domain.testing import Builder, registered, win, won_by
from tournament.domain.views.preview import preview


def final_drawn(fmt: str = "single_elimination") -> tuple[Builder, str]:
    """Four players, round 1 played by the favourites (1 beat 4 in R1-1 or W1-1, 2 beat
    3), round 2 drawn and nothing entered in it; the result id of 2's win over 3."""
    b = Builder(registered(4, format=fmt))
    b.add(c.start_round(b.state))
    rid = ""
    for mid in b.state.rounds[-1].matches:
        players = b.state.matches[mid].players
        result = win(b, mid, min(players))
        rid = result if 2 in players else rid
    b.add(c.start_round(b.state))
    return b, rid


def upset(b: Builder, rid: str) -> list:
    """The correction: 3, not 2, won round 1's match of the two."""
    match = b.state.matches[b.state.result_match[rid]]
    return c.correct_result(b.state, rid, {"tally": won_by(b, match.match_id, 3)}, by="ref",
                            reason="misread")  # fmt: skip


def test_a_match_nobody_played_that_no_longer_fits_is_void_by_itself() -> None:
    b, rid = final_drawn()
    b.add(upset(b, rid))
    t = b.state
    assert set(t.vacated()) == {"R2-1"}
    assert t.settled(t.matches["R2-1"]) and t.round_complete()
    assert open_matches(t) == [] and draw_refusal(t) is None
    view = pairing.bracket_view(t)
    assert view is not None and view[1] == {}  # not a conflict: nothing to void
    assert set(view[0].matches["R2-1"].players) == {"1", "3"}


def test_a_void_match_takes_no_result_and_says_the_slot_is_drawn_again() -> None:
    b, rid = final_drawn()
    b.add(upset(b, rid))
    for enter in (
        lambda: c.record_tally(b.state, "R2-1", won_by(b, "R2-1", 1)),
        lambda: c.record_hand(b.state, "R2-1", winner=1, game_points=3),
        lambda: c.record_forfeit(b.state, "R2-1", winner=1),
        lambda: deal_live_hand(b.state, "R2-1", seed=1),
    ):
        with pytest.raises(ConflictError) as caught:
            enter()
        said = caught.value.message
        assert caught.value.rule == "T-correction"
        assert "never played" in said and "gives Player 1 (1) v Player 3 (3)" in said
        assert "round start" in said and "R2-1b" in said


def test_round_start_draws_the_slot_again_under_a_new_match_id() -> None:
    b, rid = final_drawn()
    b.add(upset(b, rid))
    b.add(c.start_round(b.state))
    t = b.state
    assert t.rounds[-1].matches == ["R2-1b"]
    assert set(t.matches["R2-1b"].players) == {1, 3}
    assert t.matches["R2-1"].players in ((1, 2), (2, 1))  # recorded as drawn, for good
    with pytest.raises(ConflictError, match="drawn again as R2-1b"):
        c.record_hand(t, "R2-1", winner=1, game_points=3)
    win(b, "R2-1b", 3)
    assert pairing.finished(b.state)
    assert pairing.places(b.state)[3] == 1


def test_undoing_the_correction_before_the_redraw_puts_the_match_back() -> None:
    b, rid = final_drawn()
    b.add(upset(b, rid))
    undo = c.reversal(b.state, rid, by="ref", reason="it was right")
    said = "\n".join(preview(b.events, undo).lines())
    assert "R2-1 (Player 1 (1) v Player 2 (2)) fits the bracket again" in said
    b.add(undo)
    t = b.state
    assert t.vacated() == {} and not t.settled(t.matches["R2-1"])
    assert [m.match_id for m in open_matches(t)] == ["R2-1"]
    win(b, "R2-1", 2)
    assert pairing.finished(b.state)


def test_once_drawn_again_the_old_match_stays_void_even_if_the_correction_is_undone() -> None:
    b, rid = final_drawn()
    b.add(upset(b, rid))
    b.add(c.start_round(b.state))  # R2-1b: 1 v 3
    b.add(c.reversal(b.state, rid, by="ref", reason="it was right"))
    t = b.state
    assert set(t.vacated()) == {"R2-1", "R2-1b"}  # ids are never reused: R2-1c comes next
    b.add(c.start_round(t))
    assert b.state.rounds[-1].matches == ["R2-1c"]
    assert set(b.state.matches["R2-1c"].players) == {1, 2}


def test_the_preview_says_void_by_itself_instead_of_asking_to_void_it() -> None:
    b, rid = final_drawn()
    said = "\n".join(preview(b.events, upset(b, rid)).lines())
    assert "R2-1 (Player 1 (1) v Player 2 (2)) was never played and no longer fits" in said
    assert "gives Player 1 (1) v Player 3 (3) there" in said and "(as R2-1b)" in said
    assert "--void" not in said and "RESULT" not in said and "stays as played" not in said
    assert "would be flagged" not in said  # out of the bracket: its flag matters no longer


def test_a_match_open_again_upstream_frees_the_next_slot_until_it_is_decided_again() -> None:
    b, rid = final_drawn()
    b.add(c.correct_result(b.state, rid, None, by="ref", reason="replay"))  # voided
    t = b.state
    assert "R2-1" in t.vacated() and "R1-2" not in t.vacated()
    with pytest.raises(ConflictError, match="the winner of R1-2"):
        c.record_hand(t, "R2-1", winner=1, game_points=3)
    # R1-2 still fits its slot: it is open again, not drawn again; its result is entered
    # again in it, and nothing is drawn before.
    with pytest.raises(ConflictError, match="R1-2"):
        c.start_round(t)
    win(b, "R1-2", 2)  # the same winner: the final as drawn fits again
    t = b.state
    assert t.vacated() == {} and [m.match_id for m in open_matches(t)] == ["R2-1"]


def test_a_played_match_whose_result_is_voided_is_open_again_in_its_slot() -> None:
    """Voiding the only result of a bracket match that fits its slot (a result entered in
    the wrong match) leaves the match open, to be entered again; it is never drawn again
    as a new match of the same two players."""
    b, rid = final_drawn()
    b.add(c.correct_result(b.state, rid, None, by="ref", reason="wrong match"))
    t = b.state
    assert [m.match_id for m in open_matches(t) if m.round == 1] == ["R1-2"]
    assert not t.round_complete(1)
    win(b, "R1-2", 3)  # the other player this time: the final as drawn no longer fits
    assert "R2-1" in b.state.vacated()
    b.add(c.start_round(b.state))
    assert b.state.rounds[-1].matches == ["R2-1b"]


def test_a_misfit_with_something_recorded_still_holds_its_slot_until_voided() -> None:
    b, rid = final_drawn()
    b.add(c.record_hand(b.state, "R2-1", winner=1, game_points=1))  # one hand of it
    b.add(upset(b, rid))
    t = b.state
    assert t.vacated() == {}
    view = pairing.bracket_view(t)
    assert view is not None and set(view[1]) == {"R2-1"}
    entered = t.matches["R2-1"].entries[0].result_id
    assert f"results correct {entered} --void" in pairing.void_command(t.matches["R2-1"])
    with pytest.raises(ConflictError, match="R2-1"):
        c.start_round(t)


def test_a_live_hand_in_progress_counts_as_played() -> None:
    b, rid = final_drawn()
    _, _, started = deal_live_hand(b.state, "R2-1", seed=1)
    b.add(started)
    b.add(upset(b, rid))
    assert b.state.vacated() == {}
    view = pairing.bracket_view(b.state)
    assert view is not None and set(view[1]) == {"R2-1"}


def test_a_losers_bracket_match_nobody_played_is_void_by_itself_too() -> None:
    b, rid = final_drawn("double_elimination")
    drawn = {mid: set(b.state.matches[mid].players) for mid in b.state.rounds[-1].matches}
    assert drawn == {"W2-1": {1, 2}, "L1-1": {3, 4}}
    b.add(upset(b, rid))
    t = b.state
    assert set(t.vacated()) == {"W2-1", "L1-1"}
    assert t.round_complete()
    b.add(c.start_round(t))
    redrawn = {mid: set(b.state.matches[mid].players) for mid in b.state.rounds[-1].matches}
    assert redrawn == {"W2-1b": {1, 3}, "L1-1b": {2, 4}}


@pytest.mark.parametrize("fmt", ["single_elimination", "double_elimination"])
def test_a_knockout_match_needs_a_winner_so_both_absent_is_refused(fmt: str) -> None:
    b, _ = final_drawn(fmt)
    mid = b.state.rounds[-1].matches[0]
    with pytest.raises(DomainError) as caught:
        c.record_forfeit(b.state, mid, winner=None)
    assert caught.value.rule == "T-match"
    assert "needs a winner" in caught.value.message and "--forfeit P" in caught.value.message
    assert "players withdraw P" in caught.value.message


@pytest.mark.parametrize("fmt", ["swiss", "round_robin", "lives"])
def test_other_formats_still_take_both_absent(fmt: str) -> None:
    b = Builder(registered(4, format=fmt))
    b.add(c.start_round(b.state))
    mid = b.state.rounds[-1].matches[0]
    b.add(c.record_forfeit(b.state, mid, winner=None))
    assert b.state.matches[mid].decided and b.state.matches[mid].winner is None

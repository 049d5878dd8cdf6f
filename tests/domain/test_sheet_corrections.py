"""A whole sheet corrected in one step (O-M4): its columns swapped, or every Bummerl
replaced, as one correction -- one flag per later match, never an open match between
two corrections, counted once by ``standings --round``."""

from __future__ import annotations

from typing import Any

import pytest

from tournament.domain import commands as c
from tournament.domain.model.errors import DomainError
from tournament.domain.standings import standings
from tournament.domain.standings.progress import changed_since
from tournament.domain.testing import Builder, paired
from tournament.domain.views.preview import preview

#: Bummerl in seat order (the pairing's first player's column first).
FIRST_WINS = {"columns": [[7, 4, 1, 0], [7, 5]]}
SECOND_WINS = {"columns": [[7, 5], [7, 4, 1, 0]]}
SECOND_WINS_CLOSE = {"columns": [[7, 6, 3, 1], [7, 4, 2, 0]]}


def two_rounds(sheet: list[dict[str, Any]]) -> tuple[Builder, str]:
    """Four players, best of 3: round 1 entered (match ``1.1`` with ``sheet``), round 2
    drawn. The match id of round 1's first table."""
    b = Builder(paired(players=4, best_of=3))
    first, other = b.state.rounds[0].matches
    for tally in sheet:
        b.add(c.record_tally(b.state, first, tally))
    for _ in range(2):
        b.add(c.record_tally(b.state, other, FIRST_WINS))
    b.add(c.start_round(b.state))
    return b, first


def table(b: Builder) -> list[tuple[int, int, int, int]]:
    return [(r.player_id, r.rank, r.points, r.bummerl_won) for r in standings(b.state)]


def test_swapping_the_columns_is_the_sheet_typed_the_right_way_round() -> None:
    wrong, mid = two_rounds([FIRST_WINS, FIRST_WINS])
    right, _ = two_rounds([SECOND_WINS, SECOND_WINS])
    wrong.add(c.correct_sheet(wrong.state, mid, None, by="desk", reason="columns swapped"))
    assert table(wrong) == table(right)
    assert wrong.state.matches[mid].summary.winner == 1


def test_a_swap_flags_each_later_match_once() -> None:
    b, mid = two_rounds([FIRST_WINS, FIRST_WINS])
    b.add(c.correct_sheet(b.state, mid, None, by="desk", reason="columns swapped"))
    players = b.state.matches[mid].players
    later = [m for m in b.state.matches.values() if m.round == 2]
    for m in later:
        assert len(m.flags) == (1 if set(m.players) & set(players) else 0)


def test_a_swap_never_shows_the_match_open() -> None:
    """The preview (what the desk sees) and the state after it: the match decided the
    other way, never "open again"."""
    b, mid = two_rounds([FIRST_WINS, FIRST_WINS])
    fix = c.correct_sheet(b.state, mid, None, by="desk", reason="columns swapped")
    said = preview(b.events, fix)
    assert not said.reopened
    b.add(fix)
    assert b.state.matches[mid].decided and mid not in b.state.reopened


def test_a_sheet_correction_is_one_result_changed_since_the_draw() -> None:
    b, mid = two_rounds([FIRST_WINS, FIRST_WINS])
    cut = len(b.events)
    b.add(c.correct_sheet(b.state, mid, None, by="desk", reason="columns swapped"))
    assert changed_since(b.events[cut:], b.state, 1) == 1


def test_replacing_the_sheet_with_fewer_bummerl_voids_the_extra_one() -> None:
    b, mid = two_rounds([FIRST_WINS, SECOND_WINS, FIRST_WINS])
    right, _ = two_rounds([SECOND_WINS, SECOND_WINS])
    new = ["7 5 / 7 4 1 0", "7 5 / 7 4 1 0"]
    b.add(c.correct_sheet(b.state, mid, new, by="desk", reason="wrong sheet typed"))
    assert table(b) == table(right)


def test_replacing_the_sheet_with_more_bummerl_enters_the_further_one() -> None:
    b, mid = two_rounds([FIRST_WINS, FIRST_WINS])
    right, _ = two_rounds([SECOND_WINS, FIRST_WINS, SECOND_WINS_CLOSE])
    new = [SECOND_WINS, FIRST_WINS, SECOND_WINS_CLOSE]
    b.add(c.correct_sheet(b.state, mid, new, by="desk", reason="wrong sheet typed"))
    assert table(b) == table(right)
    later = [m for m in b.state.matches.values() if m.round == 2]
    assert sorted(len(m.flags) for m in later) == [1, 1]


def test_a_bad_bummerl_of_the_new_sheet_is_named_and_nothing_is_stored() -> None:
    b, mid = two_rounds([FIRST_WINS, FIRST_WINS])
    with pytest.raises(DomainError) as caught:
        c.correct_sheet(b.state, mid, ["7 5 / 7 4 1 0", "7 3 0 / 7"], by="d", reason="x")
    assert caught.value.field == "bummerl 2" and caught.value.rule == "R13"


def test_a_sheet_that_would_not_add_up_is_refused() -> None:
    b, mid = two_rounds([FIRST_WINS, FIRST_WINS])
    with pytest.raises(DomainError) as caught:  # a third Bummerl after 2:0 (R20)
        c.correct_sheet(b.state, mid, [SECOND_WINS] * 3, by="desk", reason="x")
    assert "inconsistent" in caught.value.message


def test_the_same_sheet_again_changes_nothing() -> None:
    b, mid = two_rounds([FIRST_WINS, FIRST_WINS])
    with pytest.raises(DomainError) as caught:
        c.correct_sheet(b.state, mid, [FIRST_WINS, FIRST_WINS], by="desk", reason="x")
    assert "changes nothing" in caught.value.message

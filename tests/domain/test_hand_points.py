"""A paper hand's game points against its reason and card points (R11, R13-R16).

Card points are R11 points (tricks plus marriages that count), written in the pairing's
order; the winner here is player 1 and the loser player 2.
"""

from __future__ import annotations

import pytest

from tournament.domain import commands as c
from tournament.domain.model.errors import DomainError
from tournament.domain.testing import Builder, paired


def match(**settings: object) -> Builder:
    return Builder(paired(players=2, best_of=3, first_dealer="as_entered", **settings))


def enter(b: Builder, gp: int, reason: str, won: int | None, lost: int | None, **kw: object):  # type: ignore[no-untyped-def]
    """Player 1 wins ``gp`` with ``reason``; ``won``/``lost``: the winner's/loser's points."""
    m = b.state.matches["1.1"]
    points = None
    if won is not None and lost is not None:
        points = [won, lost] if m.seat_of(1) == 0 else [lost, won]
    return c.record_hand(
        b.state, "1.1", winner=1, game_points=gp, reason=reason, card_points=points, **kw
    )


def refused(b: Builder, gp: int, reason: str, won: int | None, lost: int | None, **kw: object):  # type: ignore[no-untyped-def]
    with pytest.raises(DomainError) as caught:
        enter(b, gp, reason, won, lost, **kw)
    return caught.value


@pytest.mark.parametrize(("lost", "gp"), [(0, 3), (4, 2), (20, 2), (32, 2), (33, 1), (60, 1)])
def test_r13_a_correct_claim_wins_3_against_no_trick_2_under_33_else_1(lost: int, gp: int) -> None:
    b = match()
    for wrong in {1, 2, 3} - {gp}:
        error = refused(b, wrong, "claim", 66, lost)
        assert (error.field, error.rule) == ("game_points", "R13")
    assert enter(b, gp, "claim", 66, lost)[-1].payload["card_points"]


def test_r13_the_refusal_says_what_the_claim_is_worth_and_why() -> None:
    error = refused(match(), 1, "claim", 66, 20)
    assert error.line() == (
        "game_points: match 1.1, Bummerl 1 hand 1: a correct claim against 20 points is worth "
        "2 game points (R13: the opponent has fewer than 33), not 1"
    )


def test_r13_a_claim_needs_66() -> None:
    error = refused(match(), 1, "claim", 65, 40)
    assert (error.field, error.rule) == ("card_points", "R13")
    assert "a correct claim needs 66 points; the winner has 65" in error.message


@pytest.mark.parametrize(("won", "gp"), [(0, 3), (4, 2), (50, 2), (80, 2)])
def test_r15_a_false_claim_gives_the_winner_3_without_a_trick_else_2(won: int, gp: int) -> None:
    b = match()
    for wrong in {1, 2, 3} - {gp}:
        assert refused(b, wrong, "false_claim", won, 50).rule == "R15"
    enter(b, gp, "false_claim", won, 50)


def test_r15_a_claim_with_66_is_not_a_false_claim() -> None:
    error = refused(match(), 2, "false_claim", 20, 66)
    assert (error.field, error.rule) == ("card_points", "R15")


@pytest.mark.parametrize(("won", "gp"), [(0, 3), (20, 2), (40, 1)])
def test_false_claim_mirror_judges_the_winner_as_r13_judges_a_claimers_opponent(
    won: int, gp: int
) -> None:
    b = match(variants=["false-claim-mirror"])
    for wrong in {1, 2, 3} - {gp}:
        assert refused(b, wrong, "false_claim", won, 50).rule == "R15"
    enter(b, gp, "false_claim", won, 50)


@pytest.mark.parametrize(("lost", "allowed"), [(0, {3}), (20, {2, 3}), (40, {1, 2, 3})])
def test_r14_a_claim_with_the_talon_closed_is_judged_at_closing_so_a_range_is_checked(
    lost: int, allowed: set[int]
) -> None:
    # The sheet does not show the opponent's state at closing: it had at most what it has
    # now (as many game points or more), or the closer failed (2 or 3).
    for gp in (1, 2, 3):
        b = match()
        if gp in allowed:
            new = enter(b, gp, "claim", 66, lost, closed=True)
            assert new[-1].payload["closed"] is True
        else:
            assert refused(b, gp, "claim", 66, lost, closed=True).rule == "R14"


def test_closed_as_a_reason_is_read_as_a_correct_claim_with_the_talon_closed() -> None:
    new = enter(match(), 3, "closed", 66, 20)
    assert new[-1].payload["reason"] == "claim" and new[-1].payload["closed"] is True
    assert refused(match(), 1, "closed", 66, 20).rule == "R14"


@pytest.mark.parametrize(("won", "allowed"), [(0, {3}), (30, {2, 3})])
def test_r14_a_failed_close_gives_3_if_the_opponent_had_no_trick_at_closing_else_2(
    won: int, allowed: set[int]
) -> None:
    for gp in (1, 2, 3):
        if gp in allowed:
            enter(match(), gp, "closer_failed", won, 50)
        else:
            assert refused(match(), gp, "closer_failed", won, 50).rule == "R14"
    assert refused(match(), 1, "closer_failed", None, None).rule == "R14"


def test_r14_a_false_claim_with_the_talon_closed_may_be_the_closers() -> None:
    # The closer claiming falsely is scored by R14: 3 if the opponent had no trick then.
    enter(match(), 3, "false_claim", 30, 50, closed=True)
    assert refused(match(), 3, "false_claim", 30, 50).rule == "R15"


def test_r16_the_last_trick_wins_1_and_all_120_card_points_are_taken() -> None:
    enter(match(), 1, "last_trick", 70, 50)
    enter(match(), 1, "last_trick", 80, 60)  # and a marriage of 20
    assert refused(match(), 2, "last_trick", 70, 50).rule == "R16"
    assert refused(match(), 2, "last_trick", None, None).rule == "R16"
    error = refused(match(), 1, "last_trick", 70, 60)
    assert (error.field, error.rule) == ("card_points", "R16")
    assert "120 plus marriages" in error.message
    assert refused(match(), 1, "last_trick", 70, 50, closed=True).rule == "R16"


def test_r11_points_are_bounded_by_the_cards_and_the_marriages() -> None:
    # 130 together is possible: 120 in the cards at most, and a marriage of 20.
    enter(match(), 1, "claim", 70, 60)
    for won, lost in ((150, 80), (221, 0)):
        error = refused(match(), 1, "claim", won, lost)
        assert (error.field, error.rule) == ("card_points", "R11")
        assert "at most 220" in error.message or "0-220" in error.message
    # The smallest trick is two jacks (4): a player with 1-3 points cannot exist.
    error = refused(match(), 1, "claim", 66, 2)
    assert (error.field, error.rule) == ("card_points", "R11") and "two jacks" in error.message


def test_card_points_without_a_reason_are_only_bounded() -> None:
    enter(match(), 1, None, 40, 70)  # type: ignore[arg-type]
    assert refused(match(), 1, None, 200, 40).rule == "R11"  # type: ignore[arg-type]


def test_a_correction_is_checked_like_an_entry() -> None:
    b = match()
    rid = b.add(enter(b, 2, "claim", 66, 20))[-1].payload["result_id"]
    with pytest.raises(DomainError) as caught:
        c.correct_result(b.state, rid, {"game_points": 1}, by="referee", reason="misread")
    assert caught.value.rule == "R13"
    fix = c.correct_result(b.state, rid, {"game_points": 3, "closed": True}, by="r", reason="x")
    assert fix[0].payload["replacement"]["closed"] is True

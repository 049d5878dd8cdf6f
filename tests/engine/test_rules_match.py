"""R17-R20: Bummerl and match, one test (or a few) per rule id."""

from __future__ import annotations

import pytest

from engine import IllegalResultError
from engine.match import Bummerl, HandResult, Match


def strike(bummerl: Bummerl, *hands: tuple[int, int]) -> Bummerl:
    for winner, points in hands:
        bummerl = bummerl.apply(HandResult(winner, points))
    return bummerl


def test_R17_each_player_starts_at_7_and_strikes_off_game_points() -> None:
    bummerl = strike(Bummerl(), (0, 2), (1, 1), (0, 3))
    assert bummerl.scores == (2, 6) and not bummerl.is_over


def test_R17_never_below_zero_and_the_first_at_zero_wins() -> None:
    bummerl = strike(Bummerl(), (0, 3), (0, 3), (0, 3))
    assert bummerl.scores == (0, 7) and bummerl.winner == 0


def test_R17_no_hand_after_the_bummerl_is_over() -> None:
    bummerl = strike(Bummerl(), (1, 3), (1, 3), (1, 1))
    with pytest.raises(IllegalResultError) as caught:
        bummerl.apply(HandResult(0, 1))
    assert caught.value.rule == "R17"


@pytest.mark.parametrize("points", [0, 4, -1, True])
def test_R17_a_hand_is_worth_1_2_or_3(points: int) -> None:
    with pytest.raises(IllegalResultError) as caught:
        HandResult(0, points)
    assert caught.value.rule == "R13"


def test_R18_the_deal_alternates_every_hand() -> None:
    bummerl = Bummerl(first_dealer=1)
    dealers = []
    for _ in range(4):
        dealers.append(bummerl.next_dealer)
        bummerl = bummerl.apply(HandResult(0, 1, dealer=bummerl.next_dealer))
    assert dealers == [1, 0, 1, 0]


def test_R18_a_result_with_the_wrong_dealer_is_refused() -> None:
    with pytest.raises(IllegalResultError) as caught:
        Bummerl(first_dealer=0).apply(HandResult(0, 1, dealer=1))
    assert caught.value.rule == "R18" and "hand 1" in caught.value.message


def test_R18_the_first_dealer_alternates_from_bummerl_to_bummerl() -> None:
    match = Match(best_of=5, first_dealer=0, schneiderbummerl=False)
    firsts = [match.current.first_dealer]
    for _ in range(3):
        for _ in range(3):
            match = match.apply(HandResult(0, 3))
        firsts.append(match.bummerls[-1].first_dealer)
    assert firsts[:3] == [0, 1, 0]


def test_R19_a_schneiderbummerl_counts_two() -> None:
    match = Match(best_of=5)
    for _ in range(3):
        match = match.apply(HandResult(1, 3))
    assert match.bummerls[0].is_schneider and match.bummerl_wins == (0, 2)


def test_R19_not_when_the_loser_struck_off_anything() -> None:
    match = Match(best_of=5)
    for winner, points in [(0, 1), (1, 3), (1, 3), (1, 1)]:
        match = match.apply(HandResult(winner, points))
    assert match.bummerl_wins == (0, 1)


def test_R19_off_with_the_no_schneiderbummerl_setting() -> None:
    match = Match(best_of=5, schneiderbummerl=False)
    for _ in range(3):
        match = match.apply(HandResult(1, 3))
    assert match.bummerl_wins == (0, 1)


def test_R20_first_to_n_plus_1_over_2_wins_the_match() -> None:
    match = Match(best_of=3, schneiderbummerl=False)
    for winner in (0, 1, 0):
        for _ in range(3):
            match = match.apply(HandResult(winner, 3))
    assert match.is_decided and match.winner == 0 and match.bummerl_wins == (2, 1)


def test_R20_a_schneiderbummerl_can_decide_a_best_of_three() -> None:
    match = Match(best_of=3)
    for _ in range(3):
        match = match.apply(HandResult(1, 3))
    assert match.is_decided and match.winner == 1 and match.next_dealer is None


def test_R20_nothing_is_accepted_after_the_match_is_decided() -> None:
    match = Match(best_of=1)
    for _ in range(3):
        match = match.apply(HandResult(0, 3))
    with pytest.raises(IllegalResultError) as caught:
        match.apply(HandResult(1, 1))
    assert caught.value.rule == "R20"


@pytest.mark.parametrize("best_of", [0, 2, 4, -1])
def test_R20_best_of_an_odd_number(best_of: int) -> None:
    with pytest.raises(IllegalResultError) as caught:
        Match(best_of=best_of)
    assert caught.value.rule == "R20"


def test_apply_never_changes_the_original() -> None:
    match = Match(best_of=3)
    after = match.apply(HandResult(0, 2))
    assert match.current.scores == (7, 7) and after.current.scores == (5, 7)

"""Scoresheet tallies: each rule a tally can break gives a message naming hand and rule."""

from __future__ import annotations

import pytest

from tournament.domain.model.errors import DomainError
from tournament.domain.model.tally import parse_tally, tally_hands, tally_payload


def test_columns_give_each_players_steps_with_the_winners_last_hand_last() -> None:
    hands = tally_hands({"columns": [[7, 5, 4, 1, 0], [7, 6, 3]]})
    assert hands[-1] == (0, 1)
    assert sorted(gp for seat, gp in hands if seat == 0) == [1, 1, 2, 3]
    assert sorted(gp for seat, gp in hands if seat == 1) == [1, 3]


def test_the_leading_seven_may_be_left_out() -> None:
    assert tally_hands({"columns": [[5, 2, 0], []]}) == tally_hands(
        {"columns": [[7, 5, 2, 0], [7]]}
    )


def test_rows_keep_the_order_of_the_hands() -> None:
    assert tally_hands({"rows": [[7, 7], [7, 5], [4, 5], [4, 2], [1, 2], [0, 2]]}) == [
        (1, 2),
        (0, 3),
        (1, 3),
        (0, 3),
        (0, 1),
    ]


@pytest.mark.parametrize(
    ("text", "rule", "words"),
    [
        ("7 5 1 0 / 7", "R13", "step of 4"),
        ("7 5 4 / 7 6", "R17", "not finished"),
        ("7 5 2 0 1 / 7", "R17", "after the Bummerl ended"),
        ("7 5 2 0 / 7 5 3 0", "R17", "both counts end at 0"),
        ("7 5 6 2 0 / 7", "R17", "only goes down"),
        ("7:7 7:5 4:5 4:3 4:0 3:0", "R17", "ended at hand"),
        ("7:7 5:5", "R17", "exactly one player"),
        ("7 5 0 / 7 / 7", "T-tally", "two columns"),
        ("seven five", "T-tally", "not a tally"),
    ],
)
def test_bad_tallies_name_the_rule(text: str, rule: str, words: str) -> None:
    with pytest.raises(DomainError) as caught:
        tally_payload(text)
    assert caught.value.rule == rule
    assert words in caught.value.message
    assert caught.value.field == "tally"


def test_parse_reads_commas_and_spaces() -> None:
    assert parse_tally("7,5,4,1,0 / 7,6") == [[7, 5, 4, 1, 0], [7, 6]]


def test_a_column_of_sevens_is_a_player_who_never_scored() -> None:
    assert tally_payload("7 7 7 7 / 7 6 5 3 0") == {"columns": [[7], [7, 6, 5, 3, 0]]}


def test_equal_columns_changing_one_count_per_line_are_read_as_rows() -> None:
    # Both counts written after every hand: the order of the hands is known.
    payload = tally_payload("7 5 5 3 0 / 7 7 6 6 6")
    assert payload == {"rows": [[7, 7], [5, 7], [5, 6], [3, 6], [0, 6]]}
    assert tally_hands(payload) == [(0, 2), (1, 1), (0, 2), (0, 3)]


def test_an_ambiguous_repeat_explains_the_notation_naming_player_hand_and_rule() -> None:
    with pytest.raises(DomainError) as caught:
        tally_payload("7 5 5 0 / 7 6", labels=("Anna (1)", "Berti (2)"))
    error = caught.value
    assert error.rule == "R17" and error.field == "tally"
    assert "hand 2: Anna (1)'s column '7 5 5 0' repeats 5" in error.message
    assert "a column lists the count each time it changes, e.g. '7 4 1 0 / 7'" in error.message


def test_steps_name_the_players() -> None:
    with pytest.raises(DomainError) as caught:
        tally_payload("7 5 1 0 / 7", labels=("Anna (1)", "Berti (2)"))
    assert "Anna (1)'s count goes from 5 to 1, a step of 4" in caught.value.message

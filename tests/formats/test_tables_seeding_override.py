"""Seeding, table assignment, and manual overrides with warnings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.formats import (
    Bye,
    Entrant,
    FormatError,
    Game,
    Pairing,
    RoundPairing,
    Standing,
    assign_tables,
    check_override,
    seed_by_draw,
    seed_by_hand,
    seed_by_rating,
    swiss_round,
)


def test_rating_seeding_breaks_ties_by_registration_and_puts_unrated_last() -> None:
    es = [
        Entrant("late", None, 1),
        Entrant("b", 1600, 3),
        Entrant("a", 1600, 2),
        Entrant("top", 1900, 4),
    ]
    assert seed_by_rating(es) == ("top", "a", "b", "late")


def test_hand_seeding_must_name_everybody_once() -> None:
    es = [Entrant("a"), Entrant("b")]
    assert seed_by_hand(es, ["b", "a"]) == ("b", "a")
    with pytest.raises(FormatError, match=r"order\[0\]"):
        seed_by_hand(es, ["x", "a"])
    with pytest.raises(FormatError, match="order: entrants missing"):
        seed_by_hand(es, ["a"])
    with pytest.raises(FormatError, match=r"order\[1\]"):
        seed_by_hand(es, ["a", "a"])


@given(st.integers(), st.lists(st.text(min_size=1), min_size=1, max_size=30, unique=True))
def test_same_seed_same_draw(seed: int, ids: list[str]) -> None:
    es = [Entrant(p, registration_no=i) for i, p in enumerate(ids)]
    assert seed_by_draw(es, seed) == seed_by_draw(list(reversed(es)), seed)
    assert sorted(seed_by_draw(es, seed)) == sorted(ids)


def test_tables_top_boards_first_with_fixed_tables() -> None:
    games = [("a", "b", "a"), ("c", "d", "c"), ("e", "f", "e")]
    assert [p.table for p in assign_tables(games)] == [1, 2, 3]
    fixed = assign_tables(games, {"e": 1})
    assert [(p.table, p.player_a) for p in fixed] == [(1, "e"), (2, "a"), (3, "c")]
    far = assign_tables(games, {"c": 10})
    assert [(p.table, p.player_a) for p in far] == [(1, "a"), (2, "e"), (10, "c")]
    with pytest.raises(FormatError, match="fixed_tables: table 1 is fixed for both"):
        assign_tables(games, {"a": 1, "c": 1})


def test_swiss_honours_a_fixed_table() -> None:
    rp = swiss_round(1, [Standing(p, 0) for p in "abcdef"], fixed_tables={"f": 1})
    assert "f" in rp.pairings[0].players


def test_override_warnings_name_each_broken_rule() -> None:
    manual = RoundPairing(
        3,
        (Pairing(1, "a", "b", "a"), Pairing(2, "w", "c", "c")),
        byes=("d", "e"),
    )
    warnings = check_override(
        manual,
        active=["a", "b", "c", "d", "e", "f"],
        games=[Game(1, "a", "b", "a", "a")],
        byes=[Bye(1, "d")],
        withdrawn=["w"],
        bye_rule="lowest",
    )
    codes = [w.code for w in warnings]
    assert codes == [
        "repeat_pairing",
        "withdrawn_paired",
        "player_missing",
        "bye_not_needed",
        "repeat_bye",
        "bye_not_lowest",
    ]
    assert warnings[2].players == ("f",)


def test_a_clean_override_has_no_warnings() -> None:
    manual = RoundPairing(1, (Pairing(1, "a", "c", "c"),), byes=("b",))
    assert check_override(manual, active=["a", "c", "b"], bye_rule="lowest") == ()


@pytest.mark.parametrize(
    "manual,field",
    [
        (RoundPairing(1, (Pairing(1, "a", "zz", "a"),)), r"pairings\[0\]\.player_b"),
        (RoundPairing(1, (Pairing(1, "a", "a", "a"),)), r"pairings\[0\]\.player_b"),
        (
            RoundPairing(1, (Pairing(1, "a", "b", "a"), Pairing(1, "c", "d", "c"))),
            r"pairings\[1\]\.table",
        ),
        (RoundPairing(1, (Pairing(1, "a", "b", "c"),)), r"pairings\[0\]\.first_dealer"),
        (RoundPairing(1, (Pairing(1, "a", "b", "a"),), byes=("a",)), r"byes\[0\]"),
    ],
)
def test_override_hard_errors_name_the_field(manual: RoundPairing, field: str) -> None:
    with pytest.raises(FormatError, match=field):
        check_override(manual, active=["a", "b", "c", "d"])

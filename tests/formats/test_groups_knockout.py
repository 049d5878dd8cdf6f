"""Groups then knockout: qualifiers seeded by place, same-group first rounds avoided."""

from __future__ import annotations

import random

import pytest

from tournament.formats import (
    FormatError,
    bracket_state,
    knockout_from_groups,
    round_count,
    round_robin_round,
    snake_groups,
)

from .sim import play_bracket, players


@pytest.mark.parametrize(
    "n,groups,k",
    [
        (n, g, k)
        for n in (4, 5, 8, 9, 16, 23, 32, 64, 100, 128)
        for g in (2, 4)
        for k in (1, 2)
        if n >= 2 * g  # a group needs two players
    ]
    + [(12, 3, 2), (18, 6, 3), (128, 16, 4), (7, 3, 2)],
)
def test_no_same_group_first_round_and_the_knockout_plays_out(n: int, groups: int, k: int) -> None:
    gs = snake_groups(players(n), groups)
    for r in range(1, round_count(gs) + 1):
        round_robin_round(gs, r)  # the group stage schedules
    # Pretend the groups finished in seed order.
    bracket = knockout_from_groups(gs, k, third_place=True)
    group_of = {p: i for i, g in enumerate(gs) for p in g}
    state = bracket_state(bracket)
    assert sorted(bracket.seeds) == sorted(p for g in gs for p in g[:k])
    if groups > 1:
        for m in state.matches.values():
            a, b = m.players
            if m.match_id.startswith("R1-") and a and b:
                assert group_of[a] != group_of[b], m
    final, _, _ = play_bracket(bracket, random.Random(n))
    assert final.champion in bracket.seeds


def test_group_winners_meet_runners_up_of_other_groups() -> None:
    gs = (("a1", "a2", "a3"), ("b1", "b2", "b3"), ("c1", "c2"), ("d1", "d2"))
    state = bracket_state(knockout_from_groups(gs, 2))
    first = {m.player_a: m.player_b for m in state.matches.values() if m.match_id[:3] == "R1-"}
    assert first == {"a1": "d2", "b1": "c2", "c1": "b2", "d1": "a2"}


def test_one_group_cannot_avoid_itself_but_still_works() -> None:
    b = knockout_from_groups([["a", "b", "c", "d"]], 4)
    assert bracket_state(b).matches["R1-1"].players == ("a", "d")


def test_errors_name_the_field() -> None:
    with pytest.raises(FormatError, match=r"group_standings\[1\]"):
        knockout_from_groups([["a", "b"], ["c"]], 2)
    with pytest.raises(FormatError, match="qualifiers_per_group"):
        knockout_from_groups([["a", "b"]], 0)

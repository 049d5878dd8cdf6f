"""Groups then knockout: qualifiers seeded by place then record, same groups kept apart."""

from __future__ import annotations

import math
import random

import pytest

from tournament.formats import (
    Bracket,
    FormatError,
    bracket_size,
    bracket_state,
    knockout_from_groups,
    knockout_seeds,
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
    # a1 and d1 share the top half, so a2 and d2 go to the bottom half and vice versa.
    assert first == {"a1": "c2", "d1": "b2", "b1": "d2", "c1": "a2"}


def places(bracket: Bracket) -> dict[str, int]:
    """Bracket place (0 = top) of every qualifier."""
    state = bracket_state(bracket)
    slots = [
        p for m in bracket.matches if m.round_no == 1 for p in state.matches[m.match_id].players
    ]
    return {p: i for i, p in enumerate(slots) if p is not None}


def earliest_meeting(a: int, b: int) -> int:
    """The round in which the players at bracket places a and b can meet."""
    return (a ^ b).bit_length()


def test_the_only_unbeaten_group_winner_is_seed_one_and_gets_the_bye() -> None:
    # Three groups, two qualify: 6 players, 2 byes. Group C's winner went 3-0, the
    # others 2-1; group order would have given C1 seed 3 and no bye.
    gs = [["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4"], ["c1", "c2", "c3", "c4"]]
    records = {"a1": (2, 1.0), "b1": (2, 3.0), "c1": (3, 0.0), "a2": (2, 0.0), "b2": (1, 0.0)}
    records["c2"] = (2, 5.0)
    assert knockout_seeds(gs, 2, records=records) == ("c1", "b1", "a1", "c2", "a2", "b2")
    state = bracket_state(knockout_from_groups(gs, 2, records=records))
    byes = [m.winner for m in state.matches.values() if m.status == "bye"]
    assert byes == ["c1", "b1"]


@pytest.mark.parametrize("groups", [2, 3, 4, 8])
@pytest.mark.parametrize("advance", [1, 2, 3, 4])
@pytest.mark.parametrize("draw", range(3))
def test_same_group_qualifiers_meet_as_late_as_the_bracket_allows(
    groups: int, advance: int, draw: int
) -> None:
    gs = [[f"{chr(97 + g)}{i}" for i in range(1, 6)] for g in range(groups)]
    rng = random.Random(draw)
    records = {p: (rng.randint(0, 4), rng.random()) for g in gs for p in g[:advance]}
    bracket = knockout_from_groups(gs, advance, records=records)
    seeds = bracket.seeds
    # Seeds: all winners by record, then all runners-up by record, ...
    for place in range(advance):
        tier = seeds[place * groups : (place + 1) * groups]
        assert sorted(tier) == sorted(g[place] for g in gs)
        assert [records[p] for p in tier] == sorted((records[p] for p in tier), reverse=True)
    where = places(bracket)
    rounds = int(math.log2(bracket_size(len(seeds))))
    # Two per group: only in the final; three or four: not before the semi-finals.
    latest_possible = rounds - math.ceil(math.log2(advance)) + 1
    for g in gs:
        qualified = g[:advance]
        for i, x in enumerate(qualified):
            for y in qualified[i + 1 :]:
                assert earliest_meeting(where[x], where[y]) >= latest_possible, (x, y)
    final, _, _ = play_bracket(bracket, random.Random(draw))
    assert final.champion in seeds


def test_one_group_cannot_avoid_itself_but_still_works() -> None:
    b = knockout_from_groups([["a", "b", "c", "d"]], 4)
    assert bracket_state(b).matches["R1-1"].players == ("a", "d")


def test_errors_name_the_field() -> None:
    with pytest.raises(FormatError, match=r"group_standings\[1\]"):
        knockout_from_groups([["a", "b"], ["c"]], 2)
    with pytest.raises(FormatError, match="qualifiers_per_group"):
        knockout_from_groups([["a", "b"]], 0)

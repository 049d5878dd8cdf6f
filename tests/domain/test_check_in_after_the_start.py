"""Check-in once the tournament is under way: whoever was drawn stays in the field, and a
player who sat out before checking in has sat out for the Swiss bye (T-late-entry,
docs/tournaments.md)."""

from __future__ import annotations

import random

import pytest

from tournament.domain import commands as c
from tournament.domain.model.errors import DomainError
from tournament.domain.testing import Builder, play_round, registered


def drawn(b: Builder, number: int) -> set[int]:
    r = b.state.rounds[number - 1]
    return {p for mid in r.matches for p in b.state.matches[mid].players} | set(r.byes)


def test_checking_in_a_latecomer_after_round_1_leaves_out_nobody_who_played() -> None:
    b = Builder(registered(players=6))
    play_round(b, random.Random(1))  # nobody checked in: all six drawn
    b.add(c.register_player(b.state, "Late Larry"))  # a late entry, checked in by nobody
    b.add(c.check_in(b.state, 7))
    play_round(b, random.Random(2))
    assert drawn(b, 2) == {1, 2, 3, 4, 5, 6, 7}


def test_a_player_not_checked_in_for_round_1_joins_when_checked_in_later() -> None:
    b = Builder(registered(players=6))
    for pid in (1, 2, 3, 4):
        b.add(c.check_in(b.state, pid))
    play_round(b, random.Random(1))
    assert drawn(b, 1) == {1, 2, 3, 4}
    b.add(c.check_in(b.state, 5))
    play_round(b, random.Random(2))
    assert drawn(b, 2) == {1, 2, 3, 4, 5}  # 6 never came: still not drawn


def test_a_player_who_sat_out_before_checking_in_is_the_last_choice_for_the_bye() -> None:
    # Players 1-4 play round 1; 5 checks in for round 2 with 0 points, as do the losers of
    # round 1: the bye goes to one of them (had round 1 to play), never to 5, who sat out.
    for seed in range(1, 21):
        b = Builder(registered(players=5, seed=seed, options={"rounds": 3}))
        for pid in (1, 2, 3, 4):
            b.add(c.check_in(b.state, pid))
        play_round(b, random.Random(seed))
        b.add(c.check_in(b.state, 5))
        play_round(b, random.Random(seed + 100))
        assert b.state.rounds[1].byes and b.state.rounds[1].byes != [5], seed


def test_manual_seeding_with_check_in_needs_only_the_checked_in_players() -> None:
    b = Builder(registered(players=5))
    for pid in (1, 2, 3):
        b.add(c.check_in(b.state, pid))
    with pytest.raises(DomainError) as caught:
        c.seed_players(b.state, "manual", [3, 1])
    assert caught.value.message == "every checked-in player needs a seed; missing: 2"
    b.add(c.seed_players(b.state, "manual", [3, 1, 2]))
    assert [b.state.players[p].seed for p in (1, 2, 3, 4, 5)] == [2, 3, 1, None, None]
    b.add(c.check_in(b.state, 5))  # came after the seeding: seeded after the listed ones
    b.add(c.start_round(b.state))
    assert drawn(b, 1) == {1, 2, 3, 5}

"""Players (registration, check-in, late entry, seeding, withdrawal) and drawing rounds."""

from __future__ import annotations

import random

import pytest

from tournament.domain import commands as c
from tournament.domain.model.errors import DomainError
from tournament.domain.testing import Builder, play_round, random_hands, registered


def test_only_checked_in_players_are_drawn_once_check_in_is_used() -> None:
    b = Builder(registered(players=6))
    for pid in (1, 2, 3, 4):
        b.add(c.check_in(b.state, pid))
    b.add(c.start_round(b.state))
    drawn = {p for mid in b.state.rounds[0].matches for p in b.state.matches[mid].players}
    assert drawn == {1, 2, 3, 4} and b.state.rounds[0].byes == []


def test_late_entry_joins_swiss_but_not_a_fixed_draw() -> None:
    b = Builder(registered(players=4))
    play_round(b, random.Random(1))
    b.add(c.register_player(b.state, "Late Larry"))
    assert b.state.players[5].late
    play_round(b, random.Random(2))
    second = b.state.rounds[1]
    drawn = {p for mid in second.matches for p in b.state.matches[mid].players}
    assert 5 in drawn | set(second.byes)
    k = Builder(registered(players=4, format="single_elimination"))
    k.add(c.start_round(k.state))
    with pytest.raises(DomainError) as caught:
        c.register_player(k.state, "Late Larry")
    assert caught.value.rule == "T-late-entry"


def test_a_round_waits_for_every_result() -> None:
    b = Builder(registered(players=4))
    b.add(c.start_round(b.state))
    with pytest.raises(DomainError) as caught:
        c.start_round(b.state)
    assert caught.value.rule == "T-round" and "1.1" in caught.value.message


def test_manual_seeding_needs_everybody_once() -> None:
    b = Builder(registered(players=3))
    with pytest.raises(DomainError):
        c.seed_players(b.state, "manual", [3, 1])
    b.add(c.seed_players(b.state, "manual", [3, 1, 2]))
    assert [b.state.players[p].seed for p in (1, 2, 3)] == [2, 3, 1]


@pytest.mark.parametrize("policy", ["forfeit", "drop"])
def test_withdrawal_forfeits_or_drops_open_matches(policy: str) -> None:
    b = Builder(registered(players=4))
    b.add(c.start_round(b.state))
    new = b.add(c.withdraw(b.state, 1, policy=policy))
    m = next(b.state.matches[mid] for mid in b.state.player_matches[1])
    opponent = m.players[1 - m.seat_of(1)]
    if policy == "forfeit":
        assert [e.type for e in new] == ["player.withdrawn", "match.forfeited"]
        assert m.winner == opponent and b.state.stats[opponent].forfeit_wins == 1
    else:
        assert m.dropped and b.state.stats[opponent].played == 0
    for mid in b.state.rounds[0].matches:
        random_hands(b, b.state.matches[mid], random.Random(3))
    b.add(c.start_round(b.state))
    assert 1 not in {p for mid in b.state.rounds[1].matches for p in b.state.matches[mid].players}


def test_manual_pairing_is_recorded_with_warnings() -> None:
    b = Builder(registered(players=4))
    play_round(b, random.Random(1))
    first = b.state.matches["1.1"].players
    b.add(c.start_round(b.state, pairings=[first, (3, 4) if set(first) != {3, 4} else (1, 2)][:1]))
    r = b.state.rounds[1]
    assert r.override
    assert any("repeat" in w for w in r.warnings) and any("missing" in w for w in r.warnings)


def test_manual_pairing_refuses_impossible_pairs() -> None:
    b = Builder(registered(players=4))
    with pytest.raises(DomainError):
        c.start_round(b.state, pairings=[(1, 2), (2, 3)])
    with pytest.raises(DomainError):
        c.start_round(b.state, pairings=[(1, 9)])


def test_the_draw_is_reproducible_from_the_recorded_seed() -> None:
    b1 = Builder(registered(players=9, seed=4))
    b2 = Builder(registered(players=9, seed=4))
    r1 = c.start_round(b1.state)[0].payload
    r2 = c.start_round(b2.state, seed=r1["seed"])[0].payload
    assert r1["matches"] == r2["matches"] and r1["byes"] == r2["byes"]

"""Round robin: Berger tables, several groups, fair first dealer, withdrawals."""

from __future__ import annotations

from collections import Counter

import pytest

from tournament.formats import (
    FormatError,
    Walkover,
    berger_rounds,
    round_count,
    round_robin_round,
    snake_groups,
)

from .sim import check_round, players


@pytest.mark.parametrize("n", range(2, 129))
def test_everybody_meets_everybody_once_and_plays_once_a_round(n: int) -> None:
    field = players(n)
    rounds = berger_rounds(field)
    assert len(rounds) == n - 1 + n % 2
    met: Counter[frozenset[str]] = Counter()
    first: Counter[str] = Counter()
    for games in rounds:
        seen = [p for g in games for p in g if p is not None]
        assert sorted(seen) == sorted(field) and len(seen) == len(set(seen))
        for a, b in games:
            if a is not None and b is not None:
                met[frozenset((a, b))] += 1
                first[a] += 1
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    # Every player deals first in about half of their games.
    for p in field:
        assert abs(2 * first[p] - (n - 1)) <= 2


def test_berger_table_for_six_matches_the_printed_table() -> None:
    r = berger_rounds(["1", "2", "3", "4", "5", "6"])
    assert r[0] == (("1", "6"), ("2", "5"), ("3", "4"))
    assert r[1] == (("6", "4"), ("5", "3"), ("1", "2"))
    assert r[2] == (("2", "6"), ("3", "1"), ("4", "5"))


def test_odd_field_each_player_has_exactly_one_bye() -> None:
    field = players(7)
    byes = Counter(p for r in range(1, 8) for p in round_robin_round([field], r).byes)
    assert byes == Counter(dict.fromkeys(field, 1))


@pytest.mark.parametrize("n,groups", [(8, 2), (9, 2), (17, 4), (30, 3), (128, 8), (13, 6)])
def test_groups_play_side_by_side(n: int, groups: int) -> None:
    gs = snake_groups(players(n), groups)
    assert sorted(p for g in gs for p in g) == players(n)
    assert max(map(len, gs)) - min(map(len, gs)) <= 1
    met: set[frozenset[str]] = set()
    for r in range(1, round_count(gs) + 1):
        rp = round_robin_round(gs, r)
        check_round(rp, [p for p in players(n) if p not in rp.idle])
        for p in rp.pairings:
            ga = next(i for i, g in enumerate(gs) if p.player_a in g)
            assert p.player_b in gs[ga]
            met.add(frozenset(p.players))
    assert len(met) == sum(len(g) * (len(g) - 1) // 2 for g in gs)


def test_snake_seeding_spreads_the_top_seeds() -> None:
    assert snake_groups([str(i) for i in range(1, 9)], 4) == (
        ("1", "8"),
        ("2", "7"),
        ("3", "6"),
        ("4", "5"),
    )


def test_withdrawn_player_forfeits_or_is_dropped_as_set() -> None:
    field = ["a", "b", "c", "d"]
    forfeit = round_robin_round([field], 1, withdrawn={"d"})
    assert forfeit.walkovers == (Walkover("a", "d"),)
    assert [p.players for p in forfeit.pairings] == [("b", "c")]
    dropped = round_robin_round([field], 1, withdrawn={"d"}, withdrawal="drop")
    assert dropped.walkovers == () and dropped.idle == ("a",)


@pytest.mark.parametrize("n", [3, 6, 11, 40])
def test_withdrawals_every_round_still_schedule_the_rest(n: int) -> None:
    field = players(n)
    gone = set(field[:2])
    for r in range(1, round_count([field]) + 1):
        rp = round_robin_round([field], r, withdrawn=gone)
        busy = rp.players_in_round() + rp.idle + tuple(w.winner for w in rp.walkovers)
        assert sorted(busy) == sorted(p for p in field if p not in gone)


def test_errors_name_the_field() -> None:
    with pytest.raises(FormatError, match="round_no"):
        round_robin_round([["a", "b"]], 2)
    with pytest.raises(FormatError, match=r"groups\[2\]"):
        round_robin_round([["a", "b"], ["a"]], 1)
    with pytest.raises(FormatError, match="group_count"):
        snake_groups(["a", "b", "c"], 2)

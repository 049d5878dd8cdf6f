"""Preisschnapsen lives knockout: fresh seeded draws, lives, byes, buy-back, the final."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.formats import (
    BuyBack,
    Bye,
    FormatError,
    Game,
    LivesRules,
    lives_final_round,
    lives_round,
    lives_state,
)
from tournament.formats.lives import final_places, final_round_count
from tournament.formats.model import bye_counts, meetings

from .sim import check_round, players, record, repeat_free_round_exists


def play_out(
    n: int,
    rules: LivesRules,
    seed: int,
    withdraw: dict[int, str] | None = None,
    buy_backs: tuple[BuyBack, ...] = (),
) -> tuple[int, list[Game]]:
    """Draw and play rounds until the final; returns the number of rounds and the games."""
    rng = random.Random(seed)
    field = players(n)
    games: list[Game] = []
    byes: list[Bye] = []
    gone: list[str] = []
    for r in range(1, 10 * n):
        if withdraw and r in withdraw:
            gone.append(withdraw[r])
        backs = [b for b in buy_backs if b.before_round <= r]
        state = lives_state(field, rules, games, backs, gone, before_round=r)
        if state.final:
            assert 1 <= len(state.alive) <= rules.final_size
            if len(state.alive) >= 2:
                final = lives_final_round(state.alive, r, seed=seed)
                assert set(final.players_in_round()) <= set(state.alive)
            return r - 1, games
        rp = lives_round(r, field, rules, games, byes, backs, seed=seed, withdrawn=gone)
        check_round(rp, state.alive)
        met = meetings(games)
        if any(frozenset(p.players) in met for p in rp.pairings):
            had = bye_counts(byes)
            fewest = min(had[p] for p in state.alive)
            eligible = [p for p in state.alive if had[p] == fewest]
            assert not repeat_free_round_exists(state.alive, met, eligible)
        if rp.byes:
            had = bye_counts(byes)
            assert had[rp.byes[0]] == min(had[p] for p in state.alive)
        record(rp, rng, games, byes)
    raise AssertionError("no final reached")


@pytest.mark.parametrize("n", range(2, 129))
def test_every_field_size_reaches_the_final(n: int) -> None:
    rules = LivesRules(lives=2 if n % 2 else 3)
    rounds, games = play_out(n, rules, seed=n)
    # Going out takes `lives` lost games; two players go straight to the final.
    assert rounds >= (rules.lives if n > rules.final_size else 0)
    lost = {p: 0 for p in players(n)}
    for g in games:
        lost[g.player_b if g.winner == g.player_a else g.player_a] += 1
    assert all(v <= rules.lives for v in lost.values())
    assert sum(v == rules.lives for v in lost.values()) >= n - rules.final_size


@pytest.mark.parametrize("n", [3, 4, 9, 16, 31, 64, 128])
def test_withdrawn_players_leave_the_draw(n: int) -> None:
    field = players(n)
    play_out(n, LivesRules(lives=2), seed=n, withdraw={2: field[0], 3: field[-1]})


@pytest.mark.parametrize("final_size", [2, 3, 4])
def test_the_final_is_reached_at_the_configured_size(final_size: int) -> None:
    play_out(24, LivesRules(lives=2, final_size=final_size), seed=final_size)


def test_a_lost_game_costs_a_life_and_no_lives_means_out() -> None:
    rules = LivesRules(lives=2)
    games = [Game(1, "a", "b", winner="a"), Game(2, "b", "c", winner="c")]
    s = lives_state(["a", "b", "c", "d"], rules, games)
    assert dict(s.lives) == {"a": 2, "b": 0, "c": 2, "d": 2}
    assert s.alive == ("a", "c", "d") and not s.final


def test_buy_back_returns_a_life_even_to_an_eliminated_player() -> None:
    rules = LivesRules(lives=1, max_buy_backs=1, last_buy_back_round=3)
    games = [Game(1, "a", "b", winner="a"), Game(1, "c", "d", winner="c")]
    s = lives_state(["a", "b", "c", "d"], rules, games, [BuyBack("b", 2)], before_round=2)
    assert s.alive == ("a", "b", "c")
    with pytest.raises(FormatError, match=r"buy_backs\[0\]\.before_round"):
        lives_state(["a", "b"], rules, [], [BuyBack("b", 4)])
    with pytest.raises(FormatError, match=r"buy_backs\[1\]"):
        lives_state(["a", "b", "c", "d"], rules, games, [BuyBack("b", 2), BuyBack("b", 3)])
    with pytest.raises(FormatError, match=r"buy_backs\[0\]: these rules allow no buy-back"):
        lives_state(["a", "b"], LivesRules(), [], [BuyBack("b", 2)])


def test_history_errors_name_the_field() -> None:
    rules = LivesRules(lives=1)
    with pytest.raises(FormatError, match=r"games\[0\]\.winner"):
        lives_state(["a", "b"], rules, [Game(1, "a", "b")])
    with pytest.raises(FormatError, match="round_no"):
        lives_round(2, ["a", "b"], rules, [Game(1, "a", "b", winner="a")], seed=1)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 40), seed=st.integers(0, 2**32), rnd=st.integers(1, 3))
def test_same_seed_same_draw(n: int, seed: int, rnd: int) -> None:
    field = players(n)
    rules = LivesRules(lives=3)
    games: list[Game] = []
    byes: list[Bye] = []
    rng = random.Random(seed)
    for r in range(1, rnd):
        record(lives_round(r, field, rules, games, byes, seed=seed), rng, games, byes)
    assert lives_round(rnd, field, rules, games, byes, seed=seed) == lives_round(
        rnd, field, rules, list(games), list(byes), seed=seed
    )


def test_different_seeds_draw_differently() -> None:
    draws = {lives_round(1, players(16), LivesRules(), seed=s) for s in range(10)}
    assert len(draws) == 10


def test_a_double_no_show_costs_both_players_a_life() -> None:
    rules = LivesRules(lives=2)
    both_absent = Game(1, "a", "b", winner=None, forfeit=True)
    s = lives_state(["a", "b", "c", "d"], rules, [both_absent, Game(1, "c", "d", winner="c")])
    assert dict(s.lives) == {"a": 1, "b": 1, "c": 2, "d": 1}
    with pytest.raises(FormatError, match=r"games\[0\]\.winner"):
        lives_state(["a", "b"], rules, [Game(1, "a", "b", winner=None)])  # not a no-show


@pytest.mark.parametrize("n", range(2, 9))
def test_the_final_is_a_whole_round_robin_among_the_finalists(n: int) -> None:
    finalists = players(n)
    rounds = final_round_count(finalists)
    assert rounds == (1 if n == 2 else n - 1 + n % 2)
    met: list[frozenset[str]] = []
    byes: list[str] = []
    for k in range(1, rounds + 1):
        rp = lives_final_round(finalists, 10 + k, seed=n, final_round=k)
        check_round(rp, finalists)
        met += [frozenset(p.players) for p in rp.pairings]
        byes += rp.byes
    assert sorted(met, key=sorted) == sorted(
        (frozenset((a, b)) for i, a in enumerate(finalists) for b in finalists[i + 1 :]), key=sorted
    )
    assert sorted(byes) == (finalists if n % 2 else [])
    with pytest.raises(FormatError, match="final_round: the final has"):
        lives_final_round(finalists, 99, seed=n, final_round=rounds + 1)


def test_a_finalist_who_withdraws_loses_the_rest_of_the_final_by_walkover() -> None:
    rp = lives_final_round(["c", "e", "f"], 5, seed=1, final_round=2, withdrawn={"f", "x"})
    assert [p.players for p in rp.pairings] == [("c", "e")] and rp.byes == ()
    assert [(w.winner, w.forfeited_by) for w in rp.walkovers] == []  # f had the bye
    third = lives_final_round(["c", "e", "f"], 6, seed=1, final_round=3, withdrawn={"f"})
    assert [(w.winner, w.forfeited_by) for w in third.walkovers] == [("c", "f")]
    dropped = lives_final_round(
        ["c", "e", "f"], 6, seed=1, final_round=3, withdrawn={"f"}, policies={"f": "drop"}
    )
    assert dropped.walkovers == () and dropped.idle == ("c",)
    two = lives_final_round(["a", "b"], 7, seed=1, withdrawn={"b"})
    assert [(w.winner, w.forfeited_by) for w in two.walkovers] == [("a", "b")]


def test_the_final_table_ranks_by_points_in_the_final() -> None:
    # The final's winner is first, whatever happened before the final.
    assert final_places(["a", "b"], [Game(9, "a", "b", winner="b")]) == (("b",), ("a",))
    # A round robin of three: a bye is a point, level finalists share a place.
    games = [
        Game(5, "e", "f", winner="e"),
        Game(6, "c", "e", winner="e"),
        Game(7, "f", "c", winner="f"),
    ]
    byes = [Bye(5, "c"), Bye(6, "f"), Bye(7, "e")]
    assert final_places(["c", "e", "f"], games, byes) == (("e",), ("f",), ("c",))
    circle = [
        Game(5, "e", "f", winner="e"),
        Game(6, "c", "e", winner="c"),
        Game(7, "f", "c", winner="f"),
    ]
    assert final_places(["c", "e", "f"], circle, byes) == (("c", "e", "f"),)
    # Games of anybody else (a non-finalist) do not count in the final's table.
    assert final_places(["a", "b"], [Game(9, "a", "x", winner="a")]) == (("a", "b"),)


def test_a_player_paired_by_hand_after_going_out_stays_out() -> None:
    # A manual pairing may put an eliminated player at a table (warning eliminated_paired);
    # replaying it must not fail, and a win brings no life back: only a buy-back does.
    rules = LivesRules(lives=1)
    games = [Game(1, "a", "b", winner="a"), Game(2, "b", "c", winner="b")]
    s = lives_state(["a", "b", "c", "d"], rules, games)
    assert dict(s.lives) == {"a": 1, "b": 0, "c": 0, "d": 1}

"""Single elimination: standard seeding, byes to the top seeds, third place, walkovers."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.formats import (
    BracketResult,
    FormatError,
    Seed,
    bracket_order,
    bracket_size,
    bracket_state,
    placements,
    ready_pairings,
    single_elimination,
)
from tournament.formats.bracket import unscored_byes_and_walkovers

from .sim import play_bracket, players

COUNTS = range(2, 129)


def test_bracket_order_is_the_standard_one() -> None:
    assert bracket_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)
    for size in (2, 4, 8, 64):
        order = bracket_order(size)
        assert sorted(order) == list(range(1, size + 1))
        assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))


@pytest.mark.parametrize("n", COUNTS)
def test_every_field_size_plays_out_to_one_champion(n: int) -> None:
    b = single_elimination(players(n), third_place=True)
    state, results, _ = play_bracket(b, random.Random(n))
    assert state.champion is not None
    # n-1 games eliminate n-1 players; a third-place game is one more when there are semis.
    third_played = state.matches.get("3P") is not None and state.matches["3P"].status == "done"
    assert len(results) == n - 1 + third_played
    assert third_played == (n >= 4)
    places = placements(b, state)
    assert sorted(p for tie in places for p in tie) == sorted(players(n))


@pytest.mark.parametrize("n", COUNTS)
def test_byes_go_to_the_top_seeds(n: int) -> None:
    b = single_elimination(players(n))
    state = bracket_state(b)
    byes = [m for m in state.matches.values() if m.status == "bye"]
    size = 1 << (n - 1).bit_length()
    assert len(byes) == size - n
    assert sorted(players(n).index(m.winner or "") + 1 for m in byes) == list(
        range(1, size - n + 1)
    )
    # No match is ever empty on both sides: byes only meet real players.
    assert all(m.status != "void" for m in state.matches.values())


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 128), seed=st.integers(0, 10**6))
def test_seeds_one_and_two_meet_only_in_the_final(n: int, seed: int) -> None:
    b = single_elimination(players(n))
    state, _, _ = play_bracket(b, random.Random(seed))
    top2 = set(players(n)[:2])
    final = b.final_ids[0]
    for mid, m in state.matches.items():
        if set(m.players) == top2:
            assert mid == final


def test_top_seeds_reach_the_semi_finals_when_they_win() -> None:
    b = single_elimination(players(16))
    state, _, _ = play_bracket(b, random.Random(0), favour_seeds=True)
    semis = {p for mid in ("R3-1", "R3-2") for p in state.matches[mid].players}
    assert semis == set(players(4))
    assert placements(b, state)[:2] == (("p001",), ("p002",))


def test_feeder_links_read_like_the_draw_sheet() -> None:
    b = single_elimination(players(8), third_place=True)
    assert b.match("R1-3").source_a == Seed(2)
    assert b.match("R1-3").winner_to == "R2-2"
    assert b.match("R2-2").loser_to == "3P"
    assert b.match("R3-1").winner_to is None


def test_third_place_is_skipped_without_semi_finals() -> None:
    b = single_elimination(players(2), third_place=True)
    assert [m.match_id for m in b.matches] == ["R1-1"]


@pytest.mark.parametrize("n", [2, 3, 5, 8, 13, 64, 127])
def test_withdrawn_players_lose_their_pending_matches_by_walkover(n: int) -> None:
    rng = random.Random(n)
    quitters = {0: players(n)[-1], 2: players(n)[0]}
    b = single_elimination(players(n))
    state, _, gone = play_bracket(b, rng, withdraw=quitters)
    assert state.champion is not None
    assert all(m.decided for m in state.matches.values())
    walkovers = [m for m in state.matches.values() if m.status == "walkover"]
    assert walkovers and all(m.loser in gone for m in walkovers)


def test_a_corrected_result_recomputes_the_bracket_and_flags_stale_results() -> None:
    b = single_elimination(players(4))
    results = [
        BracketResult("R1-1", "p001"),
        BracketResult("R1-2", "p002"),
        BracketResult("R2-1", "p001"),
    ]
    assert bracket_state(b, results).champion == "p001"
    corrected = [BracketResult("R1-1", "p004"), *results[1:]]
    state = bracket_state(b, corrected)
    assert state.matches["R2-1"].players == ("p004", "p002")
    assert state.champion is None
    assert "R2-1" in state.conflicts


def test_bad_results_name_the_field() -> None:
    b = single_elimination(players(4))
    with pytest.raises(FormatError, match=r"results\[0\]\.match_id"):
        bracket_state(b, [BracketResult("R9-9", "p001")])
    with pytest.raises(FormatError, match=r"results\[1\]\.match_id: second result"):
        bracket_state(b, [BracketResult("R1-1", "p001"), BracketResult("R1-1", "p001")])
    with pytest.raises(FormatError, match=r"seeds\[1\]"):
        single_elimination(["a", "a"])
    with pytest.raises(FormatError, match="seeds"):
        single_elimination(["a"])


def test_ready_pairings_put_the_best_seed_on_table_one_and_draw_the_dealer() -> None:
    b = single_elimination(players(8))
    state = bracket_state(b)
    rp = ready_pairings(b, state, round_no=1, seed=99)
    assert [p.match_id for p in rp.pairings] == ["R1-1", "R1-3", "R1-4", "R1-2"]
    assert rp == ready_pairings(b, state, round_no=1, seed=99)
    dealers = Counter(
        p.first_dealer == p.player_a
        for s in range(40)
        for p in ready_pairings(b, state, round_no=1, seed=s).pairings
    )
    assert dealers[True] > 40 and dealers[False] > 40  # a draw, not always the same side


def test_two_withdrawn_players_the_later_withdrawal_takes_the_walkover() -> None:
    b = single_elimination(["a", "b", "c", "d"])
    # R1-1 is a v d: d withdrew first, then a; a was still in when d left.
    state = bracket_state(b, [], ["d", "a"])
    assert state.matches["R1-1"].status == "walkover" and state.matches["R1-1"].winner == "a"
    # As a set the order is unknown: the better seed counts as the later withdrawal.
    as_set = bracket_state(b, [], {"a", "d"})
    assert as_set.matches["R1-1"].winner == "a"
    assert bracket_state(b, [], {"d", "a"}) == as_set


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 11, 16, 23])
def test_semi_final_losers_never_rank_with_or_above_the_finalists(n: int) -> None:
    b = single_elimination(players(n), third_place=True)
    semis = [m.match_id for m in b.matches if m.loser_to == "3P"]
    final = b.final_ids[0]
    rng = random.Random(n)
    results: list[BracketResult] = []
    while True:
        state = bracket_state(b, results)
        tiers = placements(b, state)
        placed = [p for tier in tiers for p in tier]
        semi_losers = {state.matches[s].loser for s in semis if state.matches[s].decided}
        finalists = {p for p in state.matches[final].players if p is not None}
        if state.champion is None:
            # Still in the final: unplaced (first); the semi-final losers are placed.
            assert not finalists & set(placed) and semi_losers <= set(placed)
        else:
            assert tiers[:2] == ((state.champion,), tuple(finalists - {state.champion}))
        if state.matches["3P"].status != "done":
            known = {p for p in state.matches["3P"].players if p}
            assert not known or known == set(next(t for t in tiers if set(t) & semi_losers))
        ready = state.ready()
        if not ready:
            break
        # Play the final before the third-place match when both are ready.
        m = sorted(ready, key=lambda m: m.match_id != final)[0]
        results.append(BracketResult(m.match_id, rng.choice(m.players) or ""))
    assert [len(t) for t in placements(b, state)[:4]] == [1, 1, 1, 1]


@pytest.mark.parametrize("n", range(2, 40))
def test_bracket_byes_are_listed_once_for_the_draw_to_score(n: int) -> None:
    b = single_elimination(players(n))
    state = bracket_state(b)
    byes, walkovers = unscored_byes_and_walkovers(b, state)
    size = bracket_size(n)
    assert [p for _, p in byes] == [m.winner for m in state.matches.values() if m.status == "bye"]
    assert len(byes) == size - n and walkovers == ()
    recorded = {mid for mid, _ in byes}
    assert unscored_byes_and_walkovers(b, state, recorded=recorded) == ((), ())
    quitter = players(n)[0]
    gone = bracket_state(b, [], [quitter])
    after, walkovers = unscored_byes_and_walkovers(b, gone, withdrawn=[quitter])
    assert quitter not in {p for _, p in after}  # a withdrawn player scores no bye
    assert all(w.forfeited_by == quitter and w.match_id for w in walkovers)

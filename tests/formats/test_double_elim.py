"""Double elimination: two losses and you are out; the grand final and its reset."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tournament.formats import (
    BracketResult,
    LoserOf,
    bracket_state,
    double_elimination,
    placements,
    ready_pairings,
)

from .sim import play_bracket, players


@pytest.mark.parametrize("n", range(2, 129))
@pytest.mark.parametrize("reset", [True, False])
def test_everybody_but_the_champion_loses_twice(n: int, reset: bool) -> None:
    b = double_elimination(players(n), grand_final_reset=reset)
    state, results, _ = play_bracket(b, random.Random(n * 2 + reset))
    assert state.champion is not None
    losses: Counter[str] = Counter()
    for m in state.matches.values():
        if m.status == "done":
            losses.update(p for p in m.players if p is not None and p != m.winner)
    assert losses[state.champion] <= 1
    others = [losses[p] for p in players(n) if p != state.champion]
    if reset:
        assert others == [2] * (n - 1)
        assert len(results) in (2 * n - 2, 2 * n - 1)
    else:  # the winners-bracket champion may lose the only grand final with one loss
        assert sorted(others)[1:] == [2] * (n - 2) and sorted(others)[0] in (1, 2)
    places = placements(b, state)
    assert sorted(p for tie in places for p in tie) == sorted(players(n))


def test_losers_drop_in_the_standard_pattern() -> None:
    b = double_elimination(players(8))
    ids = [m.match_id for m in b.matches if m.section == "L"]
    assert ids == ["L1-1", "L1-2", "L2-1", "L2-2", "L3-1", "L4-1"]
    assert (b.match("L1-1").source_a, b.match("L1-1").source_b) == (
        LoserOf("W1-1"),
        LoserOf("W1-2"),
    )
    # W2 losers cross over (reversed) so they do not meet the player they just beat.
    assert b.match("L2-1").source_b == LoserOf("W2-2")
    assert b.match("L4-1").source_b == LoserOf("W3-1")
    assert b.match("W2-1").loser_to == "L2-2"
    assert b.match("L4-1").winner_to == "GF1"


def test_grand_final_reset_only_when_the_losers_bracket_champion_wins() -> None:
    b = double_elimination(["a", "b"])
    w1 = BracketResult("W1-1", "a")
    before = bracket_state(b, [w1])
    assert before.matches["GF1"].status == "ready"
    assert before.matches["GF2"].status == "waiting"  # not before the first final is played
    assert [m.match_id for m in before.ready()] == ["GF1"]
    wb_wins = bracket_state(b, [w1, BracketResult("GF1", "a")])
    assert wb_wins.matches["GF2"].status == "not_needed"
    assert wb_wins.champion == "a"
    lb_wins = bracket_state(b, [w1, BracketResult("GF1", "b")])
    assert lb_wins.matches["GF2"].status == "ready"
    assert lb_wins.champion is None
    done = bracket_state(b, [w1, BracketResult("GF1", "b"), BracketResult("GF2", "b")])
    assert done.champion == "b"
    assert placements(b, done) == (("b",), ("a",))


def test_without_reset_the_first_grand_final_decides() -> None:
    b = double_elimination(["a", "b"], grand_final_reset=False)
    s = bracket_state(b, [BracketResult("W1-1", "a"), BracketResult("GF1", "b")])
    assert s.champion == "b"


@pytest.mark.parametrize("n", [3, 4, 7, 16, 33, 128])
def test_withdrawals_become_walkovers_and_byes(n: int) -> None:
    quitters = {1: players(n)[1], 5: players(n)[-1]}
    b = double_elimination(players(n))
    state, _, gone = play_bracket(b, random.Random(n), withdraw=quitters)
    assert state.champion is not None
    assert all(m.decided for m in state.matches.values())
    for m in state.matches.values():
        if m.status == "walkover":
            assert m.loser in gone
            assert m.winner not in gone or gone.index(m.winner) > gone.index(m.loser)


@pytest.mark.parametrize("seed", range(8))
def test_the_reset_is_dealt_first_by_the_other_player_than_the_first_final(seed: int) -> None:
    b = double_elimination(["a", "b"])
    w1 = BracketResult("W1-1", "a")
    gf1 = ready_pairings(b, bracket_state(b, [w1]), round_no=2, seed=seed).pairings[0]
    state = bracket_state(b, [w1, BracketResult("GF1", "b")])
    dealt = {"GF1": gf1.first_dealer}
    gf2 = ready_pairings(b, state, round_no=3, seed=seed + 1, dealt_first=dealt).pairings[0]
    assert gf2.match_id == "GF2"
    assert {gf1.first_dealer, gf2.first_dealer} == {"a", "b"}
    # Fixed by the format: every first-dealer policy of the tournament keeps it.
    assert gf2.first_dealer_fixed and not gf1.first_dealer_fixed
    unknown = ready_pairings(b, state, round_no=3, seed=seed + 1).pairings[0]
    assert not unknown.first_dealer_fixed  # GF1's first dealer not known: drawn as usual


def test_an_open_grand_final_ranks_the_unbeaten_winners_bracket_champion_first() -> None:
    b = double_elimination(["a", "b", "c", "d"])
    # a wins the winners bracket unbeaten; b comes through the losers bracket.
    played = [("W1-1", "a"), ("W1-2", "b"), ("W2-1", "a"), ("L1-1", "c"), ("L2-1", "b")]
    results = [BracketResult(m, w) for m, w in played]
    assert placements(b, bracket_state(b, results)) == (("a",), ("b",), ("c",), ("d",))
    # b wins GF1: one loss each, the reset decides; neither is ahead meanwhile.
    results.append(BracketResult("GF1", "b"))
    assert placements(b, bracket_state(b, results)) == (("a", "b"), ("c",), ("d",))
    results.append(BracketResult("GF2", "b"))
    assert placements(b, bracket_state(b, results)) == (("b",), ("a",), ("c",), ("d",))


def test_a_grand_final_still_waiting_for_its_players_ranks_nobody_yet() -> None:
    b = double_elimination(["a", "b", "c", "d"])
    results = [BracketResult(m, w) for m, w in [("W1-1", "a"), ("W1-2", "b"), ("W2-1", "a")]]
    assert placements(b, bracket_state(b, results)) == ()

"""Knockouts do what docs/formats.md and docs/standings.md say, on trial 3's reproductions:
the grand-final reset is dealt first by the other player under every first-dealer policy,
semi-final losers never rank above the finalists, "higher seed" in groups -> knockout is
the knockout seed, and bracket byes and walkovers score like a bye and a forfeit win."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.cli.helpers import lettered_cup, state


def rows(cli: Any) -> list[dict[str, Any]]:
    return list(json.loads(cli("standings", "--json").output)["rows"])


def dealer(match_id: str) -> int | None:
    m = state().matches[match_id]
    return None if m.first_dealer is None else m.players[m.first_dealer]


@pytest.mark.parametrize("policy", ["higher_seed", "seeded_draw", "balanced", "as_entered"])
def test_the_grand_final_reset_is_dealt_first_by_the_other_player(cli, policy: str) -> None:  # type: ignore[no-untyped-def]
    # Trial 3 #5: C wins the winners bracket, A comes back through the losers bracket.
    lettered_cup(cli, "double_elimination", "ABC", "--option", "grand_final_reset=true",
             "--seed", "3", "--first-dealer", policy)  # fmt: skip
    for mid, winner in (("W1-2", "3"), ("W2-1", "3"), ("L2-1", "1")):
        cli("round", "start")
        cli("results", "enter", mid, "--forfeit", winner)
    cli("round", "start")
    dealt = ("--first-dealer", "1") if policy == "as_entered" else ()
    cli("results", "enter", "GF1", "--tally", "7 5 / 7 4 1 0", *dealt)  # A wins GF1
    gf1 = dealer("GF1")
    assert gf1 in (1, 3)
    shown = cli("round", "start").output
    gf2 = 4 - gf1  # the other of 1 and 3
    assert dealer("GF2") == gf2
    assert f"deals first: {'A (1)' if gf2 == 1 else 'C (3)'}" in shown


def test_the_reset_stays_as_entered_when_nobody_knows_who_dealt_the_first_final(cli) -> None:  # type: ignore[no-untyped-def]
    lettered_cup(cli, "double_elimination", "AB", "--seed", "3", "--first-dealer", "as_entered")
    cli("round", "start")
    cli("results", "enter", "W1-1", "--forfeit", "1")
    cli("round", "start")
    cli("results", "enter", "GF1", "--forfeit", "2")  # a forfeit: nobody dealt
    cli("round", "start")
    assert dealer("GF1") is None and dealer("GF2") is None


def test_semi_final_losers_never_rank_above_the_finalists(cli) -> None:  # type: ignore[no-untyped-def]
    # Trial 3 #6: the finalists had round-1 byes; the semi-final losers won a match more.
    lettered_cup(cli, "single_elimination", "ABCDEF", "--option", "third_place=true",
             "--tiebreaks", "game_points,lot", "--seed", "1")  # fmt: skip
    first = cli("round", "start").output
    assert "R1-4  C (3)  v  F (6)" in first and "R1-2  D (4)  v  E (5)" in first
    cli("results", "enter", "R1-2", "--tally", "7 4 1 0 / 7 5")  # D
    cli("results", "enter", "R1-4", "--tally", "7 5 / 7 4 1 0")  # F
    semis = cli("round", "start").output
    assert "R2-1  A (1)  v  D (4)" in semis and "R2-2  B (2)  v  F (6)" in semis
    cli("results", "enter", "R2-1", "--tally", "7 4 1 0 / 7 5")  # A
    cli("results", "enter", "R2-2", "--tally", "7 4 1 0 / 7 5")  # B
    order = [r["player_id"] for r in rows(cli)]
    assert set(order[:2]) == {1, 2} and set(order[2:4]) == {4, 6}  # finalists first
    cli("round", "start")  # the final and the third-place match
    cli("results", "enter", "R3-1", "--tally", "7 5 / 7 4 1 0")  # B wins the final
    # The final is decided and the third-place match still open: D and F stay behind A.
    assert [r["player_id"] for r in rows(cli)][:4] == [2, 1, 4, 6]
    cli("results", "enter", "3P", "--tally", "7 5 / 7 4 1 0")  # F takes third place
    assert [r["player_id"] for r in rows(cli)][:4] == [2, 1, 6, 4]


def test_higher_seed_in_the_knockout_of_groups_is_the_knockout_seed(cli) -> None:  # type: ignore[no-untyped-def]
    # Trial 3 #8: the knockout's seed 1 is the best group winner, whatever the ratings.
    lettered_cup(cli, "groups_knockout", "ABCDEFGH", "--option", "groups=2", "--option",
             "advance=2", "--seed", "5", "--first-dealer", "higher_seed")  # fmt: skip
    cli("players", "seed", "--by", "manual", "--order", "1,2,3,4,5,6,7,8")
    t = state()
    while not any("seeds" in r.info for r in t.rounds):
        cli("round", "start")
        t = state()
        for mid in t.rounds[-1].matches:  # the higher start number wins every group game
            if not t.matches[mid].decided:
                cli("results", "enter", mid, "--forfeit", str(max(t.matches[mid].players)))
        t = state()
    ko_seeds = [int(p) for p in t.rounds[-1].info["seeds"]]
    assert ko_seeds[:2] == [8, 7]  # the group winners: seeds 7 and 8 of the tournament
    for mid in t.rounds[-1].matches:
        m = t.matches[mid]
        better = min(m.players, key=ko_seeds.index)
        assert dealer(mid) == better, (mid, m.players)


def test_a_bracket_bye_scores_a_point_and_the_bye_score(cli) -> None:  # type: ignore[no-untyped-def]
    # Trial 3 #11: with three players, seed 1 has a round-1 bye.
    lettered_cup(cli, "single_elimination", "ABC", "--seed", "3", "--best-of", "3")
    shown = cli("round", "start").output
    assert "  bye      R1-1  A (1)" in shown
    a = next(r for r in rows(cli) if r["player_id"] == 1)
    assert (a["points"], a["byes"], a["played"], a["bummerl_won"]) == (1, 1, 0, 2)


def c_in_the_winners_final(cli: Any) -> None:
    """Double elimination of four: C (3) plays A (1) in W2-1, B (2) has won L1-1."""
    lettered_cup(cli, "double_elimination", "ABCD", "--seed", "3")
    cli("round", "start")
    cli("results", "enter", "W1-1", "--forfeit", "1")  # A beats D
    cli("results", "enter", "W1-2", "--forfeit", "3")  # C beats B
    cli("round", "start")  # W2-1 A v C, L1-1 D v B
    cli("results", "enter", "L1-1", "--tally", "7 5 / 7 4 1 0")  # B beats D


def test_a_walkover_later_in_the_bracket_is_a_forfeit_win(cli) -> None:  # type: ignore[no-untyped-def]
    # Trial 3 #11 (de-1): player 3's withdrawal forfeits their open match, and the later
    # losers-bracket match they would have played is a walkover for the opponent too.
    c_in_the_winners_final(cli)
    withdrawn = cli("players", "withdraw", "3").output
    assert "match W2-1: decided: A (1) wins 1:0 Bummerl by forfeit" in withdrawn
    drawn = cli("round", "start").output  # L2-1: B v loser of W2-1 (C, withdrawn)
    assert "walkover   L2-1  B (2)  v  C (3)" in drawn
    assert "-> B (2) won 1:0 by forfeit" in drawn
    b = next(r for r in rows(cli) if r["player_id"] == 2)
    assert (b["points"], b["wins"], b["forfeit_wins"]) == (2, 1, 1)
    assert "GF1" in drawn  # B goes straight on to the grand final


def test_a_walkover_of_a_player_whose_games_are_dropped_scores_nothing(cli) -> None:  # type: ignore[no-untyped-def]
    c_in_the_winners_final(cli)
    cli("players", "withdraw", "3", "--policy", "drop")
    drawn = cli("round", "start").output
    assert "walkover" not in drawn and "GF1" in drawn  # B goes on without a point
    b = next(r for r in rows(cli) if r["player_id"] == 2)
    assert (b["points"], b["wins"], b["forfeit_wins"]) == (1, 1, 0)

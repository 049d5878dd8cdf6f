"""The lives format (Preisschnapsen) as docs/formats.md describes it, on trial 3's
reproductions: the final's winner is the champion, a final of three or more is a whole
round robin among finalists fixed when it is drawn, nobody buys back into it, a double
no-show costs both players a life; the printouts name the finalists, show lives left and
who may buy back now (trial 1 #21)."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.cli.helpers import lettered_cup, state, stored, unsealed


def preis(cli: Any, seed: int, players: str, *options: str) -> None:
    """Tournament ``cup`` in the lives format with these options, players A, B, C, ..."""
    lettered_cup(cli, "lives", players, "--seed", str(seed),
                 *(x for o in options for x in ("--option", o)))  # fmt: skip


def play(cli: Any, *rounds: dict[str, int]) -> None:
    """Draw each round and enter its results: match id -> the winner (by forfeit)."""
    for winners in rounds:
        cli("round", "start")
        for mid, winner in winners.items():
            cli("results", "enter", mid, "--forfeit", str(winner))


def lives(cli: Any) -> dict[int, int]:
    rows = json.loads(cli("standings", "--json").output)["rows"]
    return {r["player_id"]: r["lives"] for r in rows}


def ranking(cli: Any) -> list[int]:
    return [r["player_id"] for r in json.loads(cli("standings", "--json").output)["rows"]]


#: Trial 3 #1: A (1) wins every game, B (2) loses two, C (3) and D (4) go out.
TRIAL_1 = ({"1.1": 2, "1.2": 1}, {"2.1": 4, "2.2": 1}, {"3.1": 1, "3.2": 3}, {"4.1": 2, "4.2": 1})
#: Trial 3 #2: the final of C (3), E (5) and F (6) is drawn in round 4.
TRIAL_2 = (
    {"1.1": 4, "1.2": 1, "1.3": 5},
    {"2.1": 3, "2.2": 5, "2.3": 6},
    {"3.1": 6, "3.2": 5},
)


def test_the_winner_of_the_lives_final_is_the_champion(cli) -> None:  # type: ignore[no-untyped-def]
    preis(cli, 11, "ABCD", "lives=3", "final_players=2")
    play(cli, *TRIAL_1)
    assert lives(cli) == {1: 3, 2: 1, 3: 0, 4: 0}
    final = cli("round", "start").output
    assert final.startswith("Round 5: final: A (1), B (2) (seed ")  # names, not numbers
    assert "5.1  A (1)  v  B (2)" in final
    assert "[3 lives]" not in final  # lives no longer count in the final
    cli("results", "enter", "5.1", "--tally", "7 5 / 7 4 1 0")  # B wins the final
    assert "finished: champion B (2)\n  2. A (1), 4 pts" in cli("show").output
    assert ranking(cli)[:2] == [2, 1]
    refused = cli("round", "start", ok=False)
    assert refused.exit_code == 1
    assert refused.output == "Error: round: the final has been played (T-round)\n"


def test_a_final_of_three_is_a_whole_round_robin_and_nobody_drops_out(cli) -> None:  # type: ignore[no-untyped-def]
    preis(cli, 101, "ABCDEF", "lives=2", "final_players=3")
    play(cli, *TRIAL_2)
    first = cli("round", "start").output
    assert first.startswith("Round 4: final, round 1 of 3: C (3), E (5), F (6) (seed ")
    assert "4.1  E (5)  v  F (6)" in first and "bye        C (3)" in first
    cli("results", "enter", "4.1", "--tally", "7 4 1 0 / 7 5")  # E wins; F had one life
    second = cli("round", "start").output  # F still plays: the final is played out
    assert second.startswith("Round 5: final, round 2 of 3: C (3), E (5), F (6)")
    assert "5.1  C (3)  v  E (5)" in second and "bye        F (6)" in second
    cli("results", "enter", "5.1", "--tally", "7 5 / 7 4 1 0")  # E beats C
    assert "6.1  F (6)  v  C (3)" in cli("round", "start").output
    cli("results", "enter", "6.1", "--tally", "7 4 1 0 / 7 5")  # F beats C
    t = state("cup")
    final = [t.matches[m] for r in t.rounds[3:] for m in r.matches]
    assert sorted(tuple(sorted(m.players)) for m in final) == [(3, 5), (3, 6), (5, 6)]
    assert "the final has been played" in cli("round", "start", ok=False).output
    # E won both final games, F one, C none: the final's table is the ranking.
    assert ranking(cli)[:3] == [5, 6, 3]
    assert "finished: champion E (5)\n  2. F (6)" in cli("show").output


def test_no_buy_back_once_the_final_has_begun_and_the_finalists_stay_fixed(cli) -> None:  # type: ignore[no-untyped-def]
    preis(cli, 101, "ABCDEF", "lives=2", "final_players=3", "buy_backs=1")
    play(cli, *TRIAL_2)
    cli("round", "start")
    cli("results", "enter", "4.1", "--tally", "7 4 1 0 / 7 5")
    before = len(stored())
    refused = cli("players", "buy-life", "1", ok=False)
    assert refused.exit_code == 1
    assert refused.output == (
        "Error: player: the final has begun (round 4): its players are fixed (C (3), E (5), "
        "F (6)), nobody buys back into it (T-lives)\n"
    )
    assert len(stored()) == before  # nothing stored
    assert cli("players", "buy-life").output.startswith("no buy-back now: the final has begun")
    for _ in range(2):
        drawn = cli("round", "start").output
        assert "A (1)" not in drawn and ": C (3), E (5), F (6)" in drawn
        t = state("cup")
        cli("results", "enter", t.rounds[-1].matches[0], "--forfeit", "3")
    after = cli("players", "buy-life", "1", ok=False).output
    assert after == (
        "Error: player: the tournament is finished: the final has been played (T-lives)\n"
    )


def test_a_buy_back_before_the_final_is_drawn_brings_the_player_back_into_the_draw(cli) -> None:  # type: ignore[no-untyped-def]
    preis(cli, 101, "ABCDEF", "lives=2", "final_players=3", "buy_backs=1")
    play(cli, *TRIAL_2)  # C, E and F are left: the final's size, but it is not drawn yet
    listed = cli("players", "buy-life").output
    assert listed == (
        "may buy back a life before round 4: A (1), B (2), D (4) (tournament players buy-life N)\n"
    )
    cli("players", "buy-life", "1")
    drawn = cli("round", "start").output
    assert drawn.startswith("Round 4: lives round 4: 4 players with lives left")
    assert "A (1) [1 life]" in drawn


def test_a_double_no_show_costs_both_players_a_life(cli) -> None:  # type: ignore[no-untyped-def]
    preis(cli, 3, "ABCD", "lives=2")
    drawn = cli("round", "start").output
    assert "1.1  C (3) [2 lives]  v  D (4) [2 lives]" in drawn
    cli("results", "enter", "1.1", "--forfeit", "both")
    cli("results", "enter", "1.2", "--tally", "7 4 1 0 / 7 5")  # A beats B
    rows = {r["player_id"]: r for r in json.loads(cli("standings", "--json").output)["rows"]}
    assert [(rows[p]["losses"], rows[p]["lives"]) for p in (2, 3, 4)] == [(1, 1)] * 3
    again = cli("round", "start").output
    assert "C (3) [1 life]" in again and "D (4) [1 life]" in again


def test_round_printouts_show_lives_left_and_who_may_buy_back(cli) -> None:  # type: ignore[no-untyped-def]
    preis(cli, 101, "ABCDEF", "lives=2", "final_players=3", "buy_backs=1")
    play(cli, *TRIAL_2[:2])
    shown = unsealed(cli("round", "show").output).splitlines()
    assert re.match(r"  table   1  2\.1  C \(3\) \[1 life\] +v  D \(4\) \[2 lives\]  ", shown[1])
    may = "may buy back a life before round 3: B (2) (tournament players buy-life N)"
    assert shown[-1] == may
    assert may in cli("show").output
    third = cli("round", "start").output
    assert "bye        C (3) [1 life]" in third
    assert "may buy back" not in third  # the round is being played
    assert "no buy-back now: a life is bought back between rounds: round 3 is being played" in (
        cli("players", "buy-life").output
    )


def test_the_standings_show_the_final_points_that_rank_the_finalists(cli) -> None:  # type: ignore[no-untyped-def]
    # B (2) wins the final with fewer lives than A (1): only the final's points say why.
    preis(cli, 11, "ABCD", "lives=3", "final_players=2")
    play(cli, *TRIAL_1)
    assert "final" not in cli("standings").output.splitlines()[1]  # no final yet
    cli("round", "start")
    cli("results", "enter", "5.1", "--tally", "7 5 / 7 4 1 0")
    table = cli("standings").output.splitlines()
    column = table[1].split().index("final") + 1  # a row splits its rank and (n) apart
    b, a = (next(x for x in table if f"({p})" in x).split() for p in (2, 1))
    assert (b[column], a[column]) == ("1", "0")
    assert "final: points in the final, which rank the finalists first" in "\n".join(table)
    rows = json.loads(cli("standings", "--json").output)["rows"]
    assert [r["final_points"] for r in rows] == [1, 0, None, None]  # B, A, then C and D
    csv_rows = cli("standings", "--csv").output.splitlines()
    field = csv_rows[0].split(",").index("final_points")
    assert [r.split(",")[field] for r in csv_rows[1:]] == ["1", "0", "", ""]

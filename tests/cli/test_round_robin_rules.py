"""Round robin as docs/formats.md says: by default everybody deals first in about half
their games (trial 3 #7), and a withdrawal's own policy decides its remaining games."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.cli.helpers import lettered_cup, state


def finish_round(cli: Any) -> None:
    """The open matches of the latest round: the lower start number wins."""
    t = state()
    for mid in t.rounds[-1].matches if t.rounds else ():
        if not t.matches[mid].decided and not t.matches[mid].dropped:
            cli("results", "enter", mid, "--forfeit", str(min(t.matches[mid].players)))


def play_all(cli: Any) -> None:
    """Every round to the end."""
    finish_round(cli)
    while (out := cli("round", "start", ok=False)).exit_code == 0:
        finish_round(cli)
    assert "(T-round)" in out.output and "finished" in cli("show").output


def first_dealers() -> tuple[Counter[int], Counter[int]]:
    """Per player: games dealt first, and games played (at a table)."""
    first: Counter[int] = Counter()
    games: Counter[int] = Counter()
    for m in state().matches.values():
        if m.table and m.first_dealer is not None:
            first[m.players[m.first_dealer]] += 1
            games.update(m.players)
    return first, games


def test_in_a_round_robin_the_default_deals_first_by_the_berger_tables(cli) -> None:  # type: ignore[no-untyped-def]
    lettered_cup(cli, "round_robin", "ABCD", "--seed", "1")
    cli("round", "start")
    cli("results", "enter", "1.1", "--forfeit", "1")
    cli("results", "enter", "1.2", "--forfeit", "2")
    cli("round", "start")
    cli("results", "enter", "2.1", "--forfeit", "4")
    cli("results", "enter", "2.2", "--forfeit", "1")
    third = cli("round", "start").output
    assert "3.2  C (3)  v  A (1)  deals first: C (3)" in third  # trial 3 #7: not A again


@pytest.mark.parametrize("players", [4, 5, 8, 11])
def test_everybody_deals_first_in_about_half_their_games(cli, players: int) -> None:  # type: ignore[no-untyped-def]
    lettered_cup(cli, "round_robin", "ABCDEFGHIJK"[:players], "--seed", "2")
    play_all(cli)
    first, games = first_dealers()
    for p in range(1, players + 1):
        assert abs(2 * first[p] - games[p]) <= 2, (p, first[p], games[p])


def test_the_group_stage_of_groups_then_knockout_deals_first_the_same_way(cli) -> None:  # type: ignore[no-untyped-def]
    lettered_cup(cli, "groups_knockout", "ABCDEFGHIJ", "--seed", "2",
                 "--option", "groups=2", "--option", "advance=1")  # fmt: skip
    while not any("seeds" in r.info for r in state().rounds):
        cli("round", "start")
        finish_round(cli)
    t = state()
    first, games = first_dealers()
    group_games = {p: games[p] - (p in t.rounds[-1].info["seeds"]) for p in games}
    assert all(abs(2 * first[p] - group_games[p]) <= 2 for p in range(1, 11))


def test_higher_seed_chosen_at_creation_still_deals_the_better_seed_first(cli) -> None:  # type: ignore[no-untyped-def]
    lettered_cup(cli, "round_robin", "ABCD", "--seed", "1", "--first-dealer", "higher_seed")
    play_all(cli)
    first, _ = first_dealers()
    assert first == Counter({1: 3, 2: 2, 3: 1})  # seed 1 deals first in every game


def test_a_withdrawal_with_policy_drop_drops_the_remaining_games_too(cli) -> None:  # type: ignore[no-untyped-def]
    # Trial 3: in a round robin set to forfeit, `--policy drop` dropped the open match but
    # turned the remaining games into walkovers.
    lettered_cup(cli, "round_robin", "ABCD", "--seed", "1", "--withdrawal", "forfeit")
    cli("round", "start")
    cli("results", "enter", "1.1", "--forfeit", "1")
    assert "match 1.2: dropped" in cli("players", "withdraw", "3", "--policy", "drop").output
    play_all(cli)
    t = state()
    theirs = [t.matches[mid] for mid in t.player_matches[3]]
    assert [(m.match_id, m.dropped) for m in theirs] == [("1.2", True)]  # no walkovers
    assert t.stats[3].played == 0 and all(t.stats[p].forfeit_wins <= 3 for p in (1, 2, 4))


def test_a_withdrawal_with_policy_forfeit_gives_walkovers_in_a_round_robin_set_to_drop(cli) -> None:  # type: ignore[no-untyped-def]
    lettered_cup(cli, "round_robin", "ABCD", "--seed", "1", "--withdrawal", "drop")
    cli("round", "start")
    cli("players", "withdraw", "3", "--policy", "forfeit")
    play_all(cli)
    t = state()
    walkovers = [t.matches[m] for m in t.player_matches[3] if t.matches[m].table == 0]
    assert len(walkovers) == 2 and all(m.winner != 3 for m in walkovers)


def test_rounds_whose_games_are_all_dropped_do_not_end_the_round_robin_early(cli) -> None:  # type: ignore[no-untyped-def]
    # Six players, four withdraw after round 1 with their games dropped: rounds 2 and 3
    # have nothing left to play, round 4 still has E v F.
    lettered_cup(cli, "round_robin", "ABCDEF", "--seed", "1", "--withdrawal", "drop")
    cli("round", "start")
    for pid in (1, 2, 3, 4):
        cli("players", "withdraw", str(pid))
    empty = cli("round", "start").output
    assert empty.startswith("Round 2: round robin, round 2 of 5")
    assert "no game this round" in empty
    cli("round", "start")
    fourth = cli("round", "start").output
    assert "4.1  F (6)  v  E (5)" in fourth
    cli("results", "enter", "4.1", "--forfeit", "5")
    done = cli("round", "start", ok=False)
    assert "the tournament is finished: every game left is dropped (T-round)" in done.output

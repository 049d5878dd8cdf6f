"""The head-to-head column has a value only where it separated tied players."""

from __future__ import annotations

from tournament.domain.commands.csvio import standings_csv
from tournament.domain.commands.results import record_forfeit
from tournament.domain.commands.rounds import start_round
from tournament.domain.model.state import Tournament
from tournament.domain.standings import standings
from tournament.domain.testing import Builder, registered

H2H = "direct_encounter"


def round_robin(winners: dict[frozenset[int], int]) -> Tournament:
    """Four players, every match decided as ``winners`` says (a forfeit win is enough)."""
    b = Builder(registered(4, format="round_robin", tiebreaks=[H2H, "lot"]))
    for _ in range(3):
        b.add(start_round(b.state))
        for mid in b.state.rounds[-1].matches:
            players = frozenset(b.state.matches[mid].players)
            b.add(record_forfeit(b.state, mid, winner=winners[players]))
    return b.state


def head_to_head(t: Tournament) -> dict[int, float | None]:
    return {r.player_id: r.tiebreaks[H2H] for r in standings(t)}


def test_two_tied_players_show_who_won_their_match() -> None:
    # 1 and 2 on two points, 1 beat 2; 3 and 4 on one point, 3 beat 4.
    t = round_robin({
        frozenset({1, 2}): 1, frozenset({1, 3}): 1, frozenset({1, 4}): 4,
        frozenset({2, 3}): 2, frozenset({2, 4}): 2, frozenset({3, 4}): 3,
    })  # fmt: skip
    assert head_to_head(t) == {1: 1, 2: 0, 3: 1, 4: 0}
    assert [r.player_id for r in standings(t)] == [1, 2, 3, 4]


def test_a_player_nobody_is_tied_with_shows_nothing() -> None:
    # 1 wins everything; 2, 3 and 4 beat each other in a circle.
    t = round_robin({
        frozenset({1, 2}): 1, frozenset({1, 3}): 1, frozenset({1, 4}): 1,
        frozenset({2, 3}): 2, frozenset({3, 4}): 3, frozenset({2, 4}): 4,
    })  # fmt: skip
    assert head_to_head(t)[1] is None


def test_a_circle_of_tied_players_decides_nothing_so_shows_nothing() -> None:
    t = round_robin({
        frozenset({1, 2}): 1, frozenset({1, 3}): 1, frozenset({1, 4}): 1,
        frozenset({2, 3}): 2, frozenset({3, 4}): 3, frozenset({2, 4}): 4,
    })  # fmt: skip
    assert head_to_head(t) == {1: None, 2: None, 3: None, 4: None}  # the lot decides


def test_the_csv_keeps_the_column_and_leaves_it_empty() -> None:
    t = round_robin({
        frozenset({1, 2}): 1, frozenset({1, 3}): 1, frozenset({1, 4}): 1,
        frozenset({2, 3}): 2, frozenset({3, 4}): 3, frozenset({2, 4}): 4,
    })  # fmt: skip
    header, *lines = standings_csv(standings(t)).splitlines()
    assert header.endswith(",tb_direct_encounter")
    assert all(line.endswith(",") for line in lines)

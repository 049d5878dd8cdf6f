"""``round show`` accounts for every player of the round: who plays where, who has the bye,
who has no game and why, and in a Swiss the points each pairing was made by."""

from __future__ import annotations

from tests.cli.helpers import lettered_cup, unsealed


def test_a_player_with_no_game_is_listed_with_why(cli) -> None:  # type: ignore[no-untyped-def]
    lettered_cup(cli, "round_robin", "ABCDE", "--seed", "1")
    cli("round", "start")
    cli("players", "withdraw", "5", "--policy", "drop", "--why", "ill")
    cli("results", "enter", "1.2", "--tally", "7 4 1 0 / 7")
    cli("round", "start")
    shown = cli("round", "show").output
    idle = [line for line in shown.splitlines() if "no game" in line]
    assert len(idle) == 1 and "the opponent withdrew, the game is dropped" in idle[0]
    by_name = cli("round", "show", "--by-name").output
    assert "no game: the opponent withdrew, the game is dropped" in by_name


def test_swiss_pairings_show_the_points_they_were_made_by(cli) -> None:  # type: ignore[no-untyped-def]
    lettered_cup(cli, "swiss", "ABCD", "--seed", "1")
    cli("round", "start")
    cli("results", "enter", "1.1", "--tally", "7 4 1 0 / 7")
    cli("results", "enter", "1.2", "--tally", "7 4 1 0 / 7")
    assert "[" not in cli("round", "show", "1").output  # round 1: everybody on 0
    lines = unsealed(cli("round", "start").output).splitlines()
    tables = [line for line in lines if line.startswith("  table")]
    assert all(line.count("[1]") == 2 or line.count("[0]") == 2 for line in tables)
    assert lines[-1] == "  [n]: match points before round 2, as the round was drawn"


def test_round_0_is_refused_not_taken_for_the_current_round(cli) -> None:  # type: ignore[no-untyped-def]
    lettered_cup(cli, "swiss", "ABCD", "--seed", "1")
    cli("round", "start")
    out = cli("round", "show", "0", ok=False)
    assert out.exit_code == 1
    assert out.output.strip() == (
        "Error: round: rounds are counted from 1; there is no round 0 (T-round)"
    )
    later = cli("round", "show", "3", ok=False).output.strip()
    assert later == "Error: round: round 3 is not drawn yet (only round 1 is) (T-round)"


def test_a_manual_round_beyond_the_format_asks_first(cli) -> None:  # type: ignore[no-untyped-def]
    lettered_cup(cli, "swiss", "ABCD", "--seed", "1", "--option", "rounds=1")
    cli("round", "start")
    cli("results", "enter", "1.1", "--tally", "7 4 1 0 / 7")
    cli("results", "enter", "1.2", "--tally", "7 4 1 0 / 7")
    out = cli("round", "start", "--pair", "1-2,3-4", input="n\n", ok=False)
    assert "T-round: round 2 is beyond the format's draw" in out.output
    assert out.exit_code == 1 and "nothing stored" in out.output
    assert "Round 2" in cli("round", "start", "--pair", "1-2,3-4", "--yes").output

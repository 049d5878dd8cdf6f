"""Once the tournament is finished its standings are final: nothing the desk types then
may rewrite them."""

from __future__ import annotations

from typing import Any

from tests.cli.helpers import lettered_cup, play_round, stored


def finished_double_elimination(cli: Any) -> None:
    """Double elimination of A, B, C played to the end: A (1) wins every match."""
    lettered_cup(cli, "double_elimination", "ABC", "--seed", "3")
    while "finished" not in cli("show").output:
        play_round(cli)
    assert "champion A (1)" in cli("show").output


def test_nobody_withdraws_once_the_tournament_is_finished(cli) -> None:  # type: ignore[no-untyped-def]
    # No command undoes a withdrawal: after the end it would show the champion withdrawn.
    finished_double_elimination(cli)
    before = len(stored())
    refused = cli("players", "withdraw", "1", "--reason", "test", ok=False)
    assert refused.exit_code == 1
    assert refused.output == (
        "Error: player: player 1 (A) cannot withdraw: the tournament is finished and its "
        "standings are final (T-withdrawal)\n"
    )
    assert len(stored()) == before
    assert "[withdrawn]" not in cli("standings").output

"""`tournament list`: what a club's store holds, one line per tournament."""

from __future__ import annotations

from tests.cli.helpers import create_cup, play_round


def test_list_names_each_tournament_with_its_progress(cli) -> None:  # type: ignore[no-untyped-def]
    assert "there is no tournament store" in cli("list", ok=False).output  # none created
    cli("db", "upgrade")
    assert "no tournaments" in cli("list").output
    cli("create", "Herbstturnier", "--date", "2025-10-03", "--format", "swiss")
    create_cup(cli, "single_elimination")
    for name in ("Anna", "Bernd"):
        cli("players", "add", name)
    play_round(cli)  # the final: the cup is over
    lines = cli("list").output.splitlines()
    assert lines[0].split() == ["id", "name", "date", "format", "players", "rounds", "status"]
    assert lines[2].split() == ["cup", "Cup", "-", "single_elimination", "2", "1", "finished"]
    assert lines[1].split() == [
        "herbstturnier-2025-10-03", "Herbstturnier", "2025-10-03", "swiss", "0", "0", "open"
    ]  # fmt: skip
    assert lines[2].index("single_elimination") == lines[1].index("swiss")  # columns line up

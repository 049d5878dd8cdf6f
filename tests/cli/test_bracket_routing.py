"""`tournament bracket` says where the players of a later match come from, as a draw
sheet does (docs/formats.md): "winner of R1-1 v winner of R1-2"."""

from __future__ import annotations

from tests.cli.helpers import create_cup


def lines_of(cli, match_id: str) -> str:  # type: ignore[no-untyped-def]
    return next(x for x in cli("bracket").output.splitlines() if x.split()[0] == match_id)


def test_unknown_slots_name_the_match_they_come_from(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "single_elimination")
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)
    cli("round", "start")
    final = lines_of(cli, "R2-1")
    assert final.split()[1:] == ["winner", "of", "R1-1", "v", "winner", "of", "R1-2", "waiting"]
    cli("results", "enter", "R1-1", "--forfeit", "1")
    assert lines_of(cli, "R2-1").split()[1:5] == ["[1]", "Anna", "(1)", "v"]  # seed 1
    assert "winner of R1-2" in lines_of(cli, "R2-1")


def test_double_elimination_names_losers_and_byes(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "double_elimination")
    for name in ("A", "B", "C", "D", "E", "F"):
        cli("players", "add", name)
    cli("round", "start")
    assert "v  (bye)" in lines_of(cli, "W1-1")
    assert "loser of W1-2" in lines_of(cli, "L1-1")
    assert "?" not in cli("bracket").output

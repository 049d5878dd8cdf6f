"""A separate ranking by category (`standings --category W`): a category nobody has is a
typo, said in one line; a category whose players are all in another group prints an
empty table, not a traceback."""

from __future__ import annotations

from tests.cli.helpers import create_cup, play_round


def field(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "round_robin", "groups=2")
    for name, category in (("Anna", "W"), ("Berti", ""), ("Carla", ""), ("Doris", "")):
        cli("players", "add", name, "--category", category)
    play_round(cli)


def test_a_category_nobody_has_is_refused_in_one_line(cli) -> None:  # type: ignore[no-untyped-def]
    field(cli)
    for extra in ((), ("--csv",), ("--json",), ("--round", "1")):
        out = cli("standings", "--category", "X", *extra, ok=False)
        assert out.exit_code == 1
        assert out.output == "Error: category: no player has category 'X' (categories here: W)\n"


def test_a_category_is_matched_whatever_its_case(cli) -> None:  # type: ignore[no-untyped-def]
    field(cli)
    assert "Anna (1)" in cli("standings", "--category", "w").output


def test_a_group_without_a_player_of_the_category_is_an_empty_table(cli) -> None:  # type: ignore[no-untyped-def]
    field(cli)
    groups = [cli("standings", "--category", "W", "--group", str(n)).output for n in (1, 2)]
    assert sum("Anna (1)" in out for out in groups) == 1
    empty = next(out for out in groups if "Anna (1)" not in out)
    assert "Traceback" not in empty and "player" in empty

"""A knockout match nobody played that a correction took out of the bracket is void, and
every view of the round says so: the round's tables, "find your table", the crosstable,
the player's evening and the standings' heading never show it as a match to be played."""

from __future__ import annotations

from tests.cli.helpers import unsealed
from tests.cli.test_bracket_never_played import final_drawn, third_place_final


def final_vacated(cli) -> None:  # type: ignore[no-untyped-def]
    """The final A v B drawn, then a correction of the semi-final gives C the place of B:
    R2-1 is void, its slot not drawn again yet."""
    rid = final_drawn(cli)
    cli("results", "correct", rid, "--tally", "7 5 / 7 4 1 0", "--by", "S", "--why", "w", "--yes")


def test_round_show_says_the_void_match_is_void_not_who_deals_first(cli) -> None:  # type: ignore[no-untyped-def]
    final_vacated(cli)
    for args in (("round", "show"), ("round", "show", "2")):
        line = cli(*args).output.splitlines()[1]
        assert line.startswith("  table   1  R2-1  A (1)  v  B (2)")
        assert "-> void after a correction: the slot is drawn again as R2-1b" in line
        assert "deals first" not in line
    cli("round", "start")
    line = cli("round", "show", "2").output.splitlines()[1]
    assert "-> void after a correction: the slot was drawn again as R2-1b" in line


def test_find_your_table_sends_nobody_to_a_void_table(cli) -> None:  # type: ignore[no-untyped-def]
    final_vacated(cli)
    lines = unsealed(cli("round", "show", "--by-name").output).splitlines()
    assert lines[1:] == [
        "  A (1)  no game   R2-1  void after a correction: the slot is drawn again as R2-1b",
        "  B (2)  no game   R2-1  void after a correction: the slot is drawn again as R2-1b",
    ]


def test_the_crosstable_and_the_player_show_a_void_match_as_void_not_open(cli) -> None:  # type: ignore[no-untyped-def]
    final_vacated(cli)
    cli("round", "start")
    cli("results", "enter", "R2-1b", "--tally", "7 4 1 0 / 7 5")  # finished: A champion
    cross = cli("standings", "--crosstable").output
    assert "A (1)          4+   2v   3+" in cross and "B (2)          3-   1v   .." in cross
    assert "?" not in cross.split("\n12+")[0]
    assert "12v void: drawn against player 12, never played, and taken out of the bracket" in cross
    shown = cli("players", "show", "1").output
    assert (
        "round  2  table 1, R2-1: v B (2): void after a correction: the slot was drawn again "
        "as R2-1b"
    ) in shown
    assert "open" not in shown


def test_a_round_whose_only_match_is_void_is_not_reported_over(cli) -> None:  # type: ignore[no-untyped-def]
    final_vacated(cli)
    heading = cli("standings").output.splitlines()[0]
    assert "after round 2" not in heading
    assert (
        "standings after round 1 (round 2 drawn: 0 of 1 match decided); void after a "
        "correction, its slot to be drawn again: R2-1"
    ) in heading
    cli("round", "start")
    cli("results", "enter", "R2-1b", "--tally", "7 4 1 0 / 7 5")
    assert "standings after round 3 (event" in cli("standings").output


def test_find_your_table_lines_up_match_ids_of_different_widths(cli) -> None:  # type: ignore[no-untyped-def]
    third_place_final(cli)  # round 3: R3-1 A v B, 3P D v C
    lines = unsealed(cli("round", "show", "--by-name").output).splitlines()[1:]
    assert len(lines) == 4
    assert len({line.index("  v ") for line in lines}) == 1
    assert "  A (1)  table   1  R3-1  v B (2)" in lines

"""A results sheet imported again after rows were added to it is another file, but most
of it was stored already: the rows imported before are named and refused (T-repeat), and
the organiser imports only the new rows (--only-new) or, for new hands that read the same
as earlier ones, every row (--again). Never a silent second copy (trial 2, F1)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.cli.helpers import lettered_cup, state, stored

TIME = r"(\d{4}-\d\d-\d\d )?\d\d:\d\d"


def eight(cli) -> None:  # type: ignore[no-untyped-def]
    lettered_cup(cli, "swiss", "ABCDEFGH", "--seed", "1", "--best-of", "3")
    cli("round", "start")  # 1.1 A-E, 1.2 B-F, 1.3 C-G, 1.4 D-H


def hands(cli, match: str) -> list[str]:  # type: ignore[no-untyped-def]
    shown = cli("results", "show", match).output.splitlines()
    return [line.split(": ")[-1] for line in shown if " wins " in line]


def grow(sheet: Path, *rows: str) -> None:
    sheet.write_text(sheet.read_text() + "".join(f"{row}\n" for row in rows))


def test_a_sheet_grown_by_a_row_is_refused_naming_the_rows_imported_before(
    cli, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("match,winner,game_points\n1.3,3,2\n1.3,7,1\n1.4,4,3\n")
    assert cli("results", "import", str(sheet)).output == "imported 3 results\n"
    before = len(stored())
    grow(sheet, "1.1,1,2")
    out = cli("results", "import", str(sheet), ok=False)
    assert out.exit_code == 1
    [line] = out.output.splitlines()
    assert re.fullmatch(
        rf"Error: sheet\.csv, line 2: lines 2-4 were imported at {TIME} as action "
        r"([0-9a-f]{8}) \(`tournament log --action \2`\): the same results of the same "
        r"matches, in the same order from each match's first \(T-repeat\); --only-new "
        r"imports only the other rows, --again every row \(new hands that read the same as "
        r"earlier ones\); nothing imported",
        line,
    ), line
    assert len(stored()) == before and len(hands(cli, "1.3")) == 2


def test_only_new_imports_just_the_rows_added_since(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("match,winner,game_points\n1.3,3,2\n1.3,7,1\n")
    cli("results", "import", str(sheet))
    grow(sheet, "1.3,3,3", "1.1,1,2")
    assert cli("results", "import", str(sheet), "--only-new").output == "imported 2 results\n"
    assert hands(cli, "1.3") == ["C (3) wins 2", "G (7) wins 1", "C (3) wins 3"]
    grow(sheet, "1.3,7,2")  # and once more: both earlier imports are left out
    assert cli("results", "import", str(sheet), "--only-new").output == "imported 1 result\n"
    assert len(hands(cli, "1.3")) == 4 and len(hands(cli, "1.1")) == 1
    out = cli("results", "import", str(sheet), "--only-new", ok=False)  # the same file
    assert "this file was imported at" in out.output and out.exit_code == 1


def test_again_imports_rows_that_read_like_earlier_ones(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The next hands of a match may read exactly as the first ones did: the organiser
    says so, and they are stored as new hands."""
    eight(cli)
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    first.write_text("match,winner,game_points\n1.3,3,2\n")
    second.write_text("match,winner,game_points\n1.3,3,2\n1.3,7,1\n")
    cli("results", "import", str(first))
    assert cli("results", "import", str(second), ok=False).exit_code == 1
    assert cli("results", "import", str(second), "--again").output == "imported 2 results\n"
    assert hands(cli, "1.3") == ["C (3) wins 2", "C (3) wins 2", "G (7) wins 1"]
    both = cli("results", "import", str(first), "--again", "--only-new", ok=False)
    assert both.exit_code == 1 and "exclude each other; nothing stored" in both.output


def test_other_hands_of_the_same_matches_are_no_earlier_rows(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    first.write_text("match,winner,game_points\n1.3,3,2\n1.3,7,1\n1.4,4,3\n")
    # The same results in another order per match, and other hands: a sheet of its own.
    second.write_text("match,winner,game_points\n1.3,7,1\n1.3,3,2\n1.4,8,1\n")
    cli("results", "import", str(first))
    assert cli("results", "import", str(second)).output == "imported 3 results\n"


def test_a_sheet_with_one_row_mended_still_names_the_rows_imported_before(
    cli, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Mending a row in the sheet and importing it again would store every other row
    twice; the mended row itself is a correction (`results correct`)."""
    eight(cli)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("match,winner,game_points\n1.3,3,2\n1.3,7,1\n1.4,4,3\n")
    cli("results", "import", str(sheet))
    sheet.write_text("match,winner,game_points\n1.3,3,2\n1.3,7,1\n1.4,4,2\n")
    out = cli("results", "import", str(sheet), ok=False)
    assert out.exit_code == 1
    assert out.output.startswith(
        "Error: sheet.csv, line 4: line 4 reads otherwise than the stored result "
    )
    assert "(lines 2-3 were imported at " in out.output
    assert "a result mended on the sheet is corrected with `tournament results correct " in (
        out.output
    )
    # --only-new would add the mended row as one more hand: refused the same way.
    out = cli("results", "import", str(sheet), "--only-new", ok=False)
    assert out.exit_code == 1 and "line 4 reads otherwise" in out.output
    assert len(hands(cli, "1.4")) == 1


def test_a_small_sheet_with_a_row_mended_is_refused_too(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("match,winner,game_points\n1.1,1,3\n1.1,5,2\n1.2,2,3\n")
    cli("results", "import", str(sheet))
    sheet.write_text("match,winner,game_points\n1.1,1,3\n1.1,5,3\n1.2,2,3\n")
    out = cli("results", "import", str(sheet), ok=False)
    assert "line 3 reads otherwise" in out.output and "lines 2, 4 were imported" in out.output
    assert len(hands(cli, "1.1")) == 2 and len(hands(cli, "1.2")) == 1


def test_a_sheet_of_rows_all_imported_before_says_so(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    sheet, part = tmp_path / "sheet.csv", tmp_path / "part.csv"
    sheet.write_text("match,winner,game_points\n1.1,1,3\n1.1,5,2\n1.2,2,3\n")
    part.write_text("match,winner,game_points\n1.1,1,3\n1.1,5,2\n")
    cli("results", "import", str(sheet))
    for option in ((), ("--only-new",)):
        out = cli("results", "import", str(part), *option, ok=False)
        assert out.exit_code == 1 and "every row" in out.output
        assert "every row is stored already: lines 2-3 were imported at" in out.output
        assert "--only-new imports" not in out.output


def test_a_players_list_that_grew_imports_only_the_new_players(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup")
    players = tmp_path / "players.csv"
    players.write_text("name,club\nAnna,SC A\nBerti,SC B\n")
    assert cli("players", "import", str(players)).output == "imported 2 players\n"
    grow(players, "Carla,SC C")
    out = cli("players", "import", str(players), ok=False)
    assert out.exit_code == 1 and "Anna (SC A) is already registered as player 1" in out.output
    assert out.output.rstrip().endswith("players import FILE --only-new` leaves them out)")
    assert cli("players", "import", str(players), "--only-new").output == "imported 1 player\n"
    # A look-alike of a registered player is no player registered already: still refused.
    grow(players, "\u0410nna,SC A")
    out = cli("players", "import", str(players), "--only-new", ok=False)
    assert "looks the same as Anna (SC A), registered as player 1" in out.output
    assert [p.name for p in state().players.values()] == ["Anna", "Berti", "Carla"]


def test_hands_typed_in_at_the_desk_are_not_imported_again(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("match,winner,game_points\n1.1,1,3\n1.1,5,1\n")
    cli("results", "import", str(sheet))
    cli("results", "enter", "1.1", "--winner", "1", "--points", "2")  # the third, by hand
    grow(sheet, "1.1,1,2", "1.1,5,3")
    out = cli("results", "import", str(sheet), ok=False)
    assert "line 4 was entered at" in out.output and "(paper)" in out.output
    assert cli("results", "import", str(sheet), "--only-new").output == "imported 1 result\n"
    assert hands(cli, "1.1") == ["A (1) wins 3", "E (5) wins 1", "A (1) wins 2", "E (5) wins 3"]


def test_a_tables_sheet_after_the_rounds_sheet_stores_no_hand_twice(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    whole, table = tmp_path / "round1.csv", tmp_path / "table1.csv"
    whole.write_text("match,winner,game_points\n1.1,1,3\n1.2,2,1\n1.1,5,1\n1.2,6,2\n")
    table.write_text("match,winner,game_points\n1.1,1,3\n1.1,5,1\n1.1,1,2\n")
    cli("results", "import", str(whole))
    out = cli("results", "import", str(table), ok=False)
    assert out.exit_code == 1 and "lines 2-3 were imported at" in out.output
    assert cli("results", "import", str(table), "--only-new").output == "imported 1 result\n"
    assert hands(cli, "1.1") == ["A (1) wins 3", "E (5) wins 1", "A (1) wins 2"]


def test_a_sheet_of_later_hands_only_is_imported_as_new(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A sheet that goes on where the stored results stop (not starting any match from its
    first result) holds new hands only."""
    eight(cli)
    first, later = tmp_path / "first.csv", tmp_path / "later.csv"
    first.write_text("match,winner,game_points\n1.1,1,3\n1.2,2,3\n")
    later.write_text("match,winner,game_points\n1.1,5,1\n1.2,6,2\n")
    cli("results", "import", str(first))
    assert cli("results", "import", str(later)).output == "imported 2 results\n"


def test_a_mended_sheet_imports_once_the_stored_result_is_corrected(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("match,winner,game_points\n1.1,1,3\n1.1,5,2\n")
    cli("results", "import", str(sheet))
    sheet.write_text("match,winner,game_points\n1.1,1,3\n1.1,5,1\n1.1,1,2\n")
    out = cli("results", "import", str(sheet), "--only-new", ok=False).output
    result_id = out.split("stored result ")[1].split()[0]
    cli("results", "correct", result_id, "--points", "1", "--by", "ref", "--why", "misread",
        "--yes")  # fmt: skip
    assert cli("results", "import", str(sheet), "--only-new").output == "imported 1 result\n"
    shown = hands(cli, "1.1")
    assert shown[-1] == "A (1) wins 2" and shown.count("A (1) wins 2") == 1

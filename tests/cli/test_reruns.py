"""A retry never doubles a sheet (trial 2, F1; trial 1, #9): re-running the same CSV
import is refused by its idempotency key, and entering exactly a match's last entry again
is refused (T-repeat) unless the organiser says it is another hand or Bummerl."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.cli.helpers import friday_match, state, stored

#: ``21:14`` today, else ``2026-11-27 21:14``.
TIME = r"(\d{4}-\d\d-\d\d )?\d\d:\d\d"


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "sheet.csv"
    path.write_text("match,winner,game_points\n1.1,1,2\n1.1,2,1\n1.1,1,3\n")
    return path


def hands(cli) -> list[str]:  # type: ignore[no-untyped-def]
    return [line for line in cli("results", "show", "1.1").output.splitlines() if " wins " in line]


def test_a_rerun_results_import_is_refused_and_stores_nothing(cli, sheet: Path) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    assert cli("results", "import", str(sheet)).output == "imported 3 results\n"
    before, events = hands(cli), len(stored())
    again = cli("results", "import", str(sheet), ok=False)
    assert again.exit_code == 1
    [line] = again.output.splitlines()
    found = re.fullmatch(
        rf"Error: sheet\.csv: this file was imported at {TIME} as action ([0-9a-f]{{8}}) "
        r"\(`tournament log --action \2`\); nothing stored",
        line,
    )
    assert found, line
    # The action is what `tournament log` shows for the first import's events.
    header, *logged = cli("log", "--action", found.group(2)).output.splitlines()
    assert "action" in header
    assert len(logged) == 3 and all("result.hand_recorded" in x for x in logged)
    assert hands(cli) == before and len(stored()) == events


def test_the_same_sheet_saved_again_by_excel_is_the_same_import(cli, sheet: Path) -> None:  # type: ignore[no-untyped-def]
    """Other bytes, the same rows: semicolons and CRLF, a byte order mark, German column
    names, an empty column, a blank line at the end -- still the sheet imported before."""
    friday_match(cli)
    cli("results", "import", str(sheet))
    before = len(stored())
    resaved = sheet.with_name("Blatt.csv")
    resaved.write_bytes(
        "\ufeffPartie;Sieger;Spielpunkte;Geber\r\n1.1;1;2;\r\n1.1;2;1;\r\n1.1;1;3;\r\n\r\n"
        .encode()
    )  # fmt: skip
    again = cli("results", "import", str(resaved), ok=False)
    assert again.exit_code == 1 and "this file was imported at" in again.output
    assert len(stored()) == before


def test_a_rerun_players_import_is_refused_and_stores_nothing(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup")
    players = tmp_path / "players.csv"
    players.write_text("name,club\nAnna,SC Ried\nBerti,ASK\n")
    assert cli("players", "import", str(players)).output == "imported 2 players\n"
    again = cli("players", "import", str(players), ok=False)
    assert again.exit_code == 1
    assert re.fullmatch(
        rf"Error: players\.csv: this file was imported at {TIME} as action [0-9a-f]{{8}} .*; "
        r"nothing stored\n",
        again.output,
    ), again.output
    assert sorted(p.name for p in state().players.values()) == ["Anna", "Berti"]


def test_the_same_file_into_another_tournament_or_edited_is_a_new_import(  # type: ignore[no-untyped-def]
    cli, tmp_path: Path
) -> None:
    players = tmp_path / "players.csv"
    players.write_text("name\nAnna\nBerti\n")
    cli("create", "Cup", "--id", "cup")
    cli("create", "Plate", "--id", "plate")
    assert cli("players", "import", str(players), "-t", "cup").exit_code == 0
    assert cli("players", "import", str(players), "-t", "plate").exit_code == 0  # other one
    players.write_text("name\nAnna\nBerti\nCarla\n")  # other bytes: another file
    out = cli("players", "import", str(players), "-t", "cup", ok=False)
    assert "this file was imported" not in out.output  # refused, if at all, for its rows


def test_a_refused_import_can_be_run_again_once_the_file_is_fixed(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    bad = tmp_path / "sheet.csv"
    bad.write_text("match,winner,game_points\n1.1,1,2\n1.1,9,1\n")
    first = cli("results", "import", str(bad), ok=False)
    assert "line 3" in first.output
    again = cli("results", "import", str(bad), ok=False)  # stored nothing: no key either
    assert again.output == first.output
    bad.write_text("match,winner,game_points\n1.1,1,2\n1.1,2,1\n")
    assert cli("results", "import", str(bad)).output == "imported 2 results\n"


def test_a_repeated_hand_is_refused_naming_the_earlier_result_and_its_time(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    first = cli("results", "enter", "1.1", "--winner", "1", "--points", "2").output
    result_id = first.split()[1]
    again = cli("results", "enter", "1.1", "--winner", "1", "--points", "2", ok=False)
    assert again.exit_code == 1
    assert re.fullmatch(
        rf"Error: result: match 1\.1: this hand is exactly the match's last entry, result "
        rf"{result_id} \(Bummerl 1 hand 1: Bernd \(1\) wins 2\), entered at {TIME}; nothing "
        r"stored; if it really is another hand with the same result, enter it with --again "
        r"\(T-repeat\)\n",
        again.output,
    ), again.output
    assert len(hands(cli)) == 1


def test_again_enters_the_same_hand_once_more(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    for _ in range(2):
        cli("results", "enter", "1.1", "--winner", "1", "--points", "2", "--again")
    assert len(hands(cli)) == 2
    assert state().matches["1.1"].summary.game_points == (4, 0)


def test_the_same_tally_twice_does_not_decide_the_match(cli) -> None:  # type: ignore[no-untyped-def]
    # Up-arrow and Enter at the desk: before, the copy was Bummerl 2 and won the match 2:0.
    friday_match(cli)
    cli("results", "enter", "1.1", "--tally", "7 6 4 2 0 / 7 5 4")
    again = cli("results", "enter", "1.1", "--tally", "7 6 4 2 0 / 7 5 4", ok=False)
    assert "this tally is exactly the match's last entry" in again.output
    assert "(Bummerl 1), entered at" in again.output
    assert "if it really is another Bummerl with the same tally" in again.output
    m = state().matches["1.1"]
    assert not m.decided and m.summary.bummerl == (1, 0)
    cli("results", "enter", "1.1", "--tally", "7 6 4 2 0 / 7 5 4", "--again")
    assert state().matches["1.1"].decided


def test_another_hand_or_a_voided_last_entry_is_no_repeat(cli) -> None:  # type: ignore[no-untyped-def]
    friday_match(cli)
    cli("results", "enter", "1.1", "--winner", "1", "--points", "2")
    cli("results", "enter", "1.1", "--winner", "1", "--points", "1")  # other points
    cli("results", "enter", "1.1", "--winner", "2", "--points", "1")  # other winner
    last = state().matches["1.1"].entries[-1].result_id
    cli("results", "correct", last, "--void", "--by", "referee", "--why", "wrong match", "--yes")
    cli("results", "enter", "1.1", "--winner", "2", "--points", "1")  # the voided one counts not
    assert len(hands(cli)) == 4

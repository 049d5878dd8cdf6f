"""CSV imports from the command line on a real SQLite file: what Excel and hand-edited
files look like, and every broken file refused in one line naming file and line."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def cli(cli):  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--best-of", "3", "--seed", "1", "--first-dealer", "higher_seed")
    return cli


def file(tmp_path: Path, data: bytes, name: str = "p.csv") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def players(cli) -> int:  # type: ignore[no-untyped-def]
    return len(cli("players", "list").output.splitlines())


def refused(cli, *args: str) -> str:  # type: ignore[no-untyped-def]
    """The one line of a refused import; nothing stored."""
    before = players(cli)
    out = cli(*args, ok=False)
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert players(cli) == before
    [line] = out.output.strip().splitlines()
    return line


def test_utf8_with_or_without_bom_and_semicolons_are_read(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plain = file(tmp_path, "name,club\nJosé Müller,SC Ried\n".encode(), "plain.csv")
    bom = file(tmp_path, "\ufeffname,club\nAnna Öhler,ASK\n".encode(), "bom.csv")
    # Excel in an Austrian locale: semicolons, a BOM, a comma inside a name.
    excel = file(
        tmp_path, "\ufeffName;Club;Rating\r\nHuber, Berti;SC Ried;1500\r\n".encode(), "x.csv"
    )
    for path in (plain, bom, excel):
        assert "imported 1 player" in cli("players", "import", path).output
    listed = cli("players", "list").output
    assert "José Müller" in listed and "Anna Öhler" in listed and "Huber, Berti" in listed


def test_a_file_that_is_not_utf8_names_the_file_and_line(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = file(tmp_path, b"\xff\xfename\nAnna\n")
    assert refused(cli, "players", "import", path) == (
        "Error: p.csv, line 1: the file is not UTF-8 text (byte 0xff); save it as 'CSV UTF-8'; "
        "nothing imported"
    )
    # 0x81 is not a character of Windows-1252 either: neither reading fits (O-L2).
    neither = file(tmp_path, b"name\nAnna\nJos\x81\n", "l.csv")
    assert "l.csv, line 3: the file is not UTF-8 text (byte 0x81)" in refused(
        cli, "players", "import", neither
    )


def test_excel_s_windows_1252_csv_is_read_and_ue_spellings_are_flagged(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """O-L2: Excel's plain "CSV" on Windows is read, saying so; "Guenther Moser" of the
    registered Günther Moser's club is imported, with a warning naming player 1."""
    cli("players", "add", "Günther Moser", "--club", "SC Ottakring")
    excel = "Name;Verein\r\nGuenther Moser;SC Ottakring\r\nJosé Öhler;SC Ried\r\n"
    path = file(tmp_path, excel.encode("cp1252"), "excel.csv")
    result = cli("players", "import", path)
    assert "imported 2 players" in result.output
    assert "excel.csv: read as Windows-1252 (Excel)" in result.stderr
    assert (
        "line 2: possible duplicate: Guenther Moser may be Günther Moser, registered as "
        "player 1" in result.stderr
    )
    assert "José Öhler" in cli("players", "list").output


def test_a_field_over_the_csv_limit_names_the_file_and_line(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = file(tmp_path, b"name\nAnna\n" + b"x" * 131_073 + b"\n")
    assert refused(cli, "players", "import", path) == (
        "Error: p.csv, line 3: a field is longer than 131072 characters; nothing imported"
    )
    results = file(tmp_path, b"match,tally\n1.1," + b"7 " * 70_000 + b"\n", "r.csv")
    assert "r.csv, line 2: a field is longer" in refused(cli, "results", "import", results)


def test_a_column_twice_in_the_header_is_refused(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = file(tmp_path, b"name,club,rating,rating\nAnna,SC,1500,1600\n")
    assert refused(cli, "players", "import", path) == (
        "Error: p.csv, line 1: column(s) rating more than once in the header; nothing imported"
    )


def test_a_row_wider_than_the_header_is_refused_naming_its_line(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = file(tmp_path, b"name,club\nBerti,ASK\nAnna,SC,extra,fields\n")
    line = refused(cli, "players", "import", path)
    assert line.startswith("Error: p.csv, line 3: 4 fields, but the header has 2 column(s)")
    cli("players", "add", "Anna")
    cli("players", "add", "Berti")
    cli("round", "start")
    results = file(tmp_path, b"match,winner,game_points\n1.1,1,1\n1.1,2,1,2\n", "r.csv")
    line = refused(cli, "results", "import", results)
    assert line.startswith("Error: r.csv, line 3: 4 fields, but the header has 3 column(s)")
    assert " wins " not in cli("results", "show", "1.1").output  # not even line 2's hand


def test_an_unterminated_quote_is_refused_naming_the_line_it_opens(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = file(tmp_path, b'name,club\nBerti,ASK\n"Anna,SC\nCarl,ASK\n')
    assert refused(cli, "players", "import", path) == (
        "Error: p.csv, line 3: a quote opened on this line is never closed; nothing imported"
    )


def test_every_bad_row_is_listed_with_the_file(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = file(tmp_path, b"name,club\nA,B,C\nD,E\nF,G,H\n")
    out = cli("players", "import", path, ok=False)
    assert out.exit_code == 1
    assert out.output.splitlines()[:3] == [
        "Error: p.csv: 2 bad rows, nothing imported:",
        "line 2: 3 fields, but the header has 2 column(s) (name, club); a value with a comma "
        "or semicolon needs quotes",
        "line 4: 3 fields, but the header has 2 column(s) (name, club); a value with a comma "
        "or semicolon needs quotes",
    ]

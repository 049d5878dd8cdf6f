"""Standings for Excel and a players list from Excel, German column names (a real file)."""

from __future__ import annotations

from pathlib import Path


def test_excel_standings_and_a_german_players_list(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup")
    players = tmp_path / "spieler.csv"
    players.write_bytes(
        "\ufeffStartnummer;Name;Verein;Kategorie;Wertung\n1;Jürgen Größ;SC Wörgl;;1500\n"
        "2;Anna Huber;SC Ried;W;1520\n".encode()
    )
    assert "imported 2 players" in cli("players", "import", str(players)).output
    out = tmp_path / "stand.csv"
    cli("standings", "--csv", "--excel", "-o", str(out))
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfrank;player_id;name;club;")
    assert "Jürgen Größ;SC Wörgl" in data.decode("utf-8-sig")


def test_excel_without_csv_is_one_line(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--id", "cup")
    out = cli("standings", "--excel", ok=False)
    assert out.exit_code == 1
    assert out.output.strip() == "Error: excel: --excel goes with --csv (standings --csv --excel)"

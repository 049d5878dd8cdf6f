"""Standings CSV for Excel in an Austrian locale, and German column names on import
(docs/csv-formats.md)."""

from __future__ import annotations

import io

import pytest

from tournament.domain.commands.csvio import CsvImportError, import_players, standings_csv
from tournament.domain.standings import standings
from tournament.domain.testing import played, registered


def test_excel_csv_has_a_bom_semicolons_and_decimal_commas() -> None:
    rows = standings(played(players=4, rounds=1, seed=5))
    rows[0].tiebreaks = {**rows[0].tiebreaks, "buchholz": 4.5}
    rows[1].tiebreaks = {**rows[1].tiebreaks, "buchholz": 3.0}
    text = standings_csv(rows, excel=True)
    assert text.startswith("\ufeffrank;player_id;name;")
    lines = text.lstrip("\ufeff").splitlines()
    head = lines[0].split(";")
    column = head.index("tb_buchholz")
    assert lines[1].split(";")[column] == "4,5"
    assert lines[2].split(";")[column] == "3"
    assert text.count(",") == 1  # the one decimal comma: no field is split on a comma
    assert not standings_csv(rows).startswith("\ufeff")  # the plain CSV is unchanged


def test_german_column_names_import_as_the_english_ones() -> None:
    text = "Startnummer;Name;Verein;Kategorie;Wertung\n1;Anna Huber;SC Ried;W;1520\n"
    events = import_players(registered(players=0), io.StringIO(text))
    assert [e.payload for e in events] == [
        {"player_id": 1, "name": "Anna Huber", "club": "SC Ried", "category": "W",
         "rating": 1520}
    ]  # fmt: skip


def test_a_start_number_out_of_file_order_is_refused() -> None:
    text = "Startnummer,Name\n2,Anna Huber\n"
    with pytest.raises(CsvImportError) as refused:
        import_players(registered(players=0), io.StringIO(text))
    assert refused.value.problems == [
        (2, "player_id: start number 2, but this row gets 1 (start numbers follow the file "
            "order after the players already registered)")
    ]  # fmt: skip


def test_an_unknown_german_column_names_the_known_ones() -> None:
    with pytest.raises(CsvImportError) as refused:
        import_players(registered(players=0), io.StringIO("Name,Geburtstag\nAnna,1990\n"))
    assert "unknown column(s) 'geburtstag'" in str(refused.value)
    assert "or their German names" in str(refused.value)

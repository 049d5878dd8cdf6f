"""Scoresheets: a blank sheet per table of a round, filled in beforehand with the table,
the round, the players and who deals first (R18), a tally column pair per Bummerl of the
best-of (R20) running from 7 down to 0 (R17), and lines for the result and both players'
signatures; the log's seal on every sheet."""

from __future__ import annotations

from tests.printing.helpers import SEAL, evening, page_texts, require_weasyprint
from tournament.printing.packs import document, render
from tournament.printing.tables import round_tables

require_weasyprint()


def test_each_table_gets_a_sheet_naming_its_table_round_players_and_first_dealer() -> None:
    b = evening(7, rounds=2, play_last=False)
    tables = round_tables(b.state)
    data, count = render(document("scoresheets", b.state, lambda: b.events), SEAL)
    assert count == 2 and len(tables.tables) == 3  # two sheets to a page; the bye has none
    text = page_texts(data)
    for n, table in enumerate(tables.tables):
        page = text[n // 2]
        assert f"Tisch {table.table}" in page and f"Partie {table.match_id}" in page
        a, b_ = table.players
        assert f"Unterschrift A: {a.name}" in page and f"Unterschrift B: {b_.name}" in page
    everything = "\n".join(text)
    assert everything.count("Spielbericht · Freitagsturnier · Runde 2") == 3
    assert everything.count(SEAL) == 3


def test_the_tally_has_a_column_pair_per_bummerl_from_7_down_to_0() -> None:
    b = evening(4, rounds=1, best_of=5, play_last=False)
    text = page_texts(render(document("scoresheets", b.state, lambda: b.events), SEAL)[0])[0]
    assert "Bummerl 5" in text and "Bummerl 6" not in text
    assert "wer zuerst 3 Bummerl hat (R20)" in text
    first = text.split("Tisch 2")[0]  # the first sheet of the page
    counts = "\n".join(str(n) for n in range(7, -1, -1))  # a column: 7 down to 0
    assert first.count(counts) == 10  # two columns per Bummerl, five Bummerl


def test_the_first_dealer_alternates_from_bummerl_to_bummerl() -> None:
    """R18: if A deals first in Bummerl 1, B deals first in Bummerl 2, A in Bummerl 3."""
    b = evening(4, rounds=1, best_of=3, play_last=False)
    for table in round_tables(b.state).tables:
        first = table.first_dealer
        other = table.players[1] if first == table.players[0] else table.players[0]
        assert [x.first_dealer for x in table.bummerl] == [first, other, first]


def test_a_best_of_7_sheet_still_fits_two_to_a_page() -> None:
    b = evening(8, rounds=1, best_of=7, play_last=False)
    data, count = render(document("scoresheets", b.state, lambda: b.events), SEAL)
    assert count == 2
    assert all("Bummerl 7" in page and "Unterschrift B" in page for page in page_texts(data))

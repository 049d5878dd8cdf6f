"""The crosstable: a round robin as the players x players matrix (row against column,
with the Bummerl score), a Swiss as the progress table (each round's opponent and result,
the domain's cells as ``tournament standings --crosstable`` prints them)."""

from __future__ import annotations

from tests.printing.helpers import SEAL, evening, pdf_text, require_weasyprint
from tournament.domain.views.history import cell, player_rounds
from tournament.printing.crosstable import SELF, crosstables
from tournament.printing.packs import document, render

require_weasyprint()


def test_a_round_robin_is_a_matrix_each_result_seen_from_both_sides() -> None:
    b = evening(5, rounds=5, fmt="round_robin")
    (table,) = crosstables(b.state, lambda: b.events)
    assert table.matrix and table.heads == ("1", "2", "3", "4", "5")
    order = [r.start for r in table.rows]
    for i, row in enumerate(table.rows):
        assert row.cells[i] == SELF
        for j, result in enumerate(row.cells):
            if i == j:
                continue
            mirror = table.rows[j].cells[i]
            won, lost = result[1:].split(":")
            assert (result[0], mirror) == ("+", f"-{lost}:{won}") or (
                result[0],
                mirror,
            ) == ("-", f"+{lost}:{won}"), (order[i], order[j], result, mirror)
    text = pdf_text(render(document("crosstable", b.state, lambda: b.events), SEAL)[0])
    assert "Freitagsturnier: Kreuztabelle" in text and "nach 5 Runden" in text
    assert all(f"Spielerin {n}" in text for n in range(1, 6)) and SEAL in text


def test_groups_get_a_matrix_each() -> None:
    b = evening(8, rounds=1, fmt="round_robin", groups=2)
    tables = crosstables(b.state, lambda: b.events)
    assert [(x.group, len(x.rows)) for x in tables] == [(1, 4), (2, 4)]
    for table in tables:  # round 1 of 3: each played one of the three others, once
        assert all(sum(1 for c in row.cells if c[:1] in ("+", "-")) == 1 for row in table.rows)
    text = pdf_text(render(document("crosstable", b.state, lambda: b.events), SEAL)[0])
    assert "Gruppe 1" in text and "Gruppe 2" in text


def test_a_swiss_is_the_progress_table_with_the_domains_cells() -> None:
    b = evening(7, rounds=3)
    (table,) = crosstables(b.state, lambda: b.events)
    assert not table.matrix and table.heads == ("R1", "R2", "R3")
    for row in table.rows:
        assert row.cells == tuple(cell(line) for line in player_rounds(b.state, row.start))
    # In English the cells print as the domain writes them; in German a bye is a Freilos.
    found = document("crosstable", b.state, lambda: b.events, lang="en")
    text = pdf_text(render(found, SEAL)[0])
    for row in table.rows:
        assert f"Spielerin {row.start}" in text
        assert " ".join(row.cells) in text
    assert "bye" in text and SEAL in text
    german = pdf_text(render(document("crosstable", b.state, lambda: b.events), SEAL)[0])
    assert "Freilos" in german and "bye" not in german

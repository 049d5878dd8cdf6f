"""The crosstable page ``/t/<tid>/crosstable``: the print pack's tables
(:func:`tournament.printing.crosstable.crosstables`) -- a matrix for a round robin (per
group), the progress table for a Swiss -- each cell a link to the results behind it."""

from __future__ import annotations

from tests.pages.markup import elements, unlabelled, words
from tests.pages.public_formats import page, played
from tests.web.conftest import Web
from tests.web.played import state, swiss
from tournament.app.services import services
from tournament.printing.crosstable import SELF, CrossTable, crosstables


def printed(web: Web, tid: str) -> list[CrossTable]:
    with web.app.app_context():
        return list(crosstables(state(web, tid), lambda: services().tournaments.events(tid)))


def body_rows(html: str) -> list[list[str]]:
    """Each row of the page's tables: its cells' words (rank, name, points, results)."""
    found = elements(html)
    rows: list[list[str]] = []
    in_body = False
    for e in found:
        if e.tag == "tbody":
            in_body = True
        elif e.tag == "thead":
            in_body = False
        elif e.tag == "tr" and in_body:
            rows.append([])
        elif e.tag in ("td", "th") and in_body and rows:
            rows[-1].append(words(e.text))
    return rows


def test_a_round_robin_is_the_matrix_the_print_pack_has(web: Web) -> None:
    tid = played(web, "rr", "round_robin", rounds=3)
    html = page(web, f"/t/{tid}/crosstable?lang=en")
    (table,) = printed(web, tid)
    assert table.matrix
    shown = body_rows(html)
    assert len(shown) == len(table.rows) == 8
    for cells, row in zip(shown, table.rows, strict=True):
        assert cells[0] == str(row.rank) and cells[1] == f"{row.name} ({row.start})"
        assert cells[3:] == list(row.cells)
    assert SELF in html and unlabelled(html) == []
    assert "+ won, - lost, with the Bummerl" in html  # the matrix's own legend
    # A played cell links to the row player's matches.
    first = table.rows[0]
    assert f'href="/t/{tid}/players/{first.start}#matches"' in html


def test_groups_get_a_matrix_each(web: Web) -> None:
    tid = played(web, "gk", "groups_knockout", rounds=2, groups=2, advance=2)
    html = page(web, f"/t/{tid}/crosstable?lang=de")
    assert [words(e.text) for e in elements(html) if e.tag == "h3"] == ["Gruppe 1", "Gruppe 2"]


def test_a_swiss_is_the_progress_table_each_cell_linking_to_its_round(web: Web) -> None:
    tid = swiss(web, "sw", rounds=2)
    html = page(web, f"/t/{tid}/crosstable?lang=en")
    (table,) = printed(web, tid)
    assert not table.matrix
    heads = [e.attrs["title"] for e in elements(html) if e.tag == "abbr"]
    assert "Round 1" in heads and "Round 2" in heads
    for cells, row in zip(body_rows(html), table.rows, strict=True):
        assert cells[3:] == list(row.cells)
        assert f'href="/t/{tid}/players/{row.start}#round-2"' in html
    assert "12+ won against start number 12" in html
    assert "The columns are the ranks." not in html


def test_a_knockout_has_no_crosstable(web: Web) -> None:
    tid = played(web, "ko", "single_elimination", rounds=1)
    html = page(web, f"/t/{tid}/crosstable?lang=en", status=404)
    assert "has no crosstable: see the bracket." in html


def test_the_lives_format_gets_the_progress_table(web: Web) -> None:
    tid = played(web, "lv", "lives", rounds=2)
    html = page(web, f"/t/{tid}/crosstable?lang=en")
    assert len(body_rows(html)) == 8 and "Round 2" in html

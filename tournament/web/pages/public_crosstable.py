"""The crosstable (no login): ``GET /t/<tid>/crosstable`` -- who played whom with what
result. A round robin (each group of a group format) is the players x players matrix, a
Swiss (and the lives format) the progress table, a round per column: the same tables as
the crosstable print pack (:func:`tournament.printing.crosstable.crosstables`), each cell
a link to the player's results that make it up."""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Blueprint, render_template
from flask_babel import gettext

from tournament.app.services import services
from tournament.printing.crosstable import SELF, CrossTable, crosstables
from tournament.web.pages.public_parts import header, not_found, number, reading

pages = Blueprint("public_crosstable", __name__)


@dataclasses.dataclass(frozen=True)
class Cell:
    words: str
    anchor: str | None  # where on the row player's page its results are; None: no link


@dataclasses.dataclass(frozen=True)
class Line:
    rank: int | None  # None: never played, listed last without a rank
    player_id: int
    name: str
    withdrawn: bool
    points: int
    cells: tuple[Cell, ...]


@dataclasses.dataclass(frozen=True)
class Shown:
    title: str
    matrix: bool
    heads: tuple[tuple[str, str], ...]  # (short, in full)
    lines: tuple[Line, ...]


@pages.get("/t/<tid>/crosstable")
def crosstable_page(tid: str) -> Any:
    service = services().tournaments
    with reading(tid) as t:
        if t is None:
            return not_found(tid)
        top = header(tid, t)
        tables = crosstables(t, lambda: service.events(tid)) if top.has_crosstable else []
    shown = [_shown(table, n, len(tables)) for n, table in enumerate(tables, 1)]
    html = render_template(
        "public/crosstable.html",
        tid=tid,
        tab="crosstable",
        top=top,
        tables=shown,
        number=number,
    )
    return html, 200 if top.has_crosstable else 404


def _shown(table: CrossTable, n: int, of: int) -> Shown:
    title = str(gettext("Group %(n)s", n=n)) if of > 1 else ""
    if table.matrix:
        names = {str(row.rank): row.name for row in table.rows}
        heads = tuple((head, names.get(head, head)) for head in table.heads)
    else:
        heads = tuple(
            (str(gettext("R%(n)s", n=k)), str(gettext("Round %(n)s", n=k)))
            for k in range(1, len(table.heads) + 1)
        )
    lines = []
    for row in table.rows:
        cells = []
        for k, words in enumerate(row.cells, 1):
            if table.matrix:
                anchor = None if words in (SELF, "") else "matches"
            else:
                anchor = None if words == ".." else f"round-{k}"
            cells.append(Cell(_cell_words(words), anchor))
        lines.append(Line(row.rank, row.start, row.name, row.withdrawn, row.points, tuple(cells)))
    return Shown(title, table.matrix, heads, tuple(lines))


def _cell_words(words: str) -> str:
    if words == "bye":
        return str(gettext("bye"))
    if words == "bye*":
        return str(gettext("bye")) + "*"
    return words

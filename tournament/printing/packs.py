"""What a print pack holds, worked out from the tournament, and its PDF.

Kinds (``KINDS``): ``standings`` (the table now, with every tie-break column) and
``pairings`` (a round's tables: table, players, who deals first, R18). Every page carries
the log's seal in its footer (``tournament verify --seal``), so a sheet on the wall can be
checked against the log later. Rendering needs WeasyPrint and the system's pango; a
machine without them gets :class:`PrintingUnavailable`, saying so.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tournament.domain.events import EventLike
from tournament.domain.roundview import round_view
from tournament.domain.standings_view import standings_view
from tournament.domain.state import Tournament

KINDS = ("standings", "pairings")
_TEMPLATES = Path(__file__).parent / "templates"


class PrintingUnavailable(Exception):
    """WeasyPrint (or the pango it needs) is not installed here."""


@dataclasses.dataclass(frozen=True)
class Column:
    label: str
    numeric: bool = False


@dataclasses.dataclass(frozen=True)
class Sheet:
    title: str
    stage: str
    columns: Sequence[Column]
    rows: Sequence[Sequence[Any]]


def sheet(
    kind: str, t: Tournament, events: Callable[[], Sequence[EventLike]], round: int | None
) -> Sheet:
    """The sheet of ``kind`` for tournament ``t`` (``round``: the pairings' round)."""
    assert t.settings is not None
    name = t.settings.name
    if kind == "standings":
        view = standings_view(t, events)
        tiebreaks = list(view.rows[0].tiebreaks) if view.rows else []
        columns = [
            Column("#", numeric=True),
            Column("Name"),
            Column("Verein"),
            Column("Punkte", numeric=True),
            Column("Sp.", numeric=True),
            Column("S", numeric=True),
            Column("N", numeric=True),
            Column("Bummerl", numeric=True),
            *(Column(tb, numeric=True) for tb in tiebreaks),
        ]
        rows = [
            [
                r.rank,
                r.name,
                r.club,
                r.points,
                r.played,
                r.wins,
                r.losses,
                f"{r.bummerl_won}:{r.bummerl_lost}",
                *(_number(r.tiebreaks.get(tb)) for tb in tiebreaks),
            ]
            for r in view.rows
        ]
        return Sheet(f"{name}: Tabelle", view.describe(), columns, rows)
    if kind == "pairings":
        found = round_view(t, round)
        columns = [
            Column("Tisch", numeric=True),
            Column("Spieler A"),
            Column("Spieler B"),
            Column("gibt zuerst (R18)"),
            Column("Ergebnis"),
        ]
        rows = [
            [
                line.table or "-",
                f"{line.players[0].id} {line.players[0].name}",
                f"{line.players[1].id} {line.players[1].name}" if line.players[1] else "-",
                line.first_dealer.name if line.first_dealer else "",
                line.result,
            ]
            for line in found.tables
        ]
        rows += [["-", f"{b.player.id} {b.player.name}", "spielfrei", "", ""] for b in found.byes]
        return Sheet(f"{name}: Runde {found.number}", found.stage, columns, rows)
    raise ValueError(f"kind: {kind!r} is not one of {', '.join(KINDS)}")


def render(found: Sheet, footer: str) -> tuple[bytes, int]:
    """The sheet as a PDF, and its number of pages."""
    try:
        import weasyprint
    except (ImportError, OSError) as error:  # OSError: pango is missing
        raise PrintingUnavailable(f"PDF rendering is not available here: {error}") from None
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    templates = Environment(loader=FileSystemLoader(_TEMPLATES), autoescape=select_autoescape())
    html = templates.get_template("pack.html").render(
        title=found.title,
        stage=found.stage,
        columns=found.columns,
        rows=found.rows,
        footer=footer.replace('"', "'"),
    )
    document = weasyprint.HTML(string=html).render()
    return document.write_pdf(), len(document.pages)


def _number(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}".replace(".", ",")

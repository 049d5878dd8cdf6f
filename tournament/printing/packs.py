"""What a print pack holds, worked out from the tournament, and its PDF.

Kinds (``KINDS``): ``standings`` (the table now, with every tie-break column),
``pairings`` (a round's tables: table, players, who deals first, R18), ``table-cards``
(a card per table of a round: the number, the players, the public page's QR code),
``scoresheets`` (a blank scoresheet per table of a round, tally columns per Bummerl) and
``crosstable`` (who played whom: a matrix in a round robin, the progress table else).
Every sheet carries the log's seal (``tournament verify --seal``), so a sheet on the wall
can be checked against the log later; the cards and scoresheets, cut apart, each carry it.
Rendering needs WeasyPrint and the system's pango; a machine without them gets
:class:`PrintingUnavailable`, saying so.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tournament.domain.events import EventLike
from tournament.domain.roundview import round_view
from tournament.domain.standings_view import standings_view
from tournament.domain.state import Tournament
from tournament.printing.crosstable import SELF, crosstables
from tournament.printing.render import PrintingUnavailable, html, pdf
from tournament.printing.tables import COUNTS, public_link, qr_svg, report_link, round_tables

__all__ = ["KINDS", "ROUND_KINDS", "Document", "PrintingUnavailable", "document", "render"]

KINDS = ("standings", "pairings", "table-cards", "scoresheets", "crosstable")
#: The kinds that show one round (the request's ``round``, default the current one).
ROUND_KINDS = ("pairings", "table-cards", "scoresheets")


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


@dataclasses.dataclass(frozen=True)
class Document:
    """A pack's template and what fills it."""

    template: str
    context: Mapping[str, Any]


def document(
    kind: str,
    t: Tournament,
    events: Callable[[], Sequence[EventLike]],
    round: int | None = None,
    *,
    base_url: str | None = None,
    codes: Mapping[str, str | Sequence[str]] | None = None,
) -> Document:
    """The pack of ``kind`` for tournament ``t``. ``round``: the round of a round kind
    (default: the current one); ``base_url``: where the public pages are (the table
    cards' QR code, ``<base>/t/<tid>``; without it the cards print no code); ``codes``:
    the table cards' report codes, match id -> the two seats' codes (T-code; none given: an
    empty marked place), each with the QR code of its ``<base>/r/<code>`` link."""
    if kind in ("standings", "pairings"):
        return _table_document(sheet(kind, t, events, round))
    if kind in ("table-cards", "scoresheets"):
        tables = round_tables(t, round, codes if kind == "table-cards" else None)
        link = public_link(base_url, tables.tournament_id) if kind == "table-cards" else None
        report_qr = {
            code: qr_svg(report_link(base_url, code))
            for table in tables.tables
            for code in table.codes
            if base_url
        }
        return Document(
            f"{kind.replace('-', '_')}.html",
            {
                "round": tables,
                "link": link,
                "qr": qr_svg(link) if link else None,
                "counts": COUNTS,
                "report_qr": report_qr,
                "report_base": (base_url or "").rstrip("/"),
            },
        )
    if kind == "crosstable":
        assert t.settings is not None
        return Document(
            "crosstable.html",
            {
                "title": f"{t.settings.name}: Kreuztabelle",
                "tables": crosstables(t, events),
                "rounds": len(t.rounds),
                "self_mark": SELF,
            },
        )
    raise ValueError(f"kind: {kind!r} is not one of {', '.join(KINDS)}")


def render(found: Sheet | Document, footer: str) -> tuple[bytes, int]:
    """The pack as a PDF, and its number of pages. ``footer`` (the tournament, its
    version and the seal) goes on every page, and on every card and scoresheet."""
    if isinstance(found, Sheet):
        found = _table_document(found)
    return pdf(html(found.template, {**found.context, "footer": footer}))


def _table_document(found: Sheet) -> Document:
    context = {"title": found.title, "stage": found.stage, "columns": found.columns}
    return Document("pack.html", {**context, "rows": found.rows})


def _number(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}".replace(".", ",")

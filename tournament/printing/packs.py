"""What a print pack holds, worked out from the tournament, and its PDF.

Kinds (``KINDS``): ``standings`` (the table now, with every tie-break column),
``pairings`` (a round's tables: table, players, who deals first, R18), ``table-cards``
(a card per table of a round: the number, the players, the public page's QR code),
``scoresheets`` (a blank scoresheet per table of a round, tally columns per Bummerl) and
``crosstable`` (who played whom: a matrix in a round robin, the progress table else).
Every sheet carries the log's seal (``tournament verify --seal``), so a sheet on the wall
can be checked against the log later; the cards and scoresheets, cut apart, each carry it.
Each pack is German or English (``lang``, :mod:`~tournament.printing.language`): the
same pack in the other language is another pack. Rendering needs WeasyPrint and the
system's pango; a machine without them gets :class:`PrintingUnavailable`, saying so.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tournament.domain.model.events import EventLike
from tournament.domain.model.state import Tournament
from tournament.domain.views.roundview import round_view
from tournament.domain.views.standings_view import standings_view
from tournament.printing.crosstable import SELF, crosstables
from tournament.printing.language import DEFAULT, Language, language
from tournament.printing.render import PrintingUnavailable, html, pdf
from tournament.printing.tables import COUNTS, public_link, qr_svg, report_link, round_tables
from tournament.printing.words import (
    result_words,
    round_stage_words,
    section_words,
    stage_words,
    tiebreak_heading,
)

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
    lang: str = DEFAULT


def sheet(
    kind: str,
    t: Tournament,
    events: Callable[[], Sequence[EventLike]],
    round: int | None,
    lang: str = DEFAULT,
) -> Sheet:
    """The sheet of ``kind`` for tournament ``t`` (``round``: the pairings' round) in
    language ``lang``."""
    assert t.settings is not None
    words = language(lang)
    name = t.settings.name
    if kind == "standings":
        view = standings_view(t, events)
        tiebreaks = list(view.rows[0].tiebreaks) if view.rows else []
        columns = [
            Column("#", numeric=True),
            Column(words.gettext("Name")),
            Column(words.gettext("Club")),
            Column(words.gettext("Pts"), numeric=True),
            Column(words.gettext("Pl"), numeric=True),
            Column(words.gettext("W"), numeric=True),
            Column(words.gettext("L"), numeric=True),
            Column(words.gettext("Bummerl"), numeric=True),
            *(Column(tiebreak_heading(tb, words), numeric=True) for tb in tiebreaks),
        ]
        rows = [
            [
                "–" if r.rank is None else r.rank,  # never played: listed, not ranked
                r.name if r.rank is not None else f"{r.name} ({words.gettext('did not play')})",
                r.club,
                r.points,
                r.played,
                r.wins,
                r.losses,
                f"{r.bummerl_won}:{r.bummerl_lost}",
                *(_number(r.tiebreaks.get(tb), words) for tb in tiebreaks),
            ]
            for r in view.rows
        ]
        title = words.gettext("%(tournament)s: Standings", tournament=name)
        return Sheet(title, stage_words(t, words), columns, rows, words.code)
    if kind == "pairings":
        found = round_view(t, round)
        columns = [
            Column(words.gettext("Table"), numeric=True),
            Column(words.gettext("Player A")),
            Column(words.gettext("Player B")),
            Column(words.gettext("deals first (R18)")),
            Column(words.gettext("Result")),
        ]
        rows = [
            [
                line.table or "-",
                f"{line.players[0].id} {line.players[0].name}",
                f"{line.players[1].id} {line.players[1].name}" if line.players[1] else "-",
                line.first_dealer.name if line.first_dealer else "",
                result_words(t, line, words),
            ]
            for line in found.tables
        ]
        bye = words.gettext("bye")
        rows += [["-", f"{b.player.id} {b.player.name}", bye, "", ""] for b in found.byes]
        title = words.gettext(
            "%(tournament)s: Round %(n)s", tournament=name, n=words.number(found.number)
        )
        stage = round_stage_words(found.stage, words)
        return Sheet(title, stage, columns, rows, words.code)
    raise ValueError(f"kind: {kind!r} is not one of {', '.join(KINDS)}")


@dataclasses.dataclass(frozen=True)
class Document:
    """A pack's template, what fills it, and its language."""

    template: str
    context: Mapping[str, Any]
    lang: str = DEFAULT


def document(
    kind: str,
    t: Tournament,
    events: Callable[[], Sequence[EventLike]],
    round: int | None = None,
    *,
    base_url: str | None = None,
    codes: Mapping[str, str | Sequence[str]] | None = None,
    lang: str = DEFAULT,
) -> Document:
    """The pack of ``kind`` for tournament ``t``. ``round``: the round of a round kind
    (default: the current one); ``base_url``: where the public pages are (the table
    cards' QR code, ``<base>/t/<tid>``; without it the cards print no code); ``codes``:
    the table cards' report codes, match id -> the two seats' codes (T-code; none given: an
    empty marked place), each with the QR code of its ``<base>/r/<code>`` link; ``lang``:
    the pack's language (``de`` or ``en``)."""
    words = language(lang)
    if kind in ("standings", "pairings"):
        return _table_document(sheet(kind, t, events, round, words.code))
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
                "sections": [section_words(x, words) for x in tables.sections],
                "link": link,
                "qr": qr_svg(link) if link else None,
                "counts": COUNTS,
                "report_qr": report_qr,
                "report_base": (base_url or "").rstrip("/"),
            },
            words.code,
        )
    if kind == "crosstable":
        assert t.settings is not None
        return Document(
            "crosstable.html",
            {
                "tournament": t.settings.name,
                "tables": crosstables(t, events),
                "rounds": len(t.rounds),
                "self_mark": SELF,
            },
            words.code,
        )
    raise ValueError(f"kind: {kind!r} is not one of {', '.join(KINDS)}")


def render(found: Sheet | Document, footer: str) -> tuple[bytes, int]:
    """The pack as a PDF in its language, and its number of pages. ``footer`` (the
    tournament, its version and the seal) goes on every page, and on every card and
    scoresheet."""
    if isinstance(found, Sheet):
        found = _table_document(found)
    return pdf(html(found.template, {**found.context, "footer": footer}, found.lang))


def _table_document(found: Sheet) -> Document:
    context = {"title": found.title, "stage": found.stage, "columns": found.columns}
    return Document("pack.html", {**context, "rows": found.rows}, found.lang)


def _number(value: float | None, words: Language) -> str:
    """A tie-break's value the locale's way (``1,5`` in German), whole numbers bare."""
    if value is None:
        return ""
    return words.number(int(value) if float(value).is_integer() else round(value, 1))

"""The public tournament page (no login, for phones): ``GET /t/<tid>``.

Its standings come from the standings projection (:func:`read_document`, the same
document as ``GET /api/v1/tournaments/<tid>/standings``) and say when that is behind the
log; its pairings from :func:`round_view`, as the printed round sheet. The table is a
fragment of its own (``GET /t/<tid>/standings-fragment``) that the page fetches again on
each ``standings`` event of the live stream, or every 10 s when the stream is refused.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from datetime import UTC, date, datetime
from typing import Any

from flask import Blueprint, g, render_template, url_for
from flask_babel import format_date, format_datetime, format_decimal, gettext

from tournament.domain.matchview import MatchLine
from tournament.domain.roundview import RoundView, round_view
from tournament.domain.state import Tournament
from tournament.projections.documents import STANDINGS
from tournament.web.pages.words import FORMATS, TIEBREAKS
from tournament.web.projected import Reading, read_document
from tournament.web.services import services

pages = Blueprint("public", __name__)


@dataclasses.dataclass(frozen=True)
class Column:
    """A tie-break column of the standings."""

    key: str  # the row's field: tb_<name>
    name: str  # the tie-break's name in tournament.domain.tiebreaks
    short: str
    title: str
    explanation: str


@dataclasses.dataclass(frozen=True)
class Seat:
    """A line of "where do I sit": a player, their table and opponent (None: a bye)."""

    name: str
    table: int | None
    opponent: str | None


@pages.get("/t/<tid>")
def tournament_page(tid: str) -> Any:
    g.localized = True
    reading = read_document(tid, STANDINGS)
    if reading is None:
        return not_found(tid)
    service = services().tournaments
    with service.reading():
        t = service.state(tid)
        current = round_view(t) if t.current_round else None
    assert t.settings is not None
    return render_template(
        "public/tournament.html",
        tid=tid,
        name=t.settings.name,
        format_name=FORMATS.get(t.settings.format, t.settings.format),
        best_of=t.settings.best_of,
        held_on=_held_on(t.settings.date),
        stage=_stage(t, current),
        current=current,
        tables=_tables(current),
        seats=_seats(current),
        live_url=url_for("live.live_stream", tid=tid),
        fragment_url=url_for("public.standings_fragment", tid=tid),
        **_standings(reading),
    )


@pages.get("/t/<tid>/standings-fragment")
def standings_fragment(tid: str) -> Any:
    """The standings table alone, for the page to swap in when the table moved."""
    g.localized = True
    reading = read_document(tid, STANDINGS)
    if reading is None:
        return not_found(tid)
    return render_template("public/standings.html", tid=tid, **_standings(reading))


def not_found(tid: str) -> tuple[str, int]:
    return render_template("errors/404.html", tid=tid), 404


def _standings(reading: Reading) -> dict[str, Any]:
    body = reading.body or {}
    rows: list[dict[str, Any]] = list(body.get("rows") or [])
    keys = [k for k in (rows[0] if rows else {}) if k.startswith("tb_")]
    columns = [_column(key) for key in keys]
    return {
        "rows": rows,
        "columns": columns,
        "stale": reading.stale,
        "stale_since": _when(reading.stale_since),
        "version": reading.version,
        "number": _number,
    }


def _column(key: str) -> Column:
    name = key.removeprefix("tb_")
    short, title, explanation = TIEBREAKS.get(name, (name, name, ""))
    return Column(key, name, str(short), str(title), str(explanation))


def _number(value: Any) -> str:
    """A count or a tie-break value in the reader's locale (a Buchholz of 4,5 in German);
    nothing for a tie-break that decided nothing yet."""
    if value is None or value == "":
        return ""
    if isinstance(value, int | float):
        return str(format_decimal(value))
    return str(value)


def _when(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:  # SQLite gives UTC back without its zone
        moment = moment.replace(tzinfo=UTC)
    return str(format_datetime(moment, "short"))


def _held_on(text: str) -> str | None:
    try:
        return str(format_date(date.fromisoformat(text), "long")) if text else None
    except ValueError:
        return text


def _stage(t: Tournament, current: RoundView | None) -> str:
    """Where the tournament stands, in the reader's language."""
    if current is None:
        return str(gettext("Registration: no round drawn yet"))
    from tournament.domain.pairing import finished

    if finished(t):
        return str(gettext("Finished after round %(n)s", n=current.number))
    if current.complete:
        return str(gettext("Round %(n)s complete", n=current.number))
    decided = sum(1 for line in current.tables if line.status != "open")
    return str(
        gettext(
            "Round %(n)s in play: %(decided)s of %(all)s matches decided",
            n=current.number,
            decided=decided,
            all=len(current.tables),
        )
    )


def _tables(current: RoundView | None) -> list[MatchLine]:
    if current is None:
        return []
    return sorted((line for line in current.tables if line.table), key=lambda x: x.table)


def _seats(current: RoundView | None) -> list[Seat]:
    """Every player of the round by name: where they sit and against whom."""
    if current is None:
        return []
    seats = []
    for line in current.tables:
        a, b = line.players
        if b is None or not line.table:
            continue
        seats.append(Seat(a.name, line.table, b.name))
        seats.append(Seat(b.name, line.table, a.name))
    seats += [Seat(bye.player.name, None, None) for bye in current.byes]
    return sorted(seats, key=lambda s: (alphabetical(s.name), s.name))


def alphabetical(name: str) -> str:
    """The sort key of a name as a printed list has it: Öller beside Oberhofer, not
    after Zach (accents aside, case aside)."""
    plain = unicodedata.normalize("NFKD", name)
    return "".join(c for c in plain if not unicodedata.combining(c)).casefold()

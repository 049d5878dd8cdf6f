"""The standings a public page shows: now, from the standings projection (the document
of ``GET /api/v1/tournaments/<tid>/standings``), or at the end of a past round, folded
from the log by the same domain call as ``GET .../standings?round=N``
(:func:`standings_view`). No blueprint here: :mod:`.public` serves them."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import TYPE_CHECKING, Any

from flask import request
from flask_babel import gettext

from tournament.app.services import services
from tournament.domain.model.state import Tournament
from tournament.domain.views.standings_view import standings_view
from tournament.i18n.words import TIEBREAKS
from tournament.projections.documents import standings_body
from tournament.web.i18n import local_datetime
from tournament.web.pages.public_parts import number

if TYPE_CHECKING:
    from tournament.web.projected import Reading  # loaded on the first read (speed P10)


@dataclasses.dataclass(frozen=True)
class Column:
    """A tie-break column of the standings."""

    key: str  # the row's field: tb_<name>
    name: str  # the tie-break's name in tournament.domain.standings.tiebreaks
    short: str
    title: str
    explanation: str


@dataclasses.dataclass(frozen=True)
class AsOf:
    """Which table was asked for: ``round`` None is now; ``error`` a round the
    tournament does not have (the table shown is then now's)."""

    round: int | None
    error: str | None = None


def asked_round(t: Tournament) -> AsOf:
    """``?round=N`` of the request: a past round's end, else now (the last round drawn
    is now: its end is the table as it stands, T-round)."""
    text = request.args.get("round", "").strip()
    if not text:
        return AsOf(None)
    drawn = len(t.rounds)
    if not text.isdigit() or not 1 <= int(text) <= max(drawn, 1):
        error = gettext(
            "round: %(value)s is not a round of this tournament; it has rounds 1 to "
            "%(drawn)s (T-round)",
            value=text[:20],
            drawn=drawn,
        )
        return AsOf(None, str(error))
    wanted = int(text)
    # The slider's far end is now, whatever round that is by the time the live stream
    # asks again: ``now_at`` is the last round when the page was drawn.
    now_at = request.args.get("now_at", "")
    if now_at.isdigit() and wanted >= int(now_at):
        return AsOf(None)
    return AsOf(None if wanted >= drawn else wanted)


def now_table(reading: Reading) -> dict[str, Any]:
    """The standings now, from the projection (and whether it lags behind the log)."""
    return _table(
        list((reading.body or {}).get("rows") or []),
        stale=reading.stale,
        stale_since=_when(reading.stale_since),
        version=reading.version,
        as_of_round=None,
    )


def round_table(tid: str, t: Tournament, wanted: int) -> dict[str, Any]:
    """The standings at the end of round ``wanted``, as the API's ``?round=`` folds them
    (the caller holds ``service.reading()``)."""
    service = services().tournaments
    view = standings_view(t, lambda: service.events(tid), round=wanted)
    rows = standings_body(tid, view, t.version)["rows"]
    table = _table(rows, stale=False, stale_since=None, version=t.version, as_of_round=wanted)
    # What ``tournament standings --round N`` notes under its heading (docs/standings.md):
    # the round whose draw ended round N and the results of rounds 1..N entered or
    # corrected since, which this table does not count. ``state`` is the tournament as
    # the table shows it, so a player's page lists the results the table counts.
    table.update(as_of_drawn=view.drawn, as_of_changed=view.changed, state=view.state)
    return table


def _table(
    rows: list[dict[str, Any]],
    *,
    stale: bool,
    stale_since: str | None,
    version: int,
    as_of_round: int | None,
) -> dict[str, Any]:
    keys = [k for k in (rows[0] if rows else {}) if k.startswith("tb_")]
    return {
        "rows": rows,
        "columns": [_column(key) for key in keys],
        "stale": stale,
        "stale_since": stale_since,
        "version": version,
        "as_of_round": as_of_round,
        "as_of_drawn": None,
        "as_of_changed": 0,
        "number": number,
    }


def _column(key: str) -> Column:
    name = key.removeprefix("tb_")
    short, title, explanation = TIEBREAKS.get(name, (name, name, ""))
    return Column(key, name, str(short), str(title), str(explanation))


def _when(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return local_datetime(moment, "short")

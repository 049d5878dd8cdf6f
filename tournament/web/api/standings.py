"""``/api/v1/tournaments/{tid}/standings`` and ``/bracket``: public reads, the same tables
``tournament standings`` and ``tournament bracket`` print.

The standings are the service's hottest read (the projector and every phone in the hall
ask every few seconds): the body is made once per tournament version and query
(:func:`tournament.web.reads.versioned`), and a client that sends the ``ETag`` back in
``If-None-Match`` gets a 304. A table ``as_of`` an event or at the end of a ``round`` is
cached the same way: for a given version it never changes.

A format without a bracket (Swiss, round robin, lives; groups -> knockout before its
knockout is drawn) answers ``GET .../bracket`` with a 409 naming the rule (T-format) and
saying why, as ``tournament bracket`` does.
"""

from __future__ import annotations

from typing import Any, Literal

from flask import Response, request
from flask_openapi3.models.tag import Tag
from pydantic import ConfigDict, Field

from tournament.app.service import TournamentService
from tournament.app.services import services
from tournament.domain.commands.csvexport import flat_standings_csv, standings_csv
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.domain.views.bracket_sheet import current_sheet, no_bracket
from tournament.domain.views.standings_view import StandingsView, standings_view
from tournament.eventstore.sheet_seal import seal_for_sheet
from tournament.projections.documents import (
    BRACKET,
    STANDINGS,
    bracket_body,
    category_document,
    group_document,
    standings_body,
)
from tournament.web.api.blueprint import APIBlueprint
from tournament.web.api.models import Model, QueryModel, TournamentPath
from tournament.web.problems import Problem, documented, invalid
from tournament.web.projected_reads import read_document
from tournament.web.reads import JSON, versioned

api = APIBlueprint(
    "standings",
    __name__,
    url_prefix="/api/v1",
    abp_tags=[Tag(name="standings", description="standings and the knockout bracket (public)")],
)

CSV = "text/csv"
#: What GET .../standings answers in, the default first.
OFFERED = (JSON, CSV)


class StandingsQuery(QueryModel):
    """Which table: now (default), as of an event, or at the end of a round; the whole
    field, one group or one category."""

    model_config = ConfigDict(extra="forbid")

    as_of: int | None = Field(
        None,
        ge=1,
        le=2**31 - 1,
        description="as after event N of the tournament (the numbers of GET .../events and "
        "`tournament log`); not with round",
    )
    round: int | None = Field(
        None,
        ge=1,
        le=10_000,
        description="as at the end of round N: before round N+1 was drawn (now, if it is "
        "not drawn); not with as_of (T-round)",
    )
    group: int | None = Field(
        None, ge=1, le=10_000, description="only this group of a group format (T-format)"
    )
    category: str | None = Field(
        None, min_length=1, max_length=100, description="only this category, e.g. W (T-player)"
    )


class StandingsRow(Model):
    """One line of the standings: the columns of the CSV (docs/csv-formats.md), then
    ``tb_<name>`` per tie-break (and ``lives``, ``lives_bought``, ``final_points`` in the
    lives format)."""

    model_config = ConfigDict(extra="allow")

    rank: int | None = Field(
        description="null: a player who never played (no-show, never checked in), listed "
        "last unranked (docs/standings.md)"
    )
    player_id: int
    name: str
    club: str
    category: str
    status: str
    points: int
    decided_by: str | None = Field(
        description="what ranked this player below the one above: place, points or a "
        "tie-break's name; null for the first and for a shared rank"
    )


class TableInfo(Model):
    kind: Literal["now", "as_of", "round"]
    words: str = Field(description="what the table is: final, after round 3, as of event 120 ...")
    stage: str = Field(description="the printed heading's words: after round 2, during round 3 ...")
    event: int = Field(description="the event the table is as of")
    as_of: int | None
    round: int | None
    final: bool = Field(description="the final standings: the tournament is over")
    note: str = Field(description="for the end of a round: when, and results entered since")


class Freshness(Model):
    """How fresh the table is: the projection the workers keep, against the log."""

    version: int = Field(description="the tournament's version the table is at")
    log_version: int = Field(description="the tournament's version in the log now")
    stale: bool = Field(description="results were stored the table does not show yet")
    stale_since: str | None = Field(description="when the first result it lacks was stored")
    projected_at: str | None = Field(description="when the projection was written")
    source: Literal["projection", "log"] = Field(
        description="projection: the workers' read model; log: worked out from the log "
        "(as_of, round, or never projected yet)"
    )


class GroupTable(Model):
    group: int
    rows: list[StandingsRow]


class Standings(Model):
    """``tournament standings --json``, and what the table is."""

    # With Accept: text/csv, the CSV of ``tournament standings --csv`` instead.
    model_config = ConfigDict(  # type: ignore[typeddict-unknown-key]  # flask-openapi3's key
        openapi_extra={
            "description": "the standings: JSON, or with Accept: text/csv the CSV of "
            "`tournament standings --csv` (docs/csv-formats.md)",
            "content": {CSV: {"schema": {"type": "string"}}},
        }
    )

    tournament: str
    as_of: int = Field(description="the event the table is as of")
    category: str | None
    seal: str | None = Field(description="the seal of the log: tournament verify --seal '...'")
    rows: list[StandingsRow]
    version: int = Field(description="the tournament's version the table is at (the ETag's)")
    projection: Freshness
    table: TableInfo
    group: int | None
    groups: list[GroupTable] | None = Field(
        description="a group format: each group's own table (null: no groups, or one asked for)"
    )


@api.get(
    "/tournaments/<tid>/standings",
    summary="The standings: now, as of an event, at the end of a round; JSON or CSV (Accept)",
    description="JSON by default; `Accept: text/csv` gives the CSV of `tournament standings "
    "--csv` (docs/csv-formats.md), its last column the log's seal. ETag and 304 on "
    "If-None-Match. Public.",
    responses={200: Standings, 304: None, **documented([404, 406, 422])},
)
def get_standings(path: TournamentPath, query: StandingsQuery) -> Response:
    if query.as_of is not None and query.round is not None:
        # Refused with its rule: OpenAPI cannot say "not both" of two query parameters.
        raise invalid("query.round", "give round or as_of, not both", rule="T-round")
    kind = _negotiate()
    asked = (query.as_of, query.round, query.group, query.category)
    name = _document_name(query)
    reading = read_document(path.tid, name) if name is not None else None
    if reading is None or reading.body is None:
        return _standings_from_log(path.tid, query, kind)
    body_now = reading.body
    stale = reading.variant

    def build() -> dict[str, Any]:
        seal = _seal(path.tid)
        if kind == CSV:
            return {"csv": flat_standings_csv(body_now["rows"], seal=seal or "")}
        body = dict(body_now)
        body["seal"] = seal
        body["projection"] = reading.freshness()
        return body

    return versioned(
        reading.version,
        build,
        variant=("csv" if kind == CSV else "json") + stale,
        cache=cache_name(path.tid, asked, reading.stale),
        mimetype=kind,
        render=(lambda data: str(data["csv"])) if kind == CSV else None,
    )


def cache_name(tid: str, asked: tuple[Any, ...], stale: bool) -> tuple[Any, ...]:
    """What the bodies of a projected table are kept under (with the version)."""
    return ("standings", tid, *asked, stale)


def _document_name(query: StandingsQuery) -> str | None:
    """The projection's document for ``query`` (None: it keeps none; fold the log)."""
    if query.as_of is not None or query.round is not None:
        return None
    if query.group is not None:
        return None if query.category is not None else group_document(query.group)
    if query.category is not None:
        return category_document(query.category)
    return STANDINGS


def _standings_from_log(tid: str, query: StandingsQuery, kind: str) -> Response:
    """A table the projection does not keep (as of an event, at the end of a round, a
    group of one category; or a query it cannot answer, which is refused here)."""
    service = services().tournaments
    t = service.state(tid)
    version = t.version
    asked = (query.as_of, query.round, query.group, query.category)

    def build() -> dict[str, Any]:
        with service.reading():
            view = _view(service, tid, t, version, query, per_group=kind == JSON)
            body = standings_body(tid, view, version) if kind == JSON else {}
        seal = _seal(tid)  # after the table was read, before it is sent
        if kind == CSV:
            return {"csv": standings_csv(view.rows, seal=seal or "")}
        body["seal"] = seal
        body["projection"] = _from_log(version)
        return body

    return versioned(
        version,
        build,
        variant="csv" if kind == CSV else "json",
        cache=("standings-log", tid, *asked),
        mimetype=kind,
        render=(lambda data: str(data["csv"])) if kind == CSV else None,
    )


def _from_log(version: int) -> dict[str, Any]:
    return {
        "version": version,
        "log_version": version,
        "stale": False,
        "stale_since": None,
        "projected_at": None,
        "source": "log",
    }


def _negotiate() -> str:
    """JSON unless the client's ``Accept`` prefers CSV; 406 for an ``Accept`` that takes
    neither."""
    if not request.headers.get("Accept", "").strip():
        return JSON
    best = request.accept_mimetypes.best_match(OFFERED)
    if best is None:
        raise Problem(
            406,
            "Not acceptable",
            f"Accept: {request.headers['Accept']!r:.100} takes neither of what this gives: "
            f"{JSON} (the default) or {CSV}",
            field="Accept",
            offered=list(OFFERED),
        )
    return str(best)


def _state_at(service: TournamentService, tid: str, t: Tournament, version: int) -> Tournament:
    """The tournament at ``version``: the shared state ``t`` if no write has moved it on
    since (the caller holds ``service.reading()``), else folded afresh."""
    return t if t.version == version else service.state(tid, as_of=version)


def _view(
    service: TournamentService,
    tid: str,
    t: Tournament,
    version: int,
    query: StandingsQuery,
    *,
    per_group: bool,
) -> StandingsView:
    now = _state_at(service, tid, t, version)
    try:
        return standings_view(
            now,
            lambda: service.events(tid),
            as_of=query.as_of,
            round=query.round,
            group=query.group,
            category=query.category,
            per_group=per_group and query.group is None,
        )
    except DomainError as error:  # a query out of range: say which, and what there is
        raise invalid(f"query.{error.field}", error.message, rule=error.rule) from None


def _seal(tid: str) -> str | None:
    """The log's seal for the sheet, made after the table was read (outside
    ``reading()``: sealing writes to the store)."""
    sheet = seal_for_sheet(services().store, f"standings of {tid} sent")
    if sheet.error is not None:
        from tournament.web.ops import log_event

        log_event("not sealed", reason=f"{type(sheet.error).__name__}: {sheet.error}"[:200])
    return sheet.short


# --- the bracket ---------------------------------------------------------------------


class Player(Model):
    player_id: int
    name: str
    seed: int | None = Field(description="the player's seed in the draw")


class SlotResult(Model):
    winner: int
    bummerl: tuple[int, int] = Field(description="winner's Bummerl first (R20)")
    forfeit: bool
    words: str = Field(description="as printed: 2:0, 2:0 by forfeit ...")


class BracketSlot(Model):
    slot: str = Field(description="the bracket match's id: R1-3, W2-1, GF1 ...")
    section: str = Field(description="R (single elimination), 3P, W, L, GF")
    round: int
    heading: str = Field(description="Quarter-finals, Winners' final ...")
    sources: list[dict[str, Any]] = Field(
        description='where each player comes from: {"seed": 3}, {"winner_of": "R1-1"}, '
        '{"loser_of": "W1-2"}'
    )
    players: list[Player | None]
    sides: list[str] = Field(description="both sides as the sheet prints them")
    status: str = Field(description="waiting, ready, done, bye, void, walkover, not_needed")
    status_words: str = Field(description="as printed: CONFLICT, done (as R2-1b) ...")
    conflict: bool
    match: str | None = Field(description="the recorded match holding the slot, if drawn")
    winner: Player | None
    result: SlotResult | None
    winner_to: str | None
    loser_to: str | None


class BracketNote(Model):
    kind: Literal["conflict", "void"]
    slot: str
    match: str | None
    text: str


class BracketAnswer(Model):
    tournament: str
    version: int
    format: str
    kind: Literal["single", "double"]
    preview: bool = Field(description="nothing drawn yet: the draw today's seeding gives")
    note: str | None
    seeds: list[Player]
    slots: list[BracketSlot]
    champion: Player | None
    notes: list[BracketNote]
    seal: str | None
    projection: Freshness


@api.get(
    "/tournaments/<tid>/bracket",
    summary="The knockout bracket: every slot, where its players come from, its result",
    description="Before round 1 of a single or double elimination, the draw today's seeding "
    "gives (`preview`). A format without a bracket is 409 (T-format), saying why. Public.",
    responses={200: BracketAnswer, 304: None, **documented([404, 409])},
)
def get_bracket(path: TournamentPath) -> Response:
    reading = read_document(path.tid, BRACKET)
    if reading is None or reading.body is None:
        return _bracket_from_log(path.tid)
    body_now = reading.body

    def build() -> dict[str, Any]:
        body = dict(body_now)
        body["seal"] = seal_for_sheet(services().store, f"bracket of {path.tid} sent").short
        body["projection"] = reading.freshness()
        return body

    stale = reading.variant
    return versioned(
        reading.version, build, variant="bracket" + stale, cache=("bracket", path.tid, stale)
    )


def _bracket_from_log(tid: str) -> Response:
    """No bracket projected: the format has none (409, saying why), or the tournament is
    not projected yet."""
    service = services().tournaments
    t = service.state(tid)
    version = t.version

    def build() -> dict[str, Any]:
        with service.reading():
            now = _state_at(service, tid, t, version)
            sheet = current_sheet(now)
            if sheet is None:
                raise Problem(
                    409,
                    "No bracket",
                    f"bracket: {no_bracket(now)} (T-format)",
                    field="format",
                    rule="T-format",
                )
            body = bracket_body(tid, now, sheet)
        body["seal"] = seal_for_sheet(services().store, f"bracket of {tid} sent").short
        body["projection"] = _from_log(version)
        return body

    return versioned(version, build, variant="bracket", cache=("bracket-log", tid))

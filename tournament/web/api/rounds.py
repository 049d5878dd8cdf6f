"""``/api/v1/tournaments/<tid>/rounds``: the rounds, drawing the next one, one round's
pairings by table, cancelling the latest round -- ``tournament round start``, ``round
show`` and ``round cancel``.

A manual draw (``pairings``) that breaks a format rule is refused with the rules it
breaks unless the body says ``"confirm": true``, as the command line asks before storing
it (T-override); ``dry_run=true`` answers the draw it would make, with those warnings,
and stores nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Annotated, Any

from flask import Response, jsonify
from flask_openapi3.models.tag import Tag
from pydantic import ConfigDict, Field

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain import commands as c
from tournament.domain.commands.registration import player
from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.model.state import Tournament
from tournament.domain.model.text import NAME_LIMIT, plain_text
from tournament.domain.views.roundview import (
    DrawRecord,
    draw_record,
    drawn_round,
    round_summaries,
    round_view,
)
from tournament.eventstore.api import NewEvent
from tournament.web.api.blueprint import APIBlueprint
from tournament.web.api.matches import MatchLineOut, PlayerOut
from tournament.web.api.models import Model, RoundPath, Stored, TournamentPath, WriteQuery
from tournament.web.auth import caller, requires
from tournament.web.problems import Problem, documented, invalid
from tournament.web.reads import versioned
from tournament.web.writes import decide_only, event_summary, write

api = APIBlueprint(
    "rounds",
    __name__,
    url_prefix="/api/v1",
    abp_tags=[Tag(name="rounds", description="draw rounds, their pairings by table")],
)

StartNumber = Annotated[int, Field(ge=1, le=1_000_000)]


#: ``tables``' keys: start numbers written as JSON object keys (attack F14).
TABLE_KEYS = "^([1-9][0-9]{0,5}|1000000)$"


class DrawRequest(Model):
    """What ``tournament round start`` takes; ``{}`` draws as the format says."""

    # byes go with pairings (a manual draw), which the schema says (attack F14).
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "anyOf": [
                {"properties": {"byes": {"maxItems": 0}}},
                {"required": ["pairings"], "properties": {"pairings": {"type": "array"}}},
            ]
        },
    )

    pairings: list[tuple[StartNumber, StartNumber]] | None = Field(
        None,
        max_length=50_000,
        description="manual pairings by start number, [[1, 5], [2, 6]]; the first of each "
        "sits as player A. They replace the format's draw; rules they break are warnings "
        "(T-override)",
    )
    byes: list[StartNumber] = Field(
        default_factory=list, max_length=100_000, description="with pairings: who has a bye"
    )
    tables: dict[StartNumber, Annotated[int, Field(ge=1, le=100_000)]] = Field(
        default_factory=dict,
        description='players fixed to tables, start number -> table: {"12": 1} (e.g. a '
        "wheelchair user at table 1)",
    )
    seed: int | None = Field(
        None, ge=0, le=2**63 - 1, description="this draw's seed [default: from the tournament's]"
    )
    confirm: bool = Field(
        False,
        description="store a manual draw that breaks format rules (T-override); without it "
        "such a draw is refused with its warnings and nothing is stored",
    )


class CancelRequest(Model):
    model_config = ConfigDict(extra="forbid")

    why: str = Field(min_length=1, max_length=500, description="why the round is drawn again")
    by: str | None = Field(
        None, max_length=NAME_LIMIT, description="who decides (organiser, referee)"
    )


class RoundSummaryOut(Model):
    number: int
    stage: str
    seed: int = Field(description="the draw's seed: the draw can be re-run from it")
    manual: bool = Field(description="the organiser's own pairings (T-override)")
    drawn_at: datetime | None = Field(description="when the draw that stands was stored")
    drawn_by: str | None
    matches: int
    byes: int
    complete: bool = Field(description="every match of the round is settled")
    open: int = Field(description="matches still open")


class RoundList(Model):
    current_round: int
    rounds: list[RoundSummaryOut]


class ByeOut(Model):
    player: PlayerOut
    slot: str | None = Field(description="the bracket match the bye passes")


class IdleOut(Model):
    player: PlayerOut
    why: str


class RoundOut(Model):
    """A round as ``tournament round show`` gives it."""

    number: int
    stage: str = Field(description="the format's stage; a lives final names its players")
    sections: list[str] = Field(description="bracket rounds it plays: Quarter-finals ...")
    seed: int
    manual: bool = Field(description="the organiser's own pairings (T-override)")
    warnings: list[str] = Field(description="format rules the draw breaks")
    tables: list[MatchLineOut] = Field(description="by table, with who deals first (R18)")
    byes: list[ByeOut]
    idle: list[IdleOut] = Field(description="players the round gives no game, and why")
    groups: dict[int, int] = Field(description="start number -> group, in a group round")
    lives: dict[int, int] = Field(description="lives format: start number -> lives at the draw")
    points: dict[int, int] = Field(
        description="Swiss from round 2: start number -> match points the draw paired by"
    )
    notices: list[str] = Field(description="what the organiser should know about the draw")
    complete: bool
    open: int


class DrawnTableOut(Model):
    match_id: str
    table: int = Field(description="0: a walkover the draw scored (a withdrawn player)")
    players: tuple[int, int] = Field(description="start numbers of player A and B")
    first_dealer: int | None = Field(description="who deals first (R18); null: as entered")
    slot: str | None


class DrawOut(Model):
    """A draw as its events record it: the same answer for a retry."""

    number: int
    seed: int
    stage: str
    manual: bool
    warnings: list[str] = Field(description="format rules the draw breaks (T-override)")
    tables: list[DrawnTableOut]
    byes: list[int]
    bye_slots: list[str]
    idle: list[int]


class DrawStored(Stored):
    round: DrawOut


class DrawPreview(Model):
    dry_run: bool = True
    round: DrawOut
    confirm_needed: bool = Field(description="a manual draw breaking rules: send confirm: true")
    version: int = Field(description="the tournament's version, unchanged")


class CancelStored(Stored):
    round: int
    why: str
    by: str | None


def _draw_json(record: DrawRecord) -> dict[str, Any]:
    return DrawOut.model_validate(record, from_attributes=True).model_dump(mode="json")


@api.get(
    "/tournaments/<tid>/rounds",
    summary="Every round: stage, when it was drawn, matches, byes, how many are open",
    responses={200: RoundList, 304: None, **documented([404])},
)
def list_rounds(path: TournamentPath) -> Response:
    service = services().tournaments
    t = service.state(path.tid)

    def build() -> dict[str, Any]:
        rounds = [
            RoundSummaryOut.model_validate(x, from_attributes=True).model_dump(mode="json")
            for x in round_summaries(t, service.events(path.tid))
        ]
        return {"current_round": t.current_round, "rounds": rounds}

    return versioned(t.version, build, cache=(services().url, "rounds", path.tid))


@api.get(
    "/tournaments/<tid>/rounds/<n>",
    summary="A round's pairings by table, who deals first, byes (as `round show`)",
    responses={200: RoundOut, 304: None, **documented([404, 422])},
)
def get_round(path: RoundPath) -> Response:
    t = services().tournaments.state(path.tid)
    drawn_round(t, path.n)  # a round not drawn: 404 naming those that are

    def build() -> dict[str, Any]:
        view = round_view(t, path.n)
        return RoundOut.model_validate(view, from_attributes=True).model_dump(mode="json")

    return versioned(t.version, build, cache=(services().url, "round", path.tid, path.n))


@api.post(
    "/tournaments/<tid>/rounds",
    summary="Draw the next round (or the organiser's own pairings); dry_run previews it",
    responses={
        201: DrawStored,
        200: DrawPreview,
        **documented([404, 409, 412, 422]),
    },
)
@requires(Role.ORGANISER)
def draw_round(path: TournamentPath, query: WriteQuery, body: DrawRequest) -> Response:
    """Refused while any match of any round is open (409, T-round, naming them)."""
    if body.byes and body.pairings is None:
        raise invalid(
            "body.byes", "byes go with pairings (a manual draw): the format's draw gives its own"
        )

    def draw(t: Tournament) -> list[NewEvent]:
        for pid in body.tables:
            player(t, pid, "tables")
        return c.start_round(
            t,
            seed=body.seed,
            pairings=body.pairings,
            byes=body.byes,
            fixed_tables=body.tables,
            actor=caller().actor,
        )

    def checked(t: Tournament) -> list[NewEvent]:
        events = _named_players(draw)(t)
        if body.pairings is not None and not body.confirm:
            _confirm(events)
        return events

    def answer(events: Sequence[Any]) -> dict[str, Any]:
        return {
            "round": _draw_json(draw_record(events)),
            "version": events[-1].version,
            "events": event_summary(events),
        }

    if query.dry_run:
        decided = decide_only(path.tid, _named_players(draw), answer)
        if isinstance(decided, Response):
            return decided  # the key was stored by an earlier request: its answer
        events, now = decided
        record = draw_record(events)
        return jsonify(
            {
                "dry_run": True,
                "round": _draw_json(record),
                "confirm_needed": body.pairings is not None and bool(record.warnings),
                "version": now,
            }
        )

    reply = write(path.tid, checked, answer, status=201)
    number = reply.get_json()["round"]["number"]
    reply.headers["Location"] = f"/api/v1/tournaments/{path.tid}/rounds/{number}"
    return reply


def _named_players(
    command: Callable[[Tournament], list[NewEvent]],
) -> Callable[[Tournament], list[NewEvent]]:
    """A start number of the body that names nobody is the request's fault (422), not a
    missing resource (404 is for the URL)."""

    def run(t: Tournament) -> list[NewEvent]:
        try:
            return command(t)
        except NotFoundError as error:
            raise DomainError(
                error.field, error.rule, error.message, code=error.code, params=error.params
            ) from None

    return run


def _confirm(events: Sequence[NewEvent]) -> None:
    """A manual draw that breaks format rules is stored only when the body confirms it
    (the command line asks first: trial 1, finding 14)."""
    payload = events[0].payload
    warnings = list(payload.get("warnings") or [])
    if not warnings:
        return
    raise Problem(
        422,
        "Confirm the manual draw",
        f"this manual draw of round {payload['round']} breaks format rules (T-override): "
        f'{"; ".join(warnings)}. Send "confirm": true to store it anyway; nothing stored',
        kind="confirmation-required",
        field="body.confirm",
        rule="T-override",
        warnings=warnings,
        errors=[{"field": "body.confirm", "rule": "T-override", "message": w} for w in warnings],
    )


@api.post(
    "/tournaments/<tid>/rounds/<n>/cancel",
    summary="Cancel the latest round before anything is played in it, to draw it again",
    responses={200: CancelStored, **documented([404, 409, 412, 422])},
)
@requires(Role.ORGANISER)
def cancel_round(path: RoundPath, query: WriteQuery, body: CancelRequest) -> Response:
    why = plain_text(body.why, "body.why", "T-round", limit=500, what="a reason")
    by = plain_text(body.by, "body.by", "T-round") if body.by is not None else None

    def cancel(t: Tournament) -> list[NewEvent]:
        r = drawn_round(t, path.n)
        if r.number != t.current_round:
            raise ConflictError(
                "round",
                "T-round",
                f"only the latest round ({t.current_round}) can be cancelled, not round {r.number}",
            )
        return c.cancel_round(t, why=why, by=by or None, actor=caller().actor)

    def answer(events: Sequence[Any]) -> dict[str, Any]:
        return {
            **_cancelled(events[0].payload),
            "version": events[-1].version,
            "events": event_summary(events),
        }

    if query.dry_run:
        decided = decide_only(path.tid, cancel, answer)
        if isinstance(decided, Response):
            return decided  # the key was stored by an earlier request: its answer
        events, now = decided
        return jsonify(
            {
                "dry_run": True,
                **_cancelled(events[0].payload),
                "version": now,
                "events": [{"type": e.type, "payload": e.payload} for e in events],
            }
        )

    return write(path.tid, cancel, answer)


def _cancelled(payload: Mapping[str, Any]) -> dict[str, Any]:
    return {"round": payload["round"], "why": payload["why"], "by": payload.get("by")}

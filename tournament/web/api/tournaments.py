"""``/api/v1/tournaments``: list, create, read one (settings, progress, version)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from flask import Response
from flask_openapi3.models.tag import Tag
from pydantic import ConfigDict, Field

from engine import VARIANTS
from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain.model.settings import (
    FIRST_DEALER_RULES,
    FORMATS,
    TIEBREAKS,
    parse_date,
)
from tournament.domain.model.state import Tournament
from tournament.domain.views.overview import progress, slug
from tournament.web.api.blueprint import APIBlueprint
from tournament.web.api.models import Model, Stored, TournamentPath
from tournament.web.auth import ACCOUNT, caller, requires
from tournament.web.problems import documented
from tournament.web.reads import versioned
from tournament.web.writes import (
    event_summary,
    idempotency_key,
    metadata,
    refuse_other_request,
    respond,
)

api = APIBlueprint(
    "tournaments",
    __name__,
    url_prefix="/api/v1",
    abp_tags=[Tag(name="tournaments", description="create tournaments, read their settings")],
)

# The domain's lists as the schema's enums, so /openapi.json lists every value (for the
# type checker they are plain text: the lists are tuples built at run time).
if TYPE_CHECKING:
    Format = str
    FirstDealer = str
    Tiebreak = str
    Variant = str
else:
    Format = Literal[FORMATS]
    FirstDealer = Literal[FIRST_DEALER_RULES]
    Tiebreak = Literal[TIEBREAKS]
    Variant = Literal[tuple(VARIANTS)]


class TournamentCreate(Model):
    """Every setting ``tournament create`` takes (docs/tournaments.md)."""

    # Strict: 'true' is not a seed, 3.0 is not best of 3 (a client's bug shows at once).
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=100, examples=["Herbstturnier"])
    id: str | None = Field(
        None,
        min_length=1,
        max_length=120,
        pattern=r"^[a-z0-9_-]+$",
        description="the tournament's id [default: from the name and the date]",
    )
    date: str = Field("", max_length=20, description="2026-11-27 or 27.11.2026; stored ISO")
    venue: str = Field("", max_length=200)
    format: Format = "swiss"
    best_of: Literal[1, 3, 5, 7] = Field(3, description="Bummerl per match (R20)")
    variants: list[Variant] = Field(
        default_factory=list, description="rules variants (docs/rules.md)"
    )
    schneiderbummerl: bool = Field(True, description="a Bummerl won to 0 counts 2 (R19)")
    tiebreaks: list[Tiebreak] | None = Field(None, description="in order; default per format")
    first_dealer: FirstDealer | None = Field(None, description="R18; default per format")
    forfeit_score: list[int] | None = Field(
        None, min_length=2, max_length=2, description="Bummerl (winner, loser) of a forfeit: [2, 0]"
    )
    bye_score: list[int] | None = Field(
        None, min_length=2, max_length=2, description="Bummerl (winner, loser) of a bye: [2, 0]"
    )
    withdrawal: Literal["forfeit", "drop"] = "forfeit"
    late_entry_score: Literal["zero", "bye"] = "zero"
    seed: int | None = Field(None, ge=0, le=2**63 - 1, description="master seed of every draw")
    options: dict[str, int | bool] = Field(
        default_factory=dict, description='format options, e.g. {"rounds": 5}'
    )


class TournamentSummary(Model):
    id: str
    name: str
    date: str
    format: str
    players: int
    rounds_played: int
    status: str
    version: int


class TournamentList(Model):
    tournaments: list[TournamentSummary]


class TournamentDetail(Model):
    id: str
    settings: dict[str, Any]
    progress: dict[str, Any]
    version: int


def detail(t: Tournament) -> dict[str, Any]:
    assert t.settings is not None
    return {
        "id": t.id,
        "settings": t.settings.to_payload(),
        "progress": progress(t),
        "version": t.version,
    }


@api.get(
    "/tournaments",
    summary="Every tournament in the store",
    responses={200: TournamentList},
)
def list_tournaments() -> dict[str, Any]:
    found = services().tournaments
    rows = []
    for tid in found.tournament_ids():
        rows.append(_summary(found, tid))
    return {"tournaments": rows}


def _summary(found: Any, tid: str) -> dict[str, Any]:
    t = found.state(tid)
    with found.reading():  # no thread folds into the shared state meanwhile
        assert t.settings is not None
        p = progress(t)
        return {
            "id": tid,
            "name": t.settings.name,
            "date": t.settings.date,
            "format": t.settings.format,
            "players": p["players"],
            "rounds_played": p["rounds_played"],
            "status": p["status"],
            "version": t.version,
        }


@api.post(
    "/tournaments",
    summary="Create a tournament; its creator becomes its owner",
    responses={201: Stored, **documented([401, 409, 422])},
)
@requires(ACCOUNT)
def create_tournament(body: TournamentCreate) -> Response:
    settings: dict[str, Any] = body.model_dump(exclude={"id"}, exclude_none=True)
    settings["seed"] = body.seed
    date = parse_date(body.date)
    settings["date"] = date
    tid = body.id or slug(body.name, date)
    key = idempotency_key()
    store = services().store
    if key is not None and (used := store.read_key(key)) is not None:
        refuse_other_request(used.events)
        return _created(tid, used.events, replayed=True)
    who = caller()
    stored = services().tournaments.create(
        tid, settings, actor=who.actor, metadata=metadata(), idempotency_key=key
    )
    if who.account_id is not None:
        # An admin too (api.md: "the creator becomes its owner"): it acts as owner anyway,
        # but `accounts list` then names who made the tournament, and the role outlives
        # the admin flag (operator trial of main, 6c).
        services().accounts.grant(who.actor, tid, Role.OWNER, by=who.actor)
    return _created(tid, stored)


def _created(tid: str, stored: list[Any], replayed: bool = False) -> Response:
    reply = respond(
        {"id": tid, "version": stored[-1].version, "events": event_summary(stored)},
        stored,
        status=201,
        replayed=replayed,
    )
    reply.headers["Location"] = f"/api/v1/tournaments/{tid}"
    return reply


@api.get(
    "/tournaments/<tid>",
    summary="A tournament's settings, progress and version (ETag)",
    responses={200: TournamentDetail, 304: None, **documented([404])},
)
def get_tournament(path: TournamentPath) -> Response:
    t = services().tournaments.state(path.tid)
    return versioned(t.version, lambda: detail(t))

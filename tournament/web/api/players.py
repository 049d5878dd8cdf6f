"""``/api/v1/tournaments/{tid}/players`` and ``/seeding``: what ``tournament players``
does on the command line -- register (a late entry too), import a CSV list, correct,
check in and out, withdraw, buy back a life, seed -- with the same domain commands and
the same refusals.

Reads are public (the players of a tournament are on its pairing sheets). Writes need
the organiser role. A write that finds nothing to do -- a check-in of a player checked in
already, a check-out of one who is not, a correction to what is recorded -- answers 200
with ``"changed": false`` and no events, as the command line says "already ...: nothing
stored" and exits 0: a check-in desk that taps twice is not in error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flask import Response, json
from flask_openapi3.models.tag import Tag

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain import commands as c
from tournament.domain.commands.registration import player
from tournament.domain.commands.startnumbers import registered_ids, seeding_request
from tournament.domain.model import events as ev
from tournament.domain.model.state import Tournament
from tournament.domain.views.roster import player_detail, players_json
from tournament.eventstore.api import NewEvent, StoredEvent
from tournament.web.api.blueprint import APIBlueprint
from tournament.web.api.models import PlayerPath, TournamentPath, WriteQuery
from tournament.web.api.player_import import IMPORT_BODY, csv_import
from tournament.web.api.player_models import (
    Imported,
    ImportQuery,
    PlayerCreate,
    PlayerDetail,
    PlayerEdit,
    PlayerList,
    Registered,
    Seeded,
    SeedingRequest,
    Withdrawal,
    Written,
)
from tournament.web.auth import caller, requires
from tournament.web.body_caps import CSV, accepts_body
from tournament.web.problems import documented, invalid
from tournament.web.reads import versioned
from tournament.web.writes import decide_only, etag, event_summary, write

api = APIBlueprint(
    "players",
    __name__,
    url_prefix="/api/v1",
    abp_tags=[
        Tag(name="players", description="register, import, check in, seed and withdraw players")
    ],
)

WRITE_PROBLEMS = documented([404, 409, 412, 422])


@api.get(
    "/tournaments/<tid>/players",
    summary="Every registered player, by start number",
    responses={200: PlayerList, 304: None, **documented([404])},
)
def list_players(path: TournamentPath) -> Response:
    t = services().tournaments.state(path.tid)
    return versioned(
        t.version,
        lambda: {"players": players_json(t), "version": t.version},
        cache=("players", path.tid),
    )


@api.post(
    "/tournaments/<tid>/players",
    summary="Register a player under the next start number (a late entry after round 1)",
    responses={201: Registered, **WRITE_PROBLEMS},
)
@requires(Role.ORGANISER)
def register_player(path: TournamentPath, body: PlayerCreate) -> Response:
    """As ``tournament players add``: after round 1 is drawn the player is a late entry
    (Swiss only, T-late-entry), checked in at once when check-in is in use."""

    def command(t: Tournament) -> list[NewEvent]:
        return c.enter_player(
            t,
            body.name,
            club=body.club,
            category=body.category,
            rating=body.rating,
            missed_rounds_score=body.missed_rounds_score,
            actor=caller().actor,
        )

    reply = write(path.tid, command, registered, status=201)
    pid = json.loads(reply.get_data())["player"]["player_id"]
    reply.headers["Location"] = f"/api/v1/tournaments/{path.tid}/players/{pid}"
    return reply


def registered(events: list[StoredEvent]) -> dict[str, Any]:
    """The player as the ``player.registered`` event stored them (checked in when the
    registration checked them in: a late entry while check-in is in use)."""
    p = events[0].payload
    shown = {
        "player_id": p["player_id"],
        "name": p["name"],
        "club": p.get("club", ""),
        "category": p.get("category", ""),
        "rating": p.get("rating"),
        "late": bool(p.get("late")),
        "missed_rounds": p.get("missed_rounds", 0),
        "missed_rounds_score": p.get("missed_rounds_score"),
        "checked_in": any(e.type == ev.PLAYER_CHECKED_IN for e in events),
    }
    return stored(events, player=shown)


@api.post(
    "/tournaments/<tid>/players/import",
    summary="Register every player of a CSV list; all rows or none",
    responses={201: Imported, **documented([404, 409, 412, 415, 422])},
    openapi_extensions={"requestBody": IMPORT_BODY},
)
@requires(Role.ORGANISER)
@accepts_body(CSV)
def import_players(path: TournamentPath, query: ImportQuery) -> Response:
    """As ``tournament players import`` (docs/csv-formats.md): a bad file is 422 with
    ``errors`` naming each bad row (its line in the file), its field and rule, and stores
    nothing. The same list imported again (what it says, whatever its bytes) is 409, as
    the command line refuses it -- unless it is a retry with the first request's
    ``Idempotency-Key``, which gets the first answer."""
    return csv_import(path.tid, query.only_new)


@api.get(
    "/tournaments/<tid>/players/<int:pid>",
    summary="One player: details, every round (as `players show`), the standings line",
    responses={200: PlayerDetail, 304: None, **documented([404])},
)
def get_player(path: PlayerPath) -> Response:
    t = services().tournaments.state(path.tid)
    player(t, path.pid)  # a 404 before any ETag is compared
    return versioned(
        t.version, lambda: player_detail(t, path.pid), cache=("player", path.tid, path.pid)
    )


@api.patch(
    "/tournaments/<tid>/players/<int:pid>",
    summary="Correct a player's name, club, category or rating",
    responses={200: Written, **WRITE_PROBLEMS},
)
@requires(Role.ORGANISER)
def edit_player(path: PlayerPath, body: PlayerEdit) -> Response:
    """As ``tournament players edit``: name, club and category at any time, the rating
    before round 1 (T-seeding); a seeding by rating follows the new rating. Only the
    fields sent change."""
    changes = {k: getattr(body, k) for k in sorted(body.model_fields_set)}
    for name in ("name", "club", "category"):
        if name in changes and changes[name] is None:
            raise invalid(f"body.{name}", "text, not null ('' for none)")
    if not changes:
        raise invalid("body", "say what to correct: name, club, category or rating")

    def answer(events: list[StoredEvent]) -> dict[str, Any]:
        if not events:
            return unchanged(path.pid, "has these details already")
        edit = events[0].payload
        reseeded = [e.payload["order"] for e in events if e.type == ev.PLAYERS_SEEDED]
        return stored(
            events,
            player_id=path.pid,
            changes=edit["changes"],
            previous=edit["previous"],
            seeding=reseeded[0] if reseeded else None,
        )

    return act(path, lambda t: c.edit_player(t, path.pid, changes, actor=caller().actor), answer)


@api.post(
    "/tournaments/<tid>/players/<int:pid>/check-in",
    summary="Check a player in (already checked in: 200, changed false)",
    responses={200: Written, **WRITE_PROBLEMS},
)
@requires(Role.ORGANISER)
def check_in(path: PlayerPath) -> Response:
    """Once anybody is checked in, only checked-in players are drawn. A player checked in
    already is answered 200 with ``changed: false`` and nothing stored; a withdrawn
    player is 409 (T-player)."""

    def answer(events: list[StoredEvent]) -> dict[str, Any]:
        if not events:
            return unchanged(path.pid, "is checked in already", checked_in=True)
        return stored(events, player_id=path.pid, checked_in=True)

    return act(path, lambda t: c.check_in(t, path.pid, actor=caller().actor), answer)


@api.post(
    "/tournaments/<tid>/players/<int:pid>/check-out",
    summary="Undo a check-in before the player is drawn (not checked in: 200, changed false)",
    responses={200: Written, **WRITE_PROBLEMS},
)
@requires(Role.ORGANISER)
def check_out(path: PlayerPath) -> Response:
    """A checked-out player is not drawn. Once drawn, withdraw the player instead (409,
    T-player)."""

    def answer(events: list[StoredEvent]) -> dict[str, Any]:
        if not events:
            return unchanged(path.pid, "is not checked in: nothing to undo", checked_in=False)
        return stored(events, player_id=path.pid, checked_in=False)

    return act(path, lambda t: c.check_out(t, path.pid, actor=caller().actor), answer)


@api.post(
    "/tournaments/<tid>/players/<int:pid>/withdraw",
    summary="Withdraw a player; open matches are forfeited or dropped",
    responses={200: Written, **WRITE_PROBLEMS},
)
@requires(Role.ORGANISER)
def withdraw(path: PlayerPath, body: Withdrawal) -> Response:
    """As ``tournament players withdraw`` (T-withdrawal): the answer lists the matches
    forfeited to the opponents and those dropped."""

    def answer(events: list[StoredEvent]) -> dict[str, Any]:
        first = events[0].payload
        return stored(
            events,
            player_id=path.pid,
            policy=first["policy"],
            reason=first.get("reason", ""),
            forfeited=[e.payload["match_id"] for e in events if e.type == ev.MATCH_FORFEITED],
            dropped=first.get("dropped", []),
        )

    def command(t: Tournament) -> list[NewEvent]:
        return c.withdraw(t, path.pid, policy=body.policy, reason=body.reason, actor=caller().actor)

    return act(path, command, answer)


@api.post(
    "/tournaments/<tid>/players/<int:pid>/buy-life",
    summary="Preisschnapsen: buy back a life for a player who has none left",
    responses={200: Written, **WRITE_PROBLEMS},
)
@requires(Role.ORGANISER)
def buy_life(path: PlayerPath) -> Response:
    """Between rounds, within the format's buy_backs and buy_back_until, never into the
    final (409 naming why not, T-lives). ``GET .../players`` says who may now."""

    def answer(events: list[StoredEvent]) -> dict[str, Any]:
        return stored(events, player_id=path.pid, before_round=events[0].payload["before_round"])

    return act(path, lambda t: c.buy_life(t, path.pid, actor=caller().actor), answer)


@api.post(
    "/tournaments/<tid>/seeding",
    summary="Seed the players by rating, by hand or by draw (before round 1)",
    responses={200: Seeded, **WRITE_PROBLEMS},
)
@requires(Role.ORGANISER)
def seed_players(path: TournamentPath, query: WriteQuery, body: SeedingRequest) -> Response:
    """As ``tournament players seed`` (T-seeding). ``dry_run=true`` answers the order the
    seeding would store (a draw's too, with its seed) and stores nothing."""
    seeding_request(body.method, body.order is not None)

    def command(t: Tournament) -> list[NewEvent]:
        order = None if body.order is None else registered_ids(body.order, t.players, "order")
        return c.seed_players(t, body.method, order, seed=body.seed, actor=caller().actor)

    def answer(events: Sequence[StoredEvent | NewEvent]) -> dict[str, Any]:
        p = events[0].payload
        out = {"method": p["method"], "order": p["order"]}
        return {**out, "seed": p["seed"]} if "seed" in p else out

    if query.dry_run:
        return preview(path.tid, command, answer)
    return write(path.tid, command, lambda events: stored(events, **answer(events)))


def act(
    path: PlayerPath,
    command: Callable[[Tournament], list[NewEvent]],
    answer: Callable[[list[StoredEvent]], dict[str, Any]],
) -> Response:
    """:func:`write` for one player; an answer with nothing stored still carries the
    tournament's version (as ETag and ``version``)."""
    seen: list[int] = []

    def run(t: Tournament) -> list[NewEvent]:
        seen[:] = [t.version]
        return command(t)

    def respond(events: list[StoredEvent]) -> dict[str, Any]:
        body = answer(events)
        if not events:
            body["version"] = seen[0]
        return body

    reply = write(path.tid, run, respond)
    if "ETag" not in reply.headers and seen:
        reply.headers["ETag"] = etag(seen[0])
    return reply


def stored(events: Sequence[StoredEvent], **fields: Any) -> dict[str, Any]:
    """An answer made of the events a write stored: ``fields``, the version after them,
    the events; ``changed`` true."""
    return {
        **fields,
        "changed": True,
        "version": events[-1].version,
        "events": event_summary(events),
    }


def unchanged(pid: int, why: str, **fields: Any) -> dict[str, Any]:
    """The answer of a write that had nothing to store (the version is added by
    :func:`act`)."""
    return {
        "player_id": pid,
        **fields,
        "changed": False,
        "detail": f"player {pid} {why}: nothing stored",
        "events": [],
    }


def preview(
    tid: str,
    command: Callable[[Tournament], list[NewEvent]],
    answer: Callable[[Sequence[StoredEvent | NewEvent]], dict[str, Any]],
) -> Response:
    """``dry_run=true``: what ``command`` would store (:func:`decide_only`), answered."""
    decided = decide_only(tid, command, lambda events: stored(events, **answer(events)))
    if isinstance(decided, Response):
        return decided
    events, version = decided
    body = {
        **answer(events),
        "dry_run": True,
        "changed": False,
        "version": version,
        "events": [{"type": e.type, "payload": dict(e.payload)} for e in events],
    }
    reply = Response(json.dumps(body, ensure_ascii=False), mimetype="application/json")
    reply.headers["ETag"] = etag(version)
    return reply

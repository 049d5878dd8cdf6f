"""A tournament's history: its events (``GET .../events``), its backup (``GET
.../export``) and restoring one (``POST /import``).

The events are numbered as ``tournament log`` numbers them: event N is the N-th event of
the tournament (its stream's version), the number ``?as_of=N`` of the standings takes.
``after`` pages by that number: ``?after=100&limit=100`` is events 101 to 200, and the
answer's ``next`` is the link to the page after it (null once the page reaches the
newest event; ask again with the last number to see what came since). The history
names the accounts that did each thing, so it needs the organiser's role, as the backup
does.

A backup is the tournament's events as JSON Lines (``schnapsen-streams/1``, the
event store's backup format for some streams: :mod:`tournament.eventstore.stream_backup`)
with their hashes: its own stream and its live hands'. ``POST /import`` (an admin)
restores one into this store beside its other tournaments: every line is read strictly
and every hash chain verified before anything is stored, a tournament that exists
already is 409, and an error names the line. The importing account owns the restored
tournament. A whole store's backup (``tournament export``) is restored with ``tournament
import`` into an empty store instead.
"""

from __future__ import annotations

import dataclasses
import io
from typing import TYPE_CHECKING, Any

from flask import Response, request
from flask_openapi3.models.tag import Tag
from pydantic import ConfigDict, Field

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError
from tournament.domain.model.hands import fold_hand
from tournament.domain.views.eventwords import in_words
from tournament.domain.views.transfer import (
    BackupError,
    finished_hands,
    in_play,
    restore_order,
    tournament_streams,
)
from tournament.eventstore.api import ConcurrencyError, StoredEvent
from tournament.eventstore.errors import DuplicateEventError, EventStoreError, ImportFormatError
from tournament.web.api.blueprint import APIBlueprint
from tournament.web.api.models import Model, QueryModel, TournamentPath
from tournament.web.auth import ADMIN, caller, requires
from tournament.web.body_caps import BACKUP, accepts_body
from tournament.web.problems import Problem, documented
from tournament.web.reads import versioned
from tournament.web.writes import idempotency_key, metadata, refuse_other_request, respond

if TYPE_CHECKING:
    # Imported where used: the backups' module loads SQLAlchemy, which serve's start
    # does without (speed P10).
    from tournament.eventstore.stream_backup import BrokenChainError

api = APIBlueprint(
    "history",
    __name__,
    url_prefix="/api/v1",
    abp_tags=[Tag(name="history", description="the event history, backups and restoring them")],
)

#: The media type of a backup (JSON Lines).
JSON_LINES = "application/x-ndjson"


class EventsQuery(QueryModel):
    model_config = ConfigDict(extra="forbid")

    after: int = Field(
        0,
        ge=0,
        le=2**31 - 1,
        description="the events after event number N (0: from the first). Numbers are the "
        "tournament's own (its stream's versions), as `tournament log` prints them and "
        "?as_of= of the standings takes them",
    )
    limit: int = Field(100, ge=1, le=1000, description="at most this many events")


class EventItem(Model):
    number: int = Field(description="the event's number in the tournament (as_of takes it)")
    type: str
    payload: dict[str, Any]
    metadata: dict[str, Any] = Field(
        description="as stored (actor, source, via, correlation_id ...) and recorded_at"
    )
    words: str = Field(description="what it did, as `tournament log` says it (names as today)")


class EventPage(Model):
    tournament: str
    version: int = Field(description="the tournament's version now: its newest event's number")
    events: list[EventItem]
    next: str | None = Field(description="the next page; null when this one reaches the newest")


@api.get(
    "/tournaments/<tid>/events",
    summary="The tournament's events, numbered, each in words (paged by number)",
    responses={200: EventPage, 304: None, **documented([401, 403, 404])},
    security=[{"bearer": []}, {"session": []}],
)
@requires(Role.ORGANISER)
def list_events(path: TournamentPath, query: EventsQuery) -> Response:
    service = services().tournaments
    t = service.state(path.tid)
    version = t.version

    def build() -> dict[str, Any]:
        last = min(query.after + query.limit, version)
        found: list[StoredEvent] = []
        if query.after < last:
            found = service.store.read_stream(ev.stream_id(path.tid), query.after + 1, last)
        with service.reading():  # names as the shared state has them today
            words = [in_words(t, e.type, e.payload) for e in found]
        following = None
        if last < version:
            following = f"{request.path}?after={last}&limit={query.limit}"
        return {
            "tournament": path.tid,
            "version": version,
            "events": [_item(e, said) for e, said in zip(found, words, strict=True)],
            "next": following,
        }

    return versioned(version, build, variant=f"events-{query.after}-{query.limit}")


def _item(event: StoredEvent, words: str) -> dict[str, Any]:
    return {
        "number": event.version,
        "type": event.type,
        "payload": dict(event.payload),
        "metadata": {**event.metadata, "recorded_at": event.recorded_at.isoformat()},
        "words": words,
    }


@api.get(
    "/tournaments/<tid>/export",
    summary="A backup of the tournament: its events with their hashes, as JSON Lines",
    description="Format schnapsen-streams/1 (docs/event-store.md): the tournament's stream "
    "and its live hands', then a trailer with each stream's head and the log's seal. "
    "The events of a hand still in play are withheld: sealed with the server's seal key, "
    "never in the clear. POST /import restores it (where that key is).",
    responses={
        200: {
            "description": "the backup, as an attachment",
            "content": {JSON_LINES: {"schema": {"type": "string"}}},
        },
        **documented([401, 403, 404, 503]),
    },
    security=[{"bearer": []}, {"session": []}],
)
@requires(Role.ORGANISER)
def export_tournament(path: TournamentPath) -> Response:
    service = services().tournaments
    t = service.state(path.tid)  # 404 for a tournament that is not there
    events = service.events(path.tid)
    store = services().store
    from tournament.eventstore.stream_backup import export_streams

    finished = finished_hands(t, lambda stream: fold_hand(store.read_stream(stream)))
    out = io.StringIO()
    try:
        export_streams(
            store,
            tournament_streams(events),
            out,
            about={"tournament": path.tid, "version": len(events)},
            upto={ev.stream_id(path.tid): len(events)},  # the events that named the hands
            withhold=in_play(finished),  # a hand in play: its deck sealed (F2)
        )
    except EventStoreError as error:  # no seal key to withhold a hand in play with
        raise Problem(503, "No backup while a hand is in play", str(error)) from None
    reply = Response(out.getvalue(), mimetype=JSON_LINES)
    name = f"{path.tid}-{len(events)}.jsonl"
    reply.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    reply.headers["Cache-Control"] = "no-store"
    return reply


class Imported(Model):
    id: str = Field(description="the tournament restored")
    version: int = Field(description="its version: the number of its events")
    streams: list[str] = Field(description="the streams restored: its own and its live hands'")


@api.post(
    "/import",
    summary="Restore a tournament's backup (GET .../export) into this store (admin)",
    description="The body is the backup's JSON Lines. Every line is checked and every hash "
    "chain verified before anything is stored; an error names the line. A tournament that "
    "exists already is 409. The importing account owns the tournament restored.",
    responses={201: Imported, **documented([401, 403, 409, 413, 422])},
    security=[{"bearer": []}, {"session": []}],
    openapi_extensions={
        "requestBody": {
            "required": True,
            "description": "the backup as GET .../export gave it (schnapsen-streams/1)",
            "content": {JSON_LINES: {"schema": {"type": "string"}}},
        }
    },
)
@requires(ADMIN)
@accepts_body(BACKUP)
def import_tournament() -> Response:
    from tournament.eventstore.stream_backup import (
        BrokenChainError,
        read_streams_backup,
        restore_streams,
    )

    store = services().store
    key = idempotency_key()
    if key is not None and (used := store.read_key(key)) is not None:
        # The request a restored event came from is in its "restored" note (its own
        # metadata is the source's).
        first = used.events[0]
        refuse_other_request([dataclasses.replace(first, metadata=first.metadata["restored"])])
        return _imported(used.events, replayed=True)
    try:
        backup = read_streams_backup(request.get_data().splitlines())
        tid, order = restore_order(backup.streams)
    except (ImportFormatError, BrokenChainError, BackupError) as error:
        raise _refused(error) from None
    if store.stream_version(ev.stream_id(tid)):
        raise ConflictError(
            "tournament", "T-settings", f"tournament {tid!r} exists already; nothing imported"
        )
    who = caller()
    asked = metadata()
    note = {"by": who.actor, "request_id": asked["request_id"], "request": asked["request"]}
    try:
        stored = restore_streams(store, backup, order, note=note, idempotency_key=key)
    except ImportFormatError as error:
        raise _refused(error) from None
    except (ConcurrencyError, DuplicateEventError) as error:
        raise ConflictError(
            "tournament", "T-settings", f"{error}: restored meanwhile; nothing more imported"
        ) from None
    services().accounts.grant(who.actor, tid, Role.OWNER, by=who.actor)
    main = ev.stream_id(tid)
    return _imported([e for e in stored if e.stream_id == main])


def _imported(events: list[StoredEvent], *, replayed: bool = False) -> Response:
    """The answer, from the tournament's stream as stored (an idempotent retry gets the
    same): its id, version and streams."""
    tid = str(events[0].payload["tournament_id"])
    body = {"id": tid, "version": events[-1].version, "streams": tournament_streams(events)}
    reply = respond(body, events, status=201, replayed=replayed)
    reply.headers["Location"] = f"/api/v1/tournaments/{tid}"
    return reply


def _refused(error: ImportFormatError | BrokenChainError | BackupError) -> Problem:
    """422 naming the line at fault; nothing was stored."""
    if isinstance(error, BackupError):
        line: int | None = error.at_line
        detail = error.message
    else:
        line, detail = error.line, str(error)
    if "nothing" not in detail:
        detail += "; nothing imported"
    return Problem(
        422,
        "Not a restorable backup",
        detail,
        field="body",
        line=line,
        errors=[{"field": "body", "line": line, "message": detail}],
    )

"""Results: enter a match's sheet (tallies, hands or a forfeit), sign it, correct or strike
a result, clear a match's flag -- what ``tournament results enter / sign / correct /
strike / clear-flag`` do, through the same domain code (:mod:`tournament.domain.commands.entry`,
:mod:`tournament.domain.commands.correcting`), with the same checks and the same events.

Scorers enter and sign; organisers correct, strike and clear flags. A correction or a
strike with ``dry_run=true`` answers what it would store and the domain's preview of what
it would change (:mod:`tournament.domain.views.preview`), and stores nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC
from typing import Any

from flask import Response, json
from flask_openapi3.models.tag import Tag

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain import commands as c
from tournament.domain.commands.correcting import Correction, correction_command
from tournament.domain.commands.entry import (
    Hand,
    ResultEntry,
    Spelling,
    entry_command,
    entry_outcome,
)
from tournament.domain.commands.matchref import resolve_match
from tournament.domain.commands.repeats import RepeatedEntry, entered_at
from tournament.domain.model import events as ev
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import ENTRY_KINDS, Tournament
from tournament.domain.model.tally import tally_text
from tournament.domain.model.text import plain_text
from tournament.domain.views.preview import preview
from tournament.eventstore.api import NewEvent, StoredEvent
from tournament.web.api.blueprint import APIBlueprint
from tournament.web.api.models import MatchPath, ResultPath, WriteQuery
from tournament.web.api.result_models import (
    Amended,
    CorrectionIn,
    DryRun,
    FlagCleared,
    ForfeitIn,
    ResultIn,
    ResultStored,
    SheetCorrectionIn,
    SignaturesIn,
    SignaturesStored,
    StrikeIn,
    Tally,
    TallyColumns,
)
from tournament.web.auth import requires
from tournament.web.problems import documented
from tournament.web.writes import actor, decide_only, etag, event_summary, write

api = APIBlueprint(
    "results",
    __name__,
    url_prefix="/api/v1",
    abp_tags=[Tag(name="results", description="enter, sign, correct and strike results")],
)

#: How the API names an entry's and a correction's parts in the domain's refusals.
FIELDS = Spelling(
    "body",
    {"hand": "hands", "again": '"again": true'},
    hands="hands",
    whole_sheet='post the whole sheet at once: "tallies": [...] with "signed": true',
    sign_later="sign later: POST .../signatures",
)

Command = Callable[[Tournament], list[NewEvent]]
WRITE_PROBLEMS = documented([401, 403, 404, 409, 412, 422])


def _tally(tally: Tally) -> str:
    """A tally as the domain reads it: columns become the CLI's text, so both are read
    by the same code (:func:`tournament.domain.model.tally.tally_payload`)."""
    if isinstance(tally, TallyColumns):
        return tally_text({"columns": [tally.first, tally.second]})
    return tally


def _entry(mid: str, body: ResultIn) -> ResultEntry:
    hands = tuple(
        Hand(h.winner, h.game_points, h.dealer, h.reason, h.closed, h.card_points)
        for h in body.hands or ()
    )
    forfeit = None
    if isinstance(body.forfeit, ForfeitIn):
        forfeit = str(body.forfeit.winner)
    elif body.forfeit == "both":
        forfeit = "both"
    return ResultEntry(
        mid,
        hands=hands,
        tallies=tuple(_tally(t) for t in body.tallies or ()),
        forfeit=forfeit,
        first_dealer=body.first_dealer,
        scorer=body.scorer,
        signed=body.signed,
        again=body.again,
    )


@api.post(
    "/tournaments/<tid>/matches/<mid>/results",
    summary="Enter a match's result: the sheet's tallies, hands, or a forfeit (one of them)",
    responses={201: ResultStored, **WRITE_PROBLEMS},
)
@requires(Role.SCORER)
def enter_result(path: MatchPath, body: ResultIn) -> Response:
    """As ``tournament results enter``: checked against the match (R13-R20), refused as a
    retry when it repeats the match's last entry without ``again`` (T-repeat), signed
    with ``signed`` when it decides the match (T-sheet). The answer says where the match
    stands after it, made from what was stored (a retry with the Idempotency-Key gets the
    same body)."""
    # The refusal of a retry names when the earlier result was entered; that is looked up
    # after the refusal, not while the tournament's lock is held (a second connection
    # then could wait on a pool full of writers waiting on that lock).
    entered = entry_command(
        _entry(path.mid, body), actor=actor(), entered_when=None, spelling=FIELDS
    )
    decided: dict[str, Any] = {}

    def command(t: Tournament) -> list[NewEvent]:
        events = entered(t)
        decided.clear()
        decided.update(entry_outcome(t, events))  # on the state it was decided on
        return events

    def answer(events: list[StoredEvent]) -> Mapping[str, Any]:
        outcome = decided
        ids = [e.payload["result_id"] for e in events if e.type in ENTRY_KINDS]
        if ids != outcome.get("result_ids"):  # an earlier request with this key stored them
            before = services().tournaments.state(path.tid, as_of=events[0].version - 1)
            outcome = entry_outcome(before, events)
        return {**outcome, "version": events[-1].version, "events": event_summary(events)}

    try:
        return write(path.tid, command, answer, status=201)
    except RepeatedEntry as refusal:
        moment = entered_at(services().tournaments.events(path.tid), refusal.result_id)
        at = moment.astimezone(UTC).isoformat(timespec="seconds") if moment else ""
        raise refusal.entered(at) from None


@api.post(
    "/tournaments/<tid>/matches/<mid>/signatures",
    summary="The players sign the match's finished sheet (send {} for both)",
    responses={201: SignaturesStored, 200: SignaturesStored, **WRITE_PROBLEMS},
)
@requires(Role.SCORER)
def sign(path: MatchPath, body: SignaturesIn) -> Response:
    """As ``tournament results sign``, for both players (or those named): refused before
    the match is decided (T-sheet); a player who has signed already is left as is (200,
    nothing stored when both had)."""
    match: list[str] = []

    def command(t: Tournament) -> list[NewEvent]:
        mid = resolve_match(t, path.mid)
        match[:] = [mid]
        signed: list[NewEvent] = []
        for pid in dict.fromkeys(body.players or t.matches[mid].players):
            signed += c.sign_sheet(t, mid, pid, actor=actor())
        return signed

    def answer(events: list[StoredEvent]) -> Mapping[str, Any]:
        return {
            "match_id": events[0].payload["match_id"] if events else match[0],
            "signed": [e.payload["player_id"] for e in events],
            "version": events[-1].version if events else None,
            "events": event_summary(events),
        }

    reply = write(path.tid, command, answer, status=201)
    if not reply.headers.get("ETag"):  # nothing stored: both had signed already
        reply.status_code = 200
    return reply


def _amend(
    tid: str, decide: Command, dry_run: bool, answer: Callable[[list[StoredEvent]], Any]
) -> Response:
    """Store ``decide``'s events (201), or with ``dry_run`` answer what it would store and
    the preview of what it would change (200), storing nothing. Either way it is decided
    in the write path: If-Match and the role are checked alike."""
    if not dry_run:
        return write(tid, decide, answer, status=201)

    decided = decide_only(tid, decide, answer)
    if isinstance(decided, Response):
        return decided  # the key was stored by an earlier request: its answer, or a 422
    events, version = decided
    before = services().store.read_stream(ev.stream_id(tid), 1, version)
    body = {
        "dry_run": True,
        "version": version,
        "would_store": [{"type": e.type, "payload": e.payload} for e in events],
        "preview": preview(before, events).to_json(),
    }
    reply = Response(json.dumps(body, ensure_ascii=False), mimetype="application/json")
    reply.headers["ETag"] = etag(version)
    return reply


def _amended(events: list[StoredEvent]) -> dict[str, Any]:
    first = events[0].payload
    return {
        "result_id": first["result_id"],
        "match_id": first["match_id"],
        "version": events[-1].version,
        "events": event_summary(events),
    }


def _why(text: str) -> str:
    return plain_text(text, "why", "T-input", limit=500, what="a reason")


@api.post(
    "/tournaments/<tid>/results/<rid>/corrections",
    summary="Correct a result (what changes, void or undo); dry_run=true previews it",
    responses={201: Amended, 200: DryRun, **WRITE_PROBLEMS},
)
@requires(Role.ORGANISER)
def correct(path: ResultPath, query: WriteQuery, body: CorrectionIn) -> Response:
    """As ``tournament results correct``: a correction event naming who (the signed-in
    account) and why, never an edit (T-correction)."""
    parts = body.model_dump(exclude={"why", "void", "undo"}, exclude_none=True)
    if body.tally is not None:
        parts["tally"] = _tally(body.tally)
    decide = correction_command(
        Correction(path.rid, parts, void=body.void, undo=body.undo),
        by=actor(),
        why=_why(body.why),
        actor=actor(),
        spelling=FIELDS,
    )
    return _amend(path.tid, decide, query.dry_run, _amended)


@api.post(
    "/tournaments/<tid>/matches/<mid>/sheet-corrections",
    summary="Correct a match's whole sheet in one step (swap its columns, or every Bummerl); "
    "dry_run=true previews it",
    responses={201: Amended, 200: DryRun, **WRITE_PROBLEMS},
)
@requires(Role.ORGANISER)
def correct_sheet(path: MatchPath, query: WriteQuery, body: SheetCorrectionIn) -> Response:
    """As ``tournament results correct-sheet``: ``swap``, or ``tallies`` (one of them),
    stored as one correction naming who (the signed-in account) and why (T-correction)."""
    why = _why(body.why)
    tallies = None if body.tallies is None else [_tally(x) for x in body.tallies]
    if body.swap == (tallies is not None):
        raise DomainError(
            "swap",
            "T-correction",
            "give swap true or the sheet's tallies, one of them; nothing stored",
        )

    def decide(t: Tournament) -> list[NewEvent]:
        mid = resolve_match(t, path.mid)
        return c.correct_sheet(t, mid, tallies, by=actor(), reason=why, actor=actor())

    return _amend(path.tid, decide, query.dry_run, _amended)


@api.post(
    "/tournaments/<tid>/results/<rid>/strike",
    summary="Strike a hand of a result; dry_run=true previews it",
    responses={201: Amended, 200: DryRun, **WRITE_PROBLEMS},
)
@requires(Role.ORGANISER)
def strike(path: ResultPath, query: WriteQuery, body: StrikeIn) -> Response:
    """As ``tournament results strike``: its game points no longer count (R17), it still
    counts for the deal (R18); who strikes is the signed-in account (T-strike)."""
    why = _why(body.why)

    def decide(t: Tournament) -> list[NewEvent]:
        return c.strike_hand(t, path.rid, body.hand, by=actor(), reason=why, actor=actor())

    return _amend(path.tid, decide, query.dry_run, _amended)


@api.post(
    "/tournaments/<tid>/matches/<mid>/flags/clear",
    summary="The organiser has dealt with a flagged match",
    responses={200: FlagCleared, **WRITE_PROBLEMS},
)
@requires(Role.ORGANISER)
def clear_flag(path: MatchPath) -> Response:
    """As ``tournament results clear-flag``: a match flagged after a correction upstream
    (it was drawn on the old result) has been looked at; a match without a flag is left
    as is (``cleared`` false, nothing stored)."""
    match: list[str] = []

    def command(t: Tournament) -> list[NewEvent]:
        match[:] = [resolve_match(t, path.mid)]
        return c.clear_flag(t, match[0], actor=actor())

    def answer(events: list[StoredEvent]) -> Mapping[str, Any]:
        return {
            "match_id": events[0].payload["match_id"] if events else match[0],
            "cleared": bool(events),
            "version": events[-1].version if events else None,
        }

    return write(path.tid, command, answer)

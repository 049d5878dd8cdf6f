"""Online play (T-online) as JSON: the players' seats by their table codes, the room's
view of a table, the hands' records once over, and the organiser's decisions.

- ``/api/v1/play/<code>``: a seat, opened by the code on the table card (T-code), no
  account: the code is the credential. What it answers is the domain's
  :func:`~tournament.domain.views.onlineview.seat_view` and nothing else: the seat's own cards,
  never the other seat's nor the talon, never the other seat's code. A move names the
  hand stream's version the client saw, so a double click makes one move (the second is
  409 ``online.table_moved_on``). Wrong codes count against the address's limit shared
  with the report pages (``REPORT_CODE_RATE_LIMIT``): over it every code is refused (429).
- ``/api/v1/tournaments/<tid>/matches/<mid>/table``: the spectators' view (no hand at all),
  ``.../hands`` the table's hands, ``.../hands/<n>/record`` one hand as a
  ``schnapsen-record/1`` file, only once it is over for good (a running hand's deck never
  leaves the server).
- ``.../online``: the organiser starts and stops online play, restarts a clock that ran
  out (T-clock), abandons the hand in play (R18: the same dealer deals again).

The streams (``.../live``) are :func:`tournament.play.stream.table_events` with a JSON
render: one ``event: table`` per change of what the reader sees. Each holds a place under
the process's cap of live streams (the tournament live hub counts it): over the cap 503
with ``Retry-After``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Response, g
from flask_openapi3.models.tag import Tag

from tournament.accounts.roles import Role
from tournament.app.play import PlayService, device_hash
from tournament.app.services import services
from tournament.domain.commands import online
from tournament.domain.commands.matchref import resolve_match
from tournament.domain.commands.tablecodes import TableSeat
from tournament.domain.model.errors import DomainError, NotFoundError
from tournament.domain.model.hands import hand_record
from tournament.domain.views.onlineview import TableMoment, seat_view, spectator_view, status
from tournament.live.hub import Full
from tournament.play.stream import Render
from tournament.web.api.blueprint import APIBlueprint
from tournament.web.api.models import event_stream_schema
from tournament.web.api.play_devices import (
    not_a_seat_here,
    sent_token,
    token_to_take_with,
)
from tournament.web.api.play_models import (
    ClockIn,
    CodePath,
    HandLine,
    HandPath,
    MoveIn,
    OnlineOut,
    ReleaseIn,
    SeatOut,
    StartIn,
    StopIn,
    TableOut,
    TablePath,
    TakeIn,
    VersionIn,
)
from tournament.web.auth import ANYONE, requires
from tournament.web.devices import address_hash
from tournament.web.live import play_service, table_event_stream
from tournament.web.play_codes import online_seat
from tournament.web.problems import Problem, documented
from tournament.web.streaming import event_stream
from tournament.web.tablecodes import wrong_code_limit
from tournament.web.writes import actor, etag, metadata

api = APIBlueprint(
    "play_api",
    __name__,
    url_prefix="/api/v1",
    abp_tags=[
        Tag(
            name="play",
            description="online play (T-online): seats by table code, the room's view, "
            "hand records, the organiser's decisions",
        )
    ],
)

RETRY_AFTER = 10
#: The code routes: a wrong code counts against the address's limit (429 over it).
CODE_PROBLEMS = documented([404, 409, 429])
MOVE_PROBLEMS = documented([404, 409, 422, 429])
ORGANISER_PROBLEMS = documented([401, 403, 404, 409, 422])


# --- the seats ----------------------------------------------------------------------------
def _seat(code: str) -> tuple[str, TableSeat]:
    """The tournament and seat ``code`` opens; a wrong code counts against the limit.
    Inside the play service's snapshot, the tournament read here is the snapshot's (a
    move reads it once, speed P5)."""
    try:
        tid, t, seat = online_seat(code)
    except DomainError:
        g.wrong_code = True
        raise
    play_service().seen(t)
    return tid, seat


def _check(tid: str, seat: TableSeat) -> None:
    """Refused (409 ``online.seat_taken``) unless the caller's device holds the seat."""
    play_service().check_seat(tid, seat.match_id, seat.seat, sent_token())


def _player_metadata(seat: TableSeat) -> dict[str, Any]:
    stamp: dict[str, Any] = dict(metadata())
    stamp["account"] = f"player {seat.player_id} (table code)"
    stamp["seat"] = seat.seat
    return stamp


def _json(body: Any, status: int = 200) -> Response:
    return _text(json.dumps(body, ensure_ascii=False), status)


def _text(text: str, status: int = 200) -> Response:
    return Response(text, status=status, mimetype="application/json")


def _seat_json(moment: TableMoment, seat: int) -> str:
    """The seat's view as JSON, made once per moment for that seat (its stream and the
    answer to its move share it, speed P5); the key is the seat: never another's."""
    return moment.shown(
        ("api.seat", seat), lambda: json.dumps(seat_view(moment, seat), ensure_ascii=False)
    )


def _room_json(moment: TableMoment) -> str:
    """The room's view as JSON, made once per moment for all the room's screens."""
    return moment.shown("api.room", lambda: json.dumps(spectator_view(moment), ensure_ascii=False))


@api.get(
    "/play/<code>",
    summary="A seat's view of its online table, opened by its table code (public)",
    description="What the seat sees now (`status` says what it waits for; `view.hand` its "
    "own cards, `view.legal_actions` what it may do), for the device holding the seat: "
    "header `Seat-Token`. Never the other seat's cards, the talon or the other seat's "
    "code. A GET changes nothing: a seat is taken with `POST /api/v1/play/{code}/seat` "
    "(a seat nobody holds answers 409 `online.take_seat_first`; clients of the first "
    "version took the seat with this GET and must now POST first). 404 for an unknown "
    "code (T-code) or a match not played online (T-online); 409 for a revoked code, and "
    "`online.seat_taken` for a device not holding the seat. No account: the code opens "
    "the seat; wrong codes are rate-limited (429).",
    responses={200: SeatOut, **CODE_PROBLEMS},
)
def seat(path: CodePath) -> Response:
    tid, found = _seat(path.code)
    play = play_service()
    with play.snapshot():  # the store asked once for the seat's check and its view
        if not play.holds(tid, found.match_id, found.seat, (sent_token(),)):
            t = services().tournaments.state(tid)
            online.refuse_seat_not_held(t, found.match_id, found.seat)
        return _json(seat_view(play.moment(tid, found.match_id), found.seat))


@api.post(
    "/play/<code>/seat",
    summary="The calling device takes the seat its table code names (public)",
    description="T-online: the first device to take a seat keeps it. The answer is the "
    "seat's view (as `GET /api/v1/play/{code}`) with `device_token`: send it as header "
    "`Seat-Token` on every later call of the seat. A client that already holds a seat "
    "sends that seat's `Seat-Token` here too: it names the device, so the seat is taken "
    "for the same token, and the table's other seat is refused to it (409 "
    "`online.both_seats`: one device per seat). Taking a seat the device holds again "
    "changes nothing. 409 `online.seat_taken` when another device holds the seat; 422 "
    "for a `Seat-Token` shorter than 32 characters (made up rather than given).",
    responses={200: SeatOut, **MOVE_PROBLEMS},
)
@requires(ANYONE)  # the code is the credential (T-code); wrong ones are rate-limited
def take_seat(path: CodePath, body: TakeIn) -> Response:
    tid, found = _seat(path.code)
    sent = token_to_take_with()
    play = play_service()
    token = play.join(
        tid, found.match_id, found.seat, sent, _player_metadata(found), address=address_hash()
    )
    view = seat_view(play.moment(tid, found.match_id), found.seat)
    view["device_token"] = token
    return _json(view)


@api.post(
    "/play/<code>/actions",
    summary="The seat makes a move (a record action object or its notation)",
    description="The seat's view after the move. Refused, storing nothing: 409 when the "
    "table moved on since `version` (a second click: `online.table_moved_on`), the time "
    "ran out (`online.time_ran_out`, T-clock), the hand is over or not the current one, "
    "the other seat was never opened (`online.waiting_for_players`), or the call's "
    "`Seat-Token` is not the device holding the seat (`online.seat_taken`, T-online); "
    "422 for a move the rules forbid (`online.engine_refused` with the engine's rule "
    "R0-R16 as `rule`), another seat's action (R0) or a bad body.",
    responses={200: SeatOut, **MOVE_PROBLEMS},
)
@requires(ANYONE)  # the code is the credential (T-code); wrong ones are rate-limited
def act(path: CodePath, body: MoveIn) -> Response:
    # The code's seat, its check, the move and the table it answers read the tournament
    # and the hand once each (speed P5).
    with play_service().snapshot():
        tid, found = _seat(path.code)
        _check(tid, found)
        moment = play_service().act(
            tid, found.match_id, found.seat, body.action, body.version, _player_metadata(found)
        )
    return _text(_seat_json(moment, found.seat))


@api.post(
    "/play/<code>/no-claim",
    summary="After the last trick its winner claims nothing (R16)",
    description="The hand is won by the last trick's winner, 1 game point (recorded now), "
    "and the next hand is dealt; the seat's "
    "view after it. 409 `online.no_claim_window` when there is nothing to decline, "
    "`online.table_moved_on` for a stale `version`; 422 `online.not_yours_to_close` for "
    "the other seat.",
    responses={200: SeatOut, **MOVE_PROBLEMS},
)
@requires(ANYONE)  # the code is the credential (T-code)
def no_claim(path: CodePath, body: VersionIn) -> Response:
    with play_service().snapshot():
        tid, found = _seat(path.code)
        _check(tid, found)
        moment = play_service().decline_claim(
            tid, found.match_id, found.seat, body.version, _player_metadata(found)
        )
    return _text(_seat_json(moment, found.seat))


@api.get(
    "/play/<code>/live",
    summary="The seat's view as it changes (Server-Sent Events, public)",
    description="`text/event-stream`: `event: table` with `id: <hand_number>.<version>` "
    "and `data:` the seat's view as JSON (as `GET /api/v1/play/{code}`), sent at once "
    "and each time it changes; `event: gone` when the table is gone; `event: seat_taken` "
    "when the organiser released the seat and another device took it. Needs the seat's "
    "`Seat-Token` (else 409 `online.seat_taken`). A comment every "
    "15 s keeps a quiet stream open. Over the process's cap of streams: 503 with "
    "`Retry-After`.",
    responses={
        200: event_stream_schema("table, gone or seat_taken"),
        **documented([404, 409, 429, 503]),
    },
)
@event_stream
def seat_stream(path: CodePath) -> Response:
    tid, found = _seat(path.code)
    play_service().moment(tid, found.match_id)  # the table is there (else 404 now)
    _check(tid, found)
    number = found.seat
    held = device_hash(sent_token() or "")

    def render(moment: TableMoment) -> tuple[str, str]:
        if not online.seat_device_ok(moment.t, found.match_id, number, held):
            # Released and taken by another device since: nothing more of the seat.
            return "seat_taken", json.dumps({"code": "online.seat_taken", "rule": online.RULE})
        return "table", _seat_json(moment, number)

    return _stream(tid, found.match_id, render)


# --- the room -----------------------------------------------------------------------------
def _match_id(tid: str, text: str) -> str:
    t = services().tournaments.state(tid)
    with services().tournaments.reading():
        mid = resolve_match(t, text)
        online.table_of(t, mid)
    return mid


@api.get(
    "/tournaments/<tid>/matches/<mid>/table",
    summary="An online table as the room sees it: no hand, no talon (public)",
    description="`view` is the engine's table view plus `tricks`, `tricks_shown` and "
    "`points`. While the hand is played the room sees only what both players may see "
    "(T-watch): `tricks` is [] (the last trick is `last_trick` while it lies open), "
    "`tricks_shown` false and `points` null; `outcome` is null until nobody is left to "
    "act (after the last trick its winner may still claim, R16); once the hand is over, "
    "every trick, the points and the outcome. 404 when the match is not played online "
    "(T-online); 409 `online.own_table` for a caller sending the `Seat-Token` of a seat "
    "at this table (a player follows the table on their seat's view).",
    responses={200: TableOut, **documented([404, 409])},
)
def table(path: TablePath) -> Response:
    mid = _match_id(path.tid, path.mid)
    not_a_seat_here(path.tid, mid)
    return _json(spectator_view(play_service().moment(path.tid, mid)))


@api.get(
    "/tournaments/<tid>/matches/<mid>/table/live",
    summary="The room's view of an online table as it changes (Server-Sent Events)",
    description="`text/event-stream`: `event: table` with `data:` the room's view as JSON "
    "(as `GET .../table`), at once and each time it changes. Over the process's cap of "
    "streams: 503 with `Retry-After`. Public; 409 `online.own_table` for a seat's "
    "`Seat-Token` of this table.",
    responses={
        200: event_stream_schema("table or gone"),
        **documented([404, 409, 503]),
    },
)
@event_stream
def table_stream(path: TablePath) -> Response:
    mid = _match_id(path.tid, path.mid)
    not_a_seat_here(path.tid, mid)

    def render(moment: TableMoment) -> tuple[str, str]:
        return "table", _room_json(moment)

    return _stream(path.tid, mid, render)


def _stream(tid: str, mid: str, render: Render) -> Response:
    try:
        return table_event_stream(tid, mid, render)
    except Full as error:
        raise Problem(
            503,
            "Too many live streams",
            f"{error}: ask for the table instead, or try again in {RETRY_AFTER} s",
            headers={"Retry-After": str(RETRY_AFTER)},
            kind="live-full",
        ) from None


@api.get(
    "/tournaments/<tid>/matches/<mid>/hands",
    summary="The hands of an online table: number, dealer, outcome once over (public)",
    description="A JSON array, in deal order, abandoned hands included (they never count, "
    "R18). `outcome` is null until the hand is over for good (`final`).",
    responses={
        200: {
            "content": {
                "application/json": {
                    "schema": {
                        "type": "array",
                        "items": HandLine.model_json_schema(ref_template="{model}"),
                    }
                }
            }
        },
        **documented([404]),
    },
)
def hands(path: TablePath) -> Response:
    mid = _match_id(path.tid, path.mid)
    play = play_service()
    t = services().tournaments.state(path.tid)
    lines = []
    for number in range(1, len(online.table_of(t, mid).hands) + 1):
        t, hand = play.hand_at(path.tid, mid, number)
        final = online.hand_final(t, hand.stream, hand.state)
        abandoned = hand.stream in t.live_abandoned
        outcome = hand.state.outcome().to_json() if final and not abandoned else None
        lines.append(
            {
                "number": number,
                "final": final,
                "abandoned": abandoned,
                "dealer": hand.state.dealer,
                "outcome": outcome,
            }
        )
    return _json(lines)


@api.get(
    "/tournaments/<tid>/matches/<mid>/hands/<int:number>/record",
    summary="One hand of an online table as a schnapsen-record/1 file, once over (public)",
    description="The deck, the dealer and every action (docs/game-record.md), plus "
    "`tournament`, `match` and `hand`; `Content-Disposition: attachment`. 409 while the "
    "hand is not over for good: a running hand's deck never leaves the server.",
    responses={
        200: {"content": {"application/json": {"schema": {"type": "object"}}}},
        **documented([404, 409]),
    },
)
def record(path: HandPath) -> Response:
    mid = _match_id(path.tid, path.mid)
    t = services().tournaments.state(path.tid)
    if path.number > len(online.table_of(t, mid).hands):
        raise NotFoundError(
            "number", online.RULE, code="online.no_such_hand", params={"match_id": mid}
        )
    t, hand = play_service().hand_at(path.tid, mid, path.number)
    if not online.hand_final(t, hand.stream, hand.state):
        raise Problem(
            409,
            "Conflicts with what is recorded",
            f"hand {path.number} of match {mid} is not over: its record is served once it "
            "is over for good (T-online)",
            field="number",
            rule=online.RULE,
        )
    game = hand_record(hand.events, tournament=path.tid, match=mid, hand=path.number)
    reply = _json(game.to_json())
    name = f"{path.tid}-{mid}-hand-{path.number}.json"
    reply.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return reply


# --- the organiser ------------------------------------------------------------------------
def _online(moment: TableMoment) -> dict[str, Any]:
    table_ = online.table_of(moment.t, moment.match_id)
    state = moment.state
    to_act = [] if state is None or moment.final else list(state.to_act)
    return {
        "match_id": moment.match_id,
        "stopped": table_.stopped,
        "move_seconds": table_.move_seconds,
        "hands": len(table_.hands),
        "hand_number": moment.number,
        "version": moment.version,
        "status": status(moment, None),
        "to_act": to_act,
        "clock": moment.clock.to_json(),
        "decided": moment.match.decided,
        "joined": online.joined(moment.t, moment.match_id),
        "seat_flags": [
            {"seat": f.seat, "flag": f.flag, "released_by": f.by}
            for f in online.seat_flags(moment.t, moment.match_id)
        ],
        "tournament_version": moment.t.version,
    }


def _answer(body: Any, moment: TableMoment, status_code: int = 200) -> Response:
    reply = _json(body, status_code)
    reply.headers["ETag"] = etag(moment.t.version)
    return reply


def _organiser_match(tid: str, text: str) -> str:
    t = services().tournaments.state(tid)
    with services().tournaments.reading():
        return resolve_match(t, text)


def _decide(path: TablePath, decision: Callable[[PlayService, str], object]) -> Response:
    """An organiser's decision on an online table, answered with the table's status."""
    mid = _match_id(path.tid, path.mid)
    play = play_service()
    decision(play, mid)
    moment = play.moment(path.tid, mid)
    return _answer(_online(moment), moment)


@api.get(
    "/tournaments/<tid>/matches/<mid>/online",
    summary="An online table's status for the organiser: hand, seats to act, clock (no cards)",
    responses={200: OnlineOut, **documented([401, 403, 404])},
)
@requires(Role.ORGANISER)
def online_status(path: TablePath) -> Response:
    mid = _match_id(path.tid, path.mid)
    moment = play_service().moment(path.tid, mid)
    return _answer(_online(moment), moment)


@api.post(
    "/tournaments/<tid>/matches/<mid>/online",
    summary="Play a match online: the server deals its first hand (T-online)",
    description="The room's view of the table (201). `move_seconds` sets a time per move "
    "(T-clock). Refused: a match decided or not taking results (R20), without a first "
    "dealer (R18), online already, a live hand in progress.",
    responses={201: TableOut, **ORGANISER_PROBLEMS},
)
@requires(Role.ORGANISER)
def start(path: TablePath, body: StartIn) -> Response:
    mid = _organiser_match(path.tid, path.mid)
    moment = play_service().start(
        path.tid, mid, move_seconds=body.move_seconds, metadata=metadata(), actor=actor()
    )
    return _answer(spectator_view(moment), moment, 201)


@api.post(
    "/tournaments/<tid>/matches/<mid>/online/stop",
    summary="End online play of a match: the hand in play never counts, the rest is paper",
    responses={200: OnlineOut, **ORGANISER_PROBLEMS},
)
@requires(Role.ORGANISER)
def stop(path: TablePath, body: StopIn) -> Response:
    return _decide(
        path,
        lambda play, mid: play.stop(
            path.tid, mid, by=body.by, reason=body.reason, metadata=metadata(), actor=actor()
        ),
    )


@api.post(
    "/tournaments/<tid>/matches/<mid>/online/clock",
    summary="Restart the clock after a timeout: the seat to act has its time again (T-clock)",
    responses={200: OnlineOut, **ORGANISER_PROBLEMS},
)
@requires(Role.ORGANISER)
def restart_clock(path: TablePath, body: ClockIn) -> Response:
    return _decide(
        path,
        lambda play, mid: play.restart_clock(
            path.tid, mid, by=body.by, metadata=metadata(), actor=actor()
        ),
    )


@api.post(
    "/tournaments/<tid>/matches/<mid>/online/abandon",
    summary="Abandon the hand in play: it never counts, the same dealer deals again (R18)",
    responses={200: OnlineOut, **ORGANISER_PROBLEMS},
)
@requires(Role.ORGANISER)
def abandon(path: TablePath, body: StopIn) -> Response:
    return _decide(
        path,
        lambda play, mid: play.abandon_hand(
            path.tid, mid, by=body.by, reason=body.reason, metadata=metadata(), actor=actor()
        ),
    )


@api.post(
    "/tournaments/<tid>/matches/<mid>/online/release",
    summary="Release a seat whose device is gone: the next device to open its code takes it",
    description="T-online: a seat is held by the first device that opened it. The next "
    "device to take the seat sees that seat's hand in play and plays for it: released "
    "during a hand, the seat taken again is flagged (`seat_flags`: "
    "`seat_retaken_in_hand`, in the queue and on the desk's online page too) and the "
    "other seat is told who released it (`opponent_seat_released_by`). 409 "
    "`online.seat_not_taken` when nobody holds the seat; 422 without `by`. The clock "
    "goes on (T-clock).",
    responses={200: OnlineOut, **ORGANISER_PROBLEMS},
)
@requires(Role.ORGANISER)
def release(path: TablePath, body: ReleaseIn) -> Response:
    return _decide(
        path,
        lambda play, mid: play.release_seat(
            path.tid, mid, body.seat, by=body.by, metadata=metadata(), actor=actor()
        ),
    )


# --- wrong codes, limited ----------------------------------------------------------------
CODE_ENDPOINTS = ("seat", "take_seat", "act", "no_claim", "seat_stream")


api.record_once(
    wrong_code_limit(
        *(f"{api.name}.{name}" for name in CODE_ENDPOINTS),
        # The API's details are English (a client words them from the status itself).
        refusal=lambda: (
            "too many wrong codes from this address: wait a minute, then try again (T-code)"
        ),
    )
)

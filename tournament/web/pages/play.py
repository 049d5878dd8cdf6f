"""The table a player plays on (T-online), on a phone, without an account.

``/play/<code>`` opens the seat that the code of the table card names (T-code), at an
online table; ``/r/<code>`` of an online match leads here. The page shows only what
:func:`tournament.domain.views.onlineview.seat_view` holds for that seat: its own hand, the
turn-up, the cards on the table, its visible tricks; never the other seat's cards or
code. The table itself is one fragment (``play/table.html``), rendered the same way for
the page, for the answer to a move (htmx swaps it in) and for each message of the live
stream ``/play/<code>/events`` (htmx-ext-sse swaps it in), so a reload and a reconnect
show what the live page shows.

A move is a form post (``action``: the engine's notation for the seat, ``AH``,
``KH+marriage``, ``exchange``, ``close``, ``claim``; ``version``: the hand's version the
page showed). A second click on the same version finds the table moved on: the page
then simply shows the newest table with a small note. Refusals of the rules are shown in
the reader's language with their rule. Without JavaScript each post answers with a
redirect to the page.

Wrong codes count against the same per-address limit as ``/r`` (:mod:`.report`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import (
    Response,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response as BaseResponse

from engine.cards import Card
from tournament.app.play import device_hash
from tournament.domain.commands import online
from tournament.domain.commands.tablecodes import TableSeat, normalized
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.domain.model.state import Tournament
from tournament.domain.views.onlineview import TableMoment, seat_view
from tournament.live.hub import Full
from tournament.web.auth import ANYONE, requires
from tournament.web.devices import (
    address_hash,
    device_token,
    give_devices,
    sent_device_hash,
    sent_tokens,
)
from tournament.web.i18n import current_language
from tournament.web.live import play_service, table_event_stream
from tournament.web.pages.desk import desk_blueprint, refusal
from tournament.web.pages.play_seats import (
    BOTH_SEATS,
    SEAT_TAKEN,
    both_seats,
    released_fragment,
    seat_taken,
    take_page,
)
from tournament.web.play_codes import online_seat
from tournament.web.problems import request_id
from tournament.web.streaming import event_stream
from tournament.web.tablecodes import wrong_code_limit

pages = desk_blueprint("play", __name__)
give_devices(pages)

#: Seconds a browser waits before it asks for the stream again when the process is full.
RETRY_AFTER = 5
#: The refusal a second click meets: not an error, the table simply moved on.
MOVED_ON = "online.table_moved_on"

# --- the words of cards -------------------------------------------------------------------


def suit_words() -> dict[str, str]:
    """Each suit's word, shown on the card next to its symbol (colour is not enough)."""
    return {
        "C": gettext("clubs"),
        "D": gettext("diamonds"),
        "H": gettext("hearts"),
        "S": gettext("spades"),
    }


def rank_letters() -> dict[str, str]:
    """The rank as printed on a card in the reader's language (German: D for Dame...)."""
    return {
        "A": gettext("A"),
        "T": "10",
        "K": gettext("K"),
        "Q": gettext("Q"),
        "J": gettext("J"),
    }


def card_name(code: str) -> str:
    """The card's full name for screen readers and titles: "Ace of hearts", "Herz-Ass"."""
    names = {
        "AC": gettext("Ace of clubs"), "TC": gettext("Ten of clubs"),
        "KC": gettext("King of clubs"), "QC": gettext("Queen of clubs"),
        "JC": gettext("Jack of clubs"),
        "AD": gettext("Ace of diamonds"), "TD": gettext("Ten of diamonds"),
        "KD": gettext("King of diamonds"), "QD": gettext("Queen of diamonds"),
        "JD": gettext("Jack of diamonds"),
        "AH": gettext("Ace of hearts"), "TH": gettext("Ten of hearts"),
        "KH": gettext("King of hearts"), "QH": gettext("Queen of hearts"),
        "JH": gettext("Jack of hearts"),
        "AS": gettext("Ace of spades"), "TS": gettext("Ten of spades"),
        "KS": gettext("King of spades"), "QS": gettext("Queen of spades"),
        "JS": gettext("Jack of spades"),
    }  # fmt: skip
    return str(names[Card.parse(code).code])


def reason_words() -> dict[str, str]:
    return {
        "claim": gettext("claim"),
        "false_claim": gettext("false claim"),
        "last_trick": gettext("last trick"),
        "closer_failed": gettext("the closer failed"),
    }


# --- routes -------------------------------------------------------------------------------


@pages.get("/play/<code>")
def table(code: str) -> Any:
    """The seat's page. Opening it changes nothing (AE-1: a chat app's link preview or a
    prefetch takes no seat): the device that holds the seat sees its table; a seat
    nobody holds shows its players and *Take my seat* (a POST, :func:`take`); a device
    holding the table's other seat, or another device holding this one, gets a friendly
    refusal and nothing of the seat (T-online)."""
    found = _open(code)
    if isinstance(found, BaseResponse):
        return found
    if code != normalized(code):  # the page's links are the code as printed
        args: dict[str, Any] = dict(request.args)
        return redirect(url_for("play.table", code=normalized(code), **args), code=303)
    tid, t, seat = found
    play = play_service()
    if play.holds(tid, seat.match_id, seat.seat, sent_tokens()):
        return _page(tid, seat, code, note=_note_of(request.args.get("note", "")))
    if online.table_of(t, seat.match_id).devices.get(seat.seat) is not None:
        return seat_taken(tid)
    other = online.seat_of_device(t, seat.match_id, sent_device_hash())
    if other is not None:
        return both_seats(tid, t, seat)
    return take_page(tid, t, seat, code)


@pages.post("/play/<code>/seat")
@requires(ANYONE)  # the code is the credential (T-code); wrong ones are rate-limited
def take(code: str) -> Any:
    """*Take my seat*: this browser's device takes the seat (T-online), then its page."""
    found = _open(code)
    if isinstance(found, BaseResponse):
        return found
    tid, t, seat = found
    try:
        play_service().join(
            tid, seat.match_id, seat.seat, device_token(), _metadata(seat), address=address_hash()
        )
    except ConflictError as error:
        if error.code == BOTH_SEATS:
            return both_seats(tid, t, seat)
        if error.code != SEAT_TAKEN:
            raise
        return seat_taken(tid)
    return redirect(url_for("play.table", code=normalized(code)), code=303)


@pages.get("/play/<code>/events")
@event_stream
def events(code: str) -> Any:
    """The table as Server-Sent Events: event ``table``, data the fragment for this seat."""
    opened = _held_here(code)
    if isinstance(opened, BaseResponse):
        return opened
    tid, seat = opened
    render = _seat_render(seat, normalized(code))
    try:
        return table_event_stream(tid, seat.match_id, render)
    except Full:
        return Response(
            gettext("Too many live screens: trying again in a moment."),
            status=503,
            mimetype="text/plain",
            headers={"Retry-After": str(RETRY_AFTER)},
        )


@pages.get("/play/<code>/table")
def table_part(code: str) -> Any:
    """The seat's table once, as the stream sends it: what the page fetches every few
    seconds while its stream is refused (over a process's cap: 503) or broken."""
    opened = _held_here(code)
    if isinstance(opened, BaseResponse):
        return opened
    tid, seat = opened
    _, html = _seat_render(seat, normalized(code))(play_service().moment(tid, seat.match_id))
    return Response(html, mimetype="text/html", headers={"Cache-Control": "no-store"})


def _seat_render(seat: TableSeat, fixed: str) -> Callable[[TableMoment], tuple[str, str]]:
    """The seat's screen of a moment, for this device (its cookies' tokens)."""
    held = [device_hash(token) for token in sent_tokens() if token]

    def render(moment: TableMoment) -> tuple[str, str]:
        if not any(online.seat_device_ok(moment.t, seat.match_id, seat.seat, h) for h in held):
            # Released and taken by another device since: nothing more of the seat here,
            # and no "Your turn" left above it (P11): the title says so too.
            return "table", released_fragment()
        return "table", _fragment(moment, seat, fixed)

    return render


@pages.post("/play/<code>/move")
@requires(ANYONE)  # the code is the credential (T-code); wrong ones are rate-limited
def move(code: str) -> Any:
    opened = _held_here(code)
    if isinstance(opened, BaseResponse):
        return opened
    tid, seat = opened
    action = request.form.get("action", "").strip()
    try:
        version = _version()
        if not action:
            raise DomainError(
                "action", "R0", code="online.engine_refused",
                params={"action": "-", "why": "choose a card or an action", "rule": "R0"},
            )  # fmt: skip
        play_service().act(tid, seat.match_id, seat.seat, action, version, _metadata(seat))
    except DomainError as error:
        return _refused(tid, seat, code, error)
    return _done(tid, seat, code)


@pages.post("/play/<code>/no-claim")
@requires(ANYONE)
def no_claim(code: str) -> Any:
    """After the last trick its winner claims nothing (R16)."""
    opened = _held_here(code)
    if isinstance(opened, BaseResponse):
        return opened
    tid, seat = opened
    try:
        play_service().decline_claim(tid, seat.match_id, seat.seat, _version(), _metadata(seat))
    except DomainError as error:
        return _refused(tid, seat, code, error)
    return _done(tid, seat, code)


# --- helpers ------------------------------------------------------------------------------
def _held_here(code: str) -> tuple[str, TableSeat] | BaseResponse:
    """The tournament and seat of ``code`` when this device (its cookie) holds the seat;
    else the answer: the code's refusal (:func:`_open`), or the seat taken elsewhere."""
    found = _open(code)
    if isinstance(found, BaseResponse):
        return found
    tid, _, seat = found
    try:
        play_service().check_seat(tid, seat.match_id, seat.seat, *sent_tokens())
    except ConflictError:
        return seat_taken(tid)
    return tid, seat


def _open(code: str) -> tuple[str, Tournament, TableSeat] | BaseResponse:
    """The code's tournament, state and seat at an online table. A wrong code answers
    the code form with what is wrong, as ``/r`` does (and counts against the address's
    limit); a good code of a match not played online leads to ``/r/<code>``."""
    try:
        return online_seat(code)
    except DomainError as error:
        if error.rule == online.RULE:  # a good code, the match is not (or no longer) online
            return redirect(url_for("report.table", code=normalized(code)), code=303)
        g.wrong_code = True
        status = 404 if error.rule == "T-code" and "not a code" in error.message else 409
        html = render_template("report/ask.html", error=refusal(error), typed=code)
        return Response(html, status=status, mimetype="text/html")


def _version() -> int:
    text = request.form.get("version", "")
    try:
        return int(text)
    except ValueError:
        raise DomainError(
            "version", online.RULE, code="online.table_moved_on",
            params={"expected": text[:12] or "-", "version": "?"},
        ) from None  # fmt: skip


def _metadata(seat: TableSeat) -> dict[str, str]:
    return {
        "via": "phone",  # a player's phone, by a table code (the audit log says so)
        "request_id": request_id(),
        "correlation_id": request_id(),
        "source": "players",
        "actor": f"player {seat.player_id} (table code)",
    }


def _htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def _done(tid: str, seat: TableSeat, code: str) -> BaseResponse:
    if _htmx():
        moment = play_service().moment(tid, seat.match_id)
        return Response(_fragment(moment, seat, normalized(code)), mimetype="text/html")
    return redirect(url_for("play.table", code=normalized(code)), code=303)


def _refused(tid: str, seat: TableSeat, code: str, error: DomainError) -> BaseResponse:
    """The newest table with the refusal: a second click's quietly as a note, any other
    in the reader's language with its rule."""
    moved_on = error.code == MOVED_ON
    note = gettext("The table moved on: this is its newest state.") if moved_on else None
    problem = None if moved_on else refusal(error)
    if _htmx():  # htmx swaps a 200 only: the refusal is part of the fragment
        moment = play_service().moment(tid, seat.match_id)
        html = _fragment(moment, seat, normalized(code), note=note, problem=problem)
        return Response(html, mimetype="text/html")
    if moved_on:
        return redirect(url_for("play.table", code=normalized(code), note="moved"), code=303)
    return _page(
        tid, seat, code, problem=problem, status=409 if isinstance(error, ConflictError) else 422
    )


def _note_of(word: str) -> str | None:
    return gettext("The table moved on: this is its newest state.") if word == "moved" else None


def _page(
    tid: str,
    seat: TableSeat,
    code: str,
    *,
    note: str | None = None,
    problem: str | None = None,
    status: int = 200,
) -> Response:
    moment = play_service().moment(tid, seat.match_id)
    fixed = normalized(code)
    values = _values(moment, seat, fixed, note=note, problem=problem)
    settings = moment.t.settings
    html = render_template(
        "play/page.html",
        tournament=settings.name if settings is not None else tid,
        events_url=url_for("play.events", code=fixed, lang=current_language()),
        poll_url=url_for("play.table_part", code=fixed, lang=current_language()),
        **values,
    )
    return Response(html, status=status, mimetype="text/html")


def _fragment(
    moment: TableMoment,
    seat: TableSeat,
    code: str,
    *,
    note: str | None = None,
    problem: str | None = None,
) -> str:
    return str(
        render_template(
            "play/table.html", **_values(moment, seat, code, note=note, problem=problem)
        )
    )


def _values(
    moment: TableMoment,
    seat: TableSeat,
    code: str,
    *,
    note: str | None,
    problem: str | None,
) -> dict[str, Any]:
    """What the table fragment shows, all of it from the seat's view."""
    body = seat_view(moment, seat.seat)
    t = moment.t
    match = t.matches[seat.match_id]
    names = [t.players[p].name if p in t.players else str(p) for p in match.players]
    me, other = seat.seat, 1 - seat.seat
    view = body["view"]
    legal = view["legal_actions"] if view else []
    plays = {a["card"] for a in legal if a["action"] == "play" and not a.get("marriage")}
    marriages = [a["card"] for a in legal if a["action"] == "play" and a.get("marriage")]
    kinds = {a["action"] for a in legal if a["action"] != "play"}
    hand = _sorted(view["hand"], view["table"]["trump"]) if view else []
    status = body["status"]
    m = body["match"]
    to_play = body.get("to_play")  # the replier after a marriage lead (R12b)
    turn_name = names[to_play] if to_play is not None else ""
    title = _title(status, names, me, turn_name, m)
    return {
        "code": code,
        "csrf_token": generate_csrf(),
        "body": body,
        "view": view,
        "table": view["table"] if view else None,
        "status": status,
        "names": names,
        "me": me,
        "other": other,
        "you": names[me],
        "opponent": names[other],
        "turn_name": turn_name,
        "title": title,
        "hand": [
            {
                "code": c,
                "key": n,
                "legal": c in plays,
                "marriage": c in marriages,
            }
            for n, c in enumerate(hand, start=1)
        ],
        "can_exchange": "exchange" in kinds,
        "can_close": "close" in kinds,
        "can_claim": "claim" in kinds,
        "can_decline": status == "claim",
        "has_marriage": bool(marriages),
        "note": note,
        "problem": problem,
        "card_name": card_name,
        "suits": suit_words(),
        "ranks": rank_letters(),
        "reasons": reason_words(),
        "move_url": url_for("play.move", code=code),
        "no_claim_url": url_for("play.no_claim", code=code),
    }


def _sorted(cards: list[str], trump: str) -> list[str]:
    """The hand as the page lays it out: trumps first, then by suit, high cards left."""
    order = {"A": 0, "T": 1, "K": 2, "Q": 3, "J": 4}
    suits = [trump] + [s for s in "HSDC" if s != trump]
    return sorted(cards, key=lambda c: (suits.index(c[1]), order[c[0]]))


def _title(status: str, names: list[str], me: int, turn_name: str, m: dict[str, Any]) -> str:
    """The page's title: whose turn it is, first (a tab in the background says it)."""
    words: Any
    if status == "turn":
        words = gettext("Your turn")
    elif status == "claim":
        words = gettext("Your turn: claim or not")
    elif status == "wait":
        words = gettext("%(name)s's turn", name=turn_name)
    elif status == "over" and m["winner"] is not None:
        a, b = m["bummerl_wins"]
        words = gettext("Match over: %(name)s wins %(score)s", name=names[m["winner"]],
                        score=f"{max(a, b)}:{min(a, b)}")  # fmt: skip
    elif status == "over":
        words = gettext("Match over")
    elif status == "stopped":
        words = gettext("Online play stopped")
    elif status == "time":
        words = gettext("Time is up")
    elif status == "joining":
        words = gettext("Waiting for %(name)s to open their seat", name=names[1 - me])
    else:
        words = gettext("Dealing…")
    return str(words)


pages.record_once(
    wrong_code_limit(
        "play.table",
        "play.table_part",
        "play.take",
        "play.events",
        "play.move",
        "play.no_claim",
        refusal=lambda: gettext(
            "Too many wrong codes from this address: wait a minute, then try again."
        ),
    )
)

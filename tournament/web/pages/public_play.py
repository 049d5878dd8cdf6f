"""What the room sees of an online table, and a finished hand's replay and record (T-online).

No login, German and English, for a phone and for the projector:

- ``GET /t/<tid>/matches/<mid>/table``: the spectator view. Everything on it comes from
  :func:`~tournament.domain.views.onlineview.spectator_view` (the engine's table view: the
  turn-up, the talon's count, the cards played, declared marriages), plus the list of the
  table's finished hands, which holds outcomes only. No hand, no talon card, no table code
  ever reaches this page. ``?projector=1`` (or ``.../table/projector``): full screen, no
  navigation, type in vmin.
- ``GET /t/<tid>/matches/<mid>/table/events``: the same fragment as Server-Sent Events
  (:func:`tournament.play.stream.table_events`), event ``table``, swapped in by
  htmx-ext-sse. Each stream is counted under the live hub's cap (503 over it).
- ``GET /t/<tid>/matches/<mid>/hands/<n>``: hand ``n`` replayed step by step (``?step=k``),
  every card open -- only once the hand is over for good (:func:`hand_final`); before
  that a page saying so, status 409, and no card.
- ``GET /t/<tid>/matches/<mid>/hands/<n>/record.json``: the hand as ``schnapsen-record/1``
  (``docs/game-record.md``), as a download; 409 before the hand is over.
"""

from __future__ import annotations

import dataclasses
import json
import re
import threading
from collections import OrderedDict
from typing import Any, Final

from flask import (
    Blueprint,
    Response,
    g,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from markupsafe import Markup

from engine import HandState
from engine.outcome import Outcome
from engine.record import GameRecord
from tournament.app.play import Hand
from tournament.app.services import services
from tournament.domain.commands import online
from tournament.domain.model.errors import DomainError
from tournament.domain.model.hands import hand_record as stream_record
from tournament.domain.model.state import Tournament
from tournament.domain.views.onlineview import TableMoment, spectator_view
from tournament.live.hub import Full
from tournament.web.i18n import current_language
from tournament.web.live import play_service, table_event_stream
from tournament.web.pages.play_seats import own_table_refusal
from tournament.web.pages.public_parts import header, not_found
from tournament.web.streaming import event_stream

pages = Blueprint("public_play", __name__)

STREAM: Final = "text/event-stream"
RETRY_AFTER: Final = 10

#: A card as the room reads it: the suit's sign (its name for screen readers) and the
#: rank, as Austrian cards say it in German (Dame, Bube) and as English says it.
SUIT_SIGNS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES: Final = {
    "de": {"C": "Kreuz", "D": "Karo", "H": "Herz", "S": "Pik"},
    "en": {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"},
}
RANK_WORDS: Final = {
    "de": {"A": "A", "T": "10", "K": "K", "Q": "D", "J": "B"},
    "en": {"A": "A", "T": "10", "K": "K", "Q": "Q", "J": "J"},
}


def card(code: str) -> Markup:
    """One card: ``♥10`` in its suit's colour (as on the seat's page: hearts red,
    diamonds blue, clubs green, spades black), with the suit's name for a screen reader."""
    suit, rank = code[-1], code[:-1]
    lang = current_language() if current_language() in RANK_WORDS else "en"
    sign = SUIT_SIGNS.get(suit, suit)
    colour = f"suit-{suit}"
    words = RANK_WORDS[lang].get(rank, rank)
    name = SUIT_NAMES[lang].get(suit, suit)
    return Markup(
        '<span class="card {colour}"><span aria-hidden="true">{sign}</span>'
        '<span class="visually-hidden">{name} </span>{rank}</span>'
    ).format(colour=colour, sign=sign, name=name, rank=words)


def suit(letter: str) -> Markup:
    lang = current_language() if current_language() in SUIT_NAMES else "en"
    colour = f"suit-{letter}"
    return Markup('<span class="suit {c}">{sign} {name}</span>').format(
        c=colour, sign=SUIT_SIGNS.get(letter, letter), name=SUIT_NAMES[lang].get(letter, letter)
    )


def reason_words(
    reason: str | None, winner: int | None = None, closed_by: int | None = None
) -> str:
    """Why a hand ended (engine/outcome.py REASONS), in the reader's language, citing the
    rule that scores it: a correct claim R13, a false one R15, the closer's claim either
    way (and any correct claim in a closed hand) R14, the last trick R16, a closer who
    failed R14 (``closed_by``: who closed the talon, R9; a correct claim's winner is the
    claimer, a false one's the other)."""
    claimer = None if winner is None else winner if reason == "claim" else 1 - winner
    # Any correct claim in a closed hand is R14 (the closer's, or the opponent's first);
    # a false claim only when the closer made it (R15 otherwise).
    closed = closed_by is not None and (reason == "claim" or claimer == closed_by)
    words = {
        "claim": gettext("a claim of 66 (R14)") if closed else gettext("a claim of 66 (R13)"),
        "false_claim": (
            gettext("a false claim (R14)") if closed else gettext("a false claim (R15)")
        ),
        "last_trick": gettext("the last trick (R16)"),
        "closer_failed": gettext("a failed close (R14)"),
    }
    return str(words.get(reason or "", reason or ""))


# --- the spectator's table -----------------------------------------------------------------


def online_tables(t: Tournament) -> frozenset[str]:
    """The matches with a spectator page: every match that is or was played online (the
    pairings and the player pages link them as "Live table")."""
    return frozenset(t.online)


@dataclasses.dataclass(frozen=True)
class HandLine:
    """A finished hand in the table's list: its outcome, never a card."""

    number: int
    abandoned: bool
    winner: int | None
    game_points: int | None
    reason: str | None
    closed_by: int | None = None


#: Finished hands' lines by hand stream: a hand over for good does not change again.
_finished: OrderedDict[str, HandLine] = OrderedDict()
_finished_lock = threading.Lock()


def _hand_line(t: Tournament, number: int, hand: Hand) -> HandLine:
    with _finished_lock:
        known = _finished.get(hand.stream)
    if known is not None:
        return known
    outcome = hand.state.outcome()
    abandoned = hand.stream in t.live_abandoned
    line = HandLine(
        number,
        abandoned,
        None if abandoned else outcome.winner,
        None if abandoned else outcome.game_points,
        None if abandoned else outcome.reason,
        hand.state.closed_by,
    )
    with _finished_lock:
        _finished[hand.stream] = line
        while len(_finished) > 4096:
            _finished.popitem(last=False)
    return line


def finished_hands(tid: str, mid: str, moment: TableMoment) -> list[HandLine]:
    """The table's hands that are over for good, oldest first (each may be replayed).
    Every hand before the latest is (the next is dealt only then); the latest is when
    the moment says so. A finished hand's line is read once, then kept."""
    streams = list(online.table_of(moment.t, mid).hands)
    if streams and not (
        moment.final if streams[-1] == moment.stream else _final(tid, mid, streams)
    ):
        streams.pop()
    lines = []
    for number, stream in enumerate(streams, start=1):
        with _finished_lock:
            known = _finished.get(stream)
        if known is None:
            t, hand = play_service().hand_at(tid, mid, number)
            known = _hand_line(t, number, hand)
        lines.append(known)
    return lines


def _final(tid: str, mid: str, streams: list[str]) -> bool:
    """Whether the latest hand is over for good (read afresh: the moment is older)."""
    t, hand = play_service().hand_at(tid, mid, len(streams))
    return online.hand_final(t, hand.stream, hand.state)


def table_context(tid: str, mid: str, moment: TableMoment, *, projector: bool) -> dict[str, Any]:
    """What the table's fragment is rendered from: the spectator view and the finished
    hands' outcomes (read while no fold moves the shared state)."""
    with services().tournaments.reading():
        view = spectator_view(moment)
        hands = finished_hands(tid, mid, moment)
    return {
        "tid": tid,
        "mid": mid,
        "s": view,
        "hands": hands,
        "projector": projector,
        "card": card,
        "suit": suit,
        "reason_words": reason_words,
    }


def _moment(tid: str, mid: str) -> TableMoment | None:
    """The table now, or None when there is no such tournament or online table."""
    g.localized = True
    try:
        return play_service().moment(tid, mid)
    except DomainError:
        return None


def _not_a_table(tid: str, mid: str) -> tuple[str, int]:
    try:
        services().tournaments.state(tid)
    except DomainError:
        return not_found(tid)
    html = render_template("public/table_missing.html", tid=tid, mid=mid, top=_top(tid))
    return html, 404


def _top(tid: str) -> Any:
    with services().tournaments.reading():
        return header(tid, services().tournaments.state(tid))


@pages.get("/t/<tid>/matches/<mid>/table")
def table_page(tid: str, mid: str) -> Any:
    return _table_page(tid, mid, projector=request.args.get("projector") == "1")


@pages.get("/t/<tid>/matches/<mid>/table/projector")
def table_projector(tid: str, mid: str) -> Any:
    return _table_page(tid, mid, projector=True)


def _table_page(tid: str, mid: str, *, projector: bool) -> Any:
    refused = own_table_refusal(tid, mid)  # a seat's phone sees its seat's view only
    if refused is not None:
        return refused
    moment = _moment(tid, mid)
    if moment is None:
        return _not_a_table(tid, mid)
    context = table_context(tid, mid, moment, projector=projector)
    events = url_for(
        "public_play.table_stream",
        tid=tid,
        mid=mid,
        lang=current_language(),
        projector=1 if projector else None,
    )
    poll = url_for(
        "public_play.table_part",
        tid=tid,
        mid=mid,
        lang=current_language(),
        projector=1 if projector else None,
    )
    template = "public/table_projector.html" if projector else "public/table.html"
    return render_template(
        template, top=_top(tid), tab=None, events_url=events, poll_url=poll, **context
    )


@pages.get("/t/<tid>/matches/<mid>/table/events")
@event_stream
def table_stream(tid: str, mid: str) -> Any:
    """The table's fragment each time it changes (event ``table``)."""
    refused = own_table_refusal(tid, mid)
    if refused is not None:
        return refused
    if _moment(tid, mid) is None:
        return _not_a_table(tid, mid)
    projector = request.args.get("projector") == "1"

    def render(moment: TableMoment) -> tuple[str, str]:
        context = table_context(tid, mid, moment, projector=projector)
        return "table", render_template("public/table_part.html", **context)

    try:
        return table_event_stream(tid, mid, render)
    except Full:
        words = gettext("Too many live streams: the page asks again shortly.")
        return words, 503, {"Retry-After": str(RETRY_AFTER)}


@pages.get("/t/<tid>/matches/<mid>/table/part")
def table_part(tid: str, mid: str) -> Any:
    """The table's fragment once, as the stream sends it: what the page fetches every
    few seconds while its stream is refused (over a process's cap: 503) or broken."""
    refused = own_table_refusal(tid, mid)
    if refused is not None:
        return refused
    moment = _moment(tid, mid)
    if moment is None:
        return _not_a_table(tid, mid)
    context = table_context(tid, mid, moment, projector=request.args.get("projector") == "1")
    html = render_template("public/table_part.html", **context)
    return html, 200, {"Cache-Control": "no-store"}


# --- a finished hand: replay and record --------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Step:
    """One action of a replay as the page says it: who, what, which card, and the
    marriage's value (20 or 40, R10) when the play declares one (0: none)."""

    seat: int
    kind: str  # play | exchange | close | claim | no_claim (R16, the step after the last)
    card: str | None
    marriage: int


def steps_of(record: GameRecord) -> list[Step]:
    trump = record.start().trump.letter
    found = []
    for action in record.actions:
        code = action.card.code if action.card is not None else None
        value = (40 if code and code[-1] == trump else 20) if action.marriage else 0
        found.append(Step(action.seat, action.kind.word, code, value))
    return found


@dataclasses.dataclass(frozen=True)
class Replay:
    """A hand as its record holds it, and the position after ``step`` of its actions."""

    record: GameRecord
    step: int
    state: HandState
    abandoned: bool
    no_claim: bool = False  # the last trick's winner said "no claim" (R16): one step more

    @property
    def steps(self) -> int:
        return len(self.record.actions) + (1 if self.no_claim else 0)

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome() if self.state.is_over else None


def hand_record(t: Tournament, hand: Hand, *, tid: str, mid: str, number: int) -> GameRecord:
    """The hand's events as ``schnapsen-record/1``: the deal, then each action; the
    tournament, match, hand, players and outcome as the record's own extra fields."""
    record = stream_record(hand.events)
    match = t.matches[mid]
    extra: dict[str, Any] = {
        "tournament": tid,
        "match": mid,
        "hand": number,
        "players": list(match.labels),
        "outcome": record.outcome().to_json(),
    }
    if hand.stream in t.live_abandoned:
        extra["abandoned"] = True
    return dataclasses.replace(record, extra=extra)


def _finished_hand(tid: str, mid: str, number: int) -> tuple[Tournament, Hand] | str | None:
    """Hand ``number`` if it is over for good; ``"playing"`` while it is not; None when
    there is no such hand."""
    g.localized = True
    play = play_service()
    try:
        t = services().tournaments.state(tid)
        table = online.table_of(t, mid)
        if not 1 <= number <= len(table.hands):
            return None
        t, hand = play.hand_at(tid, mid, number)
    except DomainError:
        return None
    with services().tournaments.reading():
        final = online.hand_final(t, hand.stream, hand.state)
    return (t, hand) if final else "playing"


def _still_playing(tid: str, mid: str, number: int) -> tuple[str, int]:
    html = render_template(
        "public/replay_playing.html",
        top=_top(tid),
        tab=None,
        tid=tid,
        mid=mid,
        number=number,
        table_url=url_for("public_play.table_page", tid=tid, mid=mid),
    )
    return html, 409


@pages.get("/t/<tid>/matches/<mid>/hands/<int:number>")
def replay_page(tid: str, mid: str, number: int) -> Any:
    found = _finished_hand(tid, mid, number)
    if found is None:
        return _not_a_table(tid, mid)
    if isinstance(found, str):
        return _still_playing(tid, mid, number)
    t, hand = found
    with services().tournaments.reading():
        record = hand_record(t, hand, tid=tid, mid=mid, number=number)
        labels = list(t.matches[mid].labels)
        abandoned = hand.stream in t.live_abandoned
        declined = hand.stream in online.table_of(t, mid).closed
    # R16: a hand closed after the tenth trick with its winner still free to claim ends
    # with that winner's "no claim" -- a decision, not an engine action: the last step.
    no_claim = declined and not abandoned and bool(hand.state.to_act)
    actions = steps_of(record)
    if no_claim:
        actions.append(Step(hand.state.to_act[0], "no_claim", None, 0))
    text = request.args.get("step", "0")
    steps = len(actions)
    if not text.isdigit() or int(text) > steps:
        error = gettext("step: a whole number from 0 to %(n)s", n=steps)
        step, status = 0, 400
    else:
        error, step, status = None, int(text), 200
    state = record.start().apply_all(record.actions[: min(step, len(record.actions))])
    replay = Replay(record, step, state, abandoned, no_claim)
    html = render_template(
        "public/replay.html",
        top=_top(tid),
        tab=None,
        tid=tid,
        mid=mid,
        number=number,
        players=labels,
        r=replay,
        actions=actions,
        step_error=error,
        card=card,
        suit=suit,
        reason_words=reason_words,
        table_url=url_for("public_play.table_page", tid=tid, mid=mid),
        record_url=url_for("public_play.record_download", tid=tid, mid=mid, number=number),
    )
    return html, status


@pages.get("/t/<tid>/matches/<mid>/hands/<number>")
def replay_not_a_number(tid: str, mid: str, number: str) -> Any:
    """``hands/abc``: no such hand -- the public 404 page, in the reader's language."""
    g.localized = True
    return not_found("")  # "there is no page at this address" (the tournament may exist)


@pages.get("/t/<tid>/matches/<mid>/hands/<int:number>/record.json")
def record_download(tid: str, mid: str, number: int) -> Any:
    found = _finished_hand(tid, mid, number)
    if not isinstance(found, tuple):
        status = 404 if found is None else 409
        detail = (
            gettext("There is no such hand at this table.")
            if found is None
            else gettext(
                "Hand %(n)s is still being played: its record is given once the hand is over "
                "(T-online).",
                n=number,
            )
        )
        body = {
            "type": "about:blank",
            "title": str(gettext("No record")),
            "status": status,
            "detail": str(detail),
            "field": "hand",
            "rule": "T-online",
        }
        return Response(json.dumps(body), status, mimetype="application/problem+json")
    t, hand = found
    with services().tournaments.reading():
        record = hand_record(t, hand, tid=tid, mid=mid, number=number)
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", f"{tid}-{mid}-hand-{number}.json")
    response = Response(record.dumps() + "\n", mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response

"""Online tables at the desk (issue 12, T-online, T-clock): start a match online from the
rounds page, see every online table at ``/desk/t/<tid>/online``, and decide when a clock
runs out.

The page lists each online table with its players, the hand in play, the Bummerl score,
whose turn it is, the clock and the table's status, and links the spectator page. It
never shows a card: the desk may be in view of the players. The overview refreshes
itself every few seconds (htmx polls :func:`status_fragment`), so a time-up appears on its
own; the decisions sit below it, outside the refreshed part, so what the organiser types
is not swept away.

The decisions are the organiser's (T-clock): restart the clock, abandon the hand (it
never counts; the same dealer deals again, R18), or stop online play (the rest of the
match is entered from paper). Each goes through :class:`~tournament.app.play.PlayService`
with the page's metadata, as every desk write does; a refusal is shown beside the field
at fault, in the reader's language, and nothing is stored.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime
from typing import Any, Final

from flask import flash, redirect, render_template, request, url_for
from flask_babel import format_time, gettext
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain.commands import online
from tournament.domain.commands.online import MOVE_SECONDS
from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.model.state import Tournament
from tournament.domain.views.onlineview import TableMoment, status
from tournament.web.auth import caller, requires
from tournament.web.live import play_service
from tournament.web.pages import desk_rounds
from tournament.web.pages.desk import desk_blueprint, desk_context, refusal
from tournament.web.pages.page_writes import field_errors, page_metadata

pages = desk_blueprint("desk_online", __name__)

#: Seconds between two looks of the online page at its tables (htmx polling).
REFRESH_SECONDS: Final = 3

#: What a table (or a seat) waits for, as :func:`tournament.domain.views.onlineview.status`
#: names it, in the desk's words.
STATUS_WORDS: Final[dict[str, LazyString]] = {
    "joining": _l("waiting for the players"),
    "waiting": _l("waiting for the deal"),
    "turn": _l("to play"),
    "wait": _l("waiting"),
    "claim": _l("may claim (R16)"),
    "over": _l("match decided (R20)"),
    "stopped": _l("stopped: the rest on paper"),
    "time": _l("time is up (T-clock)"),
}
#: The table's own status (no seat): while a hand is played it is simply "in play".
TABLE_WORDS: Final[dict[str, LazyString]] = {**STATUS_WORDS, "wait": _l("in play")}


@dataclasses.dataclass(frozen=True)
class OnlineLine:
    """An online table as the desk shows it: no card, ever."""

    match_id: str
    round: int
    table: int
    names: tuple[str, str]
    hand: int  # the hand's place at the table (0 before the first deal)
    bummerl: tuple[int, int]  # Bummerl won so far
    scores: tuple[int, int]  # game points still to strike off in this Bummerl (R17)
    seats: tuple[str, str]  # what each seat waits for (STATUS_WORDS' keys)
    status: str  # the table's (no seat)
    move_seconds: int | None
    deadline: datetime | None
    left: int | None  # seconds left on the clock (None: no clock running)
    expired: bool
    stopped: bool
    decided: bool
    in_play: bool  # a hand dealt and not over for good: it may be abandoned
    to_act: tuple[int, ...] = ()  # the seats the hand waits for (none once it is over)
    problem: str | None = None  # the table could not be read (its refusal, in words)
    joined: tuple[bool, bool] = (False, False)  # a device holds the seat (T-online)
    flags: tuple[str, ...] = ()  # how the seats were taken, worth a look (in words)


def line_of(t: Tournament, moment: TableMoment, now: datetime) -> OnlineLine:
    """The desk's line of one table at ``moment``: counts and words, no card."""
    match = moment.match
    table = t.online[moment.match_id]
    clock = moment.clock
    left = None
    if clock.deadline is not None:
        left = max(0, int((clock.deadline - now).total_seconds() + 0.999))
    seats = (status(moment, 0), status(moment, 1))
    state = moment.state
    in_play = state is not None and not moment.final and not table.stopped
    acting = tuple(sorted(state.to_act)) if state is not None and not moment.final else ()
    if table.joined_at is None:  # nobody is to act before both players are there
        acting = ()
    in_play = in_play and moment.stream not in t.live_results  # the R16 claim window
    return OnlineLine(
        match_id=match.match_id,
        round=match.round,
        table=match.table,
        names=(match.labels[0], match.labels[1]),
        hand=moment.number,
        bummerl=(match.summary.bummerl[0], match.summary.bummerl[1]),
        scores=(match.engine.current.scores[0], match.engine.current.scores[1]),
        seats=seats,
        status=status(moment, None),
        move_seconds=table.move_seconds,
        deadline=clock.deadline,
        left=left,
        expired=clock.expired,
        stopped=table.stopped,
        decided=match.decided,
        in_play=in_play,
        to_act=() if table.stopped or match.decided else acting,
        joined=(0 in table.devices, 1 in table.devices),
        flags=tuple(seat_flag_words(t, moment.match_id)),
    )


def seat_flag_words(t: Tournament, match_id: str) -> list[str]:
    """The table's seat flags (:func:`tournament.domain.commands.online.seat_flags`) in the desk's
    words: what was refused is not here, only what proves no second person or showed a
    hand to a new device."""
    names = t.matches[match_id].labels
    out = []
    for f in online.seat_flags(t, match_id):
        if f.flag == online.BOTH_SEATS_SAME_DEVICE:
            out.append(gettext("Both seats were taken from the same phone."))
        elif f.flag == online.BOTH_SEATS_SAME_ADDRESS:
            out.append(
                gettext(
                    "Both seats were taken from the same network address: perhaps one phone "
                    "(a private tab or a second browser), perhaps two phones on one Wi-Fi. "
                    "Check that each player plays on their own phone."
                )
            )
        elif f.flag == online.RETAKEN_IN_HAND:
            out.append(
                gettext(
                    "%(name)s's seat was released by %(by)s during a hand and taken by "
                    "another phone, which saw that hand's cards.",
                    name=names[f.seat],
                    by=f.by or "–",
                )
            )
    return out


def flagged_lines(tid: str) -> list[OnlineLine]:
    """The online tables with a seat flag, for the queue."""
    return [line for line in online_lines(tid) if line.flags]


def online_lines(tid: str) -> list[OnlineLine]:
    """Every online table of ``tid``, the current round's first, by table. Reading a table
    deals its next hand if it waits for one (as any screen of it would)."""
    play = play_service()
    t = services().tournaments.state(tid)
    lines = []
    for match_id in list(t.online):
        try:
            moment = play.moment(tid, match_id)
        except DomainError as error:
            lines.append(_unreadable(t, match_id, error))
            continue
        lines.append(line_of(moment.t, moment, play.now()))
    return sorted(lines, key=lambda x: (-x.round, x.table, x.match_id))


def _unreadable(t: Tournament, match_id: str, error: DomainError) -> OnlineLine:
    match = t.matches[match_id]
    table = t.online[match_id]
    return OnlineLine(
        match_id, match.round, match.table, (match.labels[0], match.labels[1]), 0, (0, 0),
        (0, 0), ("waiting", "waiting"), "waiting", table.move_seconds, None, None, False,
        table.stopped, match.decided, False, (), refusal(error),
    )  # fmt: skip


def timed_out(tid: str) -> list[OnlineLine]:
    """The online tables whose clock ran out: the organiser decides (T-clock)."""
    return [line for line in online_lines(tid) if line.expired and not line.stopped]


def clock_words(line: OnlineLine) -> str:
    """The clock as the desk says it (no seconds counted by the browser: the page
    refreshes itself)."""
    if line.move_seconds is None:
        return str(gettext("no clock"))
    if line.deadline is None:
        return str(gettext("%(n)s s per move", n=line.move_seconds))
    until = format_time(line.deadline, "HH:mm:ss")
    if line.expired:
        return str(gettext("time is up (since %(time)s)", time=until))
    return str(gettext("%(left)s s left (until %(time)s)", left=line.left, time=until))


# --- Pages -------------------------------------------------------------------------------


@pages.get("/desk/t/<tid>/online")
@requires(Role.ORGANISER)
def online_page(tid: str) -> Any:
    return _page(tid)


@pages.get("/desk/t/<tid>/online/status")
@requires(Role.ORGANISER)
def status_fragment(tid: str) -> Any:
    """The overview alone, for htmx to swap in every few seconds."""
    return render_template("desk/online/status.html", **_context(tid))


def _context(tid: str, **values: Any) -> dict[str, Any]:
    t = services().tournaments.state(tid)
    assert t.settings is not None
    return desk_context(
        tid,
        area="online",
        name=t.settings.name,
        lines=online_lines(tid),
        status_words=STATUS_WORDS,
        table_words=TABLE_WORDS,
        clock_words=clock_words,
        refresh=REFRESH_SECONDS,
        **values,
    )


def _page(
    tid: str, *, status: int = 200, errors: dict[str, dict[str, str]] | None = None,
    values: dict[str, str] | None = None, error: str | None = None,
) -> Any:  # fmt: skip
    html = render_template(
        "desk/online/online.html",
        **_context(tid, errors=errors or {}, values=values or {}, error=error),
    )
    return html, status


def refused_status(error: DomainError) -> int:
    """As the API answers a refusal: 404 not there, 409 against the record, 422 the rest."""
    if isinstance(error, NotFoundError):
        return 404
    return 409 if isinstance(error, ConflictError) else 422


# --- Start a match online (from the rounds page) -----------------------------------------


def move_seconds_field() -> int | None:
    """The time per move as typed: empty is no clock; anything but digits is refused as
    the domain refuses a number out of range (T-clock)."""
    text = request.form.get("move_seconds", "").strip()
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        low, high = MOVE_SECONDS
        raise DomainError(
            "move_seconds",
            "T-clock",
            code="online.move_seconds_range",
            params={"low": low, "high": high, "given": text[:20]},
        )
    return int(text)


@pages.post("/desk/t/<tid>/rounds/online")
@requires(Role.ORGANISER)
def start_chosen_online(tid: str) -> Any:
    """The rounds page's one "Play a table online" form (O-L9): the table is chosen in
    its select, the rest is :func:`start_online`."""
    mid = request.form.get("match", "").strip()[:40]
    if not mid:
        message = gettext("match: choose the table to play online (T-online)")
        return desk_rounds.render_rounds(tid, status=422, online_errors={"": message})
    return start_online(tid, mid)


@pages.post("/desk/t/<tid>/rounds/<mid>/online")
@requires(Role.ORGANISER)
def start_online(tid: str, mid: str) -> Any:
    """Play ``mid`` online, with the time per move typed (none: no clock)."""
    typed = request.form.get("move_seconds", "").strip()[:20]
    try:
        seconds = move_seconds_field()
        play_service().start(
            tid, mid, move_seconds=seconds, metadata=page_metadata(), actor=caller().actor
        )
    except DomainError as error:
        message = field_errors(error, {"move_seconds"}).popitem()[1]
        return desk_rounds.render_rounds(
            tid,
            status=refused_status(error),
            online_errors={mid: message},
            online_values={mid: typed},
        )
    flash(gettext("Match %(id)s is played online now.", id=mid), "success")
    return redirect(url_for(".online_page", tid=tid) + f"#table-{mid}", 303)


# --- The organiser's decisions -------------------------------------------------------------


def _decide(tid: str, mid: str, decision: str, action: Callable[[], object], done: str) -> Any:
    """Store ``action``; a refusal is shown beside the field at fault of the form it came
    from (keyed ``<decision>-<match>``), with what was typed."""
    typed = {k: request.form.get(k, "").strip()[:500] for k in ("by", "why")}
    try:
        action()
    except DomainError as error:
        errors = field_errors(error, {"by", "why"}, aliases={"reason": "why"})
        form = f"{decision}-{mid}"
        return _page(
            tid, status=refused_status(error), errors={form: errors}, values=typed,
            error=refusal(error),
        )  # fmt: skip
    flash(done, "success")
    return redirect(url_for(".online_page", tid=tid) + f"#table-{mid}", 303)


def _text(name: str) -> str:
    return request.form.get(name, "").strip()


@pages.post("/desk/t/<tid>/online/<mid>/clock")
@requires(Role.ORGANISER)
def restart_clock(tid: str, mid: str) -> Any:
    """The seat to act has its time again (T-clock)."""
    return _decide(
        tid,
        mid,
        "clock",
        lambda: play_service().restart_clock(
            tid, mid, by=_text("by"), metadata=page_metadata(), actor=caller().actor
        ),
        gettext("The clock of match %(id)s runs again.", id=mid),
    )


@pages.post("/desk/t/<tid>/online/<mid>/abandon")
@requires(Role.ORGANISER)
def abandon_hand(tid: str, mid: str) -> Any:
    """The hand in play never counts; the same dealer deals again (R18)."""
    return _decide(
        tid,
        mid,
        "abandon",
        lambda: play_service().abandon_hand(
            tid,
            mid,
            by=_text("by"),
            reason=_text("why"),
            metadata=page_metadata(),
            actor=caller().actor,
        ),
        gettext(
            "The hand of match %(id)s is abandoned: the same dealer deals again (R18).", id=mid
        ),
    )


@pages.post("/desk/t/<tid>/online/<mid>/release")
@requires(Role.ORGANISER)
def release_seat(tid: str, mid: str) -> Any:
    """The seat's device is gone: the next device to open its code takes it (T-online).
    The form names the seat (0 or 1) and who decides."""
    text = _text("seat")
    seat: Any = int(text) if text in ("0", "1") else text[:8]  # else the domain refuses it
    return _decide(
        tid,
        mid,
        f"release{seat}",
        lambda: play_service().release_seat(
            tid, mid, seat, by=_text("by"), metadata=page_metadata(), actor=caller().actor
        ),
        gettext("The seat is free: the next phone to open its code takes it."),
    )


@pages.post("/desk/t/<tid>/online/<mid>/stop")
@requires(Role.ORGANISER)
def stop_online(tid: str, mid: str) -> Any:
    """Online play of ``mid`` ends; the rest of the match is entered from paper."""
    return _decide(
        tid,
        mid,
        "stop",
        lambda: play_service().stop(
            tid,
            mid,
            by=_text("by"),
            reason=_text("why"),
            metadata=page_metadata(),
            actor=caller().actor,
        ),
        gettext("Online play of match %(id)s is stopped: enter the rest from paper.", id=mid),
    )

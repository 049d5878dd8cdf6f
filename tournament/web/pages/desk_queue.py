"""The organiser's queue (``/desk/t/<tid>/queue``): flagged matches and disputes in one
list, and the current round's table codes (T-code).

A match is in the queue when the players' reports differ, a player disputed, or the domain
flagged it (a result changed after it was drawn, ``MatchState.flags``). Each has its
actions: accept one report as the result, enter the sheet at the desk, or dismiss (the
organiser dealt with it). The codes of the current round are listed with their tables;
revoking one match's codes, or the round's, is one event (the old cards stop working).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from flask import Response, flash, redirect, render_template, request
from flask_babel import gettext

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain.commands import reports as rp
from tournament.domain.commands.corrections import clear_flag
from tournament.domain.commands.tablecodes import match_codes, round_open
from tournament.domain.model.errors import DomainError
from tournament.domain.model.matchstate import MatchState
from tournament.domain.model.reportbook import MatchReports
from tournament.domain.model.state import Tournament
from tournament.domain.model.tally import tally_text
from tournament.eventstore.api import NewEvent
from tournament.web import tablecodes
from tournament.web.auth import caller, requires
from tournament.web.pages.desk import desk_blueprint, desk_context, refusal
from tournament.web.pages.desk_online import flagged_lines, timed_out
from tournament.web.pages.page_writes import page_metadata

pages = desk_blueprint("desk_queue", __name__)


@dataclasses.dataclass(frozen=True)
class Side:
    """One seat's report, as the queue shows it beside the other's."""

    seat: int
    name: str
    lines: list[str]


@dataclasses.dataclass(frozen=True)
class Item:
    """A match waiting for the organiser."""

    match_id: str
    round: int
    table: int
    names: tuple[str, str]
    sides: list[Side]
    disputes: list[tuple[str, str]]  # (who, reason)
    mismatch: bool
    flags: list[str]
    decided: bool


@dataclasses.dataclass(frozen=True)
class Doubtful:
    """A result the players "confirmed" from the reporting phone or address (O-M2)."""

    match_id: str
    round: int
    table: int
    names: tuple[str, str]
    why: list[str]


@dataclasses.dataclass(frozen=True)
class CodeLine:
    match_id: str
    table: int
    names: tuple[str, str]
    codes: tuple[str, str]


@pages.get("/desk/t/<tid>/queue")
@requires(Role.ORGANISER)
def queue(tid: str) -> Any:
    return _page(tid)


@pages.post("/desk/t/<tid>/queue/accept")
@requires(Role.ORGANISER)
def accept(tid: str) -> Any:
    match_id = request.form.get("match_id", "")
    seat = 1 if request.form.get("seat") == "1" else 0
    return _write(
        tid,
        lambda t: rp.accept_report(t, match_id, seat, actor=caller().actor),
        gettext("The report is recorded as the result."),
    )


@pages.post("/desk/t/<tid>/queue/dismiss")
@requires(Role.ORGANISER)
def dismiss(tid: str) -> Any:
    match_id = request.form.get("match_id", "")

    def command(t: Tournament) -> list[NewEvent]:
        return [
            *rp.dismiss(t, match_id, actor=caller().actor),
            *clear_flag(t, match_id, actor=caller().actor),
        ]

    return _write(tid, command, gettext("Taken off the queue."))


@pages.post("/desk/t/<tid>/codes/revoke")
@requires(Role.ORGANISER)
def revoke(tid: str) -> Any:
    match_id = request.form.get("match_id") or None
    done = (
        gettext("New codes for this table: print its card again.")
        if match_id
        else gettext("New codes for every table of the round: print the cards again.")
    )
    return _write(tid, lambda t: rp.revoke_codes(t, match_id=match_id, actor=caller().actor), done)


def _write(tid: str, command: Callable[[Tournament], list[NewEvent]], done: str) -> Any:
    try:
        services().tournaments.execute(tid, command, metadata=page_metadata())
    except DomainError as error:
        return _page(tid, error=refusal(error), status=422)
    flash(done, "done")
    return redirect(f"/desk/t/{tid}/queue", code=303)


def _page(tid: str, *, error: str | None = None, status: int = 200) -> Response:
    service = services().tournaments
    t = service.state(tid)
    key = tablecodes.secret()
    with service.reading():
        items = [_item(t, m, book) for m, book in rp.queue(t)]
        doubtful = [_doubtful(t, m, book) for m, book in rp.flagged_confirmations(t)]
        codes = _codes(t, key)
        current = t.current_round
        open_now = bool(current) and round_open(t, current)
    timeouts = timed_out(tid)  # online tables whose clock ran out (T-clock)
    seat_flags = flagged_lines(tid)  # online seats taken in a way worth a look (T-online)
    html = render_template(
        "desk/queue/queue.html",
        **desk_context(
            tid,
            area="queue",
            items=items,
            doubtful=doubtful,
            codes=codes,
            current=current,
            codes_open=open_now,
            timeouts=timeouts,
            seat_flags=seat_flags,
            error=error,
        ),
    )
    return Response(html, status=status, mimetype="text/html")


def _item(t: Tournament, match: MatchState, book: MatchReports) -> Item:
    names = (t.players[match.players[0]].name, t.players[match.players[1]].name)
    sides = [
        Side(seat, names[seat], [tally_text(x) for x in report.tallies])
        for seat, report in sorted(book.reports.items())
    ]
    disputes = [
        (gettext("The reports differ"), "")
        if d.seat is None
        else (names[d.seat], gettext(d.reason) if d.reason in rp.OWN_REASONS else d.reason)
        for d in book.disputes
    ]
    return Item(
        match.match_id,
        match.round,
        match.table,
        names,
        sides if book.queued else [],
        disputes if book.queued else [],
        len(sides) == 2,
        list(match.flags),
        match.decided,
    )


def _doubtful(t: Tournament, match: MatchState, book: MatchReports) -> Doubtful:
    names = (t.players[match.players[0]].name, t.players[match.players[1]].name)
    words = {
        rp.SAME_DEVICE: gettext("report and confirmation came from the same phone"),
        rp.SAME_ADDRESS: gettext(
            "report and confirmation came from the same network address (on the club's "
            "Wi-Fi many phones share one)"
        ),
    }
    why = [words[f] for f in book.flags if f in words]
    return Doubtful(match.match_id, match.round, match.table, names, why)


def _codes(t: Tournament, key: bytes) -> list[CodeLine]:
    if not t.current_round:
        return []
    out = []
    for mid in t.rounds[-1].matches:
        match = t.matches[mid]
        names = (t.players[match.players[0]].name, t.players[match.players[1]].name)
        pair = match_codes(key, t, match)
        out.append(CodeLine(mid, match.table, names, pair))
    return sorted(out, key=lambda line: line.table)

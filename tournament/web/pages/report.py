"""Players report from the table (T-code), on a phone, without an account.

``/r/<code>`` is the link of the QR code on the table card; ``/r`` asks for the code. The
page shows the match, and then what the seat can do: enter the sheet (one line per
Bummerl, in the paper's tally notation), confirm or dispute the opponent's report, or
dispute the recorded result. Every write is a command of :mod:`tournament.domain.commands.reports`,
which checks the code again on the state it is decided on.

Wrong codes (unknown, revoked, expired) are rate-limited per address
(``REPORT_CODE_RATE_LIMIT``, default 10 per minute, over all these routes together): once
over the limit every code is refused for a while, the right one too, so six letters cannot
be guessed by trying.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from flask import Response, g, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_wtf.csrf import generate_csrf

from tournament.app.services import services
from tournament.domain.commands import reports as rp
from tournament.domain.commands.tablecodes import TableSeat, normalized, resolve
from tournament.domain.model.errors import DomainError
from tournament.domain.model.reportbook import Report
from tournament.domain.model.state import Tournament
from tournament.domain.model.tally import tally_text
from tournament.eventstore.api import NewEvent
from tournament.web import tablecodes
from tournament.web.auth import ANYONE, requires
from tournament.web.devices import give_devices, origin
from tournament.web.pages.desk import desk_blueprint, refusal
from tournament.web.problems import request_id
from tournament.web.tablecodes import wrong_code_limit

pages = desk_blueprint("report", __name__)
give_devices(pages)

#: Wrong codes per address before every code is refused for a while.


@dataclasses.dataclass(frozen=True)
class Sheet:
    """A report as the page shows it: each Bummerl's tally, and who sent it."""

    by: str
    lines: list[str]
    confirmed: bool


@pages.get("/r")
def ask_code() -> Any:
    """The form to type a code; with ``?code=`` it opens that code's page."""
    typed = request.args.get("code")
    if typed is not None and normalized(typed):
        return redirect(url_for("report.table", code=normalized(typed)), code=303)
    return render_template("report/ask.html", error=None, typed=typed or "")


@pages.get("/r/<code>")
def table(code: str) -> Any:
    found = _open(code)
    if isinstance(found, Response):
        return found
    tid, t, seat = found
    online = t.online.get(seat.match_id)
    if online is not None and not online.stopped:  # played online: its table (T-online)
        return redirect(url_for("play.table", code=normalized(code)), code=303)
    done = request.args.get("done", "")
    return _page(tid, t, seat, code, done=done)


@pages.post("/r/<code>")
@requires(ANYONE)  # the code is the credential (T-code); wrong ones are rate-limited
def act(code: str) -> Any:
    found = _open(code)
    if isinstance(found, Response):
        return found
    tid, t, seat = found
    action = request.form.get("action", "")
    key = tablecodes.secret()
    sent_from = origin()  # the device's and the address's hashes: a confirmation from
    # the reporter's own phone or address is flagged for the organiser (O-M2)
    commands: dict[str, Callable[[Tournament], list[NewEvent]]] = {
        "report": lambda s: rp.submit_report(
            s, key, code, _sheet_lines(), actor=_actor(seat), origin=sent_from
        ),
        "confirm": lambda s: rp.confirm_report(s, key, code, actor=_actor(seat), origin=sent_from),
        "dispute": lambda s: rp.dispute_report(
            s, key, code, request.form.get("reason", ""), actor=_actor(seat)
        ),
    }
    command = commands.get(action)
    if command is None:
        return _page(tid, t, seat, code, error=gettext("Choose what to do."), status=422)
    try:
        services().tournaments.execute(tid, command, metadata=_metadata())
    except DomainError as error:
        t = services().tournaments.state(tid)
        return _page(tid, t, seat, code, error=refusal(error), status=422)
    return redirect(url_for("report.table", code=normalized(code), done=action), code=303)


def _open(code: str) -> tuple[str, Tournament, TableSeat] | Response:
    """The code's tournament, state and seat; a wrong code answers the form again with
    what is wrong (and counts against the address's limit)."""
    try:
        tid, t = tablecodes.find(code)
        with services().tournaments.reading():
            seat = resolve(tablecodes.secret(), t, code)
    except DomainError as error:
        g.wrong_code = True
        status = 404 if error.rule == "T-code" and "not a code" in error.message else 409
        html = render_template("report/ask.html", error=refusal(error), typed=code)
        return Response(html, status=status, mimetype="text/html")
    return tid, t, seat


def _actor(seat: TableSeat) -> str:
    return f"player {seat.player_id} (table code)"


def _metadata() -> dict[str, str]:
    return {
        "via": "phone",  # a player's phone, by a table code (the audit log says so)
        "request_id": request_id(),
        "correlation_id": request_id(),
        "source": "players",
    }


def _sheet_lines() -> list[str]:
    return [value for key, value in sorted(request.form.items()) if key.startswith("bummerl_")]


def _page(
    tid: str,
    t: Tournament,
    seat: TableSeat,
    code: str,
    *,
    error: str | None = None,
    done: str = "",
    status: int = 200,
) -> Response:
    with services().tournaments.reading():
        values = _view(t, seat)
    assert t.settings is not None
    html = render_template(
        "report/table.html",
        tid=tid,
        tournament=t.settings.name,
        code=normalized(code),
        error=error,
        done=done,
        typed=[request.form.get(f"bummerl_{n}", "") for n in range(1, values["best_of"] + 1)]
        if request.method == "POST"
        else [""] * values["best_of"],
        reason=request.form.get("reason", "") if request.method == "POST" else "",
        csrf_token=generate_csrf(),
        **values,
    )
    return Response(html, status=status, mimetype="text/html")


def _view(t: Tournament, seat: TableSeat) -> dict[str, Any]:
    match = t.matches[seat.match_id]
    names = [t.players[p].name for p in match.players]
    book = rp.reports_of(t, match)
    own = book.reports.get(seat.seat)
    other = book.reports.get(1 - seat.seat)
    if match.entries:
        stage = "recorded" if match.decided else "desk"
    elif book.queued:
        stage = "queued"
    elif other is not None:
        stage = "confirm"
    elif own is not None:
        stage = "waiting"
    else:
        stage = "enter"
    a, b = match.summary.bummerl
    return {
        "table": match.table,
        "round": match.round,
        "best_of": match.best_of,
        "names": names,
        "you": names[seat.seat],
        "opponent": names[1 - seat.seat],
        "stage": stage,
        "score": f"{a}:{b}",
        "winner": names[match.summary.winner] if match.summary.winner is not None else "",
        "own": _sheet(own, names),
        "other": _sheet(other, names),
        "disputes": [
            gettext(d.reason) if d.reason in rp.OWN_REASONS else d.reason for d in book.disputes
        ],
    }


def _sheet(report: Report | None, names: list[str]) -> Sheet | None:
    if report is None:
        return None
    lines = [tally_text(tally) for tally in report.tallies]
    return Sheet(names[report.seat], lines, report.confirmed_by is not None)


pages.record_once(
    wrong_code_limit(
        "report.table",
        "report.act",
        refusal=lambda: gettext(
            "Too many wrong codes from this address: wait a minute, then try again."
        ),
    )
)

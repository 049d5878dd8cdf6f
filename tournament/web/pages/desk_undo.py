"""Undo at the scoresheet desk: ``POST /desk/t/<tid>/sheets/undo`` (issue 11).

The last entry of the current round (:func:`.sheet_entry.last_entry`: a whole sheet's
Bummerl together) is voided by correction events naming who and why (T-correction):
nothing is deleted, the log keeps the entry and its undoing, and the correction page
shows the voided Bummerl struck through.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import redirect, render_template, request
from flask_babel import gettext

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain import commands as c
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.eventstore.api import NewEvent
from tournament.web.auth import caller, requires
from tournament.web.pages.desk import desk_blueprint, refusal
from tournament.web.pages.desk_sheets import page_values
from tournament.web.pages.messages import page_error
from tournament.web.pages.page_writes import page_metadata
from tournament.web.pages.sheet_entry import last_entry

pages = desk_blueprint("desk_sheets_undo", __name__)

#: Why an undo's corrections were made, as the log keeps it.
UNDO_REASON = "undone at the scoresheet desk"


@pages.post("/desk/t/<tid>/sheets/undo")
@requires(Role.SCORER)
def undo(tid: str) -> Any:
    """Void the last entry's results by correction events (T-correction): they stay in
    the log, struck through. A scorer undoes their own entry; another's takes an
    organiser. The page's version guards it: an entry made since the page was shown is
    not undone blind. Without ``confirm=yes`` it only asks, naming the table and players
    (the page's "Keep" focused): nothing is stored until the second press."""
    service = services().tournaments
    t = service.state(tid)
    group = last_entry(t, service.events(tid))
    me = caller()
    seen = request.form.get("version", "")
    problem = None
    if not group:
        problem = gettext("There is no entry to undo.")
    elif seen != str(t.version):
        problem = gettext("Something was stored since this page was shown: look again.")
    elif group[0].metadata.get("account") != me.actor and me.role_in(tid) < Role.ORGANISER:
        problem = gettext("The last entry is someone else's: an organiser corrects it.")
    if problem is not None:
        html = render_template("desk/sheets/page.html", **page_values(tid, t, "", error=problem))
        return html, 409
    if request.form.get("confirm") != "yes":
        # The first press only asks (N-H1): a stray key on the button undoes nothing.
        values = page_values(tid, t, "", focus="undo")
        return render_template("desk/sheets/page.html", confirm_undo=True, **values)
    ids = [str(e.payload["result_id"]) for e in group]

    def command(state: Tournament) -> list[NewEvent]:
        if state.version != t.version:
            raise page_error(DomainError, "version", "T-correction", "page.changed_look_again")
        out: list[NewEvent] = []
        for rid in reversed(ids):
            out += c.correct_result(
                state, rid, None, by=me.actor, reason=UNDO_REASON, actor=me.actor
            )
        return out

    try:
        service.submit(tid, command, metadata=page_metadata())
    except DomainError as error:
        values = page_values(tid, t, "", error=refusal(error))
        html = render_template("desk/sheets/page.html", **values)
        return html, 422
    table = t.matches[str(group[0].payload["match_id"])].table
    undone = urlencode({"table": table, "undone": str(group[0].payload["match_id"])})
    return redirect(f"/desk/t/{tid}/sheets?{undone}", code=303)

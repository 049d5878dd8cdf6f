"""Corrections from the scoresheet desk: ``/desk/t/<tid>/sheets/<mid>/correct``.

The recorded sheet (struck hands and voided Bummerl struck through), the corrected
Bummerl or "void", and why; "Preview impact" decides the correction on the newest state
and shows what it would change (:func:`tournament.domain.views.preview.preview`: the match,
reopened and flagged matches, the bracket, the standings, the next round's draw) storing
nothing; "Store correction" stores exactly that, refused when anything was stored since
the preview (the version the preview was made on goes with the form). A correction is
an event naming who and why, never an edit (T-correction), as the API's
``POST .../results/{rid}/corrections`` makes it (:func:`correction_command`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import flash, redirect, render_template, request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain import commands as c
from tournament.domain.commands.correcting import Correction, correction_command
from tournament.domain.commands.entry import Command
from tournament.domain.commands.matchref import resolve_match
from tournament.domain.model.errors import DomainError
from tournament.domain.model.matchstate import Entry
from tournament.domain.model.state import Tournament
from tournament.domain.model.tally import tally_hands, tally_text
from tournament.domain.model.text import plain_text
from tournament.domain.views.preview import Preview, preview
from tournament.eventstore.api import NewEvent
from tournament.web.auth import caller, requires
from tournament.web.pages.desk import desk_blueprint, desk_context, refusal
from tournament.web.pages.messages import page_error, say
from tournament.web.pages.page_writes import page_metadata
from tournament.web.pages.sheet_entry import SPELLING, sheet_match

pages = desk_blueprint("desk_corrections", __name__)


@dataclasses.dataclass(frozen=True)
class RecordedHand:
    winner: str
    game_points: int
    struck: bool  # struck by the organiser: its game points no longer count (R17)


@dataclasses.dataclass(frozen=True)
class Recorded:
    """One result of the match as the sheet shows it."""

    result_id: str
    kind: str  # hand, tally, live, forfeit
    text: str  # the tally as typed, or the hand or forfeit in words
    void: bool
    hands: tuple[RecordedHand, ...]


def recorded(t: Tournament, match_id: str) -> list[Recorded]:
    m = t.matches[match_id]
    return [_recorded(t, m.players, e) for e in m.entries]


def _recorded(t: Tournament, players: tuple[int, int], e: Entry) -> Recorded:
    p = e.payload
    if p is None:
        return Recorded(e.result_id, e.kind, "", True, ())
    if e.kind == "tally":
        hands = tuple(
            RecordedHand(t.label(players[seat]), gp, number in e.struck)
            for number, (seat, gp) in enumerate(tally_hands(p["tally"]), 1)
        )
        return Recorded(e.result_id, e.kind, tally_text(p["tally"]), False, hands)
    if e.kind == "forfeit":
        winner = p.get("winner")
        who = t.label(int(winner)) if winner is not None else "-"
        return Recorded(e.result_id, e.kind, who, False, ())
    hand = RecordedHand(t.label(int(p["winner"])), int(p["game_points"]), 1 in e.struck)
    return Recorded(e.result_id, e.kind, "", False, (hand,))


@pages.get("/desk/t/<tid>/sheets/<mid>/correct")
@requires(Role.ORGANISER)
def correct_page(tid: str, mid: str) -> Any:
    t = services().tournaments.state(tid)
    mid = resolve_match(t, mid)
    return render_template("desk/sheets/correct.html", **_context(tid, t, mid))


def _context(tid: str, t: Tournament, mid: str, **values: Any) -> dict[str, Any]:
    return desk_context(
        tid,
        area="sheets",
        match=sheet_match(t, mid),
        results=recorded(t, mid),
        version=t.version,
        **{"chosen": None, "tally": "", "void": False, "why": "", "strike": "",
           "scope": "", "swap": False, "sheet": "",
           "preview": None, "error": None, **values},
    )  # fmt: skip


def _command(form: Any, why: str, mid: str) -> Command:
    """A struck hand (T-strike), or a corrected Bummerl or a void (T-correction): one of
    them, as the API's ``.../strike`` and ``.../corrections`` take them; or (``scope``
    ``sheet``) the whole sheet, swapped or replaced, as ``.../sheet-corrections``."""
    me = caller().actor
    if form.get("scope") == "sheet":
        tallies = sheet_tallies(form)
        return lambda t: c.correct_sheet(t, mid, tallies, by=me, reason=why, actor=me)
    strike = form.get("strike", "").strip()
    if not strike:
        return correction_command(_correction(form), by=me, why=why, actor=me, spelling=SPELLING)
    if form.get("tally", "").strip() or form.get("void") == "on":
        raise page_error(DomainError, "strike", "T-correction", "page.strike_or_correct")
    if not strike.isdigit() or len(strike) > 3:
        raise page_error(DomainError, "strike", "T-strike", "page.strike_number")
    rid, hand = form.get("result", ""), int(strike)
    return lambda t: c.strike_hand(t, rid, hand, by=me, reason=why, actor=me)


def sheet_tallies(form: Any) -> list[str] | None:
    """The whole sheet's new Bummerl, one a line (None: swap the players' columns)."""
    if form.get("swap") == "on":
        if form.get("sheet", "").strip():
            raise DomainError(
                "sheet",
                "T-correction",
                gettext("swap the columns, or type the whole sheet, not both; nothing stored"),
            )
        return None
    lines = [line.strip() for line in form.get("sheet", "").splitlines() if line.strip()]
    if not lines:
        raise DomainError(
            "sheet",
            "T-correction",
            gettext("tick “swap the columns” or type the sheet's Bummerl, one a line"),
        )
    return lines


def _correction(form: Any) -> Correction:
    rid = form.get("result", "")
    if form.get("void") == "on":
        return Correction(rid, void=True)
    tally = form.get("tally", "").strip()
    return Correction(rid, {"tally": tally} if tally else {})


@pages.post("/desk/t/<tid>/sheets/<mid>/correct")
@requires(Role.ORGANISER)
def correct(tid: str, mid: str) -> Any:
    """``action=preview``: what it would change, nothing stored; ``action=store``: store
    the previewed correction if nothing was stored since (``version``)."""
    service = services().tournaments
    t = service.state(tid)
    mid = resolve_match(t, mid)
    form = request.form
    shown = {
        "scope": form.get("scope", ""),
        "swap": form.get("swap") == "on",
        "sheet": form.get("sheet", ""),
        "chosen": form.get("result", ""),
        "tally": form.get("tally", ""),
        "void": form.get("void") == "on",
        "why": form.get("why", ""),
        "strike": form.get("strike", ""),
    }
    try:
        why = plain_text(form.get("why", ""), "why", "T-input", limit=500, what="a reason")
        command = _command(form, why, mid)
        if form.get("action") == "store":
            return _store(tid, t, mid, command, form.get("version", ""), shown)
        new = command(t)
        changes = preview(service.events(tid), new)
    except DomainError as error:
        html = render_template(
            "desk/sheets/correct.html", **_context(tid, t, mid, error=refusal(error), **shown)
        )
        return html, 422
    html = render_template(
        "desk/sheets/correct.html", **_context(tid, t, mid, preview=_shown(changes), **shown)
    )
    return html


#: The preview's sections (tournament.domain.views.preview.Preview.sections) under headings of
#: ours; its lines in the reader's language.
SECTIONS = {
    "match": _l("The match"),
    "flag": _l("Matches flagged for the organiser"),
    "bracket": _l("Bracket"),
    "standings": _l("Standings"),
    "next": _l("The next round's draw"),
    "table": _l("The next round's draw"),
}


def _shown(changes: Preview) -> dict[str, Any]:
    """The preview's lines in sections: the match first, then flags, bracket, standings
    and the next round's draw, as :meth:`Preview.sections` orders them."""
    sections: dict[str, list[str]] = {}
    for section, line in changes.sections():
        sections.setdefault(str(SECTIONS[section]), []).append(say(line))
    return {"sections": sections, "empty": changes.empty, "standings": len(changes.standings)}


def _store(
    tid: str, t: Tournament, mid: str, command: Any, seen: str, shown: dict[str, Any]
) -> Any:
    def guarded(state: Tournament) -> list[NewEvent]:
        if str(state.version) != seen:
            raise page_error(DomainError, "version", "T-correction", "page.stored_since_preview")
        events: list[NewEvent] = command(state)
        return events

    try:
        services().tournaments.submit(tid, guarded, metadata=page_metadata())
    except DomainError as error:
        html = render_template(
            "desk/sheets/correct.html", **_context(tid, t, mid, error=refusal(error), **shown)
        )
        return html, 409 if error.field == "version" else 422
    flash(gettext("The correction is stored."), "ok")
    return redirect(f"/desk/t/{tid}/sheets/{mid}/correct", code=303)

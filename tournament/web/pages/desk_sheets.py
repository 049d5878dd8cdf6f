"""Scoresheet entry shaped like the paper tally: ``/desk/t/<tid>/sheets`` (issue 11).

Type the table number, then each Bummerl as the sheet tallies it (``7 4 1 0 / 7``, both
columns in one input, R17); each input is checked as it is typed by the domain's own
``record_tallies`` (:mod:`.sheet_entry`), Enter stores the whole sheet in one command
(:func:`tournament.domain.commands.entry.entry_command`, the API's) and the page comes back with
the next table still missing its result in "Table". The form's one-time key makes a
second Enter (or a retry) store nothing more; the domain's T-repeat refuses the same
sheet typed twice. Undo voids the last entry's results by correction events
(T-correction): nothing is ever deleted.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

from flask import redirect, render_template, request
from flask_babel import gettext
from werkzeug.wrappers import Response

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain import commands as c
from tournament.domain.commands.entry import ResultEntry, entry_command
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.eventstore.api import NewEvent, StoredEvent
from tournament.web.auth import caller, requires
from tournament.web.pages.desk import desk_blueprint, desk_context, refusal
from tournament.web.pages.messages import page_error
from tournament.web.pages.page_writes import form_fingerprint, page_metadata
from tournament.web.pages.sheet_entry import (
    SPELLING,
    check_sheet,
    find_table,
    last_entry,
    line_at_fault,
    missing_tables,
    next_table,
    sheet_match,
    unfinished_line,
    unique_table,
)

pages = desk_blueprint("desk_sheets", __name__)

#: A form's one-time key, as :func:`new_key` makes it.
_KEY = re.compile(r"^[0-9a-f]{32}$")
#: The id of a Bummerl input (htmx names the input a check was typed in: HX-Trigger).
_TALLY_INPUT = re.compile(r"^bummerl-([1-9])$")


def new_key() -> str:
    return uuid.uuid4().hex


def form_key(form: Mapping[str, str]) -> str | None:
    """The store's idempotency key for this form (per account), or None without one."""
    key = form.get("key", "")
    return f"page:{caller().account_id}:{key}" if _KEY.match(key) else None


def bummerl_texts(form: Mapping[str, str]) -> list[str]:
    """The Bummerl inputs in order (``bummerl_1``, ``bummerl_2`` ...)."""
    texts = []
    for number in range(1, 10):
        if f"bummerl_{number}" not in form:
            break
        texts.append(form[f"bummerl_{number}"])
    return texts


@pages.get("/desk/t/<tid>/sheets")
@requires(Role.SCORER)
def sheets(tid: str) -> Any:
    t = services().tournaments.state(tid)
    suggested = next_table(t)
    typed = request.args.get("table", "") or _table_of(t, request.args.get("match", ""))
    html = render_template(
        "desk/sheets/page.html",
        **page_values(tid, t, typed or ("" if suggested is None else str(suggested))),
        done=_done(t, request.args.get("stored", ""), request.args.get("undone", "")),
    )
    # Never from the browser's history: its one-time key would store nothing new.
    return html, 200, {"Cache-Control": "no-store"}


def _done(t: Tournament, stored: str, undone: str) -> str | None:
    """What the last post did, said on the page it led to. Said from the address, not
    flashed into the session: a check of the sheet still under way when Enter was
    pressed answers with the session as it was, and would take a flashed line with it."""
    if stored in t.matches:
        line = sheet_match(t, stored)
        return str(
            gettext(
                "Table %(table)s stored: Bummerl %(a)s:%(b)s.",
                table=line.table,
                a=line.bummerl[0],
                b=line.bummerl[1],
            )
        )
    if undone in t.matches:
        table = t.matches[undone].table
        return str(gettext("Table %(table)s: the last entry is undone.", table=table))
    return None


def _table_of(t: Tournament, match: str) -> str:
    """``?match=3.2`` (the rounds page links a match so): its table number when it plays
    in the current round, else the match id as typed (find_table reads both)."""
    try:
        m = t.matches[find_table(t, match)] if match.strip() else None
    except DomainError:
        return match
    if m is None:
        return ""
    return str(m.table) if m.round == t.current_round and m.table else m.match_id


def page_values(
    tid: str,
    t: Tournament,
    typed: str,
    *,
    texts: Sequence[str] = (),
    error: str | None = None,
    focus: str = "table",
) -> dict[str, Any]:
    """The page's values. ``focus``: where the cursor starts -- ``table`` (the suggested
    table selected, a fresh page), ``table-keep`` (the table at fault: not selected, so
    that the next key cannot replace it, O-S1), ``bummerl-N`` (the Bummerl at fault,
    O-L5) or ``signed``."""
    return desk_context(
        tid,
        area="sheets",
        name=t.settings.name if t.settings else tid,
        round_number=t.current_round,
        missing=missing_tables(t),
        typed=typed,
        error=error,
        focus=focus,
        tables=_round_tables(t),
        undo=_undo_line(t),
        key=new_key(),
        action_key=new_key(),  # the forfeit's and the signatures' forms: a key of their own
        **_panel(t, typed, texts),
    )


def _round_tables(t: Tournament) -> str:
    """The current round's table numbers, for the page to tell as they are typed whether
    a number can be no other table (``4`` among 1-9; not ``1`` among 1-12)."""
    if not t.current_round:
        return ""
    matches = t.rounds[t.current_round - 1].matches
    return " ".join(str(n) for n in sorted(t.matches[mid].table for mid in matches) if n)


def _panel(t: Tournament, typed: str, texts: Sequence[str] = ()) -> dict[str, Any]:
    """The match a typed table names (or why there is none), with the sheet as typed."""
    if not typed.strip():
        return {"match": None, "lookup": None, "texts": texts, "unique": False}
    try:
        mid = find_table(t, typed)
    except DomainError as error:
        return {"match": None, "lookup": refusal(error), "texts": texts, "unique": False}
    return {
        "match": sheet_match(t, mid),
        "lookup": None,
        "texts": texts,
        "unique": unique_table(t, typed),
    }


@pages.get("/desk/t/<tid>/sheets/table")
@requires(Role.SCORER)
def table_panel(tid: str) -> Any:
    """The match of the typed table, for the page to swap in as the number is typed."""
    t = services().tournaments.state(tid)
    typed = request.args.get("table", "")
    return render_template(
        "desk/sheets/panel.html",
        **desk_context(tid, typed=typed, oob=True, action_key=new_key(), **_panel(t, typed)),
    )


@pages.post("/desk/t/<tid>/sheets/check")
@requires(Role.SCORER)
def check(tid: str) -> Any:
    """The typed sheet checked by the domain, stored nowhere: the refusal names the
    Bummerl, the hand and the rule (R13, R17), in the reader's language."""
    t = services().tournaments.state(tid)
    try:
        mid = find_table(t, request.form.get("table", ""))
    except DomainError as error:
        return render_template("desk/sheets/check.html", checked=None, lookup=refusal(error))
    texts = bummerl_texts(request.form)
    checked = check_sheet(t, mid, texts, typing=_typing(request.form))
    return render_template(
        "desk/sheets/check.html",
        checked=checked,
        sheet="|".join(texts),  # the lines read, as typed: which check this is
        match_id=mid,
        lookup=None,
        errors={n: refusal(e) for n, e in checked.errors.items()},
    )


def _typing(form: Mapping[str, str]) -> int | None:
    """The Bummerl line the cursor is in as the check was asked (the page says so in
    ``typing``; htmx also names the input typed in), or None: every line was left."""
    if "typing" in form:
        line = form["typing"]
        return int(line) if line.isdigit() and 0 < int(line) < 10 else None
    typed_in = _TALLY_INPUT.match(request.headers.get("HX-Trigger", ""))
    return int(typed_in.group(1)) if typed_in else None


@pages.post("/desk/t/<tid>/sheets")
@requires(Role.SCORER)
def store(tid: str) -> Any:
    """The whole sheet (every Bummerl typed, signed or not) in one command; then the
    next table still missing its result. Stored only on the match the page showed: the
    form names it (match id, players, Bummerl recorded), and a table number that names
    another match now is refused (O-S1)."""
    form = request.form
    texts = bummerl_texts(form)
    typed = form.get("table", "")
    tallies = tuple(text for text in texts if text.strip())
    signed = form.get("signed") == "on"
    t = services().tournaments.state(tid)

    def refused(problem: str, focus: str) -> tuple[str, int]:
        values = page_values(tid, t, typed, texts=texts, error=problem, focus=focus)
        return render_template("desk/sheets/page.html", **values), 422

    if not tallies:
        problem = gettext("Type the sheet's Bummerl first, e.g. 7 4 1 0 / 7 6 (R17).")
        return refused(problem, "bummerl-1")
    unfinished = unfinished_line(texts)
    if unfinished:
        problem = gettext(
            "Bummerl %(n)s ends with '/': type the second column too (7 for a player "
            "who won no hand, R19). Nothing is stored.",
            n=unfinished,
        )
        return refused(problem, f"bummerl-{unfinished}")

    def command(t: Tournament) -> list[NewEvent]:
        mid = find_table(t, typed)
        moved = _not_as_shown(t, typed, form)  # decided with the store: nothing in between
        if moved:
            raise DomainError("table", "T-match", moved)
        decided = entry_command(
            ResultEntry(mid, tallies=tallies, signed=signed),
            actor=caller().actor,
            entered_when=None,
            spelling=SPELLING,
        )
        return decided(t)

    return _store(tid, command, typed, texts, form_key(form))


def _shown_match(t: Tournament, mid: str) -> tuple[str, str, str]:
    """What the page shows of a match and the form carries back: its id (round and
    table), its players and how many Bummerl it had recorded."""
    line = sheet_match(t, mid)
    return (mid, f"{line.players[0]},{line.players[1]}", str(len(line.recorded)))


def _form_match(form: Mapping[str, str]) -> tuple[str, str, str]:
    return (form.get("match", ""), form.get("players", ""), form.get("recorded", ""))


def _not_as_shown(
    t: Tournament, typed: str, form: Mapping[str, str], *, sheet: bool = True
) -> str | None:
    """Why the entry cannot go to the match *Table* names now (None: it may), when that
    is not the match whose names the page showed (O-S1): a table number changed under
    the cursor, a page of another round, or (``sheet``: the Bummerl typed) another entry
    since."""
    try:
        mid = find_table(t, typed)
    except DomainError:
        return None  # the store's own refusal says why there is no such table
    shown_mid, players, recorded = _form_match(form)
    now = sheet_match(t, mid)
    if shown_mid == mid and players == _shown_match(t, mid)[1]:
        if not sheet or recorded == _shown_match(t, mid)[2]:
            return None
        return str(
            gettext(
                "Nothing is stored: table %(table)s got another entry since this page "
                "showed it. Look at what it holds now and type what is missing.",
                table=now.table,
            )
        )
    shown = _names_of(t, shown_mid)
    if not sheet:  # the forfeit's or the signatures' form of a page shown before
        return str(
            gettext(
                "Nothing is stored: the page showed %(shown)s, but table %(table)s is "
                "now %(a)s against %(b)s. Type the table number again.",
                shown=shown,
                table=now.table,
                a=now.names[0],
                b=now.names[1],
            )
        )
    return str(
        gettext(
            "Nothing is stored: the sheet was typed beside %(shown)s, but Table says "
            "%(table)s, which is %(a)s against %(b)s. Check the table number on the "
            "paper, then press Enter in the Bummerl.",
            shown=shown,
            table=typed.strip(),
            a=now.names[0],
            b=now.names[1],
        )
    )


def _names_of(t: Tournament, mid: str) -> str:
    """A match as the page named it (``table 7, A against B``), or its id as sent."""
    if mid not in t.matches:
        return mid or gettext("another page's match")
    line = sheet_match(t, mid)
    return str(
        gettext(
            "table %(table)s (%(a)s against %(b)s)",
            table=line.table,
            a=line.names[0],
            b=line.names[1],
        )
    )


def _store(
    tid: str, command: Any, typed: str, texts: Sequence[str], key: str | None
) -> Response | tuple[str, int]:
    """Store ``command``'s events under the form's key; a refusal re-renders the page
    with what was typed and the domain's message (422), nothing stored."""
    service = services().tournaments
    try:
        done = service.submit(tid, command, idempotency_key=key, metadata=page_metadata())
    except DomainError as error:
        t = service.state(tid)
        focus = _focus_after(t, typed, texts, error)
        values = page_values(tid, t, typed, texts=texts, error=refusal(error), focus=focus)
        html = render_template("desk/sheets/page.html", **values)
        return html, 422
    t = service.state(tid)
    if (
        done.replayed
        and done.events
        and done.events[0].metadata.get("request") != (form_fingerprint())
    ):  # the page came back (browser history) and was sent again with other values
        problem = gettext("This form was sent already: type the sheet again on this page.")
        html = render_template("desk/sheets/page.html", **page_values(tid, t, typed, error=problem))
        return html, 409
    stored = _match_of(done.events)
    line = sheet_match(t, stored) if stored in t.matches else None
    following = next_table(t, line.table if line else None)
    target = f"/desk/t/{tid}/sheets?" + urlencode({"table": following or "", "stored": stored})
    return redirect(target, code=303)


def _focus_after(t: Tournament, typed: str, texts: Sequence[str], error: DomainError) -> str:
    """Where the cursor goes after a refusal: on the Bummerl at fault, never into a
    selected *Table* (its next key would replace the number, O-S1, O-L5)."""
    if error.rule == "T-match":
        return "table-keep"  # the table is at fault (or the page): not the Bummerl
    try:
        mid = find_table(t, typed)
    except DomainError:
        return "table-keep"
    if not texts or not sheet_match(t, mid).inputs:
        return "table-keep"
    at_fault = line_at_fault(t, mid, texts)
    if at_fault:
        return f"bummerl-{at_fault}"
    if error.field == "signed":
        return "signed"
    typed_lines = [n for n, text in enumerate(texts, 1) if text.strip()]
    return f"bummerl-{typed_lines[-1] if typed_lines else 1}"


def _match_of(events: Sequence[StoredEvent]) -> str:
    return next((str(e.payload["match_id"]) for e in events if "match_id" in e.payload), "")


@pages.post("/desk/t/<tid>/sheets/forfeit")
@requires(Role.SCORER)
def forfeit(tid: str) -> Any:
    """A forfeit or no-show at the typed table (the winner, or both absent)."""
    form = request.form
    typed = form.get("table", "")
    who = form.get("forfeit", "")

    def command(t: Tournament) -> list[NewEvent]:
        mid = find_table(t, typed)
        moved = _not_as_shown(t, typed, form, sheet=False)
        if moved:
            raise DomainError("table", "T-match", moved)
        decided = entry_command(
            ResultEntry(mid, forfeit=who), actor=caller().actor, entered_when=None,
            spelling=SPELLING,
        )  # fmt: skip
        return decided(t)

    return _store(tid, command, typed, (), form_key(form))


@pages.post("/desk/t/<tid>/sheets/sign")
@requires(Role.SCORER)
def sign(tid: str) -> Any:
    """Both players signed the decided sheet (T-sheet); a signature already there stays."""
    form = request.form
    typed = form.get("table", "")

    def command(t: Tournament) -> list[NewEvent]:
        mid = find_table(t, typed)
        moved = _not_as_shown(t, typed, form, sheet=False)
        if moved:
            raise DomainError("table", "T-match", moved)
        m = t.matches[mid]
        signed: list[NewEvent] = []
        for pid in m.players:
            if pid not in m.signed_by:
                signed += c.sign_sheet(t, mid, pid, actor=caller().actor)
        if not signed:
            raise page_error(DomainError, "signed", "T-sheet", "page.signed_already")
        return signed

    return _store(tid, command, typed, (), form_key(form))


def _undo_line(t: Tournament) -> dict[str, Any] | None:
    """What Undo would take back, for its button to say."""
    group = last_entry(t, services().tournaments.events(t.id))
    if not group:
        return None
    mid = str(group[0].payload["match_id"])
    m = t.matches[mid]
    return {
        "table": m.table,
        "match_id": mid,
        "names": " – ".join(t.label(p) for p in m.players),
        "count": len(group),
        "version": t.version,
    }

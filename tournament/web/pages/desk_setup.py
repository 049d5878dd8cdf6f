"""The desk's front door (issue 11): ``/desk`` lists the tournaments the signed-in
account holds a role in (an admin: all), ``/desk/new`` creates one -- its creator
becomes its owner, as through the API -- and ``/desk/t/<tid>`` is a tournament's
overview: its settings, players, and where its rounds stand.

Creating calls the same service and domain command as ``POST /api/v1/tournaments``
(:mod:`tournament.web.api.tournaments`); a refused setting is shown beside its field, in
the reader's language, and nothing is stored.
"""

from __future__ import annotations

import dataclasses
import datetime
from typing import Any

from flask import flash, redirect, render_template, request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain.model.errors import DomainError, NotFoundError
from tournament.domain.model.settings import parse_date
from tournament.domain.model.state import Tournament
from tournament.domain.views.overview import progress, slug
from tournament.i18n.words import FORMATS, TIEBREAKS
from tournament.web.auth import ACCOUNT, caller, requires
from tournament.web.i18n import current_language, local_date
from tournament.web.pages import setup_words
from tournament.web.pages.desk import desk_blueprint, desk_context
from tournament.web.pages.page_writes import field_errors, page_metadata
from tournament.web.pages.setup_form import ALIASES, FIELDS, FormProblem, NewTournament, choices

pages = desk_blueprint("desk_setup", __name__)

ROLE_WORDS = {
    Role.SCORER: _l("Scorer"),
    Role.ORGANISER: _l("Organiser"),
    Role.OWNER: _l("Owner"),
}


@pages.get("/desk")
@requires(ACCOUNT)
def desk() -> str:
    who = caller()
    found = services().tournaments
    if who.admin:
        roles = {tid: Role.OWNER for tid in found.tournament_ids()}
    else:
        assert who.account_id is not None
        roles = services().accounts.roles(who.account_id)
    rows = []
    for tid, role in roles.items():
        if role < Role.SCORER:
            continue
        try:
            t = found.state(tid)
        except NotFoundError:
            continue  # a role granted in a tournament not created (yet)
        with found.reading():
            rows.append(_summary(tid, t, role))
    rows.sort(key=lambda row: (row["date_iso"], row["name"]), reverse=True)
    return render_template("desk/setup/desk.html", **desk_context(None, rows=rows, area="desk"))


def tournament_row(tid: str, t: Tournament) -> dict[str, Any]:
    """A tournament as a line of a list (the desk's, the start page's): its name, date in
    the reader's form, players and where it stands."""
    assert t.settings is not None
    p = progress(t)
    return {
        "tid": tid,
        "name": t.settings.name,
        "date_iso": t.settings.date,
        "date": _date(t.settings.date),
        "players": p["players"],
        "round": p["round"],
        "finished": p["status"] == "finished",
    }


def _summary(tid: str, t: Tournament, role: Role) -> dict[str, Any]:
    assert t.settings is not None
    return tournament_row(tid, t) | {
        "format": FORMATS.get(t.settings.format, t.settings.format),
        "role": str(ROLE_WORDS.get(role, ROLE_WORDS[Role.OWNER])),
    }


def _date(iso: str) -> str:
    try:
        return local_date(datetime.date.fromisoformat(iso), "medium") if iso else ""
    except ValueError:
        return iso


@pages.route("/desk/new", methods=["GET", "POST"])
@requires(ACCOUNT)
def new_tournament() -> Any:
    if request.method == "GET":
        return _new_form(_in_local_form(NewTournament.blank()))
    form = NewTournament.read(request.form)
    if request.form.get("move"):
        return _new_form(form, focus=form.move(request.form["move"]))
    try:
        settings = form.settings()
        tid = form.id or slug(form.name, parse_date(form.date))
        created = services().tournaments.create(
            tid, settings, actor=caller().actor, metadata=page_metadata()
        )
    except FormProblem as problem:
        return _new_form(form, errors={problem.field: problem.message}, status=422)
    except DomainError as error:
        return _new_form(form, errors=field_errors(error, FIELDS, ALIASES), status=422)
    who = caller()
    if who.account_id is not None:  # an admin too, as the API does (opfix 6c)
        services().accounts.grant(who.actor, tid, Role.OWNER, by=who.actor)
    assert created
    flash(gettext("Tournament %(name)s created.", name=form.name.strip()), "ok")
    return redirect(f"/desk/t/{tid}", code=303)


def _in_local_form(form: NewTournament) -> NewTournament:
    """Today's date as the reader types it (N-L1): ``07.12.2026`` on a German page, ISO on
    an English one (the forms :func:`parse_date` reads); selected on focus (desk-setup.js),
    so a date typed replaces it."""
    if current_language() != "de" or not form.date:
        return form
    day = datetime.date.fromisoformat(form.date)
    return dataclasses.replace(form, date=f"{day.day:02d}.{day.month:02d}.{day.year}")


def _new_form(
    form: NewTournament,
    *,
    errors: dict[str, str] | None = None,
    status: int = 200,
    focus: str | None = None,
) -> tuple[str, int]:
    html = render_template(
        "desk/setup/new.html",
        **desk_context(
            None,
            form=form,
            errors=errors or {},
            focus=focus,
            words=setup_words,
            format_names=FORMATS,
            tiebreak_words=TIEBREAKS,
            area="new",
            **choices(),
        ),
    )
    return html, status


@pages.get("/desk/t/<tid>")
@requires(Role.SCORER)
def overview(tid: str) -> str:
    found = services().tournaments
    t = found.state(tid)
    with found.reading():
        assert t.settings is not None
        s = t.settings
        p = progress(t)
        checked_in = sum(1 for x in t.players.values() if x.checked_in)
        withdrawn = sum(1 for x in t.players.values() if not x.active)
        facts = {
            "name": s.name,
            "date": _date(s.date),
            "venue": s.venue,
            "format": FORMATS.get(s.format, s.format),
            "best_of": s.best_of,
            "target": s.target,
            "variants": list(s.variants),
            "tiebreaks": [TIEBREAKS[tb][1] if tb in TIEBREAKS else tb for tb in s.tiebreaks],
            "first_dealer": setup_words.FIRST_DEALERS.get(s.first_dealer, s.first_dealer),
            "withdrawal": setup_words.WITHDRAWALS.get(s.withdrawal, s.withdrawal),
            "options": {
                setup_words.OPTIONS[k][0]: v
                for k, v in s.options.items()
                if k in setup_words.OPTIONS
            },
        }
    return render_template(
        "desk/setup/overview.html",
        **desk_context(
            tid,
            area="overview",
            facts=facts,
            progress=p,
            checked_in=checked_in,
            withdrawn=withdrawn,
            may_organise=caller().role_in(tid) >= Role.ORGANISER,
        ),
    )

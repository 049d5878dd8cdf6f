"""The players of a tournament at the desk (issue 11): add, edit, a check-in list with a
search that works by keyboard, seeding, withdraw, buy back a life (Preisschnapsen).

Each write is the command ``POST /api/v1/tournaments/{tid}/players...`` runs
(:mod:`tournament.web.api.players`), with the same refusals; a refusal is shown on the
page in the reader's language (status 422) and nothing is stored. Checking in answers
the player's row alone to htmx (the list stays where it is, the search keeps its
place), the whole page to a browser without scripts. The CSV import is
:mod:`.desk_import`.
"""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request
from flask_babel import gettext

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain import commands as c
from tournament.domain.commands.buyback import may_buy_back
from tournament.domain.commands.registration import player
from tournament.domain.commands.startnumbers import parse_ids, seeding_request
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.domain.views.roster import player_json, players_json
from tournament.domain.words.readback import NOBODY_BUYS_TEMPLATES, read_back
from tournament.eventstore.api import NewEvent
from tournament.web.auth import caller, requires
from tournament.web.pages.desk import desk_blueprint, desk_context, refusal
from tournament.web.pages.messages import say
from tournament.web.pages.page_writes import execute, field_errors
from tournament.web.pages.setup_words import WITHDRAWALS

pages = desk_blueprint("desk_players", __name__)

PLAYER_FIELDS = {"name", "club", "category", "rating"}


class FormProblem(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field, self.message = field, message


def rating_of(text: str) -> int | None:
    """The rating as typed: empty is none; the domain checks its range (T-player)."""
    typed = text.strip()
    if not typed:
        return None
    if typed.isascii() and typed.isdigit():
        return int(typed)
    raise FormProblem(
        "rating", gettext("%(value)s is not a whole number like 1520 (T-player).", value=typed)
    )


def _state(tid: str) -> Tournament:
    return services().tournaments.state(tid)


def _list(tid: str) -> str:
    return f"/desk/t/{tid}/players"


def players_page(
    tid: str,
    *,
    errors: dict[str, str] | None = None,
    form: dict[str, str] | None = None,
    status: int = 200,
) -> tuple[str, int]:
    found = services().tournaments
    t = found.state(tid)
    with found.reading():
        assert t.settings is not None
        rows = players_json(t)
        lives = t.settings.format == "lives"
        why = may_buy_back(t)[1] if lives else None
        # The domain's English reason read back into its code: the reader's language.
        nobody_buys = None if why is None else say(read_back(why, NOBODY_BUYS_TEMPLATES))
        facts = {
            "name": t.settings.name,
            "started": t.current_round > 0,
            "seeding": t.seeding,
            "checked_in": sum(1 for r in rows if r["checked_in"]),
            "lives": lives,
            "nobody_buys": nobody_buys,
        }
    html = render_template(
        "desk/players/list.html",
        **desk_context(
            tid,
            area="players",
            rows=rows,
            facts=facts,
            errors=errors or {},
            form=form or {},
            may_organise=caller().role_in(tid) >= Role.ORGANISER,
        ),
    )
    return html, status


@pages.get("/desk/t/<tid>/players")
@requires(Role.SCORER)
def list_players(tid: str) -> tuple[str, int]:
    return players_page(tid)


@pages.post("/desk/t/<tid>/players")
@requires(Role.ORGANISER)
def add_player(tid: str) -> Any:
    form = {k: request.form.get(k, "") for k in PLAYER_FIELDS}
    try:
        rating = rating_of(form["rating"])

        def command(t: Tournament) -> list[NewEvent]:
            return c.enter_player(
                t, form["name"], club=form["club"], category=form["category"], rating=rating,
                actor=caller().actor,
            )  # fmt: skip

        events = execute(tid, command)
    except FormProblem as problem:
        return players_page(tid, errors={problem.field: problem.message}, form=form, status=422)
    except DomainError as error:
        return players_page(tid, errors=field_errors(error, PLAYER_FIELDS), form=form, status=422)
    p = events[0].payload
    flash(gettext("%(name)s registered as player %(n)s.", name=p["name"], n=p["player_id"]), "ok")
    # At #name: the page comes back with the cursor in Name for the next player (O-L4).
    return redirect(_list(tid) + "#name", code=303)


@pages.route("/desk/t/<tid>/players/<int:pid>/edit", methods=["GET", "POST"])
@requires(Role.ORGANISER)
def edit_player(tid: str, pid: int) -> Any:
    t = _state(tid)
    current = player(t, pid)
    if request.method == "GET":
        form = {"name": current.name, "club": current.club, "category": current.category,
                "rating": "" if current.rating is None else str(current.rating)}  # fmt: skip
        return _edit_page(tid, pid, form)
    form = {k: request.form.get(k, "") for k in PLAYER_FIELDS}
    try:
        changes: dict[str, Any] = {
            "name": form["name"], "club": form["club"], "category": form["category"],
            "rating": rating_of(form["rating"]),
        }  # fmt: skip
        events = execute(tid, lambda t: c.edit_player(t, pid, changes, actor=caller().actor))
    except FormProblem as problem:
        return _edit_page(tid, pid, form, {problem.field: problem.message})
    except DomainError as error:
        return _edit_page(tid, pid, form, field_errors(error, PLAYER_FIELDS))
    if events:
        flash(gettext("Player %(n)s corrected.", n=pid), "ok")
    else:
        flash(gettext("Player %(n)s has these details already: nothing stored.", n=pid), "ok")
    return redirect(_list(tid) + f"#p{pid}", code=303)


def _edit_page(
    tid: str, pid: int, form: dict[str, str], errors: dict[str, str] | None = None
) -> tuple[str, int]:
    html = render_template(
        "desk/players/edit.html",
        **desk_context(
            tid,
            area="players",
            pid=pid,
            form=form,
            errors=errors or {},
            started=_state(tid).current_round > 0,
        ),
    )
    return html, 422 if errors else 200


def _one_player(tid: str, pid: int, command: Any, done: str) -> Any:
    """A write for one player from a button of the list: htmx gets the player's row
    (with the refusal in it, if any), a plain form the page again."""
    try:
        execute(tid, command)
    except DomainError as error:
        if request.headers.get("HX-Request"):
            return _row(tid, pid, refusal(error))
        return players_page(tid, errors={"_form": refusal(error)}, status=422)
    if request.headers.get("HX-Request"):
        return _row(tid, pid, None)
    flash(done, "ok")
    return redirect(_list(tid) + f"#p{pid}", code=303)


def _row(tid: str, pid: int, problem: str | None) -> str:
    found = services().tournaments
    t = found.state(tid)
    with found.reading():
        row = player_json(t, pid)
        lives = t.settings is not None and t.settings.format == "lives"
        every = players_json(t)
        checked = sum(1 for r in every if r["checked_in"])
    return render_template(
        "desk/players/row_fragment.html",
        **desk_context(
            tid,
            p=row,
            problem=problem,
            may_organise=True,
            lives=lives,
            checked=checked,
            all=len(every),
        ),
    )


@pages.post("/desk/t/<tid>/players/<int:pid>/check-in")
@requires(Role.ORGANISER)
def check_in(tid: str, pid: int) -> Any:
    return _one_player(
        tid, pid, lambda t: c.check_in(t, pid, actor=caller().actor),
        gettext("Player %(n)s checked in.", n=pid),
    )  # fmt: skip


@pages.post("/desk/t/<tid>/players/<int:pid>/check-out")
@requires(Role.ORGANISER)
def check_out(tid: str, pid: int) -> Any:
    return _one_player(
        tid, pid, lambda t: c.check_out(t, pid, actor=caller().actor),
        gettext("Player %(n)s is no longer checked in.", n=pid),
    )  # fmt: skip


@pages.post("/desk/t/<tid>/players/<int:pid>/buy-life")
@requires(Role.ORGANISER)
def buy_life(tid: str, pid: int) -> Any:
    return _one_player(
        tid, pid, lambda t: c.buy_life(t, pid, actor=caller().actor),
        gettext("Player %(n)s bought back a life.", n=pid),
    )  # fmt: skip


@pages.route("/desk/t/<tid>/players/<int:pid>/withdraw", methods=["GET", "POST"])
@requires(Role.ORGANISER)
def withdraw(tid: str, pid: int) -> Any:
    t = _state(tid)
    p = player(t, pid)
    assert t.settings is not None
    form = {"reason": request.form.get("reason", ""),
            "policy": request.form.get("policy", t.settings.withdrawal)}  # fmt: skip
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            execute(tid, lambda t: c.withdraw(t, pid, policy=form["policy"], reason=form["reason"],
                                              actor=caller().actor))  # fmt: skip
        except DomainError as error:
            errors = field_errors(error, {"reason", "policy"})
        else:
            flash(gettext("%(name)s (%(n)s) has withdrawn.", name=p.name, n=pid), "ok")
            return redirect(_list(tid) + f"#p{pid}", code=303)
    html = render_template(
        "desk/players/withdraw.html",
        **desk_context(tid, area="players", p=p, form=form, errors=errors, policies=WITHDRAWALS),
    )
    return html, 422 if errors else 200


@pages.post("/desk/t/<tid>/players/seeding")
@requires(Role.ORGANISER)
def seed(tid: str) -> Any:
    method = request.form.get("method", "rating")
    typed = request.form.get("order", "").strip()
    form = {"method": method, "order": typed}
    try:
        given = method == "manual" and bool(typed)
        seeding_request(method, given, order_field="order")

        def command(t: Tournament) -> list[NewEvent]:
            order = parse_ids(typed, t.players, field="order") if given else None
            return c.seed_players(t, method, order, actor=caller().actor)

        execute(tid, command)
    except DomainError as error:
        return players_page(tid, errors=field_errors(error, {"method", "order"}), form=form,
                            status=422)  # fmt: skip
    flash(gettext("Players seeded."), "ok")
    return redirect(_list(tid) + "#seeding", code=303)

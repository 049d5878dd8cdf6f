"""Manual pairs at the desk (T-override): ``/desk/t/<tid>/rounds/manual``.

The organiser picks the pairs with selects (keyboard: Tab, then the arrow keys or the
first letters of a name); players left unpaired get a bye. "Preview" decides
:func:`tournament.domain.commands.rounds.start_round` with those pairings on the state as it is
and shows the draw with the format rules it breaks (``override_warnings``), storing
nothing. "Draw these pairs" stores the same command at the same version, and only with
the warnings confirmed, as ``POST /api/v1/tournaments/<tid>/rounds`` asks for
``"confirm": true``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import redirect, render_template, request, url_for
from flask_babel import gettext

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain import commands as c
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.domain.standings.field import eligible
from tournament.domain.views.matchview import PlayerRef, player_ref
from tournament.domain.views.roundview import draw_record
from tournament.eventstore.api import NewEvent
from tournament.web.auth import caller, requires
from tournament.web.pages.desk import desk_blueprint, desk_context, refusal
from tournament.web.pages.desk_rounds import (
    LogMoved,
    at_version,
    decide_draw,
    draw_refusal_line,
    flash_drawn,
    version_field,
)
from tournament.web.pages.page_writes import page_metadata

pages = desk_blueprint("desk_rounds_manual", __name__)


@dataclasses.dataclass(frozen=True)
class Chosen:
    """The pairs as the form has them: per row the two start numbers chosen (None: not
    chosen), and what is wrong with the form (empty: nothing)."""

    rows: list[tuple[int | None, int | None]]
    errors: list[str]

    @property
    def pairings(self) -> list[tuple[int, int]]:
        return [(a, b) for a, b in self.rows if a is not None and b is not None]


class NeedsConfirmation(Exception):
    """A manual draw breaking format rules, not confirmed: nothing stored."""


def _row_count(players: int) -> int:
    return max(players // 2, 1)


def _chosen(form: Any, rows: int) -> Chosen:
    found: list[tuple[int | None, int | None]] = []
    errors: list[str] = []
    for row in range(1, rows + 1):
        pair: list[int | None] = []
        for seat in ("a", "b"):
            text = str(form.get(f"{seat}{row}", "")).strip()
            if text and not (text.isdigit() and len(text) < 10):
                errors.append(gettext("pair %(row)s: choose a player from the list", row=row))
                text = ""
            pair.append(int(text) if text else None)
        a, b = pair
        if (a is None) != (b is None):
            errors.append(
                gettext("pair %(row)s: choose both players or neither (T-override)", row=row)
            )
        found.append((a, b))
    return Chosen(found, errors)


def _byes(t: Tournament, pairings: list[tuple[int, int]]) -> list[int]:
    """Everybody who could play and is in no pair: a bye (said on the form)."""
    paired = {p for pair in pairings for p in pair}
    return [p for p in eligible(t) if p not in paired]


def _players(t: Tournament) -> list[PlayerRef]:
    return [player_ref(t, p) for p in eligible(t)]


@pages.get("/desk/t/<tid>/rounds/manual")
@requires(Role.ORGANISER)
def manual_pairs(tid: str) -> Any:
    t = services().tournaments.state(tid)
    rows = _row_count(len(eligible(t)))
    return _page(tid, t, Chosen([(None, None)] * rows, []))


@pages.post("/desk/t/<tid>/rounds/manual")
@requires(Role.ORGANISER)
def manual_pairs_posted(tid: str) -> Any:
    t = services().tournaments.state(tid)
    chosen = _chosen(request.form, _row_count(len(eligible(t))))
    if chosen.errors:
        return _page(tid, t, chosen, status=422)
    if not chosen.pairings:
        message = gettext("pairings: choose at least one pair (T-override)")
        return _page(tid, t, Chosen(chosen.rows, [message]), status=422)
    if request.form.get("action") == "draw":
        return _store(tid, chosen)
    return _preview(tid, chosen)


def _command(t: Tournament, chosen: Chosen, actor: str) -> list[NewEvent]:
    pairings = chosen.pairings
    return c.start_round(t, pairings=pairings, byes=_byes(t, pairings), actor=actor)


def _fingerprint(pairings: list[tuple[int, int]]) -> str:
    """The pairs a preview showed, as the form carries them back to "Draw these pairs"."""
    return ",".join(f"{a}-{b}" for a, b in pairings)


def _preview(
    tid: str,
    chosen: Chosen,
    *,
    status: int = 200,
    moved: bool = False,
    changed: bool = False,
    unconfirmed: bool = False,
) -> Any:
    actor = caller().actor
    t, draw, refused = decide_draw(tid, lambda t: _command(t, chosen, actor))
    errors = [refused] if refused else []
    return _page(
        tid,
        t,
        Chosen(chosen.rows, errors),
        draw=draw,
        moved=moved,
        changed=changed,
        unconfirmed=unconfirmed,
        previewed=_fingerprint(chosen.pairings),
        status=422 if refused else status,
    )


def _store(tid: str, chosen: Chosen) -> Any:
    expected = version_field()
    if expected is None:
        return _preview(tid, chosen, status=409, moved=True)
    if request.form.get("previewed") != _fingerprint(chosen.pairings):
        # Pairs chosen anew after the preview: their warnings were not shown yet.
        return _preview(tid, chosen, status=409, changed=True)
    confirmed = request.form.get("confirm") == "yes"
    actor = caller().actor

    def command(t: Tournament) -> list[NewEvent]:
        events = _command(t, chosen, actor)
        if draw_record(events).warnings and not confirmed:
            raise NeedsConfirmation()
        return events

    try:
        stored = services().tournaments.execute(
            tid, at_version(expected, command), metadata=page_metadata()
        )
    except LogMoved:
        return _preview(tid, chosen, status=409, moved=True)
    except NeedsConfirmation:
        return _preview(tid, chosen, status=422, unconfirmed=True)
    except DomainError as error:
        t = services().tournaments.state(tid)
        return _page(tid, t, Chosen(chosen.rows, [refusal(error)]), status=422)
    flash_drawn(stored)
    return redirect(url_for("desk_rounds.rounds_page", tid=tid), 303)


def _page(
    tid: str,
    t: Tournament,
    chosen: Chosen,
    *,
    draw: Any = None,
    moved: bool = False,
    changed: bool = False,
    unconfirmed: bool = False,
    previewed: str = "",
    status: int = 200,
) -> Any:
    assert t.settings is not None
    html = render_template(
        "desk/rounds/manual.html",
        **desk_context(
            tid,
            area="rounds",
            name=t.settings.name,
            players=_players(t),
            rows=list(enumerate(chosen.rows, 1)),
            errors=chosen.errors,
            draw=draw,
            version=t.version,
            moved=moved,
            changed=changed,
            unconfirmed=unconfirmed,
            previewed=previewed,
            cannot_draw=draw_refusal_line(t),
        ),
    )
    return html, status

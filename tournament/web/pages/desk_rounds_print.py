"""Printing shortcuts of the rounds page: a button per pack of the current round
(pairings list, table cards, blank scoresheets), and of the whole tournament (the
standings and the crosstable, at the end of the evening), that asks for it as ``POST
/api/v1/tournaments/<tid>/print-packs`` does (same queue, same worker, the same pack for
the same version) in the page's language, and links to the PDF when it is rendered.

The status is a fragment that htmx fetches again every second while the pack renders;
without scripts the page says to reload. A pack that failed (or is stuck, long queued)
says so, with the reason, and offers to ask again: that renders it again.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from flask import redirect, render_template, request, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString
from flask_wtf.csrf import generate_csrf

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain.model.errors import NotFoundError
from tournament.domain.views.roundview import drawn_round
from tournament.web.api.print_packs import _dispatch as dispatch_pack
from tournament.web.auth import caller, requires
from tournament.web.i18n import LANGUAGES, current_language
from tournament.web.pages.desk import desk_blueprint, desk_context, refusal
from tournament.web.pages.desk_rounds import PRINT_KINDS
from tournament.web.public_url import phones_cannot_open, qr_base

if TYPE_CHECKING:
    # The print queue (SQLAlchemy) is imported where used: serve starts without it (P10).
    from tournament.printing.queue import Pack

pages = desk_blueprint("desk_rounds_print", __name__)

#: The packs of the whole tournament: as it stands now, whichever round (no ``round``).
TABLE_KINDS: Final[dict[str, LazyString]] = {
    "standings": _l("Standings (PDF)"),
    "crosstable": _l("Crosstable (PDF)"),
}


@pages.get("/desk/t/<tid>/rounds/print")
@requires(Role.ORGANISER)
def print_page(tid: str) -> Any:
    """Every button: the current round's packs and the tournament's."""
    return _page(tid, None)


@pages.post("/desk/t/<tid>/rounds/print")
@requires(Role.ORGANISER)
def request_pack_page(tid: str) -> Any:
    from tournament.printing.queue import request_pack

    kind = request.form.get("kind", "")
    t = services().tournaments.state(tid)
    if kind not in PRINT_KINDS and kind not in TABLE_KINDS:
        detail = gettext("kind: %(kind)s is no print pack of a round", kind=kind[:40])
        return _page(tid, None, error=detail, status=422)
    text = request.form.get("round", "")
    number = int(text) if text.isdigit() and len(text) < 6 else None
    if kind in TABLE_KINDS:
        number = None  # the table as it stands now (the API's kinds without a round)
    else:
        try:
            number = drawn_round(t, number).number
        except NotFoundError as error:
            return _page(tid, None, error=refusal(error), status=422)
    engine = services().store.engine
    # The pack is printed in the language the desk is read in, or the one chosen beside
    # the buttons (docs/organisers.md, 6. Print).
    chosen = request.form.get("lang", "")
    lang = chosen if chosen in LANGUAGES else current_language()
    pack, new = request_pack(engine, tid, kind, number, t.version, caller().actor, lang)
    if new:
        dispatch_pack(pack.id, qr_base() if kind == "table-cards" else None)
    return redirect(url_for(".pack_page", tid=tid, pack_id=pack.id), 303)


@pages.get("/desk/t/<tid>/rounds/print/<pack_id>")
@requires(Role.ORGANISER)
def pack_page(tid: str, pack_id: str) -> Any:
    from tournament.printing.queue import get_pack

    pack = get_pack(services().store.engine, tid, pack_id[:36])
    if pack is None:
        return _page(tid, None, error=gettext("There is no such print pack."), status=404)
    if request.headers.get("HX-Request"):
        return render_template("desk/rounds/pack.html", tid=tid, **_values(tid, pack))
    return _page(tid, pack)


def _values(tid: str, pack: Pack) -> dict[str, Any]:
    from tournament.printing.queue import DONE, FAILED

    return {
        "pack": pack,
        "label": {**PRINT_KINDS, **TABLE_KINDS}.get(pack.kind, pack.kind),
        "done": pack.status == DONE,
        "failed": pack.status == FAILED,
        "stuck": pack.status not in (DONE, FAILED) and _stuck(pack),
        "csrf_token": generate_csrf(),
        "pdf": f"/api/v1/tournaments/{tid}/print-packs/{pack.id}/pdf",
        "poll": url_for(".pack_page", tid=tid, pack_id=pack.id),
    }


def _stuck(pack: Pack) -> bool:
    """Still queued or rendering long after it was asked for: asking again renders it
    again (tournament.printing.queue.request_pack)."""
    from tournament.printing.queue import STALE_AFTER

    asked = pack.requested_at
    asked = asked.replace(tzinfo=UTC) if asked.tzinfo is None else asked
    return asked < datetime.now(UTC) - STALE_AFTER


def _page(tid: str, pack: Any, *, error: str | None = None, status: int = 200) -> Any:
    t = services().tournaments.state(tid)
    assert t.settings is not None
    values = _values(tid, pack) if pack is not None else {}
    if pack is not None and pack.kind == "table-cards":
        values["qr_base"] = base = qr_base()
        values["qr_unreachable"] = phones_cannot_open(base)
    html = render_template(
        "desk/rounds/print.html",
        **desk_context(
            tid,
            area="rounds",
            name=t.settings.name,
            error=error,
            round_kinds=PRINT_KINDS,
            table_kinds=TABLE_KINDS,
            current_round=t.current_round,
            **values,
        ),
    )
    return html, status

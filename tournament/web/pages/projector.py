"""The projector page (no login): ``GET /t/<tid>/projector``, full screen for the room.

It shows one screen at a time, each for ``?every=`` seconds (12 unless said): the standings
(split into pages that fit a 1920x1080 screen in type legible from 10 m), the pairings by
table, "where do I sit", and the bracket when the tournament has one. The screens are cut
into pages here, on the server, so the script that rotates them only counts; it is
``static/projector.js``. The same data as the public page (``public.py``: the standings
projection, :func:`round_view`), the same live stream: on a ``standings`` event the screens
are fetched again (``GET /t/<tid>/projector/screens``). A QR code in a corner leads phones
to the public page. Nothing comes from outside: a club's room often has no internet.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import segno
from flask import Blueprint, g, render_template, request, url_for
from flask_babel import gettext

from tournament.app.services import services
from tournament.domain.standings.lives import lives_left
from tournament.domain.views.roundview import round_view
from tournament.i18n.public_words import heading_words
from tournament.projections.documents import BRACKET, STANDINGS
from tournament.web.pages import public
from tournament.web.projected_reads import read_document
from tournament.web.public_url import qr_base

if TYPE_CHECKING:
    from tournament.web.projected import Reading  # loaded on the first read (speed P10)

pages = Blueprint("projector", __name__)

#: Rows per screen at 1920x1080 in the projector's type (see projector.css): the standings
#: and the pairings one line each, "where do I sit" in two columns.
STANDINGS_ROWS = 12
TABLE_ROWS = 12
SEAT_ROWS = 24
BRACKET_SLOTS = 8  # two lines each, in up to four columns of rounds
DEFAULT_EVERY = 12


@dataclasses.dataclass(frozen=True)
class Screen:
    """One screen of the rotation: what it shows (``kind``), its page of the items."""

    kind: str  # standings | pairings | seats | bracket
    title: str
    page: int  # 1-based
    pages: int
    items: list[Any]

    @property
    def key(self) -> str:
        return f"{self.kind}-{self.page}"


@pages.get("/t/<tid>/projector")
def projector_page(tid: str) -> Any:
    g.localized = True
    found = _screens(tid)
    if found is None:
        return public.not_found(tid)
    name, screens, extra = found
    public_url = qr_base() + f"t/{tid}"  # where phones reach it, as the table cards
    return render_template(
        "projector/projector.html",
        tid=tid,
        name=name,
        screens=screens,
        every=_every(),
        public_url=public_url,
        qr_svg=_qr(public_url),
        live_url=url_for("live.live_stream", tid=tid),
        screens_url=url_for("projector.projector_screens", tid=tid),
        **extra,
    )


@pages.get("/t/<tid>/projector/screens")
def projector_screens(tid: str) -> Any:
    """The screens alone, for the page to swap in when the standings moved."""
    g.localized = True
    found = _screens(tid)
    if found is None:
        return public.not_found(tid)
    _, screens, extra = found
    return render_template("projector/screens.html", tid=tid, screens=screens, **extra)


def _every() -> int:
    """Seconds per screen from ``?every=`` (1 to 600; the default otherwise)."""
    try:
        asked = int(request.args.get("every", DEFAULT_EVERY))
    except ValueError:
        return DEFAULT_EVERY
    return asked if 1 <= asked <= 600 else DEFAULT_EVERY


def _qr(url: str) -> str:
    return str(segno.make(url, error="m").svg_inline(border=2, omitsize=True, dark="#000"))


def _screens(tid: str) -> tuple[str, list[Screen], dict[str, Any]] | None:
    """The tournament's name, its screens in rotation order, and what the templates need
    besides (the standings' columns and freshness); None: no such tournament."""
    reading = read_document(tid, STANDINGS)
    if reading is None:
        return None
    service = services().tournaments
    with service.reading():
        t = service.state(tid)
        current = round_view(t) if t.current_round else None
    assert t.settings is not None
    standings = public._standings(reading)  # the public page's reading of the document
    screens = _paged("standings", gettext("Standings"), standings["rows"], STANDINGS_ROWS)
    if current is not None:
        tables = public._tables(current)
        seats = public._seats(current)
        title = gettext("Round %(n)s: pairings by table", n=current.number)
        screens += _paged("pairings", title, tables, TABLE_ROWS, keep_empty=False)
        screens += _paged("seats", gettext("Where do I sit?"), seats, SEAT_ROWS, keep_empty=False)
    bracket = read_document(tid, BRACKET)
    if bracket is not None and bracket.body is not None:
        screens += _bracket_screens(bracket)
    extra = {**standings, "stage": public._stage(t, current), "lives": lives_left(t) or {}}
    return t.settings.name, screens, extra


def _paged(
    kind: str, title: str, items: list[Any], per_page: int, *, keep_empty: bool = True
) -> list[Screen]:
    """``items`` cut into screens of ``per_page`` (one empty screen when there are none and
    ``keep_empty``: the standings say "no players yet")."""
    chunks = [items[i : i + per_page] for i in range(0, len(items), per_page)]
    if not chunks:
        chunks = [[]] if keep_empty else []
    return [Screen(kind, title, n, len(chunks), chunk) for n, chunk in enumerate(chunks, 1)]


def _bracket_screens(reading: Reading) -> list[Screen]:
    """The bracket's matches round by round (a round per column), as many screens as
    it takes; the slots in the document's order, which is the bracket's."""
    body = reading.body or {}
    slots: list[dict[str, Any]] = list(body.get("slots") or [])
    screens = _paged("bracket", gettext("Bracket"), slots, BRACKET_SLOTS, keep_empty=False)
    return [dataclasses.replace(s, items=_by_round(s.items)) for s in screens]


def _by_round(slots: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    rounds: dict[str, list[dict[str, Any]]] = {}
    for slot in slots:
        heading = heading_words(str(slot.get("heading") or slot.get("round") or ""))
        rounds.setdefault(heading, []).append(slot)
    return list(rounds.items())

"""Rounds at the desk (issue 11): ``/desk/t/<tid>/rounds`` -- every round with its state,
the current round's pairings by table with who deals first (R18), byes, and the results
still missing; drawing the next round after a preview; cancelling the latest round.

A page is thin: the draw is :func:`tournament.domain.commands.rounds.start_round` and the
cancellation :func:`~tournament.domain.commands.rounds.cancel_round`, as ``POST
/api/v1/tournaments/<tid>/rounds`` and ``.../cancel`` call them. The preview decides the
command on the state as it is and shows the draw its events record, storing nothing;
"Draw" stores the same command only while the tournament is still at the version the
preview was decided on (the draw is a function of the state and its seed), so what is
stored is what was shown. If the log moved in between, the fresh preview is shown
instead and nothing is stored. Manual pairs are in :mod:`.desk_rounds_manual`, the print
shortcuts in :mod:`.desk_rounds_print`.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Final

from flask import Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString
from markupsafe import Markup

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain import commands as c
from tournament.domain.model.errors import DomainError
from tournament.domain.model.events import stream_id as events_stream
from tournament.domain.model.state import Tournament
from tournament.domain.views.matchview import PlayerRef, player_ref
from tournament.domain.views.roundview import (
    DrawRecord,
    RoundSummary,
    RoundView,
    draw_notice_phrases,
    draw_record,
    drawn_round,
    round_summaries,
    round_view,
)
from tournament.eventstore.api import NewEvent, StoredEvent
from tournament.web.auth import caller, requires
from tournament.web.i18n import local_datetime
from tournament.web.pages.desk import desk_blueprint, desk_context, refusal
from tournament.web.pages.fragments import fragment
from tournament.web.pages.messages import page_error, say
from tournament.web.pages.page_writes import page_metadata

pages = desk_blueprint("desk_rounds", __name__)

#: The print packs of a round (tournament.printing.packs.ROUND_KINDS), as the desk names them.
PRINT_KINDS: Final[dict[str, LazyString]] = {
    "pairings": _l("Pairings list (PDF)"),
    "table-cards": _l("Table cards (PDF)"),
    "scoresheets": _l("Blank scoresheets (PDF)"),
}


@dataclasses.dataclass(frozen=True, slots=True)
class DrawnLine:
    """A table of a draw not stored yet (or just stored), with names."""

    table: int  # 0: a walkover the draw scores (a withdrawn player's game)
    match_id: str
    players: tuple[PlayerRef, PlayerRef]
    first_dealer: PlayerRef | None  # R18; None: the first result says who dealt
    slot: str | None


@dataclasses.dataclass(frozen=True)
class DrawShown:
    """A draw as the preview shows it: the record and its players by name."""

    record: DrawRecord
    tables: tuple[DrawnLine, ...]
    byes: tuple[PlayerRef, ...]
    idle: tuple[PlayerRef, ...]


class LogMoved(Exception):
    """The tournament changed since the preview: nothing is stored."""

    def __init__(self, version: int) -> None:
        self.version = version


def at_version(
    expected: int, command: Callable[[Tournament], list[NewEvent]]
) -> Callable[[Tournament], list[NewEvent]]:
    """``command``, decided only on the version a preview was decided on."""

    def guarded(t: Tournament) -> list[NewEvent]:
        if t.version != expected:
            raise LogMoved(t.version)
        return command(t)

    return guarded


def shown(t: Tournament, record: DrawRecord) -> DrawShown:
    lines = tuple(
        DrawnLine(
            table=x.table,
            match_id=x.match_id,
            players=(player_ref(t, x.players[0]), player_ref(t, x.players[1])),
            first_dealer=None if x.first_dealer is None else player_ref(t, x.first_dealer),
            slot=x.slot,
        )
        for x in record.tables
    )
    return DrawShown(
        record=record,
        tables=tuple(sorted(lines, key=lambda x: (x.table == 0, x.table))),
        byes=tuple(player_ref(t, p) for p in record.byes),
        idle=tuple(player_ref(t, p) for p in record.idle),
    )


def decide_draw(
    tid: str, command: Callable[[Tournament], list[NewEvent]]
) -> tuple[Tournament, DrawShown | None, str | None]:
    """The draw ``command`` would make on the tournament now, stored nowhere: the state,
    the draw (None if refused) and the refusal in words."""
    service = services().tournaments
    with service.reading():
        t = service.state(tid)
        try:
            events = command(t)
        except DomainError as error:
            return t, None, refusal(error)
        return t, shown(t, draw_record(events)), None


def version_field() -> int | None:
    text = request.form.get("version", "")
    return int(text) if text.isdigit() and len(text) < 13 else None


def can_organise(tid: str) -> bool:
    return caller().role_in(tid) >= Role.ORGANISER


def flash_drawn(stored: Sequence[StoredEvent]) -> None:
    record = draw_record(stored)
    flash(
        gettext(
            "Round %(n)s is drawn: %(tables)s tables, %(byes)s byes.",
            n=record.number,
            tables=sum(1 for x in record.tables if x.table),
            byes=len(record.byes),
        ),
        "success",
    )


# --- The list of rounds and the current round --------------------------------------------


@pages.get("/desk/t/<tid>/rounds")
@requires(Role.SCORER)
def rounds_page(tid: str) -> Any:
    return _rounds_page(tid)


def _rounds_page(
    tid: str, *, status: int = 200, cancel_error: str | None = None, why: str = "",
    **extra: Any,
) -> Any:  # fmt: skip
    service = services().tournaments
    events = _events_unless_known(tid)
    with service.reading():
        t = service.state(tid)
        summaries = _summaries(tid, t, events)
        current = round_view(t) if t.current_round else None
        # The view's notices in English (as the API gives them); the page says them again.
        notices = [say(p) for p in draw_notice_phrases(t, t.current_round)]
        cannot_cancel = _cancel_refusal(t)
        cannot_draw = draw_refusal_line(t)
        version = t.version
    online = {m for m, x in t.online.items() if not x.stopped}
    organiser = can_organise(tid)
    assert t.settings is not None
    by_table = _by_table(current)
    playable = [x for x in by_table if _playable(x, online)] if organiser else []
    online_errors = extra.get("online_errors", {})
    # The parts that grow with the round (a row, a link or an option per table, each
    # with its words translated: 60 % of the page's CPU at 200 players, issue 22) are
    # rendered once per version of the tournament, language and what the reader may see
    # (:mod:`.fragments`). Nothing of the reader's own is in them: the CSRF token, the
    # reader's name and role stay in the page around them.
    parts = _Parts(tid, t, version, current, by_table, organiser, online, playable)
    html = render_template(
        "desk/rounds/rounds.html",
        **desk_context(
            tid,
            area="rounds",
            name=t.settings.name,
            summaries=summaries,
            current=current,
            pairings_table=parts.pairings() if current is not None else "",
            missing_results=parts.missing() if current is not None else "",
            notices=notices,
            organiser=organiser,
            cannot_draw=cannot_draw,
            cannot_cancel=cannot_cancel,
            cancel_error=cancel_error,
            why=why,
            print_kinds=PRINT_KINDS,
            when=_when,
            # Online tables (T-online): the matches played online now, and a refused
            # "Play online" of :mod:`.desk_online` with what was typed.
            online=online,
            blocking_list=parts.blocking_list() if organiser and cannot_draw else "",
            next_number=t.current_round + 1,
            playable=playable,
            online_options=parts.options(next(iter(online_errors), "")) if playable else "",
            online_errors=online_errors,
            online_values=extra.get("online_values", {}),
        ),
    )
    return html, status


@dataclasses.dataclass(frozen=True)
class _Parts:
    """The rounds page's per-table parts, each rendered once per key (:func:`fragment`
    adds the language and where the app is mounted). ``version`` decides everything they
    show (the round, its results, the blocking matches, the tables online); ``organiser``
    what the reader may see of it -- the only thing of the reader's in them."""

    tid: str
    t: Tournament
    version: int
    current: RoundView | None
    by_table: list[Any]
    organiser: bool
    online: set[str]
    playable: list[Any]

    def _key(self, part: str) -> tuple[str, str, int, int | None, bool]:
        number = self.current.number if self.current is not None else None
        return (f"desk-{part}", self.tid, self.version, number, self.organiser)

    def pairings(self) -> Markup:
        def render() -> str:
            return render_template(
                "desk/rounds/pairings_table.html", tid=self.tid, current=self.current,
                tables=self.by_table, organiser=self.organiser, online=self.online,
            ).strip()  # fmt: skip

        return fragment(self._key("pairings"), render)

    def missing(self) -> Markup:
        def render() -> str:
            return render_template(
                "desk/rounds/missing.html", tid=self.tid, current=self.current,
                missing=_missing(self.current),
            )  # fmt: skip

        return fragment(self._key("missing"), render)

    def blocking_list(self) -> Markup:
        def render() -> str:
            return render_template(
                "desk/rounds/blocking.html", tid=self.tid, blocking=_blocking(self.t)
            )

        return fragment(self._key("blocking"), render)

    def options(self, chosen: str) -> Markup:
        """The options of "Play a table online"; ``chosen``: the one a refusal marks
        (rendered each time: what was typed is not kept)."""

        def render() -> str:
            return render_template(
                "desk/rounds/online_options.html", playable=self.playable, err_mid=chosen
            )

        if chosen:
            return Markup(render())
        return fragment(self._key("options"), render)


#: Every round's summary by tournament and version: when and by whom each round was
#: drawn comes from the log's ``round.started`` events, which a page load read whole
#: (a third of its CPU at 200 players, trial 9 section 7) though they change only with
#: the version.
_SUMMARIES: dict[tuple[str, str, int], list[RoundSummary]] = {}
_summaries_lock = threading.Lock()


def _events_unless_known(tid: str) -> list[StoredEvent] | None:
    """The tournament's events, unless the summaries of its version now are known."""
    service = services().tournaments
    key = (services().url, tid, service.state(tid).version)
    return None if key in _SUMMARIES else service.events(tid)


def _summaries(tid: str, t: Tournament, events: list[StoredEvent] | None) -> list[RoundSummary]:
    """:func:`round_summaries` of ``t``, kept per version (the caller holds
    ``reading()``); ``events`` None: known (or read again if it is gone meanwhile)."""
    key = (services().url, tid, t.version)
    known = _SUMMARIES.get(key)
    if known is not None:
        return known
    if events is None or not events or events[-1].version != t.version:
        # Not the events of this version (the log moved between the two reads, or the
        # summaries were dropped): these, as read now, and not kept.
        return round_summaries(t, services().store.read_stream(events_stream(tid), 1, t.version))
    made = round_summaries(t, events)
    with _summaries_lock:
        if len(_SUMMARIES) > 256:
            _SUMMARIES.clear()
        _SUMMARIES[key] = made
    return made


def render_rounds(tid: str, *, status: int = 200, **extra: Any) -> Any:
    """The rounds page, with ``extra`` values (a refusal of :mod:`.desk_online`)."""
    return _rounds_page(tid, status=status, **extra)


def _when(moment: datetime) -> str:
    """When a draw was stored, in the reader's locale (SQLite gives UTC without a zone)."""
    return local_datetime(moment, "short")


def _by_table(current: RoundView | None) -> list[Any]:
    if current is None:
        return []
    return sorted(current.tables, key=lambda x: (x.table == 0, x.table))


def _playable(line: Any, online: set[str]) -> bool:
    """A table the organiser may start online: open, at a table, not online yet."""
    return bool(line.status == "open" and line.table and line.match_id not in online)


def _missing(current: RoundView | None) -> list[int]:
    """The tables whose result is still missing (their match open)."""
    if current is None:
        return []
    return sorted(x.table for x in current.tables if x.status == "open" and x.table)


@dataclasses.dataclass(frozen=True)
class Blocking:
    """An open match the next draw waits for (T-round), as the rounds page lists it."""

    match_id: str
    round: int
    table: int
    names: str
    again: bool  # reopened by a correction


def _blocking(t: Tournament) -> list[Blocking]:
    """The matches the next round waits for, said for people: round, table, players."""
    from tournament.domain.standings.progress import open_matches

    return [
        Blocking(
            m.match_id,
            m.round,
            m.table,
            " – ".join(t.players[p].name for p in m.players if p in t.players),
            m.round < t.current_round or m.match_id in t.reopened,
        )
        for m in open_matches(t)
    ]


def _cancel_refusal(t: Tournament) -> str | None:
    """Why the latest round cannot be cancelled (None: it can), as the domain says."""
    if not t.current_round:
        return None
    try:
        c.cancel_round(t, why="-")
    except DomainError as error:
        return refusal(error)
    return None


def draw_refusal_line(t: Tournament) -> str | None:
    """Why no round can be drawn now because of open matches (None: it can), T-round."""
    from tournament.domain.standings.progress import draw_refusal_phrase

    found = draw_refusal_phrase(t)
    return f"round: {say(found)} (T-round)" if found is not None else None


# --- Preview and draw ----------------------------------------------------------------------


@pages.get("/desk/t/<tid>/rounds/preview")
@requires(Role.ORGANISER)
def preview_draw(tid: str) -> Any:
    return _preview(tid)


def _preview(tid: str, *, status: int = 200, moved: bool = False) -> Any:
    actor = caller().actor
    t, draw, refused = decide_draw(tid, lambda t: c.start_round(t, actor=actor))
    assert t.settings is not None
    html = render_template(
        "desk/rounds/preview.html",
        **desk_context(
            tid,
            area="rounds",
            name=t.settings.name,
            draw=draw,
            refused=refused,
            version=t.version,
            moved=moved,
        ),
    )
    return html, status if refused is None else 409


@pages.post("/desk/t/<tid>/rounds/draw")
@requires(Role.ORGANISER)
def draw(tid: str) -> Any:
    """Store the draw previewed at ``version``; a moved log shows the new preview."""
    expected = version_field()
    if expected is None:
        return _preview(tid, status=409, moved=True)
    actor = caller().actor
    command = at_version(expected, lambda t: c.start_round(t, actor=actor))
    try:
        stored = services().tournaments.execute(tid, command, metadata=page_metadata())
    except LogMoved:
        return _preview(tid, status=409, moved=True)
    except DomainError:
        return _preview(tid)  # shows the refusal as the preview would
    flash_drawn(stored)
    return redirect(url_for(".rounds_page", tid=tid), 303)


# --- Cancel ----------------------------------------------------------------------------------


@pages.post("/desk/t/<tid>/rounds/<int:n>/cancel")
@requires(Role.ORGANISER)
def cancel(tid: str, n: int) -> Response | Any:
    why = request.form.get("why", "").strip()
    if not why:
        message = gettext("why: say why the round is cancelled (T-round); nothing stored")
        return _rounds_page(tid, status=422, cancel_error=message)
    if len(why) > 500:
        message = gettext("why: at most 500 characters (T-round); nothing stored")
        return _rounds_page(tid, status=422, cancel_error=message, why=why)
    actor = caller().actor

    def command(t: Tournament) -> list[NewEvent]:
        r = drawn_round(t, n)
        if r.number != t.current_round:
            raise page_error(
                DomainError, "round", "T-round", "page.only_latest_round",
                latest=t.current_round, number=n,
            )  # fmt: skip
        return c.cancel_round(t, why=why, actor=actor)

    try:
        services().tournaments.execute(tid, command, metadata=page_metadata())
    except DomainError as error:
        return _rounds_page(tid, status=409, cancel_error=refusal(error), why=why)
    flash(gettext("Round %(n)s is cancelled: draw it again.", n=n), "success")
    return redirect(url_for(".rounds_page", tid=tid), 303)

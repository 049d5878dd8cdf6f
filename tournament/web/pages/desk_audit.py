"""The audit log: ``/desk/t/<tid>/audit`` (issue 11).

Every event of the tournament, newest first, 100 a page: what it did
(:func:`tournament.domain.views.eventwords.in_words`, its kind in the reader's language), who
(the signed-in account the write recorded, or the command's actor), when (the locale's
date and time), from where (its ``source``: paper, players, live, import; and ``via``:
page, api, cli) and the seal that covers it (the first seal at or after its position:
:mod:`tournament.eventstore.seals`; the log is sealed at the end of every round).
Filtered by match (``2.3``, a bracket id) or by player (start number).
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final

from flask import render_template, request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain.commands.matchref import resolve_match
from tournament.domain.model import events as ev
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.domain.views.eventwords import in_phrase
from tournament.eventstore.api import StoredEvent
from tournament.eventstore.seals import Seal
from tournament.web.auth import requires
from tournament.web.i18n import local_datetime
from tournament.web.pages.desk import desk_blueprint, desk_context, refusal
from tournament.web.pages.messages import page_error, say

pages = desk_blueprint("desk_audit", __name__)

PER_PAGE: Final = 100

#: Each event kind in the reader's language.
KINDS: Final[dict[str, LazyString]] = {
    ev.TOURNAMENT_CREATED: _l("Tournament created"),
    ev.PLAYER_REGISTERED: _l("Player registered"),
    ev.PLAYER_CHECKED_IN: _l("Checked in"),
    ev.PLAYER_CHECKED_OUT: _l("Check-in undone"),
    ev.PLAYER_EDITED: _l("Player edited"),
    ev.PLAYER_WITHDRAWN: _l("Player withdrawn"),
    ev.PLAYERS_SEEDED: _l("Players seeded"),
    ev.LIFE_BOUGHT: _l("Life bought back"),
    ev.ROUND_STARTED: _l("Round drawn"),
    ev.ROUND_TABLES: _l("Tables listed"),
    ev.ROUND_CANCELLED: _l("Round cancelled"),
    ev.FIRST_DEALER_SET: _l("First dealer"),
    ev.HAND_RECORDED: _l("Hand recorded"),
    ev.TALLY_RECORDED: _l("Bummerl tally recorded"),
    ev.LIVE_HAND_STARTED: _l("Live hand dealt"),
    ev.LIVE_HAND_RECORDED: _l("Live hand recorded"),
    ev.LIVE_HAND_ABANDONED: _l("Live hand abandoned"),
    ev.LIVE_HAND_CLOSED: _l("Live hand closed"),
    # Online tables (T-online): the browser trial found these as raw event names.
    ev.ONLINE_STARTED: _l("Online table started"),
    ev.ONLINE_STOPPED: _l("Online table stopped"),
    ev.ONLINE_CLOCK_RESTARTED: _l("Clock restarted"),
    ev.ONLINE_SEAT_TAKEN: _l("Seat taken"),
    ev.ONLINE_SEAT_RELEASED: _l("Seat released"),
    ev.MATCH_FORFEITED: _l("Forfeit"),
    ev.RESULT_CORRECTED: _l("Result corrected"),
    ev.HAND_STRUCK: _l("Hand struck"),
    ev.SHEET_SIGNED: _l("Sheet signed"),
    ev.FLAG_CLEARED: _l("Flag cleared"),
    # The players' own reports (O-M2).
    ev.REPORT_SUBMITTED: _l("Result reported"),
    ev.REPORT_CONFIRMED: _l("Report confirmed"),
    ev.RESULT_DISPUTED: _l("Result disputed"),
    ev.REPORTS_SETTLED: _l("Reports settled"),
    ev.CODES_REVOKED: _l("Table codes revoked"),
}

#: Where an event came from (its ``source``) and through what (its ``via``).
ORIGINS: Final[dict[str, LazyString]] = {
    "paper": _l("paper"),
    "players": _l("players"),
    "player": _l("players"),
    "live": _l("live"),
    "import": _l("import"),
    "system": _l("system"),
    "page": _l("desk page"),
    "phone": _l("player's phone (table code)"),
    "sweep": _l("repair after a crash"),
    "api": _l("API"),
    "cli": _l("command line"),
}


@dataclasses.dataclass(frozen=True)
class AuditLine:
    position: int
    version: int
    kind: str
    words: str
    who: str
    when: str
    origin: str
    seal: str | None  # the covering seal's short form; None: not sealed yet


@pages.get("/desk/t/<tid>/audit")
@requires(Role.ORGANISER)
def audit(tid: str) -> Any:
    service = services().tournaments
    t = service.state(tid)
    events = service.events(tid)
    match_text = request.args.get("match", "").strip()
    player_text = request.args.get("player", "").strip()
    problem = None
    try:
        events = _filtered(t, events, match_text, player_text)
    except DomainError as error:
        problem = refusal(error)
    page = _page_number(request.args.get("page", "1"))
    newest_first = list(reversed(events))
    pages_count = max(1, -(-len(newest_first) // PER_PAGE))
    page = min(page, pages_count)
    shown = newest_first[(page - 1) * PER_PAGE : page * PER_PAGE]
    seals = services().store.seals()
    return render_template(
        "desk/sheets/audit.html",
        **desk_context(
            tid,
            area="audit",
            lines=[_line(t, e, seals) for e in shown],
            total=len(newest_first),
            page=page,
            pages=pages_count,
            match_text=match_text,
            player_text=player_text,
            problem=problem,
            latest=seals[-1].short if seals else None,
        ),
    )


def _page_number(text: str) -> int:
    return max(1, int(text)) if text.isdigit() and len(text) < 7 else 1


def _filtered(
    t: Tournament, events: list[StoredEvent], match_text: str, player_text: str
) -> list[StoredEvent]:
    """The events of one match and/or of one player (their own, and their matches')."""
    if match_text:
        mid = resolve_match(t, match_text)
        events = [e for e in events if e.payload.get("match_id") == mid]
    if player_text:
        pid = _player(t, player_text)
        mine = {mid for mid, m in t.matches.items() if pid in m.players}
        events = [e for e in events if _concerns(e, pid, mine)]
    return events


def _player(t: Tournament, text: str) -> int:
    if not text.isdigit() or int(text) not in t.players:
        raise page_error(
            DomainError, "player", "T-player", "page.no_start_number", text=repr(text[:20])
        )
    return int(text)


def _concerns(e: StoredEvent, pid: int, matches: set[str]) -> bool:
    p = e.payload
    if p.get("match_id") in matches:
        return True
    if p.get("player_id") == pid or p.get("winner") == pid:
        return True
    return pid in (p.get("players") or ())


def covering_seal(seals: Sequence[Seal], position: int) -> Seal | None:
    """The first seal at or after ``position`` (seals are oldest first)."""
    at = bisect.bisect_left([s.position for s in seals], position)
    return seals[at] if at < len(seals) else None


#: How the table-code pages name a player in an event's actor (stored in English).
BY_CODE: Final = re.compile(r"player (\d+) \(table code\)")
#: What a confirmation shares with the report it confirms (O-M2).
FLAGS: Final[dict[str, LazyString]] = {
    "same_device": _l("confirmed from the reporting phone"),
    "same_address": _l("confirmed from the reporting address"),
    # Seats of an online table (T-online): what was not refused, but is worth a look.
    "seats_same_device": _l("both seats taken from one phone"),
    "seats_same_address": _l("both seats taken from one address"),
    "seat_retaken_in_hand": _l("seat taken again after a release during a hand"),
}


def _line(t: Tournament, e: StoredEvent, seals: Sequence[Seal]) -> AuditLine:
    meta = e.metadata
    who = str(meta.get("account") or meta.get("actor") or "–")
    via = meta.get("via")
    by_code = BY_CODE.fullmatch(who)
    if by_code is not None:  # a player by their table code: their name, in the page's words
        pid = int(by_code.group(1))
        name = t.players[pid].name if pid in t.players else by_code.group(1)
        who = str(gettext("%(name)s (table code)", name=name))
        if via == "page":  # older events: the phone's pages said "page" like the desk's
            via = "phone"
    found = {**meta, "via": via}
    origin = [str(ORIGINS.get(str(found[k]), found[k])) for k in ("source", "via") if found.get(k)]
    origin += [str(FLAGS[f]) for f in (e.payload or {}).get("flags", ()) if f in FLAGS]
    seal = covering_seal(seals, e.position)
    return AuditLine(
        position=e.position,
        version=e.version,
        kind=str(KINDS.get(e.type, e.type)),
        words=say(in_phrase(t, e.type, e.payload)),
        who=who,
        when=_when(e.recorded_at),
        origin=", ".join(dict.fromkeys(origin)) or str(gettext("unknown")),
        seal=seal.short if seal else None,
    )


def _when(moment: datetime) -> str:
    return local_datetime(moment, "medium")

"""Players report their result from the table with the codes of its card (T-code).

One player opens their seat's code and enters the sheet, Bummerl by Bummerl, in the
paper's tally notation; the opponent opens the other code and confirms or disputes. A
confirmation (or a second report that says the same) records the result, with
``source: players`` and both reports kept in the log; a report that differs, or a
dispute, puts the match in the organiser's queue. A result reported again as it is
recorded is stored once (nothing new); reported otherwise, it is disputed::

    >>> from tournament.domain.model.state import fold
    >>> from tournament.domain.testing import paired
    >>> from tournament.domain.commands.tablecodes import match_codes
    >>> t = fold(paired(players=2, best_of=1))
    >>> a, b = match_codes(b"k", t, t.matches["1.1"])
    >>> [e.type for e in submit_report(t, b"k", a, ["7 4 1 0 / 7"])]
    ['report.submitted']
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from tournament.domain.commands.results import find_match, record_tallies, tally_fields, with_new
from tournament.domain.commands.tablecodes import RULE, TableSeat, resolve
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.model.matchstate import MatchState
from tournament.domain.model.reportbook import MatchReports, Report, draw_of
from tournament.domain.model.state import Tournament
from tournament.domain.model.tally import tally_hands
from tournament.domain.words.messages import N_
from tournament.eventstore.api import NewEvent

#: Why a match went to the organiser when no player typed a reason: stored as this English
#: and shown in the reader's language (a reason a player typed is shown as typed).
DIFFERS: str = N_("the two reports differ")
DIFFERS_FROM_RECORDED: str = N_("the report differs from the result recorded")
OWN_REASONS: frozenset[str] = frozenset({DIFFERS, DIFFERS_FROM_RECORDED})

#: A dispute's reason is free text, kept short enough for the queue's line.
REASON_LIMIT = 500

#: A Bummerl as the standings read it: the game points each seat struck off.
BummerlKey = tuple[int, int]

#: Where a report or a confirmation was sent from, as the edge knows it: ``device`` (a
#: hash of the browser's device token) and ``address`` (a keyed hash of its network
#: address). Both codes lie on one card, so a confirmation from the reporter's own device
#: or address proves no second person: it is flagged for the organiser (O-M2).
Origin = Mapping[str, str]
SAME_DEVICE = "same_device"
SAME_ADDRESS = "same_address"


def origin_flags(reported: Origin | None, confirmed: Origin | None) -> list[str]:
    """What a confirmation shares with the report it confirms: ``same_device`` and/or
    ``same_address`` (nothing known of either: no flag).

    >>> origin_flags({"device": "d1", "address": "a1"}, {"device": "d1", "address": "a1"})
    ['same_device', 'same_address']
    >>> origin_flags({"device": "d1", "address": "a1"}, {"device": "d2", "address": "a1"})
    ['same_address']
    >>> origin_flags(None, {"device": "d2"})
    []
    """
    if not reported or not confirmed:
        return []
    flags = []
    for key, flag in (("device", SAME_DEVICE), ("address", SAME_ADDRESS)):
        if reported.get(key) and reported.get(key) == confirmed.get(key):
            flags.append(flag)
    return flags


def reports_of(t: Tournament, match: MatchState) -> MatchReports:
    """What the players reported of ``match`` (in the draw of its round that stands)."""
    return t.reports.of(match.match_id, draw_of(t, match.round))


def sheet_key(tallies: Sequence[Mapping[str, Any]]) -> tuple[BummerlKey, ...]:
    """What two reports must agree on: per Bummerl, each seat's game points. (The paper's
    columns do not say in which order the hands came, so neither does this.)"""
    out = []
    for tally in tallies:
        won = [0, 0]
        for seat, points in tally_hands(tally):
            won[seat] += points
        out.append((won[0], won[1]))
    return tuple(out)


def read_sheet(
    t: Tournament, match: MatchState, texts: Sequence[str]
) -> tuple[list[str], list[dict[str, Any]]]:
    """The Bummerl typed (empty lines left out) and read in the match's seat order; the
    whole sheet is checked as the desk's entry checks it (R13-R20), on the match with
    nothing entered, so a refusal names the Bummerl and the rule."""
    kept = [text.strip() for text in texts if text.strip()]
    if not kept:
        raise DomainError("tally", "T-tally", code="reports.sheet_empty")
    if len(kept) > match.best_of:
        raise DomainError(
            "tally",
            "T-tally",
            code="reports.too_many_bummerl",
            params={"best_of": match.best_of, "count": len(kept)},
        )
    empty = match.trial([])
    events = record_tallies(_with_match(t, empty), match.match_id, kept, source=ev.PLAYERS)
    if not with_new(empty, events).decided:
        raise DomainError(
            "tally",
            "R20",
            code="reports.sheet_undecided",  # DomainError.line() appends the rule id
            params={"best_of": match.best_of},
        )
    tallies = [tally_fields(match, text, None) for text in kept]
    return kept, tallies


def _with_match(t: Tournament, match: MatchState) -> Tournament:
    """``t`` with ``match`` in place of its recorded self (a trial; nothing changes)."""
    trial = copy.copy(t)
    trial.matches = {**t.matches, match.match_id: match}
    return trial


def _recorded_key(match: MatchState) -> tuple[BummerlKey, ...] | None:
    """The recorded result as :func:`sheet_key` reads a report, when it was entered as
    tallies (else None: compared by the match's summary)."""
    entries = [e for e in match.entries if e.payload is not None]
    if entries and all(e.kind == "tally" and not e.struck for e in entries):
        return sheet_key([e.payload["tally"] for e in entries if e.payload is not None])
    return None


def _same_as_recorded(
    t: Tournament, match: MatchState, tallies: Sequence[Mapping[str, Any]]
) -> bool:
    key = _recorded_key(match)
    if key is not None:
        return key == sheet_key(tallies)
    empty = match.trial([])
    events = record_tallies(_with_match(t, empty), match.match_id, list(tallies))
    return with_new(empty, events).summary == match.summary


def _open(t: Tournament, secret: bytes, code: str) -> tuple[TableSeat, MatchState]:
    seat = resolve(secret, t, code)
    match = find_match(t, seat.match_id)
    if match.forfeit is not None or match.dropped:
        raise ConflictError(
            "code", RULE, code="reports.settled_at_desk", params={"table": match.table}
        )
    return seat, match


def _payload(t: Tournament, match: MatchState, seat: TableSeat, **more: Any) -> dict[str, Any]:
    return {
        "match_id": match.match_id,
        "seat": seat.seat,
        "player_id": seat.player_id,
        "draw": draw_of(t, match.round),
        **more,
    }


def submit_report(
    t: Tournament,
    secret: bytes,
    code: str,
    texts: Sequence[str],
    *,
    actor: str | None = None,
    origin: Origin | None = None,
) -> list[NewEvent]:
    """A player's report of the whole sheet through their seat's ``code``.

    - the match is recorded already: the same result is nothing new (stored once); another
      one is disputed (the organiser's queue);
    - the other seat reported the same: this report confirms it, and the result is recorded
      (``source: players``);
    - the other seat reported something else: both stay, the match goes to the queue;
    - otherwise the report waits for the opponent's confirmation (a report of the same
      seat replaces its earlier one; the very same report again is nothing new)."""
    seat, match = _open(t, secret, code)
    texts, tallies = read_sheet(t, match, texts)
    book = reports_of(t, match)
    more: dict[str, Any] = {"origin": dict(origin)} if origin else {}
    submitted = ev.make_event(
        ev.REPORT_SUBMITTED,
        _payload(t, match, seat, texts=texts, tallies=tallies, **more),
        actor=actor,
        source=ev.PLAYERS,
    )
    if match.entries:
        if match.decided and _same_as_recorded(t, match, tallies):
            return []
        reason = DIFFERS_FROM_RECORDED
        return [submitted, _dispute(t, match, seat, reason, actor)]
    own = book.reports.get(seat.seat)
    if own is not None and sheet_key(own.tallies) == sheet_key(tallies) and not book.disputes:
        return []
    other = book.reports.get(1 - seat.seat)
    if other is None:
        return [submitted]
    if sheet_key(other.tallies) == sheet_key(tallies):
        return [submitted, *_record(t, match, seat, other, actor, origin)]
    reason = DIFFERS
    return [submitted, _dispute(t, match, seat, reason, actor, mismatch=True)]


def confirm_report(
    t: Tournament,
    secret: bytes,
    code: str,
    *,
    actor: str | None = None,
    origin: Origin | None = None,
) -> list[NewEvent]:
    """The opponent confirms the report of the other seat through their own ``code``: the
    result is recorded (``source: players``). Confirmed already: nothing new. Sent from
    where the report came from (``origin``), the confirmation is flagged (O-M2)."""
    seat, match = _open(t, secret, code)
    book = reports_of(t, match)
    other = book.reports.get(1 - seat.seat)
    if other is None:
        raise NotFoundError(
            "code", RULE, code="reports.opponent_not_reported", params={"table": match.table}
        )
    if match.entries:
        if match.decided and _same_as_recorded(t, match, other.tallies):
            return []
        raise ConflictError(
            "code", RULE, code="reports.entered_at_desk", params={"table": match.table}
        )
    return _record(t, match, seat, other, actor, origin)


def dispute_report(
    t: Tournament, secret: bytes, code: str, reason: str, *, actor: str | None = None
) -> list[NewEvent]:
    """A player disputes the report (or the recorded result) with a reason: the match
    goes to the organiser's queue; nothing is recorded."""
    seat, match = _open(t, secret, code)
    why = " ".join(reason.split())
    if not why:
        raise DomainError("reason", RULE, code="reports.reason_missing")
    if len(why) > REASON_LIMIT:
        raise DomainError(
            "reason",
            RULE,
            code="reports.reason_too_long",
            params={"limit": REASON_LIMIT, "length": len(why)},
        )
    return [_dispute(t, match, seat, why, actor)]


def _record(
    t: Tournament,
    match: MatchState,
    seat: TableSeat,
    other: Report,
    actor: str | None,
    origin: Origin | None = None,
) -> list[NewEvent]:
    more: dict[str, Any] = {"origin": dict(origin)} if origin else {}
    flags = origin_flags(other.origin, origin)
    if flags:
        more["flags"] = flags
    confirmed = ev.make_event(
        ev.REPORT_CONFIRMED, _payload(t, match, seat, **more), actor=actor, source=ev.PLAYERS
    )
    recorded = record_tallies(
        t, match.match_id, list(other.tallies), actor=actor, source=ev.PLAYERS
    )
    return [confirmed, *recorded]


def _dispute(
    t: Tournament,
    match: MatchState,
    seat: TableSeat,
    reason: str,
    actor: str | None,
    *,
    mismatch: bool = False,
) -> NewEvent:
    payload = _payload(t, match, seat, reason=reason)
    if mismatch:
        payload["mismatch"] = True
    return ev.make_event(ev.RESULT_DISPUTED, payload, actor=actor, source=ev.PLAYERS)


def accept_report(
    t: Tournament, match_id: str, seat: int, *, actor: str | None = None
) -> list[NewEvent]:
    """The organiser takes one seat's report as the match's result (from the queue)."""
    match = find_match(t, match_id)
    report = reports_of(t, match).reports.get(seat)
    if report is None:
        raise NotFoundError(
            "seat",
            RULE,
            code="reports.seat_reported_nothing",
            params={"match_id": match_id, "seat": seat + 1},
        )
    if match.entries:
        raise ConflictError(
            "match", RULE, code="reports.match_has_result", params={"match_id": match_id}
        )
    recorded = record_tallies(t, match_id, list(report.tallies), actor=actor, source=ev.PLAYERS)
    settled = _settled(t, match, "accepted", actor, seat=seat)
    return [*recorded, settled]


def dismiss(t: Tournament, match_id: str, *, actor: str | None = None) -> list[NewEvent]:
    """The organiser takes a match off the queue (settled at the table or the desk)."""
    match = find_match(t, match_id)
    if not reports_of(t, match).queued:
        return []
    return [_settled(t, match, "dismissed", actor)]


def _settled(
    t: Tournament, match: MatchState, how: str, actor: str | None, seat: int | None = None
) -> NewEvent:
    payload: dict[str, Any] = {
        "match_id": match.match_id, "draw": draw_of(t, match.round), "how": how,
    }  # fmt: skip
    if seat is not None:
        payload["seat"] = seat
    return ev.make_event(ev.REPORTS_SETTLED, payload, actor=actor)


def revoke_codes(
    t: Tournament, *, match_id: str | None = None, actor: str | None = None
) -> list[NewEvent]:
    """New codes for one match (``match_id``) or every match of the current round: the
    old ones are refused from now on (their cards must be printed again)."""
    if match_id is not None:
        match = find_match(t, match_id)
        number = match.round
    else:
        number = t.current_round
        if number == 0:
            raise NotFoundError("round", "T-round", code="reports.no_round_drawn")
    payload: dict[str, Any] = {"round": number}
    if match_id is not None:
        payload["match_id"] = match_id
    return [ev.make_event(ev.CODES_REVOKED, payload, actor=actor)]


def flagged_confirmations(t: Tournament) -> list[tuple[MatchState, MatchReports]]:
    """Results the players "confirmed" from the device or address that reported them
    (O-M2): recorded, but worth a look at the paper sheet; by round and table."""
    out = []
    for match in t.matches.values():
        book = reports_of(t, match)
        if book.flags and book.recorded and match.entries:
            out.append((match, book))
    return sorted(out, key=lambda pair: (pair[0].round, pair[0].table))


def queue(t: Tournament) -> list[tuple[MatchState, MatchReports]]:
    """The organiser's queue: matches with a dispute or differing reports not settled yet,
    and matches the domain flags (a result changed after they were drawn), by table."""
    out = []
    for match in t.matches.values():
        book = reports_of(t, match)
        if book.queued or match.flags:
            out.append((match, book))
    return sorted(out, key=lambda pair: (pair[0].round, pair[0].table))

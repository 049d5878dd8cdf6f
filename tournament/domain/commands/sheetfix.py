"""A whole scoresheet corrected in one step: its players' columns swapped, or every
Bummerl replaced by the sheet as it really tallies (docs/organisers.md §7).

One Bummerl at a time, a sheet typed with its columns the wrong way round goes through
an interim state -- one Bummerl each, the match open again -- that the standings, the
phones and the projector would show, and each correction flags the later matches again.
:func:`correct_sheet` decides the whole new sheet at once: it is checked as a whole
(R17, R20), and its events are stored together (one append), so no reader ever sees the
interim. Every event carries the same ``sheet`` id: the later matches get one flag (the
same words, once), and ``standings --round`` counts it as one correction.

    >>> from tournament.domain.model.state import fold
    >>> from tournament.domain.testing import paired
    >>> from tournament.domain.commands.results import record_tally
    >>> events = paired(players=2, best_of=3)
    >>> for _ in range(2):
    ...     events += record_tally(fold(events), "1.1", "7 4 1 0 / 7 5")
    >>> fold(events).matches["1.1"].summary.winner  # the first column's seat
    0
    >>> fix = correct_sheet(fold(events), "1.1", None, by="desk", reason="columns swapped")
    >>> [e.type for e in fix], len({e.payload["sheet"]["id"] for e in fix})
    (['result.corrected', 'result.corrected'], 1)
    >>> fold(events + fix).matches["1.1"].summary.winner
    1
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from tournament.domain.commands.corrections import _replay_ok, _who_why
from tournament.domain.commands.registration import require_created
from tournament.domain.commands.results import find_match, new_id, not_played_online, tally_fields
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.domain.model.matchstate import Entry, MatchState
from tournament.domain.model.state import Tournament
from tournament.eventstore.api import NewEvent

Tally = str | Mapping[str, Any]


def swapped(tally: Mapping[str, Any]) -> dict[str, Any]:
    """The same Bummerl with the two players' columns exchanged.

    >>> swapped({"columns": [[7, 4, 0], [7, 5]]})
    {'columns': [[7, 5], [7, 4, 0]]}
    >>> swapped({"rows": [[7, 4], [3, 4]]})
    {'rows': [[4, 7], [4, 3]]}
    """
    if "columns" in tally:
        return {**tally, "columns": [list(c) for c in tally["columns"][::-1]]}
    return {**tally, "rows": [list(row[::-1]) for row in tally["rows"]]}


def _sheet(match: MatchState) -> list[Entry]:
    """The Bummerl the sheet holds now (voided ones are no longer on it); a sheet of
    hands, live hands or a forfeit is corrected result by result instead."""
    if not any(e.payload is not None for e in match.entries):
        raise ConflictError(
            "match",
            "T-correction",
            code="sheetfix.nothing_recorded",
            params={"match_id": match.match_id},
        )
    other = next((e for e in match.entries if e.kind != "tally" and e.payload is not None), None)
    if other is not None:
        raise ConflictError(
            "match",
            "T-correction",
            code="sheetfix.not_tallies",
            params={"match_id": match.match_id, "kind": other.kind},
        )
    return [e for e in match.entries if e.payload is not None]


def correct_sheet(
    t: Tournament,
    match_id: str,
    tallies: Sequence[Tally] | None,
    *,
    by: str,
    reason: str,
    actor: str | None = None,
) -> list[NewEvent]:
    """Correct match ``match_id``'s whole sheet: ``tallies`` None swaps the players'
    columns of every Bummerl; otherwise they are the sheet's Bummerl in order (text as
    typed at the desk, in the pairing's column order, or columns/rows), replacing the
    recorded ones -- a Bummerl fewer is voided, a further one entered. The events are
    one correction: a ``sheet`` id and the same who and why on each."""
    require_created(t)
    _who_why(by, reason)
    match = find_match(t, match_id)
    not_played_online(t, match)
    now = _sheet(match)
    if tallies is None:
        new: list[dict[str, Any]] = [swapped(e.payload["tally"]) for e in now if e.payload]
    else:
        if not tallies:
            raise DomainError("tallies", "T-correction", code="sheetfix.no_bummerl")
        new = []
        for number, tally in enumerate(tallies, 1):
            try:
                new.append(tally_fields(match, tally, None))
            except DomainError as error:
                raise DomainError(
                    f"bummerl {number}",
                    error.rule,
                    code="sheetfix.bummerl_refused",
                    params={"number": number, "why": error.message},
                ) from None
    if [e.payload["tally"] for e in now if e.payload] == new:
        raise ConflictError(
            "tallies", "T-correction", code="corrections.correction_changes_nothing"
        )
    sheet = {"id": uuid.uuid4().hex[:12], "by": by.strip(), "reason": reason.strip()}
    events: list[NewEvent] = []
    trial: list[Entry] = []
    for entry in match.entries:
        if entry.payload is None:
            trial.append(entry)
            continue
        position = now.index(entry)
        replacement = {"tally": new[position]} if position < len(new) else None
        trial.append(Entry(entry.result_id, entry.kind, replacement, entry.struck))
        if replacement != entry.payload:
            events.append(_corrected(match, entry, replacement, sheet, actor))
    for tally in new[len(now) :]:
        rid = new_id()
        payload = {"result_id": rid, "match_id": match_id, "tally": tally, "sheet": sheet}
        trial.append(Entry(rid, "tally", payload))
        events.append(ev.make_event(ev.TALLY_RECORDED, payload, actor=actor))
    _replay_ok(match, trial, "the corrected sheet")
    return events


def _corrected(
    match: MatchState,
    entry: Entry,
    replacement: dict[str, Any] | None,
    sheet: dict[str, str],
    actor: str | None,
) -> NewEvent:
    """One Bummerl's part of the sheet's correction, as ``correct_result`` records it."""
    payload = {
        "correction_id": uuid.uuid4().hex[:12],
        "result_id": entry.result_id,
        "match_id": match.match_id,
        "replacement": replacement,
        "previous": entry.payload,
        "by": sheet["by"],
        "reason": sheet["reason"],
        "sheet": sheet,
    }
    return ev.make_event(ev.RESULT_CORRECTED, payload, actor=actor)

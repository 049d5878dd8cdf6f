"""The scoresheet desk's reading of a sheet: which match a typed table names, what that
match's sheet already holds, how many Bummerl can still come, which table still misses
its result, and a sheet checked as typed -- all by the domain's own commands, decided on
the state and never stored (:func:`check_sheet`), so the desk refuses exactly what
``POST .../results`` refuses (R13, R17, R19).

    >>> from tournament.domain.model.state import fold
    >>> from tournament.domain.testing import paired
    >>> t = fold(paired(players=2, best_of=3))
    >>> still_to_come(t.matches["1.1"])
    3
    >>> checked = check_sheet(t, "1.1", ["7 4 1 0 / 7 6", "7 4 1 0 / 7 6", ""])
    >>> checked.decided, checked.inputs, checked.bummerl  # no Bummerl 3 after a 2:0
    (True, 2, (2, 0))
    >>> check_sheet(t, "1.1", ["7 4 1 0 / 7"]).bummerl  # a Schneider counts 2 (R19)
    (2, 0)
    >>> check_sheet(t, "1.1", ["7 5 1 0 / 7"]).errors[1].rule
    'R13'

The line the cursor is in may still grow: ``7 4 1 0 /`` is not yet a Schneider (R19),
and ``7 4 1 0 / 7`` decides only if the second column ends there (O-H1):

    >>> check_sheet(t, "1.1", ["7 4 1 0 /"], typing=1).typing
    1
    >>> tentative = check_sheet(t, "1.1", ["7 4 1 0 / 7"], typing=1)
    >>> tentative.decided, tentative.tentative
    (True, True)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence

from tournament.domain import commands as c
from tournament.domain.commands.entry import Spelling
from tournament.domain.commands.matchref import resolve_match
from tournament.domain.commands.results import with_new
from tournament.domain.model.errors import DomainError, NotFoundError
from tournament.domain.model.matchstate import MatchState
from tournament.domain.model.state import ENTRY_KINDS, Tournament
from tournament.domain.model.tally import tally_text
from tournament.domain.views.matchview import match_status
from tournament.eventstore.api import StoredEvent
from tournament.web.pages.messages import page_error

#: How the desk names the parts of an entry in the domain's refusals.
SPELLING = Spelling(
    "sheet",
    {"tallies": "Bummerl", "tally": "Bummerl", "again": "Enter again", "signed": "signed"},
    hands="hands",
    whole_sheet="tick 'both signed' with the Bummerl that decides the match",
    sign_later="sign later with 'Both players signed'",
)


@dataclasses.dataclass(frozen=True)
class SheetMatch:
    """A match as the desk shows it before its sheet is typed."""

    match_id: str
    table: int
    players: tuple[int, int]
    names: tuple[str, str]
    first_dealer: str | None  # R18; None: drawn with the first result
    best_of: int
    bummerl: tuple[int, int]  # Bummerl won so far, a Schneiderbummerl counting 2 (R19)
    recorded: tuple[str, ...]  # the Bummerl tallies already recorded, as typed
    decided: bool
    status: str  # tournament.domain.views.matchview.STATUSES
    signed: bool  # both players signed the sheet
    inputs: int  # how many Bummerl may still come (0 once decided)


def find_table(t: Tournament, typed: str) -> str:
    """The match a typed table names: a table number of the current round, or what
    :func:`resolve_match` reads (``2.3``, a bracket id); a :class:`NotFoundError` says
    why there is none."""
    text = typed.strip()
    if text.isdigit() and t.current_round:
        return resolve_match(t, f"{t.current_round}.{int(text)}")
    if not text:
        raise page_error(NotFoundError, "table", "T-match", "page.type_a_table")
    return resolve_match(t, text)


def still_to_come(m: MatchState) -> int:
    """The most Bummerl a best-of match can still need: one short of both players
    reaching the winning count (R19)."""
    if m.decided or m.summary.dropped:
        return 0
    target = m.best_of // 2 + 1
    a, b = m.summary.bummerl
    return max(1, (target - a) + (target - b) - 1)


def sheet_match(t: Tournament, match_id: str) -> SheetMatch:
    m = t.matches[match_id]
    dealer = None if m.first_dealer is None else t.label(m.players[m.first_dealer])
    recorded = tuple(
        tally_text(e.payload["tally"])
        for e in m.entries
        if e.kind == "tally" and e.payload is not None
    )
    return SheetMatch(
        match_id=match_id,
        table=m.table,
        players=m.players,
        names=(t.label(m.players[0]), t.label(m.players[1])),
        first_dealer=dealer,
        best_of=m.best_of,
        bummerl=m.summary.bummerl,
        recorded=recorded,
        decided=m.decided,
        status=match_status(t, m),
        signed=set(m.players) <= m.signed_by,
        inputs=still_to_come(m),
    )


def missing_tables(t: Tournament) -> list[int]:
    """The current round's tables whose match is still open, in table order."""
    if not t.current_round:
        return []
    r = t.rounds[t.current_round - 1]
    return sorted(
        t.matches[mid].table
        for mid in r.matches
        if t.matches[mid].table and match_status(t, t.matches[mid]) == "open"
    )


def next_table(t: Tournament, after: int | None = None) -> int | None:
    """The next table still missing its result after ``after`` (wrapping round), or None."""
    missing = missing_tables(t)
    later = [n for n in missing if after is None or n > after]
    return (later or missing)[0] if missing else None


def unique_table(t: Tournament, typed: str) -> bool:
    """No other table of the round starts with what was typed: the desk may move on to
    the first Bummerl without a Tab (``1`` among tables 1-9, but not among 1-12)."""
    text = typed.strip()
    if not text.isdigit() or not t.current_round:
        return False
    tables = [t.matches[mid].table for mid in t.rounds[t.current_round - 1].matches]
    return not any(str(n).startswith(text) and str(n) != str(int(text)) for n in tables)


@dataclasses.dataclass(frozen=True)
class Checked:
    """A typed sheet as the domain reads it, stored nowhere."""

    errors: Mapping[int, DomainError]  # per Bummerl input (1-based): the first refusal
    inputs: int  # how many inputs the sheet needs (the deciding one is the last)
    decided: bool  # the typed Bummerl decide the match
    bummerl: tuple[int, int]  # the score after the typed Bummerl
    typing: int | None = None  # the line the cursor is in, still too short to read
    tentative: bool = False  # decided only if the line the cursor is in ends as typed


def still_being_typed(text: str) -> bool:
    """Whether a line cannot be a whole Bummerl yet, however it goes on: no column
    separator, a second column not begun (``7 4 1 0 /``), or no count at 0 so far. While
    the cursor is in such a line it is not checked at all (O-H1: ``7 4 1 0 /`` read as a
    Schneider decided the match under the typist's fingers).

    >>> [still_being_typed(x) for x in ("7 4 1", "7 4 1 0 /", "7 6 / 7 4", "7 4 1 0/7")]
    [True, True, True, False]
    >>> still_being_typed("7:7 7:4 7:1"), still_being_typed("7:7 7:4 7:1 7:0")
    (True, False)
    """
    body = text.strip()
    if body.endswith("/") or ("/" not in body and ":" not in body):
        return True
    if ":" in body:
        last = body.split()[-1] if body.split() else ""
        return "0" not in last.split(":")
    return not any(
        (counts := re.split(r"[\s,]+", column.strip())) and counts[-1] == "0"
        for column in body.split("/")
    )


def unfinished_line(texts: Sequence[str]) -> int | None:
    """The first line whose second column was never begun (``7 4 1 0 /``): Enter on it
    stores nothing, as the cursor may have left it mid-sheet (O-H1)."""
    return next((n for n, text in enumerate(texts, 1) if text.strip().endswith("/")), None)


def check_sheet(
    t: Tournament, match_id: str, texts: Sequence[str], typing: int | None = None
) -> Checked:
    """Each typed Bummerl checked with the ones before it, by the domain's
    ``record_tallies`` (the message names the Bummerl, the hand and the rule); the
    checking stops at the first blank or refused input and at the deciding Bummerl.
    ``typing``: the line the cursor is in. It is read only once it can be a whole
    Bummerl, and a decision it makes is ``tentative``: the typist may go on typing."""
    m = t.matches[match_id]
    typed: list[str] = []
    inputs = still_to_come(m)
    for number, text in enumerate(texts, 1):
        if not text.strip() or number > inputs:
            break
        if (number == typing and still_being_typed(text)) or unfinished_line([text]):
            # ``7 4 1 0 /`` is never a Schneider, even once the cursor has left it
            bummerl = _after(t, match_id, typed)
            return Checked({}, max(inputs, number), False, bummerl, typing=number)
        typed.append(text)
        try:
            events = c.record_tallies(t, match_id, typed)
        except DomainError as error:
            return Checked({number: error}, inputs, False, m.summary.bummerl)
        after = with_new(m, events)
        if after.decided:
            bummerl = after.summary.bummerl
            return Checked({}, number, True, bummerl, tentative=number == typing)
        inputs = number + still_to_come(after)
    return Checked({}, inputs, False, _after(t, match_id, typed))


def _after(t: Tournament, match_id: str, typed: Sequence[str]) -> tuple[int, int]:
    """The Bummerl score once ``typed`` (all accepted) is recorded."""
    m = t.matches[match_id]
    if not typed:
        return m.summary.bummerl
    return with_new(m, c.record_tallies(t, match_id, typed)).summary.bummerl


def line_at_fault(t: Tournament, match_id: str, texts: Sequence[str]) -> int | None:
    """The first Bummerl line the rules refuse (the cursor goes there after a refused
    sheet, O-L5), or None when each line on its own is fine."""
    checked = check_sheet(t, match_id, texts)
    if checked.errors:
        return min(checked.errors)
    beyond = [n for n, text in enumerate(texts, 1) if text.strip() and n > checked.inputs]
    return beyond[0] if beyond else None


def last_entry(t: Tournament, events: Sequence[StoredEvent]) -> list[StoredEvent]:
    """The newest entry of the current round whose results still stand: its result
    events (one request's, e.g. a whole sheet's Bummerl), oldest first; empty when there
    is none. An earlier round's result is corrected on its own page: taking it back here
    would reopen a round the draw of this one was made on."""
    for event in reversed(events):
        if event.type not in ENTRY_KINDS or not _standing(t, event):
            continue
        if t.matches[str(event.payload["match_id"])].round != t.current_round:
            break
        together = event.metadata.get("correlation_id")
        if not together:
            return [event]
        return [
            e
            for e in events
            if e.type in ENTRY_KINDS
            and e.metadata.get("correlation_id") == together
            and _standing(t, e)
        ]
    return []


def _standing(t: Tournament, event: StoredEvent) -> bool:
    rid = event.payload.get("result_id")
    return rid in t.result_match and t.entry(rid)[1].payload is not None

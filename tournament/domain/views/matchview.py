"""A match as every reader shows it -- the printed sheet, ``results show``, the API: where
it stands in words, its status, and the line it gets in a list of matches.

The words are the organiser's (players by name and start number, rule ids where a score
needs explaining); the structured parts are plain values, so a printout and a JSON
answer are made from the same facts.

    >>> from tournament.domain.testing import paired
    >>> from tournament.domain.model.state import fold
    >>> t = fold(paired(players=4))
    >>> line = match_line(t, t.matches["1.1"])
    >>> line.status, line.needs, line.progress
    ('open', 'enter its result', 'nothing entered')
    >>> [(p.id, p.name) for p in line.players]
    [(1, 'Player 1'), (3, 'Player 3')]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final, Literal

from tournament.domain.model.matchstate import MatchState, result_words, schneider_note
from tournament.domain.model.state import Tournament

# tournament.domain.standings.progress (and the pairing code it loads) is imported where a list of
# matches is made: entering a result, which shows where its match stands, draws nothing.

#: What a match is, for a list filtered by it: ``open`` holds its round up (the next round
#: waits for it, T-round); ``decided`` has a winner (or both absent); ``dropped`` went with
#: a withdrawal; ``void`` is a bracket match a correction took out of the bracket.
STATUSES: Final = ("open", "decided", "dropped", "void")
#: The filters a list of matches takes: ``decided`` is every match no longer open.
Filter = Literal["open", "decided", "all"]


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerRef:
    """A player as a view names it: start number and name."""

    id: int
    name: str


def player_ref(t: Tournament, player_id: int) -> PlayerRef:
    found = t.players.get(player_id)
    return PlayerRef(player_id, found.name if found is not None else f"player {player_id}")


@dataclasses.dataclass(frozen=True, slots=True)
class MatchLine:
    """A match in a list of matches (a round's tables, the open matches)."""

    match_id: str
    round: int
    table: int  # 0: a walkover the draw recorded (nobody plays it)
    slot: str | None  # the bracket match it plays, if any
    players: tuple[PlayerRef, PlayerRef]
    first_dealer: PlayerRef | None  # R18; None: not drawn (set with the first result)
    status: str  # one of STATUSES
    bummerl: tuple[int, int]  # Bummerl won, a Schneiderbummerl counting 2 (R19)
    winner: PlayerRef | None
    result: str  # the result in words, empty while open
    needs: str | None = None  # open: what the organiser still has to enter
    progress: str | None = None  # open: how far it is (nothing entered, Bummerl 1:0 ...)
    reopened: str | None = None  # open again: the correction that made it so
    note: str | None = None  # void, or in conflict with the bracket: what to do


def match_status(t: Tournament, m: MatchState) -> str:
    """One of :data:`STATUSES`."""
    if m.summary.dropped:
        return "dropped"
    if m.decided:
        return "decided"
    return "void" if t.settled(m) else "open"


def match_standing(t: Tournament, mid: str) -> str:
    """Where a match stands, in words: who won, or the Bummerl score and the counts to go."""
    m = t.matches[mid]
    s = m.summary
    if m.bracket and (not m.entries or m.void) and mid in t.vacated():
        from tournament.domain.standings.pairing import vacated_why

        how = "never played" if not m.entries else "every result voided"
        return (
            f"void: {how}, and the bracket no longer has it after a correction: {vacated_why(t, m)}"
        )
    if s.dropped:
        return "dropped (withdrawal)"
    if s.decided:
        if m.winner is None:
            return "decided: both absent, a loss for each"
        seat = s.winner or 0
        score = f"{s.bummerl[seat]}:{s.bummerl[1 - seat]}"
        how = " by forfeit" if s.forfeit else schneider_note(s, m.schneiderbummerl)
        return f"decided: {m.labels[seat]} wins {score} Bummerl{how}"
    a, b = s.bummerl
    leader = "" if a == b else f" ({m.labels[0 if a > b else 1]} leads)"
    leader += schneider_note(s, m.schneiderbummerl)
    counts = m.engine.current.scores
    line = (
        f"Bummerl {a}:{b}{leader}; Bummerl {len(m.engine.bummerls)} in play: "
        f"{m.labels[0]} {counts[0]} to go, {m.labels[1]} {counts[1]} to go"
    )
    if m.first_dealer is not None and m.engine.next_dealer is not None:
        line += f"; next hand dealt by {m.labels[m.engine.next_dealer]}"
    return line


def open_progress(t: Tournament, m: MatchState) -> str:
    """How far an open match is, short: ``nothing entered``, ``Bummerl 1:0, Bummerl 2
    hand 1 next``, ``live hand in progress``."""
    if t.live_in_progress(m.match_id):
        return "live hand in progress"
    if not m.entries:
        return "nothing entered"
    a, b = m.summary.bummerl
    return f"Bummerl {a}:{b}, {m.next_place()} next"


def bracket_notes(t: Tournament, match_ids: Sequence[str]) -> dict[str, str]:
    """Per vacated match among ``match_ids`` (a bracket match never played that a
    correction took out of the bracket), what its line says instead of who deals first;
    per bracket match in conflict with the bracket after a correction (played, no longer
    fitting), the same: CONFLICT and where it stands."""
    if not any(t.matches[mid].bracket for mid in match_ids):
        return {}
    from tournament.domain.standings.knockout import misfit_why
    from tournament.domain.standings.pairing import void_note

    vacated = t.vacated()
    notes = {mid: void_note(t, t.matches[mid]) for mid in match_ids if mid in vacated}
    for mid in match_ids:
        m = t.matches[mid]
        if mid not in vacated and misfit_why(t, m):
            stands = result_words(m) or "open"
            notes[mid] = (
                f"CONFLICT ({stands}): no longer fits the bracket after a correction "
                "(`tournament results missing` says what to do)"
            )
    return notes


def match_line(t: Tournament, m: MatchState, note: str | None = None) -> MatchLine:
    """``m`` as a list shows it; ``note``: what :func:`bracket_notes` says of it."""
    from tournament.domain.standings.progress import still_needed

    status = match_status(t, m)
    first = None if m.first_dealer is None else player_ref(t, m.players[m.first_dealer])
    winner = None if m.winner is None else player_ref(t, m.winner)
    still_open = status == "open"
    return MatchLine(
        match_id=m.match_id,
        round=m.round,
        table=m.table,
        slot=str(m.bracket["id"]) if m.bracket else None,
        players=(player_ref(t, m.players[0]), player_ref(t, m.players[1])),
        first_dealer=first,
        status=status,
        bummerl=m.summary.bummerl,
        winner=winner,
        result=result_words(m),
        needs=still_needed(m) if still_open else None,
        progress=open_progress(t, m) if still_open else None,
        reopened=t.reopened.get(m.match_id) if still_open else None,
        note=note,
    )


def match_lines(t: Tournament, which: Filter = "all", number: int | None = None) -> list[MatchLine]:
    """The matches of round ``number`` (default: every round), in round and table order:
    ``open`` every match still open (all of them, never the first few: an organiser
    chasing sheets needs the whole list), ``decided`` every match no longer open."""
    from tournament.domain.standings.progress import open_matches

    if which == "open":
        chosen = open_matches(t, number)
    else:
        rounds = t.rounds if number is None else t.rounds[number - 1 : number]
        chosen = [t.matches[mid] for r in rounds for mid in r.matches]
        if which == "decided":
            chosen = [m for m in chosen if t.settled(m)]
    notes = bracket_notes(t, [m.match_id for m in chosen])
    return [match_line(t, m, notes.get(m.match_id)) for m in chosen]

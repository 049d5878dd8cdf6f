"""A drawn round as every reader shows it -- the printed sheet (``round show``), the API,
the projector: its stage, its tables with who deals first (R18), its byes, the players it
gave nothing and why, and what a format adds to each name (lives left, Swiss points).

    >>> from tournament.domain.testing import registered
    >>> from tournament.domain.commands.rounds import start_round
    >>> from tournament.domain.model.state import fold
    >>> events = registered(players=5, format="swiss", seed=11)
    >>> events += start_round(fold(events))
    >>> view = round_view(fold(events), 1)
    >>> [(x.match_id, x.table, [p.id for p in x.players]) for x in view.tables]
    [('1.1', 1, [1, 3]), ('1.2', 2, [2, 4])]
    >>> [b.player.id for b in view.byes], view.stage, view.complete, view.open
    ([5], 'Swiss round 1 of 3', False, 2)
    >>> drawn_round(fold(events), 3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tournament.domain.model.errors.NotFoundError: round: round 3 is not drawn yet (only round 1 ...

The pairing code (and the bracket code) is loaded only where a view needs it: a result
entered at the desk, which prints where its match stands, draws nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tournament.domain.model import events as ev
from tournament.domain.model.errors import NotFoundError
from tournament.domain.model.parts import Round
from tournament.domain.model.state import Tournament
from tournament.domain.views.matchview import (
    MatchLine,
    PlayerRef,
    bracket_notes,
    match_line,
    player_ref,
)
from tournament.domain.words.messages import Phrase, english

if TYPE_CHECKING:
    from tournament.eventstore.api import StoredEvent
    from tournament.formats.bracket import BracketMatch


def drawn_round(t: Tournament, number: int | None = None) -> Round:
    """Round ``number`` (default: the current one), or a :class:`NotFoundError` saying
    which rounds there are (T-round)."""
    if not t.current_round:
        raise NotFoundError("round", "T-round", code="roundview.round_been_drawn_yet")
    number = t.current_round if number is None else number
    if number < 1:
        raise NotFoundError("round", "T-round", code="roundview.rounds_counted_there_round")
    if number > t.current_round:
        drawn = "only round 1 is" if t.current_round == 1 else f"rounds 1 to {t.current_round} are"
        raise NotFoundError(
            "round",
            "T-round",
            code="roundview.round_drawn_yet",
            params={"number": number, "drawn": drawn},
        )
    return t.rounds[number - 1]


def round_stage(t: Tournament, r: Round) -> str:
    """A round's stage as its header says it; a lives final names its players (the round
    records their start numbers)."""
    if not r.info.get("final"):
        return str(r.stage)
    from tournament.domain.standings.lives import final_start
    from tournament.formats.lives import final_round_count

    final = final_start(t)
    assert final is not None
    start, finalists = final
    rounds = final_round_count(finalists)
    names = ", ".join(t.label(int(p)) for p in finalists)
    if rounds > 1:
        number = r.number - start + 1
        return english("stage.final_of", {"number": number, "total": rounds, "names": names})
    return english("stage.final", {"names": names})


def bracket_heading(m: BracketMatch, last: Mapping[str, int]) -> str:
    """A bracket match's section as organisers name it: the rounds of a single
    elimination by how many players are left (``Round of 16``, ``Quarter-finals``,
    ``Semi-finals``, ``Final``), the winners' and losers' finals of a double elimination.
    ``last`` is the last round of each section."""
    section, number = m.section, m.round_no
    if section == "3P":
        return "Third-place match"
    if section == "GF":
        return "Grand final (reset)" if m.reset_of else "Grand final"
    to_go = last[section] - number
    if section == "W":
        named = {0: "Winners' final", 1: "Winners' semi-finals"}
        return named.get(to_go, f"Winners bracket, round {number}")
    if section == "L":
        return "Losers' final" if to_go == 0 else f"Losers bracket, round {number}"
    from_end = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
    return from_end.get(to_go, f"Round of {2 ** (to_go + 1)}")


def bracket_sections(t: Tournament, match_ids: Sequence[str]) -> list[str]:
    """The bracket rounds a knockout round plays, as organisers name them (``Round of
    16``, ``Semi-finals``, ``Winners' final``); none outside a bracket."""
    slots = [t.matches[mid].bracket.get("id") for mid in match_ids]
    if not slots or not all(slots):
        return []
    from tournament.domain.standings.pairing import bracket_of

    b = bracket_of(t)
    if b is None:
        return []
    last: dict[str, int] = {}
    for bm in b.matches:
        last[bm.section] = max(last.get(bm.section, 0), bm.round_no)
    ids = {bm.match_id: bm for bm in b.matches}
    names = [bracket_heading(ids[slot], last) for slot in slots if slot in ids]
    return list(dict.fromkeys(names))


def tournament_groups(t: Tournament) -> list[list[int]]:
    """The groups of a group format, as drawn in round 1 (none: no groups)."""
    from tournament.domain.standings.field import frozen

    if t.settings is None or t.settings.format not in ("round_robin", "groups_knockout"):
        return []
    return [[int(p) for p in g] for g in frozen(t, "groups") or []]


def group_numbers(t: Tournament, number: int) -> dict[int, int]:
    """Per player its group (1, 2 ...) in a group round of a format with several groups,
    so the tables of one group can be found; nothing in a knockout round."""
    groups = tournament_groups(t)
    first_ko = next((r.number for r in t.rounds if "seeds" in r.info), None)
    if len(groups) < 2 or (first_ko is not None and number >= first_ko):
        return {}
    return {pid: n for n, group in enumerate(groups, 1) for pid in group}


def lives_at_draw(t: Tournament, r: Round) -> dict[int, int]:
    """Lives format: per player of round ``r`` with a life left, its lives as the round
    was drawn (as the caller announces them); nothing in the final, where lives no longer
    count, nor in other formats."""
    if t.settings is None or t.settings.format != "lives" or r.info.get("final"):
        return {}
    from tournament.domain.standings.lives import lives_now

    left = lives_now(t, r.number).lives
    return {int(p): n for p, n in left.items() if n > 0}


def points_at_draw(t: Tournament, r: Round) -> dict[int, int]:
    """Swiss from round 2: per player of round ``r`` its match points before the round,
    the score group it was paired in; nothing in other formats."""
    if t.settings is None or t.settings.format != "swiss" or r.number == 1:
        return {}
    from tournament.domain.views.history import points_before

    points = points_before(t, r.number)
    players = {p for mid in r.matches for p in t.matches[mid].players} | set(r.byes)
    return {pid: points[pid] for pid in players}


def idle_reasons(t: Tournament, r: Round) -> dict[int, str]:
    """The players round ``r`` gave nothing (a round robin), each with why: their group
    has played all its rounds, or their game is dropped as the opponent withdrew."""
    if not r.idle:
        return {}
    from tournament.formats.round_robin import round_count

    finished = {
        pid
        for group in tournament_groups(t)
        if r.number > round_count([[str(p) for p in group]])
        for pid in group
    }
    return {
        pid: "the group has played all its rounds"
        if pid in finished
        else "the opponent withdrew, the game is dropped"
        for pid in r.idle
    }


def draw_notices(t: Tournament, number: int) -> list[str]:
    """What the organiser should know about the draw of round ``number``: players absent
    from both sides of a match of the round before (a double no-show) and drawn again."""
    return [str(p) for p in draw_notice_phrases(t, number)]


def draw_notice_phrases(t: Tournament, number: int) -> list[Phrase]:
    """:func:`draw_notices` with their codes, for a page in the reader's language."""
    if number < 2 or number > t.current_round:
        return []
    from tournament.domain.views.notices import absent_phrases

    drawn = {p for mid in t.rounds[number - 1].matches for p in t.matches[mid].players}
    last = [m for m in t.rounds[number - 2].matches if drawn & set(t.matches[m].players)]
    return absent_phrases(t, last, drawn_in=number)


@dataclasses.dataclass(frozen=True, slots=True)
class ByeLine:
    player: PlayerRef
    slot: str | None  # the bracket match the bye passes (a knockout)


@dataclasses.dataclass(frozen=True, slots=True)
class IdleLine:
    player: PlayerRef
    why: str


@dataclasses.dataclass(frozen=True)
class RoundView:
    """A drawn round with everything its sheet shows."""

    number: int
    stage: str
    sections: tuple[str, ...]  # the bracket rounds it plays (Quarter-finals ...)
    seed: int
    manual: bool  # the organiser's own pairings (T-override)
    warnings: tuple[str, ...]  # format rules the draw breaks
    tables: tuple[MatchLine, ...]
    byes: tuple[ByeLine, ...]
    idle: tuple[IdleLine, ...]
    groups: Mapping[int, int]  # player -> group, in a group round of several groups
    lives: Mapping[int, int]  # lives format: player -> lives as the round was drawn
    points: Mapping[int, int]  # Swiss from round 2: player -> match points before it
    notices: tuple[str, ...]
    complete: bool  # every match settled
    open: int  # matches still open


def round_view(t: Tournament, number: int | None = None) -> RoundView:
    """Round ``number`` (default: the current one) as its sheet shows it; a round that is
    not there is a :class:`NotFoundError` naming the rounds that are."""
    r = drawn_round(t, number)
    matches = [t.matches[mid] for mid in r.matches]
    notes = bracket_notes(t, r.matches)
    tables = tuple(match_line(t, m, notes.get(m.match_id)) for m in matches)
    slots: Sequence[str] = r.info.get("bye_slots") or [""] * len(r.byes)
    return RoundView(
        number=r.number,
        stage=round_stage(t, r),
        sections=tuple(bracket_sections(t, r.matches)),
        seed=r.seed,
        manual=r.override,
        warnings=tuple(r.warnings),
        tables=tables,
        byes=tuple(
            ByeLine(player_ref(t, pid), slot or None)
            for pid, slot in zip(r.byes, slots, strict=True)
        ),
        idle=tuple(IdleLine(player_ref(t, pid), why) for pid, why in idle_reasons(t, r).items()),
        groups=group_numbers(t, r.number),
        lives=lives_at_draw(t, r),
        points=points_at_draw(t, r),
        notices=tuple(draw_notices(t, r.number)),
        complete=t.round_complete(r.number),
        open=sum(1 for line in tables if line.status == "open"),
    )


@dataclasses.dataclass(frozen=True, slots=True)
class RoundSummary:
    """A round in the list of rounds."""

    number: int
    stage: str
    seed: int
    manual: bool
    drawn_at: datetime | None  # when the draw that stands was stored
    drawn_by: str | None  # who stored it
    matches: int
    byes: int
    complete: bool
    open: int


def round_summaries(t: Tournament, events: Sequence[StoredEvent]) -> list[RoundSummary]:
    """Every round drawn, oldest first; when and by whom from the draw that stands (the
    last ``round.started`` of its number: a cancelled draw was drawn again)."""
    drawn: dict[int, StoredEvent] = {}
    for e in events:
        if e.type == ev.ROUND_STARTED:
            drawn[int(e.payload["round"])] = e
    out = []
    for r in t.rounds:
        started = drawn.get(r.number)
        out.append(
            RoundSummary(
                number=r.number,
                stage=round_stage(t, r),
                seed=r.seed,
                manual=r.override,
                drawn_at=started.recorded_at if started else None,
                drawn_by=started.metadata.get("actor") if started else None,
                matches=len(r.matches),
                byes=len(r.byes),
                complete=t.round_complete(r.number),
                open=sum(1 for mid in r.matches if not t.settled(t.matches[mid])),
            )
        )
    return out


@dataclasses.dataclass(frozen=True, slots=True)
class DrawnTable:
    match_id: str
    table: int  # 0: a walkover (a withdrawn player's game, scored by the draw)
    players: tuple[int, int]
    first_dealer: int | None  # R18
    slot: str | None  # the bracket match it plays


@dataclasses.dataclass(frozen=True)
class DrawRecord:
    """A draw as its events record it (stored, or about to be): what a draw answers,
    the same for its retry since it is made from the events alone."""

    number: int
    seed: int
    stage: str
    manual: bool
    warnings: tuple[str, ...]
    tables: tuple[DrawnTable, ...]
    byes: tuple[int, ...]
    bye_slots: tuple[str, ...]
    idle: tuple[int, ...]


def draw_record(events: Sequence[ev.EventLike]) -> DrawRecord:
    """The draw that ``events`` (a ``round.started``, its ``round.tables_listed`` and the
    walkovers it scored) record."""
    started = next(e for e in events if e.type == ev.ROUND_STARTED)
    p: Mapping[str, Any] = started.payload
    rows = list(p["matches"])
    rows += [
        row
        for e in events
        if e.type == ev.ROUND_TABLES and e.payload["round"] == p["round"]
        for row in e.payload["matches"]
    ]
    tables = []
    for match_id, table, a, b, first, *bracket in rows:
        slot = (bracket[0] if isinstance(bracket[0], str) else match_id) if bracket else None
        tables.append(DrawnTable(match_id, table, (a, b), first, slot))
    info: Mapping[str, Any] = p.get("info") or {}
    return DrawRecord(
        number=int(p["round"]),
        seed=int(p.get("seed", 0)),
        stage=str(p.get("stage", "")),
        manual=bool(p.get("override", False)),
        warnings=tuple(p.get("warnings", ())),
        tables=tuple(tables),
        byes=tuple(p.get("byes", ())),
        bye_slots=tuple(info.get("bye_slots", ())),
        idle=tuple(p.get("idle", ())),
    )

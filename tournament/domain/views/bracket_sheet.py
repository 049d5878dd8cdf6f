"""A knockout bracket as a sheet shows it: every slot by section with where its players
come from (a seed, the winner or the loser of a match), its status, winner and score,
the recorded match that holds it; then the slots in conflict after a correction and the
matches made void by one. ``tournament bracket`` prints it, the API's ``GET
/tournaments/{tid}/bracket`` answers it; before round 1 of a single or double
elimination it is the draw today's seeding gives (nothing recorded).

    >>> from tournament.domain.model.state import fold
    >>> from tournament.domain.testing import paired, registered
    >>> sheet = bracket_sheet(fold(registered(3, format="single_elimination")))
    >>> sheet.preview, [(s.slot.match_id, s.heading, s.sides) for s in sheet.slots]
    (True, [('R1-1', 'Semi-finals', ('[1] Player 1 (1)', '(bye)')), \
('R1-2', 'Semi-finals', ('[2] Player 2 (2)', '[3] Player 3 (3)')), \
('R2-1', 'Final', ('[1] Player 1 (1)', 'winner of R1-2'))])
    >>> print(no_bracket(fold(registered(4))))
    a swiss has no bracket: see `tournament standings`
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping

from tournament.domain.model.matchstate import MatchState, result_words, score_words
from tournament.domain.model.state import Tournament
from tournament.domain.standings.field import withdrawn
from tournament.domain.standings.knockout import (
    bracket_of,
    bracket_view,
    latest_drawn,
    slot_holders,
    vacated_why,
    void_command,
)
from tournament.domain.standings.progress import bracket_preview
from tournament.domain.views.roundview import bracket_heading
from tournament.formats.bracket import (
    Bracket,
    BracketMatch,
    LoserOf,
    Seed,
    Source,
    WinnerOf,
    bracket_state,
)
from tournament.formats.bracket import MatchState as SlotState


@dataclasses.dataclass(frozen=True)
class SheetSlot:
    """One bracket slot as it stands."""

    slot: BracketMatch  # its id, section, round, sources and where winner and loser go
    state: SlotState  # its players (start numbers as text), status and winner
    heading: str  # its section as organisers name it: Quarter-finals, Winners' final ...
    sides: tuple[str, str]  # both players, or where they come from, as the sheet says
    #: The recorded match that holds the slot (None: not drawn yet, or a preview).
    played: MatchState | None
    conflict: bool  # a recorded match that no longer fits the slot holds it
    score: str  # once done: the score the winner won by (``2:0``, ``2:0 by forfeit``)

    @property
    def status(self) -> str:
        """As printed: ``ready``, ``not needed``, ``CONFLICT``, ``done (as R2-1b)`` ..."""
        words = "CONFLICT" if self.conflict else self.state.status.replace("_", " ")
        again = self.played is not None and self.played.match_id != self.slot.match_id
        if again and not self.conflict:
            assert self.played is not None
            words += f" (as {self.played.match_id})"  # drawn again after a correction
        return words


@dataclasses.dataclass(frozen=True)
class SheetNote:
    """A line under the bracket: a slot in conflict or a recorded match made void."""

    kind: str  # "CONFLICT" or "VOID"
    slot: str
    text: str
    match_id: str | None = None  # the recorded match it is about, if any


@dataclasses.dataclass(frozen=True)
class BracketSheet:
    bracket: Bracket
    preview: bool  # not drawn yet: the draw today's seeding and check-ins give
    slots: list[SheetSlot]
    seed_of: Mapping[str, int]  # start number (as text) -> seed
    champion: str | None
    notes: list[SheetNote]


def current_sheet(t: Tournament) -> BracketSheet | None:
    """The bracket as drawn, else before round 1 the draw preview; None: there is none
    (:func:`no_bracket` says why)."""
    if bracket_of(t) is not None:
        return bracket_sheet(t)
    preview = bracket_preview(t)
    return None if preview is None else bracket_sheet(t, preview)


def bracket_sheet(t: Tournament, preview: Bracket | None = None) -> BracketSheet:
    """The drawn bracket of ``t`` (or ``preview``, one not drawn yet: no recorded match
    holds a slot; without either, the preview from today's seeding)."""
    misfits: dict[str, MatchState] = {}
    holders: dict[str, MatchState] = {}
    drawn = bracket_of(t) if preview is None else None
    if drawn is None:
        b = preview or bracket_preview(t)
        assert b is not None, "no bracket: see no_bracket()"
        state = bracket_state(b, (), withdrawn(t))
    else:
        b = drawn
        view = bracket_view(t)
        assert view is not None
        state, misfits = view
        holders = dict(slot_holders(t))
    seed_of = {pid: n for n, pid in enumerate(b.seeds, 1)}

    def name(pid: str | None) -> str:
        return "?" if pid is None else t.label(int(pid))

    def seeded(pid: str | None) -> str:  # a player in the draw: with the seed, as on a sheet
        return f"[{seed_of[pid]}] {name(pid)}" if pid in seed_of else name(pid)

    last: dict[str, int] = {
        section: max(m.round_no for m in b.matches if m.section == section)
        for section in {m.section for m in b.matches}
    }
    slots = []
    for m in b.matches:
        s = state.matches[m.match_id]
        played = holders.get(m.match_id)
        score = ""
        if s.status == "done" and played is not None and played.winner is not None:
            score = score_words(played)
        slots.append(
            SheetSlot(
                m,
                s,
                bracket_heading(m, last),
                _sides(m, s, seeded),
                played,
                m.match_id in misfits,
                score,
            )
        )
    notes = [SheetNote("CONFLICT", mid, why) for mid, why in state.conflicts.items()]
    for slot, played in misfits.items():
        notes.append(
            SheetNote(
                "CONFLICT",
                slot,
                f"recorded match {played.match_id} (round {played.round}): "
                f"{' v '.join(played.labels)}, {so_far(t, played)}; "
                "it no longer fits the bracket (flagged), counts as played, and the slot is "
                f"drawn again once you void it: {void_command(played)}",
                played.match_id,
            )
        )
    vacated = t.vacated() if drawn is not None else {}
    for gone in vacated.values():
        if latest_drawn(t).get(gone.bracket["id"]) is not gone:
            continue  # drawn again since: the slot's line is about the newer draw
        notes.append(
            SheetNote(
                "VOID",
                str(gone.bracket["id"]),
                f"recorded match {gone.match_id} (round {gone.round}): "
                f"{' v '.join(gone.labels)}, never played; it no longer fits the bracket after "
                f"a correction and takes no result: {vacated_why(t, gone)}",
                gone.match_id,
            )
        )
    return BracketSheet(b, drawn is None, slots, seed_of, state.champion, notes)


def _sides(m: BracketMatch, s: SlotState, name: Callable[[str | None], str]) -> tuple[str, str]:
    """Both players of a bracket match, or where they come from while not known yet
    (``winner of R1-3``), as the draw sheet says it."""

    def side(pid: str | None, source: Source) -> str:
        if pid is not None:
            return name(pid)
        if s.status in ("bye", "void"):  # the feeder is decided: nobody comes from it
            return "(bye)"
        if isinstance(source, WinnerOf):
            return f"winner of {source.match_id}"
        if isinstance(source, LoserOf):
            return f"loser of {source.match_id}"
        return "(bye)" if isinstance(source, Seed) else name(None)  # a seed beyond the field

    return side(s.player_a, m.source_a), side(s.player_b, m.source_b)


def so_far(t: Tournament, m: MatchState) -> str:
    """What a recorded match holds, for a line about it: ``Anna (1) won 2:0``, or while
    open its Bummerl so far (and a live hand being played)."""
    done = result_words(m)
    if done:
        return done
    a, b = m.summary.bummerl
    hands = m.engine.hand_count
    live = ", a live hand in progress" if t.live_in_progress(m.match_id) else ""
    return f"open, {hands} hand{'' if hands == 1 else 's'} entered (Bummerl {a}:{b}){live}"


def no_bracket(t: Tournament) -> str:
    """Why there is no bracket to show, in the format's terms."""
    s = t.settings
    assert s is not None
    if s.format == "lives":
        return "the lives format has no bracket: every round is drawn afresh (`round show`)"
    if s.format in ("swiss", "round_robin"):
        return f"a {s.format.replace('_', ' ')} has no bracket: see `tournament standings`"
    if s.format == "groups_knockout":
        return (
            "the knockout bracket is drawn from the group tables when the group stage is "
            "complete; until then see `tournament standings`"
        )
    return "a knockout draw needs at least 2 players (registered, checked in, not withdrawn)"

"""Matches, groups and brackets in the organiser's words, shared by several commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from tournament.cli.columns import ljust, width
from tournament.domain.matchstate import MatchState
from tournament.domain.matchview import match_standing, result_words
from tournament.domain.parts import Round
from tournament.domain.roundview import (
    bracket_heading,
    lives_at_draw,
    round_stage,
    tournament_groups,
)
from tournament.domain.state import Tournament

# The words and shapes the API shows too live in the domain (matchview, roundview); the
# commands import them from here as they always did.
__all__ = [
    "bracket_heading",
    "buy_back_line",
    "format_words",
    "lives_notes",
    "match_standing",
    "print_bracket",
    "result_note",
    "round_stage",
    "tournament_groups",
]


def result_note(m: MatchState) -> str:
    """A match's result after its pairing line: `  -> Anna (1) won 2:0`, or nothing while open."""
    words = result_words(m)
    return f"  -> {words}" if words else ""


def print_bracket(t: Tournament, output: Any, preview: Any = None) -> None:
    """Every bracket match by section (named as organisers do: Round of 16, Quarter-finals,
    Final, Winners' final ...), with its players and their seeds, status and winner; then
    each recorded match that no longer fits its slot after a correction, with its own
    players. ``preview``: a bracket not drawn yet (from the seeding), shown as it would be."""
    from tournament.domain.pairing import (
        bracket_of,
        bracket_view,
        latest_drawn,
        slot_holders,
        vacated_why,
        void_command,
    )
    from tournament.domain.pairing import withdrawn as withdrawn_of
    from tournament.formats.bracket import bracket_state

    misfits: dict[str, Any] = {}
    holders: dict[str, Any] = {}
    if preview is not None:  # nothing drawn: no recorded match holds a slot
        b = preview
        state = bracket_state(b, (), withdrawn_of(t))
    else:
        b = bracket_of(t)
        view = bracket_view(t)
        assert b is not None and view is not None
        state, misfits = view
        holders = dict(slot_holders(t))
    seed_of = {pid: n for n, pid in enumerate(b.seeds, 1)}

    def name(pid: str | None) -> str:
        return "?" if pid is None else t.label(int(pid))

    def seeded(pid: str | None) -> str:  # a player in the draw: with the seed, as on a sheet
        return f"[{seed_of[pid]}] {name(pid)}" if pid in seed_of else name(pid)

    heading = None
    sides = {m.match_id: _bracket_sides(m, state.matches[m.match_id], seeded) for m in b.matches}
    wide = max((width(x) for pair in sides.values() for x in pair), default=10)
    last = {
        section: max(m.round_no for m in b.matches if m.section == section)
        for section in {m.section for m in b.matches}
    }
    for m in b.matches:
        if bracket_heading(m, last) != heading:
            heading = bracket_heading(m, last)
            click.echo(heading, file=output)
        s = state.matches[m.match_id]
        winner = f"  -> {name(s.winner)}" if s.winner else ""
        played = holders.get(m.match_id)
        status: str = "CONFLICT" if m.match_id in misfits else s.status.replace("_", " ")
        if played is not None and m.match_id not in misfits and played.match_id != m.match_id:
            status += f" (as {played.match_id})"  # drawn again after a correction
        if s.status == "done" and played is not None and played.winner is not None:
            winner += f" {result_note(played).split(' won ')[-1]}"
        a, b_ = sides[m.match_id]
        click.echo(
            f"  {m.match_id:6} {ljust(a, wide)}  v  {ljust(b_, wide)}  {status}{winner}",
            file=output,
        )
    if state.champion:
        click.echo(f"Champion: {name(state.champion)}", file=output)
    for mid, why in state.conflicts.items():
        click.echo(f"  CONFLICT {mid}: {why}", file=output)
    for slot, played in misfits.items():
        click.echo(
            f"  CONFLICT {slot}: recorded match {played.match_id} (round {played.round}): "
            f"{' v '.join(played.labels)}, {_so_far(t, played)}; "
            "it no longer fits the bracket (flagged), counts as played, and the slot is "
            f"drawn again once you void it: {void_command(played)}",
            file=output,
        )
    vacated = t.vacated() if preview is None else {}
    for gone in vacated.values():
        if latest_drawn(t).get(gone.bracket["id"]) is not gone:
            continue  # drawn again since: the slot's line is about the newer draw
        click.echo(
            f"  VOID {gone.bracket['id']}: recorded match {gone.match_id} (round {gone.round}): "
            f"{' v '.join(gone.labels)}, never played; it no longer fits the bracket after "
            f"a correction and takes no result: {vacated_why(t, gone)}",
            file=output,
        )
    if seed_of:
        click.echo("[N]: seed", file=output)


def _so_far(t: Tournament, m: Any) -> str:
    """What a recorded match holds, for a line about it: ``Anna (1) won 2:0``, or while
    open its Bummerl so far (and a live hand being played)."""
    note = result_note(m).removeprefix("  -> ")
    if note:
        return note
    a, b = m.summary.bummerl
    hands = m.engine.hand_count
    live = ", a live hand in progress" if t.live_in_progress(m.match_id) else ""
    return f"open, {hands} hand{'' if hands == 1 else 's'} entered (Bummerl {a}:{b}){live}"


def _bracket_sides(m: Any, s: Any, name: Callable[[str | None], str]) -> tuple[str, str]:
    """Both players of a bracket match, or where they come from while not known yet
    (``winner of R1-3``), as the draw sheet says it."""
    from tournament.formats.bracket import LoserOf, Seed, WinnerOf

    def side(pid: str | None, source: Any) -> str:
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


def format_words(t: Tournament) -> str:
    """The format and its options as the organiser says them (``Swiss, 5 rounds``), never
    the options' Python form."""
    from tournament.domain.pairing import frozen

    s = t.settings
    assert s is not None
    o = s.options
    if s.format == "swiss":
        rounds = frozen(t, "rounds") or o.get("rounds")
        if rounds:
            return f"Swiss, {rounds} rounds"
        return "Swiss, the number of rounds set at round 1 from the field (log2, rounded up)"
    if s.format == "single_elimination":
        return "single elimination" + (" with a third-place match" if o.get("third_place") else "")
    if s.format == "double_elimination":
        if o.get("grand_final_reset", True):
            return "double elimination, with a grand-final reset"
        return "double elimination, no grand-final reset"
    groups = int(o.get("groups", 1))
    in_groups = f"{groups} group{'s' if groups != 1 else ''}"
    if s.format == "round_robin":
        return "round robin" + (f" in {in_groups}" if groups > 1 else "")
    if s.format == "groups_knockout":
        third = ", third-place match" if o.get("third_place") else ""
        advance = o.get("advance", 2)
        return f"groups then knockout: {in_groups}, the best {advance} of each go on{third}"
    return f"lives (Preisschnapsen), a final of {o.get('final_players', 2)}"


def buy_back_line(t: Tournament, *, only_if_any: bool = False) -> str:
    """Lives format: who may buy back a life now, or why nobody may (``only_if_any``:
    nothing then, for a printout where that would be noise)."""
    from tournament.domain.buyback import may_buy_back

    players, why = may_buy_back(t)
    if not players:
        return "" if only_if_any else f"no buy-back now: {why}"
    names = ", ".join(t.label(p) for p in players)
    return (
        f"may buy back a life before round {t.current_round + 1}: {names} "
        "(tournament players buy-life N)"
    )


def lives_notes(t: Tournament, r: Round) -> dict[int, str]:
    """Lives format: per player of round ``r`` its lives as the round was drawn
    (`` [2 lives]``), as the caller announces them (:func:`lives_at_draw`)."""
    return {p: f" [{n} {'life' if n == 1 else 'lives'}]" for p, n in lives_at_draw(t, r).items()}

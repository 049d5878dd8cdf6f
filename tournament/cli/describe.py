"""Matches, groups and brackets in the organiser's words, shared by several commands."""

from __future__ import annotations

from typing import Any

import click

from tournament.cli.columns import ljust, width
from tournament.domain.model.matchstate import MatchState, result_words
from tournament.domain.model.parts import Round
from tournament.domain.model.state import Tournament
from tournament.domain.views.matchview import match_standing
from tournament.domain.views.roundview import (
    bracket_heading,
    lives_at_draw,
    round_stage,
    tournament_groups,
)

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
    players. ``preview``: a bracket not drawn yet (from the seeding), shown as it would be
    (:mod:`tournament.domain.views.bracket_sheet` works it all out)."""
    from tournament.domain.views.bracket_sheet import bracket_sheet

    sheet = bracket_sheet(t, preview)

    def name(pid: str | None) -> str:
        return "?" if pid is None else t.label(int(pid))

    heading = None
    wide = max((width(x) for slot in sheet.slots for x in slot.sides), default=10)
    for slot in sheet.slots:
        if slot.heading != heading:
            heading = slot.heading
            click.echo(heading, file=output)
        winner = f"  -> {name(slot.state.winner)}" if slot.state.winner else ""
        if slot.score:
            winner += f" {slot.score}"
        a, b = (ljust(side, wide) for side in slot.sides)
        click.echo(f"  {slot.slot.match_id:6} {a}  v  {b}  {slot.status}{winner}", file=output)
    if sheet.champion:
        click.echo(f"Champion: {name(sheet.champion)}", file=output)
    for note in sheet.notes:
        click.echo(f"  {note.kind} {note.slot}: {note.text}", file=output)
    if sheet.seed_of:
        click.echo("[N]: seed", file=output)


def format_words(t: Tournament) -> str:
    """The format and its options as the organiser says them (``Swiss, 5 rounds``), never
    the options' Python form."""
    from tournament.domain.standings.pairing import frozen

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
    from tournament.domain.commands.buyback import may_buy_back

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

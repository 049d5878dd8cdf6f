"""``tournament round``: draw the next round, cancel it, print its pairings.

tournament round start                       # prints pairings and tables
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import click

from tournament.cli import main
from tournament.cli.columns import abbreviate, ljust, width
from tournament.cli.common import (
    SEED,
    WHO,
    WHOLE,
    WHY,
    actor_option,
    cli_errors,
    get_service,
    parse_ids,
    parse_pairs,
    parse_tables,
    run_command,
    tournament_id_of,
    tournament_option,
)
from tournament.cli.describe import buy_back_line, lives_notes, result_note, round_stage
from tournament.cli.sealing import seal_for_print
from tournament.domain import commands as c
from tournament.domain.model.parts import Round
from tournament.domain.model.state import Tournament
from tournament.domain.views.matchview import bracket_notes
from tournament.domain.views.roundview import (
    bracket_sections,
    draw_notices,
    drawn_round,
    group_numbers,
    idle_reasons,
    points_at_draw,
)


@main.group("round")
def round_() -> None:
    """Draw rounds and print their pairings."""


@round_.command("start")
@click.option(
    "--seed", type=SEED, help="seed of this draw [default: derived from the tournament's]"
)
@click.option(
    "--pair",
    "pairs",
    help="manual pairings '1-5,2-6', the first of each sits as player A (replaces the draw; "
    "broken format rules are warnings)",
)
@click.option(
    "--bye", "byes", default="", help="with --pair: the players with a bye, e.g. 7 or 7,9 or 7-9"
)
@click.option(
    "--table", "tables", multiple=True, help="fix a player to a table: PLAYER=TABLE (repeatable)"
)
@click.option(
    "--yes", is_flag=True, help="with --pair: store a draw that breaks format rules without asking"
)
@tournament_option
@actor_option
@cli_errors
def round_start(
    seed: int | None,
    pairs: str | None,
    byes: str,
    tables: Sequence[str],
    yes: bool,
    tournament_id: str | None,
    actor: str,
) -> None:
    """Draw the next round and print pairings and tables. Refused while any match of any
    round is open (T-round). A manual draw (--pair) that breaks a format rule prints the
    warnings and asks before it is stored."""
    pairings = parse_pairs(pairs) if pairs else None
    if byes and pairings is None:  # the draw gives its own byes: this one would be dropped
        raise click.BadParameter("--bye goes with --pair (a manual draw)", param_hint="--bye")
    fixed = parse_tables(tables)
    tid = tournament_id_of(tournament_id)

    def draw(t: Tournament) -> list[Any]:
        return c.start_round(
            t,
            seed=seed,
            pairings=pairings,
            byes=parse_ids(byes, t.players, option="--bye") if byes else (),
            fixed_tables=fixed,
            actor=actor,
        )

    if pairings is not None and not yes:
        _confirm_manual_draw(draw(get_service().state(tid)))
    run_command(tid, draw)
    t = get_service().state(tid)
    seal = seal_for_print(f"round {t.current_round} sheet of {tid} printed")
    _print_round(t, None)
    # Absent last round and drawn again now: the organiser decides.
    for warning in draw_notices(t, t.current_round):
        click.echo(f"warning: {warning}", err=True)
    seal.echo()


def _confirm_manual_draw(new: Sequence[Any]) -> None:
    """The organiser's own pairings break format rules: show how, and store them only if
    the organiser says so (like a correction); declined, nothing is stored, exit 1."""
    warnings = new[0].payload.get("warnings") or []
    if not warnings:
        return
    number = new[0].payload["round"]
    click.echo(f"this manual draw of round {number} breaks format rules (T-override):")
    for warning in warnings:
        click.echo(f"  WARNING {warning}")
    try:
        stored = click.confirm("store this draw anyway?", default=False)
    except click.Abort:  # no answer (end of input): not a yes
        click.echo()
        stored = False
    if not stored:
        click.echo("nothing stored")
        raise click.exceptions.Exit(1)


@round_.command("cancel")
@click.option("--why", required=True, type=WHY, help="why the round is drawn again")
@click.option("--by", "by", type=WHO, help="who decides (organiser, referee)")
@tournament_option
@actor_option
@cli_errors
def round_cancel(why: str, by: str | None, tournament_id: str | None, actor: str) -> None:
    """Cancel the latest round before anything is played in it, to draw it again."""
    stored = run_command(tournament_id, lambda t: c.cancel_round(t, why=why, by=by, actor=actor))
    number = stored[0].payload["round"]
    click.echo(f"round {number} cancelled: {why.strip()}; 'round start' draws it again")


@round_.command("show")
@click.argument("number", type=WHOLE, required=False)
@click.option(
    "--by-name",
    is_flag=True,
    help="every player in alphabetical order with their table: the list for the wall",
)
@tournament_option
@cli_errors
def round_show(number: int | None, by_name: bool, tournament_id: str | None) -> None:
    """Print a round's pairings, tables and results (default: the current round)."""
    tid = tournament_id_of(tournament_id)
    t = get_service().state(tid)
    shown = drawn_round(t, number).number  # refused before anything is sealed
    seal = seal_for_print(f"round {shown} {'list' if by_name else 'sheet'} of {tid} printed")
    if by_name:
        _print_by_name(t, number)
    else:
        _print_round(t, number)
    seal.echo()


def _print_by_name(t: Tournament, number: int | None) -> None:
    """ "Find your table": every player of the round by name, with table, match and
    opponent (or the bye), so a room of 40 finds its seats at a glance."""
    r = drawn_round(t, number)
    voids = bracket_notes(t, r.matches)
    wide_id = max((len(mid) for mid in r.matches), default=4)
    seats: list[tuple[str, str]] = []
    for mid in r.matches:
        m = t.matches[mid]
        for seat in (0, 1):
            if mid in voids:  # nobody plays at a void table: its slot is drawn again
                seats.append((m.labels[seat], f"no game   {mid:<{wide_id}}  {voids[mid]}"))
                continue
            where = f"table {m.table:>3}" if m.table else "walkover "
            seats.append((m.labels[seat], f"{where}  {mid:<{wide_id}}  v {m.labels[1 - seat]}"))
    seats += [(t.label(pid), "bye") for pid in r.byes]
    seats += [(t.label(pid), f"no game: {why}") for pid, why in idle_reasons(t, r).items()]
    seats.sort(key=lambda x: x[0].casefold())
    wide = max((width(name) for name, _ in seats), default=10)
    click.echo(f"Round {r.number}: find your table")
    for name, where in seats:
        click.echo(f"  {ljust(name, wide)}  {where}")


#: The printout aims to fit this many columns (an 80-100 column window, A4 portrait).
WIDTH = 100


def _print_round(t: Tournament, number: int | None) -> None:
    r = drawn_round(t, number)
    sections = ", ".join(bracket_sections(t, r.matches))
    click.echo(
        f"Round {r.number}: {round_stage(t, r)}{f' ({sections})' if sections else ''} "
        f"(seed {r.seed})"
        f"{' - MANUAL PAIRING' if r.override else ''}"
    )
    for w in r.warnings:
        click.echo(f"  WARNING {w}")
    matches = [t.matches[mid] for mid in r.matches]
    # Lives: each player's lives as the round was drawn; Swiss: the points it was drawn by.
    lives = lives_notes(t, r) or _points_notes(t, r)
    group = _group_labels(t, r.number)
    for line in _table_lines(matches, group, lives, bracket_notes(t, r.matches)):
        click.echo(line)
    if not matches and not r.byes:  # a round robin round whose games are all dropped
        click.echo("  no game this round: each of its games has a withdrawn player (dropped)")
    wide_id = max((len(m.match_id) for m in matches), default=4)
    slots = r.info.get("bye_slots") or [""] * len(r.byes)  # a bracket bye: its match
    for pid, slot in zip(r.byes, slots, strict=True):
        where = f"{slot:<{wide_id}}" if slot else group.get(pid, "")
        click.echo(f"  bye      {where}  {t.label(pid)}{lives.get(pid, '')}")
    for pid, why in idle_reasons(t, r).items():
        click.echo(f"  no game  {group.get(pid, '')}  {t.label(pid)}: {why}")
    if lives and t.settings is not None and t.settings.format == "swiss":
        click.echo(f"  [n]: match points before round {r.number}, as the round was drawn")
    if lives and r.number == t.current_round and (buy := buy_back_line(t, only_if_any=True)):
        click.echo(buy)


def _points_notes(t: Tournament, r: Round) -> dict[int, str]:
    """Swiss from round 2: per player of round ``r`` its match points before the round
    (`` [2]``), the score group it was paired in; nothing in other formats."""
    return {pid: f" [{n}]" for pid, n in points_at_draw(t, r).items()}


def _table_lines(
    matches: Sequence[Any],
    group: dict[int, str],
    notes: Mapping[int, str] | None = None,
    voids: Mapping[str, str] | None = None,
) -> list[str]:
    """One line per table, columns sized to the round's longest id and names so 20 tables
    read down cleanly. Fits :data:`WIDTH` columns where it can: who deals first and who
    won by start number only (the names are on the line already), then names abbreviated
    as far as the pairings need; a result too long for its line goes on the next one
    (one long note never shortens every name of the round). ``notes``: per player, what
    follows the name (the lives format's `` [2 lives]``, a Swiss score `` [2]``).
    ``voids``: per vacated match, what its line says instead (nobody plays it)."""
    notes, voids = notes or {}, voids or {}
    wide_id = max((len(m.match_id) for m in matches), default=4)
    full = max(
        (width(m.labels[s] + notes.get(m.players[s], "")) for m in matches for s in (0, 1)),
        default=10,
    )
    parts: list[tuple[str, str]] = []
    for numbers, names in ((False, full), (True, full), (True, 0)):
        if not names:  # what the rest of the widest pairing leaves for the two names
            rest = max(width(pairing.rstrip()) - 2 * full for pairing, _ in parts)
            names = max(12, (WIDTH - rest) // 2)
        parts = [_table_line(m, group, wide_id, names, numbers, notes, voids) for m in matches]
        # A void line's note wraps whatever the form: it never asks for start numbers.
        fitted = [
            (a, "" if m.match_id in voids else b) for m, (a, b) in zip(matches, parts, strict=True)
        ]
        if max((width((a + b).rstrip()) for a, b in fitted), default=0) <= WIDTH:
            break
        if numbers and max((width(a.rstrip()) for a, _ in parts), default=0) <= WIDTH:
            break  # the pairings fit: only results are long, each wraps below its table
    lines: list[str] = []
    indent = " " * (len(f"  {_table(matches[0], group)}  ") + wide_id + 2) if matches else ""
    for m, (pairing, result) in zip(matches, parts, strict=True):
        if width((pairing + result).rstrip()) <= WIDTH:
            lines.append((pairing + result).rstrip())
            continue
        note = result if m.match_id in voids else result_note(m)  # the winner by name
        named = indent + note.lstrip()  # a line of its own
        lines += [pairing.rstrip(), named if width(named) <= WIDTH else indent + result.lstrip()]
    return lines


def _table(m: Any, group: dict[int, str]) -> str:
    """``table  12`` (or ``walkover ``) and the player's group label."""
    return (f"table {m.table:>3}" if m.table else "walkover ") + group.get(m.players[0], "")


def _table_line(
    m: Any,
    group: dict[int, str],
    wide_id: int,
    names: int,
    numbers: bool,
    notes: Mapping[int, str],
    voids: Mapping[str, str],
) -> tuple[str, str]:
    """A table's pairing (table, match, players, who deals first) and its result note; a
    vacated match says it is void instead of who deals first."""
    a, b = (_fit_label(m, seat, names, notes.get(m.players[seat], "")) for seat in (0, 1))
    pairing = f"  {_table(m, group)}  {m.match_id:<{wide_id}}  {ljust(a, names)}  v  "
    if m.match_id in voids:
        return pairing + ljust(b, names), f"  -> {voids[m.match_id]}"
    return pairing + f"{ljust(b, names)}{_first_dealer_note(m, names, numbers)}", _result(
        m, numbers
    )


def _fit_label(m: Any, seat: int, columns: int, note: str = "") -> str:
    """``Anna Huber (12)`` and its ``note`` in ``columns``: the name abbreviated, the start
    number and the note kept."""
    label: str = m.labels[seat] + note
    if width(label) <= columns:
        return label
    tail = f" ({m.players[seat]}){note}"
    return abbreviate(label.removesuffix(tail), max(4, columns - len(tail))) + tail


def _result(m: Any, numbers: bool) -> str:
    note = result_note(m)
    if not numbers or not m.decided or m.winner is None:
        return note
    return note.replace(m.label(m.winner), str(m.winner), 1)


def _group_labels(t: Tournament, number: int) -> dict[int, str]:
    """Per player ``  group N`` in a group round of a format with several groups, so the
    tables of one group can be found on the printout; nothing in a knockout round."""
    return {pid: f"  group {n}" for pid, n in group_numbers(t, number).items()}


def _first_dealer_note(m: Any, wide: int, number: bool = False) -> str:
    """Who deals first, padded to ``wide`` (by start number with ``number``); nothing for a
    walkover, where nobody deals (a "?" there read as if the draw were still owed)."""
    if not m.table:
        return ""
    if m.first_dealer is None:
        first = "?"
    else:
        first = str(m.players[m.first_dealer]) if number else m.labels[m.first_dealer]
    return f"  deals first: {ljust(first, 3 if number else wide)}"

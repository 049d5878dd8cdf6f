"""``tournament round``: draw the next round, cancel it, print its pairings.

tournament round start                       # prints pairings and tables
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from tournament.cli import main
from tournament.cli.columns import ljust, width
from tournament.cli.common import (
    actor_option,
    cli_errors,
    get_service,
    parse_ids,
    run_command,
    tournament_id_of,
    tournament_option,
)
from tournament.cli.describe import (
    buy_back_line,
    lives_notes,
    result_note,
    round_stage,
    tournament_groups,
)
from tournament.domain import commands as c
from tournament.domain.results import absent_warning
from tournament.domain.state import Tournament


@main.group("round")
def round_() -> None:
    """Draw rounds and print their pairings."""


@round_.command("start")
@click.option("--seed", type=int, help="seed of this draw [default: derived from the tournament's]")
@click.option(
    "--pair", "pairs", help="manual pairings '1-5,2-6' (overrides the draw, with warnings)"
)
@click.option("--bye", "byes", default="", help="manual byes, with --pair")
@click.option("--table", "tables", multiple=True, help="fix a player to a table: PLAYER=TABLE")
@tournament_option
@actor_option
@cli_errors
def round_start(
    seed: int | None,
    pairs: str | None,
    byes: str,
    tables: Sequence[str],
    tournament_id: str | None,
    actor: str,
) -> None:
    """Draw the next round and print pairings and tables."""
    pairings: list[tuple[int, int]] | None = None
    if pairs:
        try:
            pairings = []
            for pair in (p for p in pairs.split(",") if p.strip()):
                a, b = (int(x) for x in pair.split("-"))
                pairings.append((a, b))
        except ValueError:
            raise click.BadParameter(
                f"{pairs!r}: pairs like 1-5,2-6", param_hint="--pair"
            ) from None
    fixed = {}
    for item in tables:
        player, _, table = item.partition("=")
        if not (player.strip().isdigit() and table.strip().isdigit()):
            raise click.BadParameter(f"{item!r}: PLAYER=TABLE", param_hint="--table")
        fixed[int(player)] = int(table)
    tid = tournament_id_of(tournament_id)
    run_command(
        tid,
        lambda t: c.start_round(
            t,
            seed=seed,
            pairings=pairings,
            byes=parse_ids(byes) if byes else (),
            fixed_tables=fixed,
            actor=actor,
        ),
    )
    t = get_service().state(tid)
    _print_round(t, None)
    if t.current_round > 1:  # absent last round and drawn again now: the organiser decides
        drawn = {p for mid in t.rounds[-1].matches for p in t.matches[mid].players}
        last = [m for m in t.rounds[-2].matches if drawn & set(t.matches[m].players)]
        when = f"are paired again in round {t.current_round}"
        for warning in absent_warning(t, last, when):
            click.echo(f"warning: {warning}", err=True)


@round_.command("cancel")
@click.option("--why", required=True, help="why the round is drawn again")
@click.option("--by", "by", help="who decides (organiser, referee)")
@tournament_option
@actor_option
@cli_errors
def round_cancel(why: str, by: str | None, tournament_id: str | None, actor: str) -> None:
    """Cancel the latest round before anything is played in it, to draw it again."""
    stored = run_command(tournament_id, lambda t: c.cancel_round(t, why=why, by=by, actor=actor))
    number = stored[0].payload["round"]
    click.echo(f"round {number} cancelled: {why.strip()}; 'round start' draws it again")


@round_.command("show")
@click.argument("number", type=int, required=False)
@tournament_option
@cli_errors
def round_show(number: int | None, tournament_id: str | None) -> None:
    """Print a round's pairings, tables and results (default: the current round)."""
    _print_round(get_service().state(tournament_id_of(tournament_id)), number)


def _print_round(t: Tournament, number: int | None) -> None:
    number = number or t.current_round
    if not 1 <= number <= t.current_round:
        raise click.ClickException(f"round: there is no round {number} yet (T-round)")
    r = t.rounds[number - 1]
    click.echo(
        f"Round {r.number}: {round_stage(t, r)} (seed {r.seed})"
        f"{' - MANUAL PAIRING' if r.override else ''}"
    )
    for w in r.warnings:
        click.echo(f"  WARNING {w}")
    matches = [t.matches[mid] for mid in r.matches]
    lives = lives_notes(t, r)  # lives format: each player's lives as the round was drawn

    def name(m: Any, seat: int) -> str:
        return str(m.labels[seat]) + lives.get(m.players[seat], "")

    # Columns sized to this round's longest id and names, so 20 tables read down cleanly.
    wide_id = max((len(m.match_id) for m in matches), default=4)
    wide_a = max((width(name(m, 0)) for m in matches), default=10)
    wide_b = max((width(name(m, 1)) for m in matches), default=10)
    group = _group_labels(t, r.number)
    for m in matches:
        table = f"table {m.table:>3}" if m.table else "walkover "
        table += group.get(m.players[0], "")
        click.echo(
            f"  {table}  {m.match_id:<{wide_id}}  {ljust(name(m, 0), wide_a)}  v  "
            f"{ljust(name(m, 1), wide_b)}{_first_dealer_note(m, max(wide_a, wide_b))}"
            f"{result_note(m)}".rstrip()
        )
    if not matches and not r.byes:  # a round robin round whose games are all dropped
        click.echo("  no game this round: each of its games has a withdrawn player (dropped)")
    slots = r.info.get("bye_slots") or [""] * len(r.byes)  # a bracket bye: its match
    for pid, slot in zip(r.byes, slots, strict=True):
        where = f"{slot:<{wide_id}}" if slot else group.get(pid, "")
        click.echo(f"  bye      {where}  {t.label(pid)}{lives.get(pid, '')}")
    if lives and r.number == t.current_round and (buy := buy_back_line(t, only_if_any=True)):
        click.echo(buy)


def _group_labels(t: Tournament, number: int) -> dict[int, str]:
    """Per player ``  group N`` in a group round of a format with several groups, so the
    tables of one group can be found on the printout; nothing in a knockout round."""
    groups = tournament_groups(t)
    first_ko = next((r.number for r in t.rounds if "seeds" in r.info), None)
    if len(groups) < 2 or (first_ko is not None and number >= first_ko):
        return {}
    return {pid: f"  group {n}" for n, group in enumerate(groups, 1) for pid in group}


def _first_dealer_note(m: Any, wide: int) -> str:
    """Who deals first, padded to ``wide``; nothing for a walkover, where nobody deals
    (a "?" there read as if the draw were still owed)."""
    if not m.table:
        return ""
    first = "?" if m.first_dealer is None else m.labels[m.first_dealer]
    return f"  deals first: {ljust(first, wide)}"

"""``tournament players``: register, import, check in, seed, withdraw, buy back a life.

tournament players add "Anna Huber" --club "SC Ried" --rating 1520
tournament players import players.csv
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from tournament.cli import main
from tournament.cli.columns import ljust
from tournament.cli.common import (
    CSV_FILE,
    actor_option,
    cli_errors,
    get_service,
    import_csv_file,
    parse_ids,
    run_command,
    tournament_id_of,
    tournament_option,
)
from tournament.cli.describe import buy_back_line, match_standing
from tournament.domain import commands as c
from tournament.domain import events as ev
from tournament.domain.csvio import (
    import_players,
)
from tournament.domain.settings import WITHDRAWAL_POLICIES
from tournament.domain.state import Tournament


@main.group()
def players() -> None:
    """Register, import, check in, seed and withdraw players."""


@players.command("add")
@click.argument("name")
@click.option("--club", default="")
@click.option("--category", default="", help="e.g. W for a separate women's ranking")
@click.option("--rating", type=int)
@tournament_option
@actor_option
@cli_errors
def players_add(
    name: str, club: str, category: str, rating: int | None, tournament_id: str | None, actor: str
) -> None:
    """Register a player (a late entry once round 1 has started; a late entry is checked in
    at once when check-in is in use, since only checked-in players are drawn)."""

    def register(t: Tournament) -> list[Any]:
        events = c.register_player(
            t, name, club=club, category=category, rating=rating, actor=actor
        )
        p = events[0].payload
        if p.get("late") and any(x.checked_in for x in t.players.values()):
            # A brand-new player: nothing for check_in to refuse, so the event is made here.
            checkin = {"player_id": p["player_id"]}
            events.append(
                ev.make_event(ev.PLAYER_CHECKED_IN, checkin, actor=actor, source=ev.SYSTEM)
            )
        return events

    stored = run_command(tournament_id, register)
    p = stored[0].payload
    late = " (late entry, checked in)" if len(stored) > 1 else " (late entry)"
    click.echo(f"player {p['player_id']}: {p['name']}" + (late if p.get("late") else ""))


@players.command("import")
@click.argument("file", type=CSV_FILE)
@tournament_option
@actor_option
@cli_errors
def players_import(file: Path, tournament_id: str | None, actor: str) -> None:
    """Register every player of a CSV file (name, club, category, rating); all or nothing."""
    stored = import_csv_file(file, tournament_id_of(tournament_id), import_players, actor)
    click.echo(f"imported {len(stored)} players")


@players.command("checkin")
@click.argument("ids")
@tournament_option
@actor_option
@cli_errors
def players_checkin(ids: str, tournament_id: str | None, actor: str) -> None:
    """Check players in (IDS: start numbers, comma separated)."""
    numbers = parse_ids(ids)
    run_command(
        tournament_id, lambda t: [e for pid in numbers for e in c.check_in(t, pid, actor=actor)]
    )
    click.echo(f"checked in: {', '.join(map(str, numbers))}")


@players.command("withdraw")
@click.argument("player_id", type=int)
@click.option(
    "--policy", type=click.Choice(WITHDRAWAL_POLICIES), help="[default: the tournament's]"
)
@click.option("--reason", default="")
@tournament_option
@actor_option
@cli_errors
def players_withdraw(
    player_id: int, policy: str | None, reason: str, tournament_id: str | None, actor: str
) -> None:
    """Withdraw a player; open matches are forfeited or dropped."""
    stored = run_command(
        tournament_id, lambda t: c.withdraw(t, player_id, policy=policy, reason=reason, actor=actor)
    )
    t = get_service().state(tournament_id_of(tournament_id))
    click.echo(f"{t.label(player_id)} withdrawn")
    for e in stored:
        if e.type == "match.forfeited":
            click.echo(
                f"  match {e.payload['match_id']}: {match_standing(t, e.payload['match_id'])}"
            )
    for mid in stored[0].payload.get("dropped", []):
        click.echo(f"  match {mid}: dropped, counts for nobody")


@players.command("seed")
@click.option(
    "--by",
    "method",
    type=click.Choice(["rating", "manual", "draw"]),
    default="rating",
    show_default=True,
    help="draw: a random order from a seed recorded with it (docs/formats.md)",
)
@click.option("--order", help="manual: every start number, top seed first, comma separated")
@click.option(
    "--seed", type=int, help="draw: the seed [default: derived from the tournament's seed]"
)
@tournament_option
@actor_option
@cli_errors
def players_seed(
    method: str, order: str | None, seed: int | None, tournament_id: str | None, actor: str
) -> None:
    """Seed the players by rating, by hand or by draw (before round 1)."""
    numbers = parse_ids(order) if order else None
    stored = run_command(
        tournament_id, lambda t: c.seed_players(t, method, numbers, seed=seed, actor=actor)
    )
    payload = stored[0].payload
    drawn = f" (drawn with seed {payload['seed']})" if "seed" in payload else ""
    click.echo(f"seeded: {', '.join(map(str, payload['order']))}{drawn}")


@players.command("buy-life")
@click.argument("player_id", type=int, required=False)
@tournament_option
@actor_option
@cli_errors
def players_buy_life(player_id: int | None, tournament_id: str | None, actor: str) -> None:
    """Preisschnapsen: buy back a life for a player who has none left; without PLAYER_ID,
    who may buy back a life now."""
    if player_id is None:
        click.echo(buy_back_line(get_service().state(tournament_id_of(tournament_id))))
        return
    run_command(tournament_id, lambda t: c.buy_life(t, player_id, actor=actor))
    t = get_service().state(tournament_id_of(tournament_id))
    click.echo(f"{t.label(player_id)} bought back a life")


@players.command("list")
@tournament_option
@cli_errors
def players_list(tournament_id: str | None) -> None:
    """The registered players."""
    t = get_service().state(tournament_id_of(tournament_id))
    for p in t.players.values():
        flags = [
            x
            for x, on in (
                ("checked in", p.checked_in),
                ("late", p.late),
                ("withdrawn", not p.active),
            )
            if on
        ]
        extra = f" [{', '.join(flags)}]" if flags else ""
        click.echo(
            f"{p.id:4} {ljust(p.name, 30)} {ljust(p.club, 20)} {ljust(p.category, 4)} "
            f"{p.rating or '':>5} seed {p.seed or '-'}{extra}"
        )

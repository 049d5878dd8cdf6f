"""``tournament players``: register, import, check in, seed, withdraw, buy back a life.

tournament players add "Anna Huber" --club "SC Ried" --rating 1520
tournament players import players.csv
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from tournament.cli import main
from tournament.cli.columns import counted, ljust, width
from tournament.cli.common import (
    CSV_FILE,
    SEED,
    WHOLE,
    WHY,
    actor_option,
    cli_errors,
    get_service,
    import_csv_file,
    parse_id_ranges,
    parse_ids,
    run_command,
    tournament_id_of,
    tournament_option,
)
from tournament.cli.describe import buy_back_line, match_standing
from tournament.domain import commands as c
from tournament.domain.commands.csvio import (
    import_players,
)
from tournament.domain.commands.startnumbers import seeding_request
from tournament.domain.model.errors import DomainError
from tournament.domain.model.settings import WITHDRAWAL_POLICIES
from tournament.domain.model.state import Tournament


@main.group()
def players() -> None:
    """Register, import, check in, seed and withdraw players."""


@players.command("add")
@click.argument("name")
@click.option("--club", default="", help="the player's club (at most 100 characters)")
@click.option(
    "--category",
    default="",
    help="a category with its own ranking, e.g. W (standings --category W)",
)
@click.option("--rating", type=WHOLE, help="a whole number 0-4000, for seeding by rating")
@click.option(
    "--missed-rounds-score",
    type=click.Choice(["0", "bye"]),
    help="a late entry: what each round it missed scores [default: the tournament's "
    "late-entry score]",
)
@tournament_option
@actor_option
@cli_errors
def players_add(
    name: str,
    club: str,
    category: str,
    rating: int | None,
    missed_rounds_score: str | None,
    tournament_id: str | None,
    actor: str,
) -> None:
    """Register a player under the next start number (a late entry once round 1 has
    started; a late entry is checked in at once when check-in is in use, since only
    checked-in players are drawn). NAME, club and category are plain text of at most 100
    characters; a name and club that look the same as a registered player's are refused."""

    def register(t: Tournament) -> list[Any]:
        return c.enter_player(
            t,
            name,
            club=club,
            category=category,
            rating=rating,
            missed_rounds_score=missed_rounds_score,
            actor=actor,
        )

    stored = run_command(tournament_id, register)
    p = stored[0].payload
    late = " (late entry, checked in" if len(stored) > 1 else " (late entry"
    if p.get("late"):
        missed = p.get("missed_rounds", 0)
        score = "a bye" if p.get("missed_rounds_score") == "bye" else "0 points"
        each = "scores" if missed == 1 else "score"
        score += "" if missed == 1 or score == "0 points" else " each"
        late += f"; {counted(missed, 'missed round')} {each} {score})"
    click.echo(f"player {p['player_id']}: {p['name']}" + (late if p.get("late") else ""))


@players.command("import")
@click.argument("file", type=CSV_FILE)
@click.option(
    "--only-new",
    is_flag=True,
    help="leave out the rows of players registered already (a list that grew since it "
    "was imported)",
)
@tournament_option
@actor_option
@cli_errors
def players_import(file: Path, only_new: bool, tournament_id: str | None, actor: str) -> None:
    """Register every player of a CSV file (name, club, category, rating); all or nothing."""
    tid = tournament_id_of(tournament_id)
    try:
        stored = import_csv_file(file, tid, import_players, actor, only_new=only_new)
    except click.ClickException as error:
        if only_new or "is already registered as player" not in error.message:
            raise
        raise click.ClickException(
            f"{error.message}\n(players registered already: `tournament players import FILE "
            "--only-new` leaves them out)"
        ) from None
    count = sum(1 for e in stored if e.type == "player.registered")
    click.echo(f"imported {count} player{'' if count == 1 else 's'}")


@players.command("checkin")
@click.argument("ids")
@tournament_option
@actor_option
@cli_errors
def players_checkin(ids: str, tournament_id: str | None, actor: str) -> None:
    """Check players in. IDS: start numbers, comma separated, and ranges: 1-38,40. Once
    anybody is checked in, only checked-in players are drawn."""
    parse_id_ranges(ids, option="start numbers")  # the syntax, before the store is opened
    numbers: list[int] = []

    def check_in(t: Tournament) -> list[Any]:
        numbers[:] = dict.fromkeys(parse_ids(ids, t.players, option="start numbers"))
        return [e for pid in numbers for e in c.check_in(t, pid, actor=actor)]

    stored = run_command(tournament_id, check_in)
    new = [e.payload["player_id"] for e in stored]
    already = [pid for pid in numbers if pid not in new]
    if new:
        click.echo(f"checked in: {_numbers(new)}")
    if already:
        click.echo(f"already checked in: {_numbers(already)}" + ("" if new else "; nothing stored"))


def _numbers(ids: list[int]) -> str:
    """``1-5, 8``: start numbers with runs written as ranges, as they are typed."""
    runs: list[list[int]] = []
    for pid in sorted(ids):
        if runs and pid == runs[-1][-1] + 1:
            runs[-1].append(pid)
        else:
            runs.append([pid])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


@players.command("checkout")
@click.argument("player_id", type=WHOLE)
@tournament_option
@actor_option
@cli_errors
def players_checkout(player_id: int, tournament_id: str | None, actor: str) -> None:
    """Undo a check-in (a mistaken one, a player who left before the draw): a checked-out
    player is not drawn. Before the player is drawn only; after that, withdraw."""
    tid = tournament_id_of(tournament_id)
    stored = run_command(tid, lambda t: c.check_out(t, player_id, actor=actor))
    t = get_service().state(tid)
    if not stored:
        click.echo(f"{t.label(player_id)} is not checked in: nothing to undo")
        return
    click.echo(f"check-in undone: {t.label(player_id)} is not drawn")
    if not any(p.checked_in for p in t.players.values()):
        click.echo("nobody is checked in now: check-in is not in use, every player is drawn")


@players.command("edit")
@click.argument("player_id", type=WHOLE)
@click.option("--name", help="the corrected name (plain text, at most 100 characters)")
@click.option("--club", help="the corrected club ('' for none)")
@click.option("--category", help="the corrected category ('' for none)")
@click.option("--rating", type=WHOLE, help="the corrected rating, 0-4000 (before round 1 only)")
@tournament_option
@actor_option
@cli_errors
def players_edit(
    player_id: int,
    name: str | None,
    club: str | None,
    category: str | None,
    rating: int | None,
    tournament_id: str | None,
    actor: str,
) -> None:
    """Correct a player's name, club or category (at any time) or rating (before round 1:
    it decides the seeding); an event with what it replaces, shown in `tournament log`."""
    changes = {
        k: v
        for k, v in (("name", name), ("club", club), ("category", category), ("rating", rating))
        if v is not None
    }
    tid = tournament_id_of(tournament_id)
    stored = run_command(tid, lambda t: c.edit_player(t, player_id, changes, actor=actor))
    t = get_service().state(tid)
    if not stored:
        click.echo(f"{t.label(player_id)} has these details already: nothing stored")
        return
    edit = stored[0].payload
    said = ", ".join(
        f"{k} {_shown(edit['previous'][k])} -> {_shown(v)}" for k, v in edit["changes"].items()
    )
    click.echo(f"corrected {t.label(player_id)}: {said}")
    if len(stored) > 1:
        order = stored[1].payload["order"]
        click.echo(f"seeded again by rating: {', '.join(map(str, order))}")
    elif "rating" in edit["changes"] and t.seeding == "manual":
        click.echo("note: the players are seeded by hand; that order stays as typed")


def _shown(value: Any) -> str:
    return "none" if value in (None, "") else repr(value) if isinstance(value, str) else str(value)


@players.command("withdraw")
@click.argument("player_id", type=WHOLE)
@click.option(
    "--policy",
    type=click.Choice(WITHDRAWAL_POLICIES),
    help="forfeit: open matches go to the opponents; drop: they count for nobody "
    "[default: the tournament's]",
)
@click.option("--reason", "--why", "reason", default="", type=WHY, help="why, for the log")
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
    help="rating: highest first, unrated last by start number; manual: as --order lists them; "
    "draw: a random order from a seed recorded with it (docs/formats.md)",
)
@click.option(
    "--order",
    help="with --by manual: every start number, top seed first, comma separated, ranges "
    "allowed: 3,1,2,4-38 (withdrawn players may be left out: they are not seeded)",
)
@click.option(
    "--seed", type=SEED, help="with --by draw: the seed [default: derived from the tournament's]"
)
@tournament_option
@actor_option
@cli_errors
def players_seed(
    method: str, order: str | None, seed: int | None, tournament_id: str | None, actor: str
) -> None:
    """Seed the players by rating, by hand or by draw (before round 1)."""
    try:
        seeding_request(method, order is not None, method_field="--by", order_field="--order")
    except DomainError as error:
        # An order with another method would be dropped without a word: say nothing is.
        tail = "; nothing stored" if error.field == "--order" else ""
        raise click.BadParameter(error.message + tail, param_hint=error.field) from None
    if order is not None:
        parse_id_ranges(order, option="--order")  # the syntax, before the store is opened

    def seed_them(t: Tournament) -> list[Any]:
        numbers = parse_ids(order, t.players, option="--order") if order is not None else None
        return c.seed_players(t, method, numbers, seed=seed, actor=actor)

    tid = tournament_id_of(tournament_id)
    stored = run_command(tid, seed_them)
    payload = stored[0].payload
    drawn = f" (drawn with seed {payload['seed']})" if "seed" in payload else ""
    click.echo(f"seeded: {', '.join(map(str, payload['order']))}{drawn}")
    t = get_service().state(tid)
    unseeded = [p for p in t.players.values() if p.seed is None]
    withdrawn = [t.label(p.id) for p in unseeded if not p.active]
    if withdrawn:
        click.echo(f"not seeded (withdrawn, never drawn): {', '.join(withdrawn)}")
    absent = [t.label(p.id) for p in unseeded if p.active]  # by hand: not checked in
    if absent:
        click.echo(
            f"not seeded (not checked in; if they check in, drawn after the seeded players, "
            f"by rating): {', '.join(absent)}"
        )


@players.command("buy-life")
@click.argument("player_id", type=WHOLE, required=False)
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


@players.command("show")
@click.argument("player_id", type=WHOLE)
@tournament_option
@cli_errors
def players_show(player_id: int, tournament_id: str | None) -> None:
    """One player's evening: details, then every round (table, opponent, who dealt first,
    the result with Bummerl and game points), then the line in the standings."""
    from tournament.domain.commands.registration import player
    from tournament.domain.views.history import player_rounds, round_words
    from tournament.domain.views.roster import standing

    t = get_service().state(tournament_id_of(tournament_id))
    p = player(t, player_id)
    details = [x for x in (p.club, p.category and f"category {p.category}") if x]
    if p.rating is not None:
        details.append(f"rating {p.rating}")
    if p.seed is not None:
        details.append(f"seed {p.seed}")
    status = "withdrawn" if not p.active else "checked in" if p.checked_in else ""
    click.echo(f"{t.label(player_id)}" + "".join(f", {x}" for x in [*details, status] if x))
    for line in player_rounds(t, player_id):
        click.echo(f"  round {line.round:>2}  {round_words(t, line)}")
    found = standing(t, player_id)
    if found is not None:
        row, of = found
        click.echo(
            f"  standings: {'not ranked (never played)' if row.rank is None else 'rank'} "
            f"{'' if row.rank is None else f'{row.rank} of {of}, '}{counted(row.points, 'pt')}, "
            f"W-L {row.wins + row.forfeit_wins}-{row.losses}, Bummerl "
            f"{row.bummerl_won}:{row.bummerl_lost}, game points {row.gp_won}:{row.gp_lost}"
        )


@players.command("list")
@tournament_option
@cli_errors
def players_list(tournament_id: str | None) -> None:
    """The registered players, with a header row."""
    from tournament.domain.views.roster import checking_in, flags

    t = get_service().state(tournament_id_of(tournament_id))
    checking = checking_in(t)
    rows = [(p, ", ".join(flags(t, p, checking))) for p in t.players.values()]
    names = max([len("name"), *(width(p.name) for p, _ in rows)])
    clubs = max([len("club"), *(width(p.club) for p, _ in rows)])
    click.echo(
        f"{'#':>4} {ljust('name', names)} {ljust('club', clubs)} {'cat.':4} {'rating':>6} "
        f"{'seed':>4}  status"
    )
    for p, status in rows:
        click.echo(
            f"{p.id:4} {ljust(p.name, names)} {ljust(p.club, clubs)} {ljust(p.category, 4)} "
            f"{'' if p.rating is None else p.rating:>6} {p.seed or '-':>4}  {status}".rstrip()
        )

"""The tournament itself: ``create``, ``list``, ``use``, ``show``, ``log``.

tournament create "Herbstturnier" --format swiss --best-of 3 --option rounds=5
tournament show
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import click

from tournament.cli import main
from tournament.cli.columns import ljust, width
from tournament.cli.common import (
    actor_option,
    cli_errors,
    event_meta,
    get_service,
    make_current,
    parse_score,
    tournament_id_of,
    tournament_option,
)
from tournament.cli.describe import buy_back_line, tournament_groups
from tournament.domain.pairing import finished, lives_left, places
from tournament.domain.settings import FIRST_DEALER_RULES, FORMATS, TIEBREAKS, WITHDRAWAL_POLICIES
from tournament.domain.standings import standings as compute_standings
from tournament.domain.state import Tournament


@main.command()
@click.argument("name")
@click.option("--id", "tournament_id", help="tournament id [default: from name and date]")
@click.option("--date", default="", help="YYYY-MM-DD")
@click.option("--venue", default="")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="swiss", show_default=True)
@click.option("--best-of", type=click.Choice(["1", "3", "5", "7"]), default="3", show_default=True)
@click.option("--variant", "variants", multiple=True, help="a rules variant (RULES.md); repeat")
@click.option("--schneiderbummerl/--no-schneiderbummerl", default=True, show_default=True)
@click.option("--tiebreaks", help=f"comma list, in order, from: {', '.join(TIEBREAKS)}")
@click.option(
    "--first-dealer", type=click.Choice(FIRST_DEALER_RULES), help="how the first dealer is chosen"
)
@click.option("--forfeit-score", help="Bummerl of a forfeit, e.g. 2:0 [default: (N+1)/2:0]")
@click.option("--bye-score", help="Bummerl of a bye, e.g. 2:0 [default: (N+1)/2:0]")
@click.option(
    "--withdrawal", type=click.Choice(WITHDRAWAL_POLICIES), default="forfeit", show_default=True
)
@click.option("--seed", type=int, help="master seed of every draw [default: drawn and recorded]")
@click.option(
    "--option", "options", multiple=True, help="format option KEY=VALUE (rounds=5, groups=4, ...)"
)
@actor_option
@cli_errors
def create(
    name: str,
    tournament_id: str | None,
    date: str,
    venue: str,
    fmt: str,
    best_of: str,
    variants: Sequence[str],
    schneiderbummerl: bool,
    tiebreaks: str | None,
    first_dealer: str | None,
    forfeit_score: str | None,
    bye_score: str | None,
    withdrawal: str,
    seed: int | None,
    options: Sequence[str],
    actor: str,
) -> None:
    """Create a tournament (and make it the current one)."""
    parsed: dict[str, Any] = {}
    for item in options:
        key, sep, value = item.partition("=")
        if not sep:
            raise click.BadParameter(f"{item!r}: KEY=VALUE", param_hint="--option")
        parsed[key.strip()] = {"true": True, "false": False}.get(value.lower(), value)
        if isinstance(parsed[key.strip()], str):
            try:
                parsed[key.strip()] = int(value)
            except ValueError:
                raise click.BadParameter(
                    f"{item!r}: a number, true or false", param_hint="--option"
                ) from None
    settings: dict[str, Any] = {
        "name": name,
        "date": date,
        "venue": venue,
        "format": fmt,
        "best_of": int(best_of),
        "variants": list(variants),
        "schneiderbummerl": schneiderbummerl,
        "withdrawal": withdrawal,
        "seed": seed,
        "options": parsed,
    }
    if tiebreaks:
        settings["tiebreaks"] = [x.strip() for x in tiebreaks.split(",") if x.strip()]
    if first_dealer:
        settings["first_dealer"] = first_dealer
    if forfeit_score:
        settings["forfeit_score"] = parse_score(forfeit_score)
    if bye_score:
        settings["bye_score"] = parse_score(bye_score)
    tid = tournament_id or _slug(name, date)
    get_service().create(tid, settings, actor=actor, metadata=event_meta())
    make_current(tid)
    click.echo(f"created tournament {tid} ({name}); it is now the current tournament")


def _slug(name: str, date: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "tournament"
    return f"{slug}-{date}" if date else slug


@main.command("list")
@cli_errors
def list_() -> None:
    """The tournaments in the store: id, name, date, format, players, rounds played, status."""
    service = get_service()
    rows = [_list_row(tid, service.state(tid)) for tid in service.tournament_ids()]
    if not rows:
        click.echo("no tournaments in this store yet: `tournament create`")
        return
    heads = ("id", "name", "date", "format", "players", "rounds", "status")
    wide = [max(width(str(x)) for x in column) for column in zip(heads, *rows, strict=True)]
    for row in (heads, *rows):
        click.echo("  ".join(ljust(str(x), w) for x, w in zip(row, wide, strict=True)).rstrip())


def _list_row(tid: str, t: Tournament) -> tuple[str, str, str, str, int, int, str]:
    """One tournament's line in ``list``: rounds played counts complete rounds only."""
    s = t.settings
    assert s is not None
    played = t.current_round - (0 if t.round_complete() else 1)
    status = "finished" if finished(t) else "open"
    return (tid, s.name, s.date or "-", s.format, len(t.players), played, status)


@main.command()
@click.argument("tournament_id")
@cli_errors
def use(tournament_id: str) -> None:
    """Make TOURNAMENT_ID the current tournament."""
    get_service().state(tournament_id)
    make_current(tournament_id)
    click.echo(f"current tournament: {tournament_id}")


@main.command()
@tournament_option
@cli_errors
def show(tournament_id: str | None) -> None:
    """Settings and progress of the tournament."""
    t = get_service().state(tournament_id_of(tournament_id))
    s = t.settings
    assert s is not None
    click.echo(f"{s.name} ({t.id}) {s.date} {s.venue}".rstrip())
    click.echo(f"format {s.format} {dict(s.options)}; best of {s.best_of} Bummerl")
    if s.format == "lives":
        click.echo(_buy_back_rule(s.options))
    click.echo(
        f"variants: {', '.join(s.variants) or 'none'}; "
        f"Schneiderbummerl {'on' if s.schneiderbummerl else 'off'}"
    )
    click.echo(
        f"tie-breaks: {', '.join(s.tiebreaks)}; first dealer: {s.first_dealer}; seed {s.seed}"
    )
    click.echo(
        f"forfeit {s.forfeit_score[0]}:{s.forfeit_score[1]}, "
        f"bye {s.bye_score[0]}:{s.bye_score[1]}; withdrawal: {s.withdrawal}"
    )
    done = sum(1 for m in t.matches.values() if m.decided or m.dropped)
    click.echo(
        f"{len(t.players)} players, round {t.current_round}, "
        f"{done}/{len(t.matches)} matches decided, {t.version} events"
    )
    flagged = [m.match_id for m in t.matches.values() if m.flags]
    if flagged:
        click.echo(f"flagged matches (see `results show`): {', '.join(flagged)}")
    # A result entered with a problem (an impossible hand, ...) still counts or is left out
    # without anybody asking; the overview is where the organiser looks, so name them here.
    problems = [m.match_id for m in t.matches.values() if m.problems]
    if problems:
        click.echo(f"matches with a PROBLEM (see `results show`): {', '.join(problems)}")
    if s.format == "lives" and (buy := buy_back_line(t, only_if_any=True)):
        click.echo(buy)
    if finished(t):
        _print_final(t)


def _buy_back_rule(options: Any) -> str:
    """The lives format's buy-back rule in words, as the players are told it."""
    count = int(options.get("buy_backs", 0))
    if not count:
        return f"{options.get('lives')} lives; no buy-back"
    until = int(options.get("buy_back_until", 0))
    when = f"before round {until} at the latest" if until else "before any round from round 2"
    return f"{options.get('lives')} lives; buy-back: at most {count} per player, {when}"


def _print_final(t: Tournament) -> None:
    """A finished tournament's result: the champion, then the places behind (top three).
    A round robin of several groups has a winner per group instead: groups differ in size
    and so in byes, so their points do not compare (groups -> knockout has one champion,
    the knockout's, as its standings rank the bracket first)."""
    groups = tournament_groups(t)
    if t.settings is not None and t.settings.format == "round_robin" and len(groups) > 1:
        click.echo("finished: a winner per group (groups are not ranked against each other)")
        for number, group in enumerate(groups, 1):
            _print_podium(f"  Group {number}: winner", compute_standings(t, players=group))
    else:
        rows = compute_standings(t, places=places(t), lives=lives_left(t))
        _print_podium("finished: champion", rows)
    click.echo("  full standings: `tournament standings`")


def _print_podium(title: str, rows: Sequence[Any]) -> None:
    """The winners after ``title`` (several: shared), then ranks 2 and 3 indented under it."""
    podium = [r for r in rows if r.rank <= 3]
    winners = [r for r in podium if r.rank == 1]
    names = " and ".join(f"{r.name} ({r.player_id})" for r in winners)
    click.echo(f"{title} {names}" + (" (shared)" if len(winners) > 1 else ""))
    indent = " " * (len(title) - len(title.lstrip()) + 2)
    for r in podium[len(winners) :]:
        click.echo(f"{indent}{r.rank}. {r.name} ({r.player_id}), {r.points} pts")


@main.command()
@tournament_option
@click.option("--limit", type=int, default=50, show_default=True)
@click.option("--action", help="only the events of one action: its id as shown, or longer")
@cli_errors
def log(tournament_id: str | None, limit: int, action: str | None) -> None:
    """The latest events, numbered (the numbers --as-of takes). The action column is the
    start of the correlation id that links every event one command appended."""
    events = get_service().events(tournament_id_of(tournament_id))
    if action:
        events = [e for e in events if _correlation(e).startswith(action.strip().lower())]
        if not events:
            raise click.ClickException(f"action: no event belongs to an action {action!r}")
    for e in events[-limit:]:
        who = e.metadata.get("actor", "")
        source = e.metadata.get("source", "")
        click.echo(
            f"{e.version:6} {e.recorded_at:%Y-%m-%d %H:%M:%S} {_correlation(e)[:8] or '-':8} "
            f"{who:12} {source:6} {e.type} "
            f"{json.dumps(dict(e.payload), ensure_ascii=False)[:100]}"
        )


def _correlation(event: Any) -> str:
    return str(event.metadata.get("correlation_id") or "")

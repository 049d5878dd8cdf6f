"""The tournament itself: ``create``, ``list``, ``use``, ``show``, ``log``.

tournament create "Herbstturnier" --format swiss --best-of 3 --option rounds=5
tournament show
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click

from engine import VARIANTS
from tournament.cli import main
from tournament.cli.columns import counted, ljust, width
from tournament.cli.common import (
    SEED,
    WHOLE,
    actor_option,
    cli_errors,
    event_meta,
    get_service,
    make_current,
    parse_score,
    tournament_id_of,
    tournament_option,
)
from tournament.cli.describe import buy_back_line, format_words, tournament_groups
from tournament.domain.model.errors import DomainError
from tournament.domain.model.settings import (
    DEFAULT_FIRST_DEALER,
    DEFAULT_TIEBREAKS,
    FIRST_DEALER_RULES,
    FORMATS,
    OPTION_DEFAULTS,
    OTHER_TIEBREAKS,
    TIEBREAKS,
    WITHDRAWAL_POLICIES,
    parse_date,
)
from tournament.domain.model.state import Tournament
from tournament.domain.model.text import excerpt, printable, whole_number
from tournament.domain.standings import standings as compute_standings
from tournament.domain.standings.pairing import finished, lives_left, places
from tournament.domain.standings.progress import open_matches
from tournament.domain.views.eventwords import in_words
from tournament.domain.views.overview import rounds_played, slug

#: What each format option means, for ``create --help`` (defaults: OPTION_DEFAULTS).
OPTION_MEANINGS = {
    "rounds": "the number of rounds, 0: as many as the field needs",
    "third_place": "a match for third place",
    "grand_final_reset": "GF2 if the losers-bracket player wins GF1",
    "groups": "the number of groups",
    "advance": "players per group into the knockout",
    "lives": "lives per player, 2 or 3",
    "buy_backs": "buy-backs per player, 0: none",
    "buy_back_until": "the last round a buy-back comes before, 0: any",
    "final_players": "players in the final",
}
#: Options kept for stored tournaments only: not offered to new ones.
HIDDEN_OPTIONS = ("double", "buy_back")


def _create_help() -> str:
    """``create --help``: what it does, then every format's options with their defaults,
    one per line."""
    wide = max(map(len, OPTION_DEFAULTS))
    pair = max(len(f"{k}={str(v).lower()}") for o in OPTION_DEFAULTS.values() for k, v in o.items())
    lines = []
    for fmt, options in OPTION_DEFAULTS.items():
        shown = [(k, v) for k, v in options.items() if k not in HIDDEN_OPTIONS]
        for number, (key, default) in enumerate(shown):
            value = str(default).lower() if isinstance(default, bool) else str(default)
            head = fmt if number == 0 else ""
            setting = f"{key}={value}"
            lines.append(f"  {head:<{wide}}  {setting:<{pair}}  {OPTION_MEANINGS.get(key, '')}")
    return (
        "Create a tournament (and make it the current one).\n\n"
        "\b\nFormat options (--option KEY=VALUE, repeatable) and their defaults:\n"
        + "\n".join(line.rstrip() for line in lines)
    )


@main.command(help=_create_help())
@click.argument("name")
@click.option(
    "--id", "tournament_id", help="tournament id: a-z, 0-9, - and _ [default: from name and date]"
)
@click.option("--date", default="", help="the day: 2026-11-27 or 27.11.2026 (stored as the first)")
@click.option("--venue", default="", help="where it is played")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="swiss",
    show_default=True,
    help="how players are paired (docs/formats.md)",
)
@click.option(
    "--best-of",
    type=click.Choice(["1", "3", "5", "7"]),
    default="3",
    show_default=True,
    help="Bummerl per match (R20)",
)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    help=f"a rules variant (docs/rules.md), repeatable: {', '.join(VARIANTS)}",
)
@click.option(
    "--schneiderbummerl/--no-schneiderbummerl",
    default=True,
    show_default=True,
    help="a Bummerl won before the loser scored counts 2 (R19)",
)
@click.option(
    "--tiebreaks",
    help=f"comma list, in order, from: {', '.join(TIEBREAKS)} [default: swiss: "
    f"{', '.join(DEFAULT_TIEBREAKS['swiss'])}; other formats: {', '.join(OTHER_TIEBREAKS)}]",
)
@click.option(
    "--first-dealer",
    type=click.Choice(FIRST_DEALER_RULES),
    help="how each match's first dealer is chosen (R18) [default: balanced in "
    f"{', '.join(DEFAULT_FIRST_DEALER)}; higher_seed in the knockouts]",
)
@click.option("--forfeit-score", help="Bummerl of a forfeit, e.g. 2:0 [default: (N+1)/2:0]")
@click.option("--bye-score", help="Bummerl of a bye, e.g. 2:0 [default: (N+1)/2:0]")
@click.option(
    "--withdrawal",
    type=click.Choice(WITHDRAWAL_POLICIES),
    default="forfeit",
    show_default=True,
    help="a withdrawn player's open matches: forfeit (to the opponents) or drop (void)",
)
@click.option(
    "--late-entry-score",
    type=click.Choice(["0", "bye"]),
    default="0",
    show_default=True,
    help="Swiss: what a late entry scores for each round it missed (0, or a bye each)",
)
@click.option("--seed", type=SEED, help="master seed of every draw [default: drawn and recorded]")
@click.option(
    "--option",
    "options",
    multiple=True,
    help="a format option KEY=VALUE, repeatable: see the list above (e.g. rounds=5)",
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
    late_entry_score: str,
    seed: int | None,
    options: Sequence[str],
    actor: str,
) -> None:
    date = parse_date(date)  # 27.11.2026 -> 2026-11-27, before it goes into the id
    settings: dict[str, Any] = {
        "name": name,
        "date": date,
        "venue": venue,
        "format": fmt,
        "best_of": int(best_of),
        "variants": list(variants),
        "schneiderbummerl": schneiderbummerl,
        "withdrawal": withdrawal,
        "late_entry_score": late_entry_score,
        "seed": seed,
        "options": _format_options(options),
    }
    if tiebreaks:
        settings["tiebreaks"] = [x.strip() for x in tiebreaks.split(",") if x.strip()]
    if first_dealer:
        settings["first_dealer"] = first_dealer
    if forfeit_score:
        settings["forfeit_score"] = parse_score(forfeit_score, "--forfeit-score")
    if bye_score:
        settings["bye_score"] = parse_score(bye_score, "--bye-score")
    tid = tournament_id or slug(name, date)
    get_service().create(tid, settings, actor=actor, metadata=event_meta())
    make_current(tid)
    click.echo(f"created tournament {tid} ({name.strip()}); it is now the current tournament")


def _format_options(items: Sequence[str]) -> dict[str, Any]:
    """``--option KEY=VALUE`` items: a value is a whole number (digits 0-9), true or false;
    which keys a format knows is the settings' to check."""
    parsed: dict[str, Any] = {}
    for item in items:
        key, sep, value = (x.strip() for x in item.partition("="))
        if not sep or not key:
            raise click.BadParameter(
                f"{excerpt(item)}: KEY=VALUE, e.g. rounds=5", param_hint="--option"
            )
        flag = {"true": True, "false": False}.get(value.lower())
        if flag is not None:
            parsed[key] = flag
            continue
        try:
            parsed[key] = whole_number(value, "--option")
        except DomainError:
            raise click.BadParameter(
                f"{excerpt(item)}: the value is a whole number (digits 0-9), true or false",
                param_hint="--option",
            ) from None
    return parsed


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
    played = rounds_played(t)
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
    click.echo(f"format: {format_words(t)}; best of {s.best_of} Bummerl")
    if s.format == "lives":
        click.echo(_buy_back_rule(s.options))
    if s.format == "swiss":
        missed = "a bye each" if s.late_entry_score == "bye" else "0 (no bye)"
        click.echo(f"late entries: each round missed scores {missed}")
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
    # Bracket matches voided, or vacated by a correction: settled, with no result.
    void = sum(1 for m in t.matches.values() if t.settled(m) and not (m.decided or m.dropped))
    click.echo(
        f"{counted(len(t.players), 'player')}, round {t.current_round}, "
        f"{done}/{counted(len(t.matches) - void, 'match', 'matches')} decided"
        f"{f' ({void} void after a correction)' if void else ''}, "
        f"{counted(t.version, 'event')}"
    )
    reopened = [m.match_id for m in open_matches(t) if m.round < t.current_round]
    if reopened:
        click.echo(
            f"open again after a correction (round start waits for them): {', '.join(reopened)}"
        )
    # A match never played that the bracket no longer has: its flags matter no longer.
    flagged = [m.match_id for m in t.matches.values() if m.flags and m.match_id not in t.vacated()]
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
    podium = [r for r in rows if r.rank is not None and r.rank <= 3]
    winners = [r for r in podium if r.rank == 1]
    names = " and ".join(f"{r.name} ({r.player_id})" for r in winners)
    click.echo(f"{title} {names}" + (" (shared)" if len(winners) > 1 else ""))
    indent = " " * (len(title) - len(title.lstrip()) + 2)
    for r in podium[len(winners) :]:
        click.echo(f"{indent}{r.rank}. {r.name} ({r.player_id}), {counted(r.points, 'pt')}")


@main.command()
@tournament_option
@click.option("--limit", type=WHOLE, default=50, show_default=True, help="how many events")
@click.option("--action", help="only the events of one action: its id as shown, or longer")
@click.option("--json", "as_json", is_flag=True, help="the stored events as JSON, one per line")
@cli_errors
def log(tournament_id: str | None, limit: int, action: str | None, as_json: bool) -> None:
    """The latest events, numbered (the numbers --as-of takes), each in words. The action
    column is the start of the correlation id that links every event one command
    appended; --json prints the stored payloads as they are."""
    if limit < 1:  # events[-0:] would be every event
        raise click.BadParameter(f"at least 1 event, not {limit}", param_hint="--limit")
    tid = tournament_id_of(tournament_id)
    service = get_service()
    events = service.events(tid)
    if action:
        events = [e for e in events if _correlation(e).startswith(action.strip().lower())]
        if not events:
            raise click.ClickException(f"action: no event belongs to an action {action!r}")
    shown = events[-limit:] if limit > 0 else []
    if as_json:
        for e in shown:
            record = {
                "event": e.version,
                "recorded_at": e.recorded_at.isoformat(),
                "type": e.type,
                "metadata": dict(e.metadata),
                "payload": dict(e.payload),
            }
            click.echo(json.dumps(record, ensure_ascii=False))
        return
    t = service.state(tid)
    kind = max((len(e.type) for e in shown), default=4)
    click.echo(
        f"{'event':>6} {'recorded':19} {'action':8} {'actor':12} {'source':6} "
        f"{ljust('type', kind)} what"
    )
    for e in shown:
        # What an older version stored unchecked (an actor, a name) is shown escaped.
        who = printable(str(e.metadata.get("actor", "")), 40)
        source = e.metadata.get("source", "")
        what = printable(in_words(t, e.type, e.payload), 500)
        click.echo(
            f"{e.version:6} {e.recorded_at:%Y-%m-%d %H:%M:%S} {_correlation(e)[:8] or '-':8} "
            f"{who:12} {source:6} {ljust(e.type, kind)} {what}"
        )


def _correlation(event: Any) -> str:
    return str(event.metadata.get("correlation_id") or "")

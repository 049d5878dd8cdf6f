"""The organiser's commands: tournaments, players, rounds, results, standings, bracket.

    tournament create "Herbstturnier" --format swiss --best-of 3 --rounds 5
    tournament players add "Anna Huber" --club "SC Ried" --rating 1520
    tournament players import players.csv
    tournament round start                       # prints pairings and tables
    tournament results enter 1.3 --winner 7 --points 2 --dealer 12
    tournament results enter 1.3 --tally "7 5 4 1 0 / 7 6 3"
    tournament results import results.csv
    tournament results correct a1b2c3 --points 3 --by referee --reason "sheet misread"
    tournament standings [--csv | --json] [--as-of 120] [--category W]

The store is the event store's: ``DATABASE_URL``, else SQLite in the instance folder
(created and migrated on first use). The tournament is ``-t ID`` (or
``SCHNAPSEN_TOURNAMENT``); without it, the one last created or chosen with ``use``.
Errors name the field, row or rule, exit non-zero, and store nothing.
"""

from __future__ import annotations

import contextvars
import functools
import io
import json
import os
import re
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from tournament.cli import main
from tournament.cli.columns import ljust, width
from tournament.domain import commands as c
from tournament.domain import events as ev
from tournament.domain.csvio import (
    CsvImportError,
    decode,
    import_players,
    import_results,
    resolve_match,
    standings_csv,
    standings_json,
)
from tournament.domain.errors import DomainError
from tournament.domain.handpoints import PAPER_REASONS as REASONS
from tournament.domain.matchstate import Entry
from tournament.domain.pairing import finished, lives_left, places
from tournament.domain.preview import preview
from tournament.domain.results import absent_warning
from tournament.domain.settings import FIRST_DEALER_RULES, FORMATS, TIEBREAKS, WITHDRAWAL_POLICIES
from tournament.domain.standings import standings as compute_standings
from tournament.domain.state import Tournament
from tournament.domain.tally import tally_text

F = TypeVar("F", bound=Callable[..., Any])

tournament_option = click.option(
    "-t", "--tournament", "tournament_id", envvar="SCHNAPSEN_TOURNAMENT", help="tournament id"
)
actor_option = click.option("--actor", envvar="USER", default="organiser", help="who does this")
card_points_option = click.option(
    "--card-points",
    help="both players' R11 points, pairing order, e.g. 66:40 (each 0 or 4-220, sum <= 220)",
)


# --- plumbing ----------------------------------------------------------------------------
def _pointer() -> Path:
    """The file naming the current tournament of the configured store: one per database
    (keyed by a hash of its URL, which may hold a password), so a shell with another
    ``DATABASE_URL`` does not read a tournament that is not in its store."""
    import hashlib

    from tournament.config import database_url, instance_path

    key = hashlib.sha256(database_url().encode()).hexdigest()[:16]
    return instance_path() / f"current-tournament.{key}"


def _legacy_pointer() -> Path | None:
    """``instance/current-tournament`` as written before pointers were per database: it
    belonged to the default store (no ``DATABASE_URL``), so only that store reads it."""
    from tournament.config import database_url, instance_path

    if database_url() != database_url({k: v for k, v in os.environ.items() if k != "DATABASE_URL"}):
        return None
    return instance_path() / "current-tournament"


def _service() -> Any:
    """The service on the configured store (``DATABASE_URL``)."""
    from tournament.config import database_url

    return _service_at(database_url())


@functools.cache
def _service_at(url: str) -> Any:
    """One service per store and process: a command asks for it several times, and the
    service keeps the folded tournament, so the stream is read and folded once."""
    from tournament.domain.service import TournamentService
    from tournament.eventstore import SQLEventStore, migrate

    # A club laptop needs no setup step: a SQLite file is created and migrated here.
    migrate.ensure_current(url)
    return TournamentService(SQLEventStore(url))


def _make_current(tid: str) -> None:
    """Make ``tid`` the configured store's current tournament."""
    pointer = _pointer()
    pointer.parent.mkdir(parents=True, exist_ok=True)
    pointer.write_text(tid)


def _tid(tournament_id: str | None) -> str:
    """The tournament to work on: ``-t``, else this store's current one, else the only one
    in the store."""
    if tournament_id:
        return tournament_id
    for pointer in (_pointer(), _legacy_pointer()):
        if pointer is not None and pointer.exists() and pointer.read_text().strip():
            return pointer.read_text().strip()
    ids = _service().tournament_ids()
    if len(ids) == 1:
        return ids[0]
    if not ids:
        raise click.UsageError("there is no tournament in this store yet: `tournament create`")
    raise click.UsageError(
        f"which tournament? give -t ID or `tournament use ID` (in this store: {', '.join(ids)})"
    )


#: The running command's correlation id: every event one organiser action appends (a CSV
#: of 40 results, a correction and the flags it raises) carries it, so the log links them.
_CORRELATION: contextvars.ContextVar[str] = contextvars.ContextVar("correlation_id")


def _meta() -> dict[str, str]:
    """Metadata the CLI adds to every event it appends."""
    return {"correlation_id": _CORRELATION.get()}


def _errors(func: F) -> F:
    """One fresh correlation id per command; domain and store errors become a one-line
    message and exit status 1, no traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from tournament.eventstore import EventStoreError

        token = _CORRELATION.set(uuid.uuid4().hex)
        try:
            return func(*args, **kwargs)
        except DomainError as error:
            raise click.ClickException(error.line()) from None
        except CsvImportError as error:
            raise click.ClickException(str(error)) from None
        except EventStoreError as error:
            raise click.ClickException(f"store: {error}") from None
        finally:
            _CORRELATION.reset(token)

    return wrapper  # type: ignore[return-value]


def _run(tid: str | None, command: Callable[[Tournament], list[Any]]) -> list[Any]:
    return list(_service().execute(_tid(tid), command, metadata=_meta()))


def _ids(text: str) -> list[int]:
    """Start numbers: ``1,2,5`` or ranges ``1-38,40`` (checking in a whole room)."""
    numbers: list[int] = []
    for item in (x for x in re.split(r"[\s,]+", text.strip()) if x):
        first, dash, last = item.partition("-")
        if not (first.isdigit() and (not dash or last.isdigit())):
            raise click.BadParameter(f"{item!r}: player numbers like 1,2,5 or a range 1-38")
        numbers += range(int(first), int(last or first) + 1)
    return numbers


def _card_points(text: str | None) -> list[int] | None:
    """Both players' points as ``66:40`` (pairing order); the range is checked by the
    domain (0 or 4-220 each, at most 220 together, docs/tournaments.md)."""
    if text is None:
        return None
    parts = text.replace("/", ":").split(":")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise click.BadParameter(
            f"{text!r} is not card points like 66:40 (both players' points, pairing order, "
            "each 0-220)",
            param_hint="--card-points",
        )
    return [int(p) for p in parts]


def _score(text: str | None) -> list[int] | None:
    if text is None:
        return None
    parts = text.split(":")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise click.BadParameter(f"{text!r} is not a score like 2:0")
    return [int(p) for p in parts]


# --- tournaments --------------------------------------------------------------------------
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
@_errors
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
        settings["forfeit_score"] = _score(forfeit_score)
    if bye_score:
        settings["bye_score"] = _score(bye_score)
    tid = tournament_id or _slug(name, date)
    _service().create(tid, settings, actor=actor, metadata=_meta())
    _make_current(tid)
    click.echo(f"created tournament {tid} ({name}); it is now the current tournament")


def _slug(name: str, date: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "tournament"
    return f"{slug}-{date}" if date else slug


@main.command("list")
@_errors
def list_() -> None:
    """The tournaments in the store: id, name, date, format, players, rounds played, status."""
    service = _service()
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
@_errors
def use(tournament_id: str) -> None:
    """Make TOURNAMENT_ID the current tournament."""
    _service().state(tournament_id)
    _make_current(tournament_id)
    click.echo(f"current tournament: {tournament_id}")


@main.command()
@tournament_option
@_errors
def show(tournament_id: str | None) -> None:
    """Settings and progress of the tournament."""
    t = _service().state(_tid(tournament_id))
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
    groups = _groups(t)
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
@_errors
def log(tournament_id: str | None, limit: int, action: str | None) -> None:
    """The latest events, numbered (the numbers --as-of takes). The action column is the
    start of the correlation id that links every event one command appended."""
    events = _service().events(_tid(tournament_id))
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


# --- players --------------------------------------------------------------------------------
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
@_errors
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

    stored = _run(tournament_id, register)
    p = stored[0].payload
    late = " (late entry, checked in)" if len(stored) > 1 else " (late entry)"
    click.echo(f"player {p['player_id']}: {p['name']}" + (late if p.get("late") else ""))


def _csv_import(file: Path, tid: str, rows: Callable[..., list[Any]], actor: str) -> list[Any]:
    """Decode ``file`` (UTF-8, BOM or not) and import it in one append; every problem
    of the file or its rows is one ClickException naming the file, nothing stored."""
    service = _service()
    try:
        text = decode(file.read_bytes())
        return service.execute(
            tid,
            lambda t: rows(service.events(tid), io.StringIO(text), actor=actor),
            metadata=_meta(),
        )
    except CsvImportError as error:
        raise click.ClickException(error.text(file.name)) from None


CSV_FILE = click.Path(exists=True, dir_okay=False, readable=True, path_type=Path)


@players.command("import")
@click.argument("file", type=CSV_FILE)
@tournament_option
@actor_option
@_errors
def players_import(file: Path, tournament_id: str | None, actor: str) -> None:
    """Register every player of a CSV file (name, club, category, rating); all or nothing."""
    stored = _csv_import(file, _tid(tournament_id), import_players, actor)
    click.echo(f"imported {len(stored)} players")


@players.command("checkin")
@click.argument("ids")
@tournament_option
@actor_option
@_errors
def players_checkin(ids: str, tournament_id: str | None, actor: str) -> None:
    """Check players in (IDS: start numbers, comma separated)."""
    numbers = _ids(ids)
    _run(tournament_id, lambda t: [e for pid in numbers for e in c.check_in(t, pid, actor=actor)])
    click.echo(f"checked in: {', '.join(map(str, numbers))}")


@players.command("withdraw")
@click.argument("player_id", type=int)
@click.option(
    "--policy", type=click.Choice(WITHDRAWAL_POLICIES), help="[default: the tournament's]"
)
@click.option("--reason", default="")
@tournament_option
@actor_option
@_errors
def players_withdraw(
    player_id: int, policy: str | None, reason: str, tournament_id: str | None, actor: str
) -> None:
    """Withdraw a player; open matches are forfeited or dropped."""
    stored = _run(
        tournament_id, lambda t: c.withdraw(t, player_id, policy=policy, reason=reason, actor=actor)
    )
    t = _service().state(_tid(tournament_id))
    click.echo(f"{t.label(player_id)} withdrawn")
    for e in stored:
        if e.type == "match.forfeited":
            click.echo(f"  match {e.payload['match_id']}: {_standing_of(t, e.payload['match_id'])}")
    for mid in stored[0].payload.get("dropped", []):
        click.echo(f"  match {mid}: dropped, counts for nobody")


@players.command("seed")
@click.option(
    "--by", "method", type=click.Choice(["rating", "manual"]), default="rating", show_default=True
)
@click.option("--order", help="manual: every start number, top seed first, comma separated")
@tournament_option
@actor_option
@_errors
def players_seed(method: str, order: str | None, tournament_id: str | None, actor: str) -> None:
    """Seed the players by rating or by hand (before round 1)."""
    numbers = _ids(order) if order else None
    stored = _run(tournament_id, lambda t: c.seed_players(t, method, numbers, actor=actor))
    click.echo(f"seeded: {', '.join(map(str, stored[0].payload['order']))}")


@players.command("buy-life")
@click.argument("player_id", type=int)
@tournament_option
@actor_option
@_errors
def players_buy_life(player_id: int, tournament_id: str | None, actor: str) -> None:
    """Preisschnapsen: buy back a life for a player who has none left."""
    _run(tournament_id, lambda t: c.buy_life(t, player_id, actor=actor))
    click.echo(f"{_service().state(_tid(tournament_id)).label(player_id)} bought back a life")


@players.command("list")
@tournament_option
@_errors
def players_list(tournament_id: str | None) -> None:
    """The registered players."""
    t = _service().state(_tid(tournament_id))
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


# --- rounds -----------------------------------------------------------------------------------
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
@_errors
def round_start(
    seed: int | None,
    pairs: str | None,
    byes: str,
    tables: Sequence[str],
    tournament_id: str | None,
    actor: str,
) -> None:
    """Draw the next round and print pairings and tables."""
    pairings = None
    if pairs:
        try:
            pairings = [
                tuple(int(x) for x in pair.split("-")) for pair in pairs.split(",") if pair.strip()
            ]
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
    tid = _tid(tournament_id)
    _run(
        tid,
        lambda t: c.start_round(
            t,
            seed=seed,
            pairings=pairings,
            byes=_ids(byes) if byes else (),
            fixed_tables=fixed,
            actor=actor,
        ),
    )  # type: ignore[arg-type]
    t = _service().state(tid)
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
@_errors
def round_cancel(why: str, by: str | None, tournament_id: str | None, actor: str) -> None:
    """Cancel the latest round before anything is played in it, to draw it again."""
    stored = _run(tournament_id, lambda t: c.cancel_round(t, why=why, by=by, actor=actor))
    number = stored[0].payload["round"]
    click.echo(f"round {number} cancelled: {why.strip()}; 'round start' draws it again")


@round_.command("show")
@click.argument("number", type=int, required=False)
@tournament_option
@_errors
def round_show(number: int | None, tournament_id: str | None) -> None:
    """Print a round's pairings, tables and results (default: the current round)."""
    _print_round(_service().state(_tid(tournament_id)), number)


def _print_round(t: Tournament, number: int | None) -> None:
    number = number or t.current_round
    if not 1 <= number <= t.current_round:
        raise click.ClickException(f"round: there is no round {number} yet (T-round)")
    r = t.rounds[number - 1]
    click.echo(
        f"Round {r.number}: {r.stage} (seed {r.seed}){' - MANUAL PAIRING' if r.override else ''}"
    )
    for w in r.warnings:
        click.echo(f"  WARNING {w}")
    matches = [t.matches[mid] for mid in r.matches]
    # Columns sized to this round's longest id and names, so 20 tables read down cleanly.
    wide_id = max((len(m.match_id) for m in matches), default=4)
    wide_a = max((width(m.labels[0]) for m in matches), default=10)
    wide_b = max((width(m.labels[1]) for m in matches), default=10)
    group = _group_labels(t, r.number)
    for m in matches:
        table = f"table {m.table:>3}" if m.table else "walkover "
        table += group.get(m.players[0], "")
        click.echo(
            f"  {table}  {m.match_id:<{wide_id}}  {ljust(m.labels[0], wide_a)}  v  "
            f"{ljust(m.labels[1], wide_b)}{_first_dealer_note(m, max(wide_a, wide_b))}"
            f"{_result_note(m)}".rstrip()
        )
    for pid in r.byes:
        click.echo(f"  bye      {group.get(pid, '')}  {t.label(pid)}")


def _group_labels(t: Tournament, number: int) -> dict[int, str]:
    """Per player ``  group N`` in a group round of a format with several groups, so the
    tables of one group can be found on the printout; nothing in a knockout round."""
    groups = _groups(t)
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


def _result_note(m: Any) -> str:
    s = m.summary
    if s.dropped:
        return "  -> dropped"
    if not s.decided:
        return ""
    if m.winner is None:
        return "  -> both absent"
    seat = s.winner or 0
    how = " by forfeit" if s.forfeit else ""
    return f"  -> {m.labels[seat]} won {s.bummerl[seat]}:{s.bummerl[1 - seat]}{how}"


# --- results ----------------------------------------------------------------------------------
@main.group()
def results() -> None:
    """Enter, import, correct and strike results."""


@results.command("enter")
@click.argument("match")
@click.option("--winner", type=int, help="the hand's winner (start number)")
@click.option("--points", type=int, help="game points of the hand: 1, 2 or 3")
@click.option("--dealer", type=int, help="who dealt the hand")
@click.option(
    "--reason",
    type=click.Choice(REASONS),
    help="why the hand ended (R13-R16); 'closed' = claim with --closed",
)
@click.option("--closed", is_flag=True, help="the talon was closed (R14)")
@card_points_option
@click.option("--tally", help="a whole Bummerl: '7 5 4 1 0 / 7 6 3' (players in pairing order)")
@click.option("--first-dealer", type=int, help="who dealt first in the match (if not drawn)")
@click.option(
    "--forfeit", help="forfeit/no-show: the winner's number, or 'both' for a double no-show"
)
@click.option("--scorer", type=int, help="the table's scorer")
@click.option("--signed", is_flag=True, help="both players signed the sheet")
@tournament_option
@actor_option
@_errors
def results_enter(
    match: str, winner: int | None, points: int | None, dealer: int | None, reason: str | None,
    closed: bool, card_points: str | None, tally: str | None, first_dealer: int | None,
    forfeit: str | None,
    scorer: int | None, signed: bool, tournament_id: str | None, actor: str,
) -> None:  # fmt: skip
    """Enter a hand, a Bummerl tally or a forfeit for MATCH (round.table, e.g. 2.5)."""
    tid = _tid(tournament_id)

    def command(t: Tournament) -> list[Any]:
        mid = resolve_match(t, match)
        if forfeit is not None:
            won = None if forfeit.lower() == "both" else int(forfeit) if forfeit.isdigit() else -1
            events = c.record_forfeit(t, mid, winner=won, actor=actor)
        elif tally is not None:
            events = c.record_tally(
                t, mid, tally, scorer=scorer, first_dealer=first_dealer, actor=actor
            )
        else:
            if winner is None or points is None:
                raise DomainError(
                    "winner", "T-result", "give --winner and --points, or --tally, or --forfeit"
                )
            cp = _card_points(card_points)
            events = c.record_hand(
                t, mid, winner=winner, game_points=points, dealer=dealer, reason=reason,
                closed=closed, card_points=cp, first_dealer=first_dealer, scorer=scorer,
                actor=actor,
            )  # fmt: skip
        if signed:
            for pid in t.matches[mid].players:
                events += c.sign_sheet(t, mid, pid, actor=actor, new=events)
        return events

    stored = _run(tid, command)
    t = _service().state(tid)
    result = next(e for e in stored if "result_id" in e.payload)
    m = t.matches[result.payload["match_id"]]
    click.echo(
        f"recorded {result.payload['result_id']} in match {m.match_id}: "
        f"{_standing_of(t, m.match_id)}"
    )
    _warn_scorers(t, [m.match_id])
    for warning in absent_warning(t, [m.match_id]):
        click.echo(f"warning: {warning}", err=True)


def _warn_scorers(t: Tournament, match_ids: Sequence[str]) -> None:
    from tournament.domain.results import scorer_warning

    for mid in dict.fromkeys(match_ids):
        warning = scorer_warning(t.matches[mid])
        if warning:
            click.echo(f"warning: {warning}", err=True)


def _standing_of(t: Tournament, mid: str) -> str:
    """Where a match stands, in words: who won, or the Bummerl score and the counts to go."""
    m = t.matches[mid]
    s = m.summary
    if s.dropped:
        return "dropped (withdrawal)"
    if s.decided:
        if m.winner is None:
            return "decided: both absent, a loss for each"
        seat = s.winner or 0
        score = f"{s.bummerl[seat]}:{s.bummerl[1 - seat]}"
        how = " by forfeit" if s.forfeit else ""
        return f"decided: {m.labels[seat]} wins {score} Bummerl{how}"
    a, b = s.bummerl
    leader = "" if a == b else f" ({m.labels[0 if a > b else 1]} leads)"
    counts = m.engine.current.scores
    line = (
        f"Bummerl {a}:{b}{leader}; Bummerl {len(m.engine.bummerls)} in play: "
        f"{m.labels[0]} {counts[0]} to go, {m.labels[1]} {counts[1]} to go"
    )
    if m.first_dealer is not None and m.engine.next_dealer is not None:
        line += f"; next hand dealt by {m.labels[m.engine.next_dealer]}"
    return line


@results.command("import")
@click.argument("file", type=CSV_FILE)
@tournament_option
@actor_option
@_errors
def results_import(file: Path, tournament_id: str | None, actor: str) -> None:
    """Enter every result of a CSV file; all rows or nothing."""
    tid = _tid(tournament_id)
    stored = _csv_import(file, tid, import_results, actor)
    _warn_scorers(_service().state(tid), [e.payload["match_id"] for e in stored])
    click.echo(f"imported {sum(1 for e in stored if 'result_id' in e.payload)} results")


@results.command("show")
@click.argument("match")
@tournament_option
@_errors
def results_show(match: str, tournament_id: str | None) -> None:
    """A match at a glance: every result with its id (for `correct` and `strike`), where its
    hands fell, and its history: who entered, corrected or struck what, when and why."""
    tid = _tid(tournament_id)
    service = _service()
    t = service.state(tid)
    m = t.matches[resolve_match(t, match)]
    a, b = m.labels
    dealer = "" if m.first_dealer is None else f"; {m.labels[m.first_dealer]} deals first"
    click.echo(f"match {m.match_id} (round {m.round}, table {m.table}): {a} v {b}{dealer}")
    click.echo(f"  {_standing_of(t, m.match_id)}")
    if stream := t.live_in_progress(m.match_id):
        click.echo(
            f"  live hand {stream} in progress ({m.next_place()}): "
            f"tournament live show {stream} [--seat N]"
        )
    history = _history(service.events(tid), m)
    places = m.hand_places()
    for e in m.entries:
        click.echo(f"  {e.result_id}  {_what(m, e.kind, e.payload, places.get(e.result_id, []))}")
        for line in history.get(e.result_id, []):
            click.echo(f"  {'':12}    {line}")
    for pid in sorted(m.signed_by):
        click.echo(f"  signed by {m.label(pid)}")
    for pid, why in m.void_signatures:
        click.echo(f"  signature of {m.label(pid)} VOID: {why}")
    from tournament.domain.results import scorer_warning

    if warning := scorer_warning(m):
        click.echo(f"  WARNING {warning}")
    for problem in m.problems:
        click.echo(f"  PROBLEM {problem}")
    for flag in m.flags:
        click.echo(f"  FLAG {flag}")


def _what(m: Any, kind: str, p: dict[str, Any] | None, places: Sequence[str] = ()) -> str:
    """One result payload in words, players by name; ``places`` say where its hands fell."""
    if p is None:
        return "VOID (does not count)"
    if kind == "forfeit":
        if p.get("winner") is None:
            return f"forfeit: both absent ({p.get('reason')})"
        return f"forfeit: {m.label(p['winner'])} wins ({p.get('reason')})"
    if kind == "tally":
        hands = Entry("", "tally", p).hands(m.players, False)
        bummerl = next((w.split(" hand")[0] for w in places if w.startswith("Bummerl")), "")
        steps = "; ".join(
            f"{n} {_short(m.labels[seat])} +{gp}" + (" (struck)" if where == "struck" else "")
            for n, ((seat, gp, _, _), where) in enumerate(
                zip(hands, [*places, *[""] * len(hands)], strict=False), 1
            )
        )
        return (
            f"tally {tally_text(p['tally'])} ({m.labels[0]} / {m.labels[1]})"
            + (f", {bummerl}" if bummerl else "")
            + (f"\n{'':18}hands: {steps}" if places else "")
        )
    where = f"{places[0]}: " if places else ""
    return (
        f"{where}{m.label(p['winner'])} wins {p['game_points']}"
        + (f", dealt by {m.label(p['dealer'])}" if p.get("dealer") is not None else "")
        + (f", {p['reason']}" if p.get("reason") else "")
        + (", talon closed" if p.get("closed") else "")
        + (
            f", card points {p['card_points'][0]}:{p['card_points'][1]}"
            if p.get("card_points")
            else ""
        )
        + (" (live)" if kind == "live" else "")
    )


def _history(events: Sequence[Any], m: Any) -> dict[str, list[str]]:
    """Per result id of match ``m``: when and by whom it was entered, corrected, struck."""
    kinds = {ev.HAND_RECORDED: "hand", ev.TALLY_RECORDED: "tally", ev.MATCH_FORFEITED: "forfeit"}
    kinds[ev.LIVE_HAND_RECORDED] = "live"
    out: dict[str, list[str]] = {}
    for e in events:
        p = e.payload
        if p.get("match_id") != m.match_id or "result_id" not in p:
            continue
        when = f"event {e.version}, {e.recorded_at.astimezone():%a %H:%M},"
        actor = e.metadata.get("actor") or "?"
        lines = out.setdefault(p["result_id"], [])
        if e.type in kinds:
            source = e.metadata.get("source") or "entered"
            lines.append(f"{when} {source} by {actor}")
        elif e.type == ev.RESULT_CORRECTED:
            kind = _kind_of(m, p["result_id"])
            before = _what(m, kind, p.get("previous"))
            after = _what(m, kind, p.get("replacement"))
            lines.append(
                f"{when} CORRECTED by {p['by']} ({actor}): {p['reason']!r}: {before} -> {after}"
            )
        elif e.type == ev.HAND_STRUCK:
            lines.append(
                f"{when} hand {p.get('hand') or 1} STRUCK by {p['by']} ({actor}): {p['reason']!r}"
            )
    return out


def _short(label: str) -> str:
    """``Anna Huber (12)`` -> ``Anna Huber``: where the match's header already numbers them."""
    return label.rsplit(" (", 1)[0]


def _kind_of(m: Any, result_id: str) -> str:
    """What result ``result_id`` of match ``m`` is: hand, tally, forfeit or live."""
    return next((e.kind for e in m.entries if e.result_id == result_id), "hand")


def _confirmed(tid: str, new: list[Any], yes: bool, preview_only: bool) -> bool:
    service = _service()
    for line in preview(service.events(tid), new).lines():
        click.echo(f"  {line}")
    if preview_only:
        click.echo("preview only: nothing stored")
        return False
    if yes or click.confirm("store this?", default=False):
        return True
    # Declined: say so and fail, so a script piping "n" cannot mistake it for a stored change.
    click.echo("nothing stored")
    raise click.exceptions.Exit(1)


def _correction(
    tid: str, decide: Callable[[Tournament], list[Any]], yes: bool, preview_only: bool, what: str
) -> None:
    service = _service()
    new = decide(service.state(tid))
    click.echo(f"{what} would change:")
    if not _confirmed(tid, new, yes, preview_only):
        return
    # Decided again inside execute: if somebody wrote meanwhile, it is checked on the newer state.
    service.execute(tid, decide, metadata=_meta())
    click.echo("stored")


@results.command("correct")
@click.argument("result_id")
@click.option("--winner", type=int)
@click.option("--points", type=int)
@click.option("--dealer", type=int)
@click.option("--reason", "hand_reason", type=click.Choice(REASONS))
@click.option("--closed/--not-closed", default=None, help="whether the talon was closed (R14)")
@card_points_option
@click.option("--tally")
@click.option("--void", is_flag=True, help="the result should not be there at all")
@click.option("--undo", is_flag=True, help="reverse the latest correction of this result")
@click.option("--by", required=True, help="who corrects")
@click.option("--why", "why", required=True, help="why")
@click.option("--yes", is_flag=True, help="store without asking")
@click.option("--preview", "preview_only", is_flag=True, help="only show what would change")
@tournament_option
@actor_option
@_errors
def results_correct(
    result_id: str, winner: int | None, points: int | None, dealer: int | None,
    hand_reason: str | None, closed: bool | None, card_points: str | None, tally: str | None,
    void: bool, undo: bool, by: str, why: str,
    yes: bool, preview_only: bool,
    tournament_id: str | None, actor: str,
) -> None:  # fmt: skip
    """Replace a result (never edited: a correction event, with who and why), after a preview."""
    changes: dict[str, Any] = {
        k: v
        for k, v in (
            ("winner", winner),
            ("game_points", points),
            ("dealer", dealer),
            ("reason", hand_reason),
            ("closed", closed),
            ("card_points", _card_points(card_points)),
            ("tally", tally),
        )
        if v is not None
    }

    def decide(t: Tournament) -> list[Any]:
        if undo:
            return c.reversal(t, result_id, by=by, reason=why, actor=actor)
        if void:
            return c.correct_result(t, result_id, None, by=by, reason=why, actor=actor)
        if not changes:
            raise DomainError(
                "result",
                "T-correction",
                "say what changes (--winner, --points, --tally ...), --void or --undo",
            )
        return c.correct_result(t, result_id, changes, by=by, reason=why, actor=actor)

    _correction(_tid(tournament_id), decide, yes, preview_only, f"correcting {result_id}")


@results.command("strike")
@click.argument("result_id")
@click.option("--hand", type=int, help="which hand of a tally (required when it holds several)")
@click.option("--by", required=True)
@click.option("--why", "why", required=True)
@click.option("--yes", is_flag=True)
@click.option("--preview", "preview_only", is_flag=True)
@tournament_option
@actor_option
@_errors
def results_strike(
    result_id: str,
    hand: int | None,
    by: str,
    why: str,
    yes: bool,
    preview_only: bool,
    tournament_id: str | None,
    actor: str,
) -> None:
    """Strike a hand a sheet error left unresolved: it no longer counts."""
    _correction(
        _tid(tournament_id),
        lambda t: c.strike_hand(t, result_id, hand, by=by, reason=why, actor=actor),
        yes,
        preview_only,
        f"striking hand {hand or 1} of {result_id}",
    )


@results.command("sign")
@click.argument("match")
@click.argument("player_id", type=int)
@tournament_option
@actor_option
@_errors
def results_sign(match: str, player_id: int, tournament_id: str | None, actor: str) -> None:
    """A player signs the match's finished scoresheet (refused before it is decided)."""
    _run(tournament_id, lambda t: c.sign_sheet(t, resolve_match(t, match), player_id, actor=actor))
    click.echo("signed")


@results.command("clear-flag")
@click.argument("match")
@tournament_option
@actor_option
@_errors
def results_clear_flag(match: str, tournament_id: str | None, actor: str) -> None:
    """The organiser has dealt with a flagged match."""
    _run(tournament_id, lambda t: c.clear_flag(t, resolve_match(t, match), actor=actor))
    click.echo("flag cleared")


# --- standings and bracket --------------------------------------------------------------------
@main.command()
@click.option("--csv", "as_csv", is_flag=True, help="CSV (docs/csv-formats.md)")
@click.option("--excel", is_flag=True, help="with --csv: for Excel (BOM, ';', decimal comma)")
@click.option("--json", "as_json", is_flag=True, help="JSON")
@click.option("--as-of", type=int, help="as after event N (see `tournament log`)")
@click.option("--category", help="only this category, e.g. W")
@click.option("--group", type=int, help="only this group of a group format (1, 2, ...)")
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-")
@tournament_option
@_errors
def standings(
    as_csv: bool,
    excel: bool,
    as_json: bool,
    as_of: int | None,
    category: str | None,
    group: int | None,
    output: Any,
    tournament_id: str | None,
) -> None:
    """The standings now, or as of a past event; one table per group in group formats,
    then the bracket in groups -> knockout."""
    if excel and not as_csv:
        raise click.ClickException("excel: --excel goes with --csv (standings --csv --excel)")
    tid = _tid(tournament_id)
    t = _service().state(tid, as_of=_as_of(tid, as_of))
    groups = _groups(t)
    if group is not None:
        rows = _group_rows(tid, t, groups, group, category)
    elif len(groups) > 1 and not (as_csv or as_json):
        _print_groups(tid, t, groups, category, output)
        return
    else:
        rows = compute_standings(t, category=category, places=places(t), lives=lives_left(t))
    if as_csv:
        output.write(standings_csv(rows, excel=excel))
        return
    if as_json:
        output.write(
            standings_json(rows, tournament=tid, as_of=t.version, category=category) + "\n"
        )
        return
    _print_heading(t, group, category, output)
    _print_table(t, rows, output)
    _print_tiebreak_order(t, output)
    if any(r.status == "absent" for r in rows):
        click.echo("[absent]: registered but never checked in, so never drawn", file=output)


def _as_of(tid: str, as_of: int | None) -> int | None:
    """``--as-of N`` within the tournament's events 1..latest; anything else is refused
    rather than silently showing the latest state or claiming there is no tournament."""
    if as_of is None:
        return None
    latest = _service().state(tid).version
    if not 1 <= as_of <= latest:
        raise click.ClickException(
            f"as-of: tournament {tid} has events 1 to {latest} (see `tournament log`), not {as_of}"
        )
    return as_of


def _groups(t: Tournament) -> list[list[int]]:
    """The groups of a group format, as drawn in round 1 (none: no groups)."""
    from tournament.domain.pairing import frozen

    if t.settings is None or t.settings.format not in ("round_robin", "groups_knockout"):
        return []
    return [[int(p) for p in g] for g in frozen(t, "groups") or []]


def _group_stage(tid: str, t: Tournament) -> Tournament:
    """The tournament as the group stage left it: in groups -> knockout, the state before
    the first knockout round, so knockout matches do not count in the group tables."""
    first_ko = next((r.number for r in t.rounds if "seeds" in r.info), None)
    if first_ko is None:
        return t
    service = _service()
    started = max(  # the last draw of that round: an earlier one may have been cancelled
        e.version
        for e in service.events(tid)
        if e.type == ev.ROUND_STARTED and e.payload["round"] == first_ko
    )
    return service.state(tid, as_of=started - 1)


def _group_rows(
    tid: str, t: Tournament, groups: list[list[int]], group: int, category: str | None
) -> list[Any]:
    if not groups:
        raise click.ClickException("group: this tournament has no groups (T-format)")
    if not 1 <= group <= len(groups):
        raise click.ClickException(
            f"group: there are groups 1 to {len(groups)}, not {group} (T-format)"
        )
    stage = _group_stage(tid, t)
    return compute_standings(stage, category=category, players=groups[group - 1])


def _print_groups(
    tid: str, t: Tournament, groups: list[list[int]], category: str | None, output: Any
) -> None:
    """One table per group (each ranked on its own), then the bracket if there is one."""
    s = t.settings
    assert s is not None
    _print_heading(t, None, category, output)
    for number in range(1, len(groups) + 1):
        click.echo(f"Group {number}", file=output)
        _print_table(t, _group_rows(tid, t, groups, number, category), output)
    _print_tiebreak_order(t, output)
    if s.format == "groups_knockout" and any("seeds" in r.info for r in t.rounds):
        click.echo("Knockout", file=output)
        _print_bracket(t, output)


def _print_heading(t: Tournament, group: int | None, category: str | None, output: Any) -> None:
    s = t.settings
    assert s is not None
    click.echo(
        f"{s.name}: standings after round {t.current_round} (event {t.version})"
        + (f", group {group}" if group else "")
        + (f", category {category}" if category else ""),
        file=output,
    )


def _print_table(t: Tournament, rows: Sequence[Any], output: Any) -> None:
    """The standings as a terminal table: one line per player, tie-breaks last."""
    s = t.settings
    assert s is not None
    tbs = [tb for tb in s.tiebreaks if tb != "lot"]
    heads = [TIEBREAK_HEADERS.get(tb, tb) for tb in tbs]
    lives = s.format == "lives"
    bought = lives and bool(s.options.get("buy_back"))
    labels = [f"{r.name} ({r.player_id})" + ("" if r.status == "active" else f" [{r.status}]")
              for r in rows]  # fmt: skip
    wide = max([len("player"), *map(width, labels)])
    marked, luck = _luck_marks(rows)
    click.echo(
        f"{'#':>3}  {'player':<{wide}}  {'pts':>3}  {'W-L':>5}"
        + ("  lives" if lives else "")
        + ("  bought" if bought else "")
        + f"  {'Bummerl':>7}  {'game pts':>8}"
        + "".join(f"  {h:>{len(h)}}" for h in heads),
        file=output,
    )
    for r, label in zip(rows, labels, strict=True):
        wl = f"{r.wins + r.forfeit_wins}-{r.losses}"
        bummerl = f"{r.bummerl_won}:{r.bummerl_lost}"
        gp = f"{r.gp_won}:{r.gp_lost}"
        tail = "".join(
            f"  {_number(r.tiebreaks.get(tb)):>{len(h)}}" for tb, h in zip(tbs, heads, strict=True)
        )
        click.echo(
            f"{r.rank:>3}{'*' if r.player_id in marked else ' '} {ljust(label, wide)}"
            f"  {r.points:>3}  {wl:>5}"
            + (f"  {r.lives if r.lives else 'out':>5}" if lives else "")
            + (f"  {r.lives_bought:>6}" if bought else "")
            + f"  {bummerl:>7}  {gp:>8}{tail}",
            file=output,
        )
    if luck:
        click.echo(
            f"* tie settled by lot or seed, not by play: {', '.join(luck)} "
            "(decided_by in --csv/--json)",
            file=output,
        )


def _luck_marks(rows: Sequence[Any]) -> tuple[set[int], list[str]]:
    """The players whose rank against the row above or below was settled by ``lot`` or
    ``seed`` -- chance or the draw, not play, so the table must not pass it off as a
    result -- and those pairs in words (``3-4 by lot``)."""
    from itertools import pairwise

    marked: set[int] = set()
    pairs: list[str] = []
    for above, r in pairwise(rows):
        if r.decided_by in ("lot", "seed"):
            marked |= {above.player_id, r.player_id}
            pairs.append(f"{above.rank}-{r.rank} by {r.decided_by}")
    return marked, pairs


def _print_tiebreak_order(t: Tournament, output: Any) -> None:
    s = t.settings
    assert s is not None
    if [tb for tb in s.tiebreaks if tb != "lot"]:
        click.echo(
            "tie-breaks in this order: "
            + ", ".join(TIEBREAK_HEADERS.get(tb, tb) for tb in s.tiebreaks)
            + " (docs/standings.md)",
            file=output,
        )


#: Column headers of the tie-breaks in the terminal table (the CSV keeps the ids).
TIEBREAK_HEADERS = {
    "bummerl_diff": "Bummerl+/-",
    "game_point_diff": "game pts+/-",
    "game_points": "game pts won",
    "direct_encounter": "head-to-head",
    "buchholz": "Buchholz",
    "buchholz_cut1": "Buchholz-1",
    "median_buchholz": "median Buchholz",
    "sonneborn_berger": "Sonneborn-Berger",
    "wins": "wins",
    "schneider": "Schneider",
    "seed": "seed",
    "lot": "lot",
}


def _number(value: Any) -> str:
    """Tie-break values as numbers read: 3, not 3.0; halves stay; blank where it decided
    nothing (None)."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@main.command()
@tournament_option
@_errors
def bracket(tournament_id: str | None) -> None:
    """The knockout bracket as it stands."""
    from tournament.domain.pairing import bracket_of

    t = _service().state(_tid(tournament_id))
    if bracket_of(t) is None:
        raise click.ClickException("bracket: this tournament has no knockout bracket yet (T-round)")
    _print_bracket(t, None)


def _print_bracket(t: Tournament, output: Any) -> None:
    """Every bracket match by section, with its players, status and winner; then each
    recorded match that no longer fits its slot after a correction, with its own players."""
    from tournament.domain.pairing import bracket_of, bracket_view, slot_holders, void_command

    b = bracket_of(t)
    view = bracket_view(t)
    assert b is not None and view is not None
    state, misfits = view
    holders = slot_holders(t)

    def name(pid: str | None) -> str:
        return "?" if pid is None else f"{t.players[int(pid)].name} ({pid})"

    heading = None
    sides = {m.match_id: _bracket_sides(m, state.matches[m.match_id], name) for m in b.matches}
    wide = max((width(x) for pair in sides.values() for x in pair), default=10)
    last = max((int(m.match_id[1:].partition("-")[0]) for m in b.matches if m.match_id[0] == "R"),
               default=0)  # fmt: skip
    for m in b.matches:
        if _bracket_heading(m.match_id, last) != heading:
            heading = _bracket_heading(m.match_id, last)
            click.echo(heading, file=output)
        s = state.matches[m.match_id]
        winner = f"  -> {name(s.winner)}" if s.winner else ""
        played = holders.get(m.match_id)
        status = "CONFLICT" if m.match_id in misfits else s.status
        if played is not None and m.match_id not in misfits and played.match_id != m.match_id:
            status += f" (as {played.match_id})"  # drawn again after a correction
        if s.status == "done" and played is not None and played.winner is not None:
            winner += f" {_result_note(played).split(' won ')[-1]}"
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
            f"{' v '.join(played.labels)}, {_result_note(played).removeprefix('  -> ')}; "
            "it no longer fits the bracket (flagged), counts as played, and the slot is "
            f"drawn again once you void it: {void_command(played)}",
            file=output,
        )


def _bracket_sides(m: Any, s: Any, name: Callable[[str | None], str]) -> tuple[str, str]:
    """Both players of a bracket match, or where they come from while not known yet
    (``winner of R1-3``), as the draw sheet says it."""
    from tournament.formats.bracket import LoserOf, Seed, WinnerOf

    def side(pid: str | None, source: Any) -> str:
        if pid is not None:
            return name(pid)
        if isinstance(source, WinnerOf):
            return f"winner of {source.match_id}"
        if isinstance(source, LoserOf):
            return f"loser of {source.match_id}"
        return "(bye)" if isinstance(source, Seed) else name(None)  # a seed beyond the field

    return side(s.player_a, m.source_a), side(s.player_b, m.source_b)


def _bracket_heading(match_id: str, last_round: int) -> str:
    """The bracket section of a match id in an organiser's words (``R3-1`` of 4 rounds:
    semi-finals)."""
    if match_id == "3P":
        return "Third place"
    if match_id.startswith("GF"):
        return "Grand final" if match_id == "GF1" else "Grand final (reset)"
    letter, number = match_id[0], int(match_id[1:].partition("-")[0])
    if letter == "W":
        return f"Winners bracket, round {number}"
    if letter == "L":
        return f"Losers bracket, round {number}"
    from_end = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
    return from_end.get(last_round - number, f"Round {number}")


# --- live hands -------------------------------------------------------------------------------
@main.group()
def live() -> None:
    """Play hands live, action by action, through the rules engine."""


@live.command("deal")
@click.argument("match")
@click.option("--seed", type=int, help="shuffle seed [default: random]")
@tournament_option
@actor_option
@_errors
def live_deal(match: str, seed: int | None, tournament_id: str | None, actor: str) -> None:
    """Deal MATCH's next hand; prints the hand's id for `live play`."""
    from tournament.domain.live import deal_live_hand
    from tournament.eventstore import NO_STREAM

    tid = _tid(tournament_id)
    service = _service()
    t = service.state(tid)
    stream, hand, started = deal_live_hand(t, resolve_match(t, match), seed=seed, actor=actor)
    service.store.append(stream, ev.stamped(hand, _meta()), expected_version=NO_STREAM)

    def start(now: Tournament) -> list[Any]:
        # Checked again on the state we append to: a deal at the next table's terminal
        # meanwhile must not make two hands at once (the unused hand stream stays orphaned).
        deal_live_hand(now, started[0].payload["match_id"], seed=seed, actor=actor)
        return started

    service.execute(tid, start, metadata=_meta())
    dealer = started[0].payload["dealer"]
    seat0 = t.matches[started[0].payload["match_id"]].players[0]
    seat1 = t.matches[started[0].payload["match_id"]].players[1]
    click.echo(
        f"{stream}  (dealer: {t.label(dealer)}; seat 0 is {t.label(seat0)}, "
        f"seat 1 is {t.label(seat1)})"
    )
    click.echo(f"  the cards: tournament live show {stream} --seat 0 (or --seat 1)")


@live.command("abandon")
@click.argument("hand_stream")
@click.option("--by", required=True, help="who decides (referee, organiser)")
@click.option("--why", "why", required=True, help="why, e.g. misdeal")
@tournament_option
@actor_option
@_errors
def live_abandon(
    hand_stream: str, by: str, why: str, tournament_id: str | None, actor: str
) -> None:
    """Abandon a live hand that is not over: it never counts; the same dealer deals again."""
    from tournament.domain.live import abandon_live_hand

    stored = _run(
        tournament_id, lambda t: abandon_live_hand(t, hand_stream, by=by, reason=why, actor=actor)
    )
    click.echo(f"abandoned {hand_stream} (match {stored[0].payload['match_id']})")


@live.command("play")
@click.argument("hand_stream")
@click.argument("actions", nargs=-1, required=True)
@tournament_option
@actor_option
@_errors
def live_play(
    hand_stream: str, actions: Sequence[str], tournament_id: str | None, actor: str
) -> None:
    """Play ACTIONS (record notation: 1:AH, 0:KS+marriage, 1:close, 0:claim) in a live hand."""
    from engine import Action, EngineError
    from engine.views import spectator_view
    from tournament.cli.live_view import status_line
    from tournament.domain.live import playable, record_live_hand
    from tournament.eventstore.hands import action_event, fold_hand

    tid = _tid(tournament_id)
    service = _service()
    # Known to the tournament (an unknown id is an empty stream to the store) and not
    # abandoned, before any action is appended to the hand's stream.
    playable(service.state(tid), hand_stream)
    events = service.store.read_stream(hand_stream)
    state = fold_hand(events)
    new = []
    for text in actions:
        try:
            action = Action.parse(text)
            state = state.apply(action)
        except EngineError as error:
            raise click.ClickException(
                f"action {text!r}: {error.message} ({error.rule}); nothing stored"
            ) from None
        new.append(action_event(action, {"source": ev.LIVE, "actor": actor, **_meta()}))
    service.store.append(hand_stream, new, expected_version=events[-1].version if events else 0)
    service.execute(
        tid,
        lambda t: record_live_hand(
            t, hand_stream, service.store.read_stream(hand_stream), actor=actor
        ),
        metadata=_meta(),
    )
    outcome = state.outcome()
    t = service.state(tid)
    m = t.matches[t.live_hands[hand_stream]]
    who = _seat_namer(m)
    if outcome.complete:
        click.echo(
            f"hand over: {who(outcome.winner)} wins {outcome.game_points} ({outcome.reason}); "
            f"match {m.match_id}: {_standing_of(t, m.match_id)}"
        )
    else:
        # The public status only (no card points, no legal actions): the terminal may be
        # in view of both players; each seat's options are behind `live show --seat`.
        click.echo(status_line(spectator_view(state), who))
        seats = " / ".join(f"--seat {n}" for n in outcome.to_act)
        click.echo(f"  their cards and options: tournament live show {hand_stream} {seats}")


@live.command("show")
@click.argument("hand_stream")
@click.option("--seat", type=click.IntRange(0, 1), help="that seat's own view (0 or 1)")
@tournament_option
@_errors
def live_show(hand_stream: str, seat: int | None, tournament_id: str | None) -> None:
    """Show a live hand: without --seat the table as a spectator sees it (no hidden card);
    with --seat N that player's view, with their cards and legal actions (`live play`
    notation)."""
    from engine.views import player_view, spectator_view
    from tournament.cli.live_view import player_lines, spectator_lines
    from tournament.domain.live import live_match
    from tournament.eventstore.hands import fold_hand

    tid = _tid(tournament_id)
    service = _service()
    t = service.state(tid)
    m = t.matches[live_match(t, hand_stream)]  # a hand of this tournament, or refused
    state = fold_hand(service.store.read_stream(hand_stream))
    who = _seat_namer(m)
    note = " (abandoned: it does not count)" if hand_stream in t.live_abandoned else ""
    click.echo(f"live hand {hand_stream}, match {m.match_id}: {m.labels[0]} v {m.labels[1]}{note}")
    if seat is None:
        lines = spectator_lines(spectator_view(state), who)
    else:
        lines = player_lines(player_view(state, seat), who)
    for line in lines:
        click.echo(f"  {line}")


def _seat_namer(m: Any) -> Callable[[int], str]:
    """``seat 1 Franz (2)``: actions are typed by seat (record notation), so seats stay,
    each with its player."""
    return lambda seat: f"seat {seat} {m.labels[seat]}"

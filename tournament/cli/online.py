"""``tournament online``: the organiser's side of online tables (T-online, T-clock).

A match is started online (the server deals; the players open their seats with the table
codes on their table card, ``/r/<code>``), its tables are listed with hand, Bummerl,
whose turn and clock -- never a card: the terminal may be in view of the players -- and
when a clock runs out the organiser decides: restart the clock, abandon the hand (the
same dealer deals again, R18) or stop online play (the rest of the match on paper).

Everything goes through :class:`~tournament.app.play.PlayService` on the CLI's
service, as the desk's pages do; the screens of a table in a running web service notice
the change when they next look (the CLI announces nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import click

from tournament.cli import main
from tournament.cli.common import (
    WHO,
    WHY,
    WholeNumber,
    actor_option,
    cli_errors,
    event_meta,
    get_service,
    tournament_id_of,
    tournament_option,
)

if TYPE_CHECKING:
    from tournament.app.play import PlayService
    from tournament.domain.views.onlineview import TableMoment


def wall_clock() -> datetime:
    return datetime.now(UTC)


#: The PlayService's clock (T-clock): the wall clock; tests set another time here.
now: Callable[[], datetime] = wall_clock

STATUS_WORDS = {
    "joining": "waiting for the players to open their seats",
    "waiting": "waiting for the deal",
    "wait": "in play",
    "over": "match decided (R20)",
    "stopped": "stopped: the rest on paper",
    "time": "time is up: the organiser decides (T-clock)",
}


def play() -> PlayService:
    from tournament.app.play import PlayService

    return PlayService(get_service(), now=lambda: now())


def _match_id(tid: str, match: str) -> str:
    from tournament.domain.commands.matchref import resolve_match

    return resolve_match(get_service().state(tid), match)


@main.group()
def online() -> None:
    """Online tables: start a match online, see every table, decide when a clock runs out."""


@online.command("start")
@click.argument("match")
@click.option(
    "--move-seconds",
    type=WholeNumber(digits=6),
    help="time per move, 10-3600 seconds (T-clock) [default: no clock]",
)
@tournament_option
@actor_option
@cli_errors
def online_start(
    match: str, move_seconds: int | None, tournament_id: str | None, actor: str
) -> None:
    """Play MATCH online: the server deals each hand (T-online)."""
    tid = tournament_id_of(tournament_id)
    mid = _match_id(tid, match)
    moment = play().start(tid, mid, move_seconds=move_seconds, metadata=event_meta(), actor=actor)
    clock = "no clock" if move_seconds is None else f"{move_seconds} s per move (T-clock)"
    click.echo(f"match {mid} is played online ({clock}); hand {moment.number} is dealt")
    click.echo("  the players open their seats with the codes on their table card (/r/CODE)")


@online.command("status")
@click.argument("match", required=False)
@tournament_option
@cli_errors
def online_status(match: str | None, tournament_id: str | None) -> None:
    """Every online table (or MATCH's): hand, Bummerl, whose turn, clock. No card."""
    tid = tournament_id_of(tournament_id)
    t = get_service().state(tid)
    ids = [_match_id(tid, match)] if match else list(t.online)
    if match is None and not ids:
        click.echo("no match is played online: `tournament online start MATCH`")
        return
    service = play()
    for mid in ids:
        click.echo(status_line(service.moment(tid, mid), service.now()))


def status_line(moment: TableMoment, at: datetime) -> str:
    """One table in one line: counts and words, never a card."""
    from tournament.domain.views.onlineview import status

    m = moment.match
    table = moment.t.online[moment.match_id]
    wins, scores = m.summary.bummerl, m.engine.current.scores
    turn = [
        f"{m.labels[seat]} {'may claim (R16)' if status(moment, seat) == 'claim' else 'to play'}"
        for seat in (0, 1)
        if status(moment, seat) in ("turn", "claim")
    ]
    if moment.clock.expired and moment.state is not None:
        turn = [f"{m.labels[seat]} to play" for seat in sorted(moment.state.to_act)]
    seen = status(moment, None)
    parts = [
        f"match {m.match_id} (round {m.round}, table {m.table}): {m.labels[0]} v {m.labels[1]}",
        f"hand {moment.number}" if moment.number else "no hand yet",
        f"Bummerl {wins[0]}:{wins[1]} (points to go {scores[0]}:{scores[1]})",
    ]
    if turn:
        parts.append(", ".join(turn))
    seats = [
        f"{m.labels[seat]} {'joined' if seat in table.devices else 'not joined yet'}"
        for seat in (0, 1)
    ]
    parts.append(", ".join(seats))
    parts.append(_clock_text(moment, table.move_seconds, at))
    parts.append(STATUS_WORDS.get(seen, seen))
    return "; ".join(parts)


def _clock_text(moment: TableMoment, seconds: int | None, at: datetime) -> str:
    from tournament.cli.common import when

    clock = moment.clock
    if seconds is None:
        return "no clock"
    if clock.deadline is None:
        return f"clock {seconds} s per move"
    if clock.expired:
        return f"time is up since {when(clock.deadline)}"
    left = max(0, int((clock.deadline - at).total_seconds() + 0.999))
    return f"clock: {left} s left of {seconds}"


@online.command("clock")
@click.argument("match")
@click.option("--by", required=True, type=WHO, help="who decides (referee, organiser)")
@tournament_option
@actor_option
@cli_errors
def online_clock(match: str, by: str, tournament_id: str | None, actor: str) -> None:
    """Restart MATCH's clock: the player to act has the time per move again (T-clock)."""
    tid = tournament_id_of(tournament_id)
    mid = _match_id(tid, match)
    service = play()
    service.restart_clock(tid, mid, by=by, metadata=event_meta(), actor=actor)
    click.echo(f"the clock of match {mid} runs again (restarted by {by})")


@online.command("abandon")
@click.argument("match")
@click.option("--by", required=True, type=WHO, help="who decides (referee, organiser)")
@click.option("--why", "why", required=True, type=WHY, help="why, e.g. a phone died")
@tournament_option
@actor_option
@cli_errors
def online_abandon(match: str, by: str, why: str, tournament_id: str | None, actor: str) -> None:
    """Abandon the hand MATCH plays online: it never counts; the same dealer deals again (R18)."""
    tid = tournament_id_of(tournament_id)
    mid = _match_id(tid, match)
    moment = play().abandon_hand(tid, mid, by=by, reason=why, metadata=event_meta(), actor=actor)
    click.echo(
        f"the hand of match {mid} is abandoned; hand {moment.number} is dealt by the same "
        "dealer (R18)"
    )


@online.command("stop")
@click.argument("match")
@click.option("--by", required=True, type=WHO, help="who decides (referee, organiser)")
@click.option("--why", "why", required=True, type=WHY, help="why, e.g. the screens failed")
@tournament_option
@actor_option
@cli_errors
def online_stop(match: str, by: str, why: str, tournament_id: str | None, actor: str) -> None:
    """Stop online play of MATCH: a hand in play is abandoned, the rest is entered from paper."""
    tid = tournament_id_of(tournament_id)
    mid = _match_id(tid, match)
    play().stop(tid, mid, by=by, reason=why, metadata=event_meta(), actor=actor)
    click.echo(
        f"online play of match {mid} is stopped: enter the rest from the scoresheet "
        f"(`tournament results enter {mid} ...`)"
    )


@online.command("release")
@click.argument("match")
@click.option("--seat", required=True, type=click.IntRange(0, 1), help="the seat: 0 or 1")
@click.option("--by", required=True, type=WHO, help="who decides (referee, organiser)")
@tournament_option
@actor_option
@cli_errors
def online_release(match: str, seat: int, by: str, tournament_id: str | None, actor: str) -> None:
    """Release SEAT of MATCH whose phone is gone: the next phone that opens the seat's
    code takes it, and sees its cards of the hand in play (T-online): taken again, the
    seat is flagged and the other seat is told who released it. The clock goes on."""
    tid = tournament_id_of(tournament_id)
    mid = _match_id(tid, match)
    play().release_seat(tid, mid, seat, by=by, metadata=event_meta(), actor=actor)
    click.echo(f"seat {seat} of match {mid} is free: the next phone that opens its code takes it")

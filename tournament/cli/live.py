"""``tournament live``: deal and play hands action by action through the rules engine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click

from tournament.cli import main
from tournament.cli.common import (
    SEED,
    WHO,
    WHY,
    actor_option,
    cli_errors,
    event_meta,
    get_service,
    run_command,
    tournament_id_of,
    tournament_option,
)
from tournament.cli.describe import match_standing
from tournament.domain.commands.csvio import (
    resolve_match,
)
from tournament.domain.model import events as ev
from tournament.domain.model.state import Tournament


@main.group()
def live() -> None:
    """Play hands live, action by action, through the rules engine."""


@live.command("deal")
@click.argument("match")
@click.option("--seed", type=SEED, help="shuffle seed [default: random]")
@tournament_option
@actor_option
@cli_errors
def live_deal(match: str, seed: int | None, tournament_id: str | None, actor: str) -> None:
    """Deal MATCH's next hand; prints the hand's id for `live play`."""
    from tournament.domain.commands.live import deal_live_hand
    from tournament.eventstore import NO_STREAM

    tid = tournament_id_of(tournament_id)
    service = get_service()
    t = service.state(tid)
    stream, hand, started = deal_live_hand(t, resolve_match(t, match), seed=seed, actor=actor)
    service.store.append(stream, ev.stamped(hand, event_meta()), expected_version=NO_STREAM)

    def start(now: Tournament) -> list[Any]:
        # Checked again on the state we append to: a deal at the next table's terminal
        # meanwhile must not make two hands at once (the unused hand stream stays orphaned).
        deal_live_hand(now, started[0].payload["match_id"], seed=seed, actor=actor)
        return started

    service.execute(tid, start, metadata=event_meta())
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
@click.option("--by", required=True, type=WHO, help="who decides (referee, organiser)")
@click.option("--why", "why", required=True, type=WHY, help="why, e.g. misdeal")
@tournament_option
@actor_option
@cli_errors
def live_abandon(
    hand_stream: str, by: str, why: str, tournament_id: str | None, actor: str
) -> None:
    """Abandon a live hand that is not over: it never counts; the same dealer deals again."""
    from tournament.domain.commands.live import abandon_live_hand

    stored = run_command(
        tournament_id, lambda t: abandon_live_hand(t, hand_stream, by=by, reason=why, actor=actor)
    )
    click.echo(f"abandoned {hand_stream} (match {stored[0].payload['match_id']})")


@live.command("play")
@click.argument("hand_stream")
@click.argument("actions", nargs=-1, required=True)
@tournament_option
@actor_option
@cli_errors
def live_play(
    hand_stream: str, actions: Sequence[str], tournament_id: str | None, actor: str
) -> None:
    """Play ACTIONS (record notation: 1:AH, 0:KS+marriage, 1:close, 0:claim) in a live hand."""
    from engine import Action, EngineError
    from engine.views import spectator_view
    from tournament.cli.live_view import status_line
    from tournament.domain.commands.live import playable, record_live_hand
    from tournament.domain.model.hands import action_event, fold_hand

    tid = tournament_id_of(tournament_id)
    service = get_service()
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
        new.append(action_event(action, {"source": ev.LIVE, "actor": actor, **event_meta()}))
    service.store.append(hand_stream, new, expected_version=events[-1].version if events else 0)
    service.execute(
        tid,
        lambda t: record_live_hand(
            t, hand_stream, service.store.read_stream(hand_stream), actor=actor
        ),
        metadata=event_meta(),
    )
    outcome = state.outcome()
    t = service.state(tid)
    m = t.matches[t.live_hands[hand_stream]]
    who = _seat_namer(m)
    if outcome.complete:
        click.echo(
            f"hand over: {who(outcome.winner or 0)} wins {outcome.game_points} ({outcome.reason}); "
            f"match {m.match_id}: {match_standing(t, m.match_id)}"
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
@cli_errors
def live_show(hand_stream: str, seat: int | None, tournament_id: str | None) -> None:
    """Show a live hand: without --seat the table as a spectator sees it (no hidden card);
    with --seat N that player's view, with their cards and legal actions (`live play`
    notation)."""
    from engine.views import player_view, spectator_view
    from tournament.cli.live_view import player_lines, spectator_lines
    from tournament.domain.commands.live import live_match
    from tournament.domain.model.hands import fold_hand

    tid = tournament_id_of(tournament_id)
    service = get_service()
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

"""``tournament results``: enter, import, show, correct, strike and sign results.

tournament results enter 1.3 --winner 7 --points 2 --dealer 12
tournament results enter 1.3 --tally "7 5 4 1 0 / 7 6 3"
tournament results import results.csv
tournament results correct a1b2c3 --points 3 --by referee --why "sheet misread"
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from tournament.cli import main
from tournament.cli.common import (
    CSV_FILE,
    actor_option,
    card_points_option,
    cli_errors,
    entered_when,
    event_meta,
    get_service,
    import_csv_file,
    parse_card_points,
    run_command,
    tournament_id_of,
    tournament_option,
)
from tournament.cli.describe import match_standing
from tournament.domain import commands as c
from tournament.domain import events as ev
from tournament.domain.csvio import (
    import_results,
    resolve_match,
)
from tournament.domain.errors import DomainError
from tournament.domain.handpoints import PAPER_REASONS as REASONS
from tournament.domain.matchstate import Entry
from tournament.domain.preview import preview
from tournament.domain.results import absent_warning, check_not_repeated
from tournament.domain.state import Tournament
from tournament.domain.tally import tally_text


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
@click.option(
    "--again", is_flag=True, help="another hand or Bummerl exactly like the match's last entry"
)
@tournament_option
@actor_option
@cli_errors
def results_enter(
    match: str, winner: int | None, points: int | None, dealer: int | None, reason: str | None,
    closed: bool, card_points: str | None, tally: str | None, first_dealer: int | None,
    forfeit: str | None,
    scorer: int | None, signed: bool, again: bool, tournament_id: str | None, actor: str,
) -> None:  # fmt: skip
    """Enter a hand, a Bummerl tally or a forfeit for MATCH (round.table, e.g. 2.5)."""
    tid = tournament_id_of(tournament_id)

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
            cp = parse_card_points(card_points)
            events = c.record_hand(
                t, mid, winner=winner, game_points=points, dealer=dealer, reason=reason,
                closed=closed, card_points=cp, first_dealer=first_dealer, scorer=scorer,
                actor=actor,
            )  # fmt: skip
        if not again:  # a retry or a second Enter must not count the hand twice (T-repeat)
            check_not_repeated(t, events, entered_when(tid))
        if signed:
            for pid in t.matches[mid].players:
                events += c.sign_sheet(t, mid, pid, actor=actor, new=events)
        return events

    stored = run_command(tid, command)
    t = get_service().state(tid)
    result = next(e for e in stored if "result_id" in e.payload)
    m = t.matches[result.payload["match_id"]]
    click.echo(
        f"recorded {result.payload['result_id']} in match {m.match_id}: "
        f"{match_standing(t, m.match_id)}"
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


@results.command("import")
@click.argument("file", type=CSV_FILE)
@tournament_option
@actor_option
@cli_errors
def results_import(file: Path, tournament_id: str | None, actor: str) -> None:
    """Enter every result of a CSV file; all rows or nothing."""
    tid = tournament_id_of(tournament_id)
    stored = import_csv_file(file, tid, import_results, actor)
    _warn_scorers(get_service().state(tid), [e.payload["match_id"] for e in stored])
    click.echo(f"imported {sum(1 for e in stored if 'result_id' in e.payload)} results")


@results.command("show")
@click.argument("match")
@tournament_option
@cli_errors
def results_show(match: str, tournament_id: str | None) -> None:
    """A match at a glance: every result with its id (for `correct` and `strike`), where its
    hands fell, and its history: who entered, corrected or struck what, when and why."""
    tid = tournament_id_of(tournament_id)
    service = get_service()
    t = service.state(tid)
    m = t.matches[resolve_match(t, match)]
    a, b = m.labels
    dealer = "" if m.first_dealer is None else f"; {m.labels[m.first_dealer]} deals first"
    click.echo(f"match {m.match_id} (round {m.round}, table {m.table}): {a} v {b}{dealer}")
    click.echo(f"  {match_standing(t, m.match_id)}")
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
    service = get_service()
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
    service = get_service()
    new = decide(service.state(tid))
    click.echo(f"{what} would change:")
    if not _confirmed(tid, new, yes, preview_only):
        return
    # Decided again inside execute: if somebody wrote meanwhile, it is checked on the newer state.
    service.execute(tid, decide, metadata=event_meta())
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
@cli_errors
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
            ("card_points", parse_card_points(card_points)),
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

    _correction(
        tournament_id_of(tournament_id), decide, yes, preview_only, f"correcting {result_id}"
    )


@results.command("strike")
@click.argument("result_id")
@click.option("--hand", type=int, help="which hand of a tally (required when it holds several)")
@click.option("--by", required=True)
@click.option("--why", "why", required=True)
@click.option("--yes", is_flag=True)
@click.option("--preview", "preview_only", is_flag=True)
@tournament_option
@actor_option
@cli_errors
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
        tournament_id_of(tournament_id),
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
@cli_errors
def results_sign(match: str, player_id: int, tournament_id: str | None, actor: str) -> None:
    """A player signs the match's finished scoresheet (refused before it is decided)."""
    run_command(
        tournament_id, lambda t: c.sign_sheet(t, resolve_match(t, match), player_id, actor=actor)
    )
    click.echo("signed")


@results.command("clear-flag")
@click.argument("match")
@tournament_option
@actor_option
@cli_errors
def results_clear_flag(match: str, tournament_id: str | None, actor: str) -> None:
    """The organiser has dealt with a flagged match."""
    run_command(tournament_id, lambda t: c.clear_flag(t, resolve_match(t, match), actor=actor))
    click.echo("flag cleared")

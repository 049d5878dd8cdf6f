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
from tournament.cli.columns import counted
from tournament.cli.common import (
    CSV_FILE,
    WHO,
    WHOLE,
    WHY,
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
    when,
)
from tournament.cli.describe import match_standing
from tournament.cli.result_options import refuse_preview_with_yes
from tournament.cli.resultwords import history as history_of
from tournament.cli.resultwords import print_conflicts, print_open, void_in, what
from tournament.domain import commands as c
from tournament.domain.commands.correcting import (
    CORRECT_OPTIONS,
    Correction,
    correction_command,
    refuse_correction_mix,
)
from tournament.domain.commands.csvio import (
    forfeit_winner,
    import_results,
    resolve_match,
)
from tournament.domain.commands.entry import OPTIONS, Hand, ResultEntry, entry_command, refuse_mixed
from tournament.domain.model.errors import DomainError
from tournament.domain.model.handpoints import PAPER_REASONS as REASONS
from tournament.domain.model.state import Tournament
from tournament.domain.views.notices import absent_warning
from tournament.domain.views.preview import preview


@main.group()
def results() -> None:
    """Enter, import, correct and strike results."""


@results.command("enter")
@click.argument("match")
@click.option("--winner", type=WHOLE, help="a hand: its winner (start number)")
@click.option("--points", type=WHOLE, help="a hand: its game points, 1, 2 or 3 (R13-R16)")
@click.option(
    "--dealer", type=WHOLE, help="a hand: who dealt it (checked: the deal alternates, R18)"
)
@click.option(
    "--reason",
    type=click.Choice(REASONS),
    help="a hand: why it ended (R13-R16); 'closed' = claim with --closed",
)
@click.option("--closed", is_flag=True, help="a hand: the talon was closed (R14)")
@card_points_option
@click.option(
    "--tally",
    "tallies",
    multiple=True,
    help="a whole Bummerl as the sheet tallies it: '7 5 4 1 0 / 7 6 3' (players in pairing "
    "order); repeat it for the sheet's Bummerl in order (1, 2, 3): one action, all or nothing",
)
@click.option(
    "--first-dealer", type=WHOLE, help="who dealt first in the match, when the draw did not say"
)
@click.option(
    "--forfeit",
    help="the match is forfeited (no-show): the winner's start number, or 'both' when both "
    "are absent; nothing else goes with it",
)
@click.option("--scorer", type=WHOLE, help="who kept the sheet (a player of the match)")
@click.option(
    "--signed",
    is_flag=True,
    help="both players signed the sheet: only with the entry that decides the match "
    "(a best of 3 in one go: --tally ... --tally ... --signed); not with a forfeit",
)
@click.option(
    "--again",
    is_flag=True,
    help="another hand or Bummerl exactly like the match's last entry (without it, an entry "
    "repeating the last one is refused as a retry: T-repeat)",
)
@tournament_option
@actor_option
@cli_errors
def results_enter(
    match: str, winner: int | None, points: int | None, dealer: int | None, reason: str | None,
    closed: bool, card_points: str | None, tallies: tuple[str, ...], first_dealer: int | None,
    forfeit: str | None,
    scorer: int | None, signed: bool, again: bool, tournament_id: str | None, actor: str,
) -> None:  # fmt: skip
    """Enter a hand (--winner, --points), the sheet's Bummerl tallies (--tally, repeated) or
    a forfeit (--forfeit) for MATCH (round.table as printed, e.g. 2.5, or a bracket id)."""
    hand = {
        "--winner": winner is not None, "--points": points is not None,
        "--dealer": dealer is not None, "--reason": reason is not None, "--closed": closed,
        "--card-points": card_points is not None,
    }  # fmt: skip
    given = [name for name, on in hand.items() if on]
    # Checked before any option's text is read: a mix is named before a typo in an option
    # that would be dropped anyway (entry_command checks it again, for every caller).
    refuse_mixed(
        given, bool(tallies), forfeit, first_dealer=first_dealer, scorer=scorer, signed=signed
    )
    if forfeit is not None:
        forfeit_winner(forfeit)  # read before the tournament is looked up, as ever
    cp = parse_card_points(card_points)
    tid = tournament_id_of(tournament_id)
    hands = (Hand(winner, points, dealer, reason, closed, cp),) if given else ()
    entry = ResultEntry(
        match, hands, tallies, forfeit, first_dealer, scorer, signed=signed, again=again
    )
    command = entry_command(entry, actor=actor, entered_when=entered_when(tid), spelling=OPTIONS)
    stored = run_command(tid, command)
    t = get_service().state(tid)
    results = [e.payload["result_id"] for e in stored if "result_id" in e.payload]
    m = t.matches[next(e.payload["match_id"] for e in stored if "result_id" in e.payload)]
    what = f"recorded {results[0]}" if len(results) == 1 else (
        f"recorded {len(results)} Bummerl ({', '.join(results)})"
    )  # fmt: skip
    click.echo(f"{what} in match {m.match_id}: {match_standing(t, m.match_id)}")
    _warn_scorers(t, [m.match_id])
    for warning in absent_warning(t, [m.match_id]):
        click.echo(f"warning: {warning}", err=True)
    _warn_flagged(t, m, results[-1])


def _warn_flagged(t: Tournament, m: Any, result_id: str) -> None:
    """A result of an earlier round that decided its match after later rounds were drawn:
    say which later matches it flagged (they were drawn on the old result)."""
    flagged = [x.match_id for x in t.matches.values() if x.flags and result_id in x.flags[-1]]
    if flagged:
        click.echo(
            f"warning: match {m.match_id} (round {m.round}) changed after later rounds were "
            f"drawn: flagged {', '.join(flagged)} (see `results show`, then "
            "`results clear-flag`)",
            err=True,
        )


def _warn_scorers(t: Tournament, match_ids: Sequence[str]) -> None:
    from tournament.domain.views.notices import scorer_warning

    for mid in dict.fromkeys(match_ids):
        warning = scorer_warning(t.matches[mid])
        if warning:
            click.echo(f"warning: {warning}", err=True)


@results.command("import")
@click.argument("file", type=CSV_FILE)
@click.option(
    "--only-new",
    is_flag=True,
    help="a sheet imported before and grown since: import only the rows added since",
)
@click.option(
    "--again",
    is_flag=True,
    help="import every row, also those that read as rows imported before (new hands "
    "with the same results)",
)
@tournament_option
@actor_option
@cli_errors
def results_import(
    file: Path, only_new: bool, again: bool, tournament_id: str | None, actor: str
) -> None:
    """Enter every result of a CSV file; all rows or nothing. A file holding rows an
    earlier import stored (the same sheet, grown since) is refused unless --only-new or
    --again says what to do with them (T-repeat)."""
    if only_new and again:
        raise DomainError(
            "options",
            "T-repeat",
            "--only-new (leave out the rows imported before) and --again (import them once "
            "more) exclude each other; nothing stored",
        )
    tid = tournament_id_of(tournament_id)
    earlier = "only_new" if only_new else "again" if again else "refuse"
    stored = import_csv_file(file, tid, import_results, actor, earlier=earlier, when=when)
    _warn_scorers(get_service().state(tid), [e.payload["match_id"] for e in stored])
    count = sum(1 for e in stored if "result_id" in e.payload)
    click.echo(f"imported {count} result{'' if count == 1 else 's'}")


@results.command("missing")
@click.option("--round", "number", type=WHOLE, help="this round [default: the current one]")
@tournament_option
@cli_errors
def results_missing(number: int | None, tournament_id: str | None) -> None:
    """Every match still open in the current round (or --round N), with table, players and
    where it stands; then any match of an earlier round open again after a correction
    (`round start` waits for all of them)."""
    from tournament.domain.standings.progress import open_matches, reopened_note

    t = get_service().state(tournament_id_of(tournament_id))
    if not t.current_round:
        raise click.ClickException("round: no round has been drawn yet (T-round)")
    shown = t.current_round if number is None else number
    if not 1 <= shown <= t.current_round:
        raise click.ClickException(
            f"round: rounds 1 to {t.current_round} are drawn, not {shown} (T-round)"
        )
    missing = open_matches(t, shown)
    total = len(t.rounds[shown - 1].matches)
    if missing:
        click.echo(
            f"round {shown}: {len(missing)} of {counted(total, 'match', 'matches')} still open"
        )
        print_open(t, missing)
        print_conflicts(t, missing)
    elif void := void_in(t, shown):
        click.echo(
            f"round {shown}: nothing open; {total - len(void)} of "
            f"{counted(total, 'match', 'matches')} decided, "
            f"void after a correction: {', '.join(m.match_id for m in void)}"
        )
    else:
        click.echo(
            f"round {shown}: "
            + ("its 1 match" if total == 1 else f"all {total} matches")
            + " decided"
        )
    if number is None:
        earlier = [m for m in open_matches(t) if m.round < shown]
        if earlier:
            click.echo("earlier rounds:")
            print_open(t, earlier)
            for m in earlier:
                click.echo(f"  {reopened_note(t, m)}")
        elif not missing and t.current_round:
            from tournament.domain.standings.pairing import finished

            if finished(t):
                click.echo(
                    "nothing is missing: the tournament is finished (`tournament standings`)"
                )
            else:
                click.echo("nothing is missing: `tournament round start` draws the next round")


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
    history = history_of(service.events(tid), m)
    places = m.hand_places()
    for e in m.entries:
        click.echo(f"  {e.result_id}  {what(m, e.kind, e.payload, places.get(e.result_id, []))}")
        for line in history.get(e.result_id, []):
            click.echo(f"  {'':12}    {line}")
    for pid in sorted(m.signed_by):
        click.echo(f"  signed by {m.label(pid)}")
    for pid, why in m.void_signatures:
        click.echo(f"  signature of {m.label(pid)} VOID: {why}")
    from tournament.domain.views.notices import scorer_warning

    if warning := scorer_warning(m):
        click.echo(f"  WARNING {warning}")
    for problem in m.problems:
        click.echo(f"  PROBLEM {problem}")
    for flag in m.flags:
        click.echo(f"  FLAG {flag}")


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
@click.option("--winner", type=WHOLE, help="a hand: the right winner (start number)")
@click.option("--points", type=WHOLE, help="a hand: the right game points, 1, 2 or 3 (R13-R16)")
@click.option("--dealer", type=WHOLE, help="a hand: who really dealt it (R18)")
@click.option(
    "--reason", "hand_reason", type=click.Choice(REASONS), help="a hand: why it ended (R13-R16)"
)
@click.option(
    "--closed/--not-closed", default=None, help="a hand: whether the talon was closed (R14)"
)
@card_points_option
@click.option("--tally", help="a tally: the whole Bummerl as the sheet really tallies it")
@click.option("--void", is_flag=True, help="the result should not be there at all")
@click.option("--undo", is_flag=True, help="reverse the latest correction of this result")
@click.option("--by", required=True, type=WHO, help="who corrects (referee, organiser)")
@click.option("--why", "why", required=True, type=WHY, help="why, as the log keeps it")
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
    """Replace a result (never edited: a correction event, with who and why), after a
    preview: give what changes (a hand's fields, or --tally), or --void, or --undo."""
    refuse_correction_mix(
        [o for o, v in (("--winner", winner), ("--points", points), ("--dealer", dealer),
                        ("--reason", hand_reason), ("--closed/--not-closed", closed),
                        ("--card-points", card_points)) if v is not None],
        tally is not None, void=void, undo=undo,
    )  # fmt: skip
    refuse_preview_with_yes(yes, preview_only)
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
    decide = correction_command(
        Correction(result_id, changes, void=void, undo=undo),
        by=by,
        why=why,
        actor=actor,
        spelling=CORRECT_OPTIONS,
    )
    tid = tournament_id_of(tournament_id)
    what = f"correcting {_result_label(tid, result_id)}"
    _correction(tid, decide, yes, preview_only, what)


@results.command("strike")
@click.argument("result_id")
@click.option(
    "--hand",
    type=WHOLE,
    help="which hand of a tally, as `results show` numbers them (required when it holds several)",
)
@click.option("--by", required=True, type=WHO, help="who strikes it (referee, organiser)")
@click.option("--why", "why", required=True, type=WHY, help="why, as the log keeps it")
@click.option("--yes", is_flag=True, help="store without asking")
@click.option("--preview", "preview_only", is_flag=True, help="only show what would change")
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
    """Strike a hand a sheet error left unresolved: its game points no longer count (R17),
    it still counts for the deal (R18)."""
    refuse_preview_with_yes(yes, preview_only)
    tid = tournament_id_of(tournament_id)
    _correction(
        tid,
        lambda t: c.strike_hand(t, result_id, hand, by=by, reason=why, actor=actor),
        yes,
        preview_only,
        f"striking hand {hand or 1} of {_result_label(tid, result_id)}",
    )


def _result_label(tid: str, result_id: str) -> str:
    """``result a1b2c3 of match 1.1 (Anna (1) v Berti (2))``, for the preview's head line."""
    t = get_service().state(tid)
    mid = t.result_match.get(result_id)
    if mid is None:
        return f"result {result_id}"
    return f"result {result_id} of match {mid} ({' v '.join(t.matches[mid].labels)})"


@results.command("sign")
@click.argument("match")
@click.argument("player_id", type=WHOLE)
@tournament_option
@actor_option
@cli_errors
def results_sign(match: str, player_id: int, tournament_id: str | None, actor: str) -> None:
    """A player signs the match's finished scoresheet (refused before it is decided)."""
    stored = run_command(
        tournament_id, lambda t: c.sign_sheet(t, resolve_match(t, match), player_id, actor=actor)
    )
    t = get_service().state(tournament_id_of(tournament_id))
    mid = resolve_match(t, match)
    if stored:
        click.echo(f"signed by {t.label(player_id)} (match {mid})")
    else:
        click.echo(f"{t.label(player_id)} has signed match {mid} already; nothing stored")


@results.command("clear-flag")
@click.argument("match")
@tournament_option
@actor_option
@cli_errors
def results_clear_flag(match: str, tournament_id: str | None, actor: str) -> None:
    """The organiser has dealt with a flagged match."""
    stored = run_command(
        tournament_id, lambda t: c.clear_flag(t, resolve_match(t, match), actor=actor)
    )
    if stored:
        click.echo("flag cleared")
    else:
        click.echo(f"match {match.strip()} has no flag (cleared already, or never flagged); "
                   "nothing stored")  # fmt: skip


# ``results correct-sheet`` lives in its own module; importing it registers it here.
from tournament.cli import sheetfix as _sheetfix  # noqa: E402, F401

"""``tournament results correct-sheet``: a match's whole sheet corrected in one step --
its players' columns swapped (``--swap``), or every Bummerl replaced (``--tally`` once
per Bummerl, in order) -- after the same preview as ``results correct``
(:func:`tournament.domain.commands.sheetfix.correct_sheet`: one correction, one flag per later
match, never an interim open match).

tournament results correct-sheet 2.4 --swap --by desk --why "columns swapped"
tournament results correct-sheet 2.4 --tally "7 5 / 7 4 1 0" --tally "7 6 3 / 7 2 0" ...
"""

from __future__ import annotations

import click

from tournament.cli.common import (
    WHO,
    WHY,
    actor_option,
    cli_errors,
    get_service,
    tournament_id_of,
    tournament_option,
)
from tournament.cli.result_options import refuse_preview_with_yes
from tournament.cli.results import _correction, results
from tournament.domain import commands as c
from tournament.domain.commands.matchref import resolve_match
from tournament.domain.model.errors import DomainError


@results.command("correct-sheet")
@click.argument("match")
@click.option("--swap", is_flag=True, help="swap the players' columns of every Bummerl")
@click.option(
    "--tally",
    "tallies",
    multiple=True,
    help="the sheet's Bummerl in order, once each, in the pairing's column order",
)
@click.option("--by", required=True, type=WHO, help="who corrects (referee, organiser)")
@click.option("--why", "why", required=True, type=WHY, help="why, as the log keeps it")
@click.option("--yes", is_flag=True, help="store without asking")
@click.option("--preview", "preview_only", is_flag=True, help="only show what would change")
@tournament_option
@actor_option
@cli_errors
def results_correct_sheet(
    match: str,
    swap: bool,
    tallies: tuple[str, ...],
    by: str,
    why: str,
    yes: bool,
    preview_only: bool,
    tournament_id: str | None,
    actor: str,
) -> None:
    """Correct a match's whole sheet in one correction: --swap, or every Bummerl with
    --tally (a Bummerl fewer than recorded is voided, a further one entered)."""
    if swap == bool(tallies):
        raise DomainError(
            "options",
            "T-correction",
            "give --swap or the sheet's Bummerl with --tally (once per Bummerl), one of them",
        )
    refuse_preview_with_yes(yes, preview_only)
    tid = tournament_id_of(tournament_id)
    mid = resolve_match(get_service().state(tid), match)
    new = None if swap else list(tallies)
    _correction(
        tid,
        lambda t: c.correct_sheet(t, mid, new, by=by, reason=why, actor=actor),
        yes,
        preview_only,
        f"correcting the whole sheet of match {mid}",
    )

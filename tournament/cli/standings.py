"""``tournament standings`` and ``tournament bracket``.

tournament standings [--csv | --json] [--as-of 120] [--category W]
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import click

from tournament.cli import main
from tournament.cli.columns import ljust, rjust, width, wrap
from tournament.cli.common import (
    WHOLE,
    PlainText,
    cli_errors,
    get_service,
    tournament_id_of,
    tournament_option,
)
from tournament.cli.crosstable import print_crosstable, row_label, short_row_label
from tournament.cli.describe import print_bracket
from tournament.cli.sealing import seal_for_print
from tournament.domain.commands.csvio import (
    standings_csv,
    standings_json,
)
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.domain.views.standings_view import standings_view


@main.command()
@click.option("--csv", "as_csv", is_flag=True, help="CSV (docs/csv-formats.md)")
@click.option("--excel", is_flag=True, help="with --csv: for Excel (BOM, ';', decimal comma)")
@click.option("--json", "as_json", is_flag=True, help="JSON")
@click.option(
    "--crosstable",
    is_flag=True,
    help="the progress table: per round each player's opponent and result (12+, 12-, bye)",
)
@click.option("--as-of", type=WHOLE, help="as after event N (see `tournament log`)")
@click.option(
    "--round",
    "round_",
    type=WHOLE,
    help="as at the end of round N: before round N+1 was drawn (now, if it is not drawn)",
)
@click.option("--category", type=PlainText(what="a category"), help="only this category, e.g. W")
@click.option("--group", type=WHOLE, help="only this group of a group format (1, 2, ...)")
@click.option(
    "-o",
    "--output",
    type=click.File("w", encoding="utf-8"),
    help="write to this file [default: the terminal]",
)
@tournament_option
@cli_errors
def standings(
    as_csv: bool,
    excel: bool,
    as_json: bool,
    crosstable: bool,
    as_of: int | None,
    round_: int | None,
    category: str | None,
    group: int | None,
    output: Any,
    tournament_id: str | None,
) -> None:
    """The standings now, at the end of a round, or as of a past event; one table per group
    in group formats, then the bracket in groups -> knockout. The heading says what they
    are: before round 1 (the players in seed order), during a round, or after it."""
    if excel and not as_csv:
        raise click.ClickException("excel: --excel goes with --csv (standings --csv --excel)")
    if round_ is not None and as_of is not None:
        raise click.ClickException("round: give --round or --as-of, not both")
    if as_csv and as_json:
        raise click.ClickException("csv: give --csv or --json, not both")
    if crosstable and (as_csv or as_json):
        raise click.ClickException("crosstable: it is a printout; --csv and --json have the data")
    output = output or sys.stdout  # the terminal, quiet once a pipe's reader has gone
    tid = tournament_id_of(tournament_id)
    service = get_service()
    now = service.state(tid)
    printout = not (as_csv or as_json)
    with _asked():
        view = standings_view(
            now,
            lambda: service.events(tid),
            as_of=as_of,
            round=round_,
            group=group,
            category=category,
            per_group=printout and group is None,
        )
    t, rows, note = view.state, view.rows, view.note
    if group is None and len(view.groups) > 1 and printout:
        seal = seal_for_print(f"standings of {tid} printed")
        _print_groups(t, view.group_rows, category, output, note)
        seal.echo(output)
        return
    seal = seal_for_print(f"standings of {tid} printed")  # after reading, before a line
    if as_csv:
        output.write(standings_csv(rows, excel=excel, seal=seal.short or ""))
        return
    if as_json:
        meta = {"tournament": tid, "as_of": t.version, "category": category, "seal": seal.short}
        output.write(standings_json(rows, **meta) + "\n")
        return
    _print_standings(t, rows, group, category, crosstable, output, note)
    seal.echo(output)


@contextlib.contextmanager
def _asked() -> Iterator[None]:
    """A refused --as-of, --round, --group or --category, named by its option."""
    try:
        yield
    except DomainError as error:
        raise click.ClickException(f"{error.field.replace('_', '-')}: {error.message}") from None


def _print_standings(
    t: Tournament,
    rows: Sequence[Any],
    group: int | None,
    category: str | None,
    crosstable: bool,
    output: Any,
    note: str,
) -> None:
    """The standings as printed: heading, then the start list before round 1, else the
    table (or the progress table) and what its marks mean."""
    _print_heading(t, group, category, output, note)
    if not t.rounds:
        _print_start_list(t, rows, output)
        return
    if crosstable:
        print_crosstable(t, rows, output)
    else:
        _print_table(t, rows, output)
        _print_tiebreak_order(t, output)
    if any(r.status == "absent" for r in rows):
        click.echo(
            "[absent]: registered but never checked in, so never drawn"
            + ("; listed last, not ranked (-)" if any(r.rank is None for r in rows) else ""),
            file=output,
        )


def _print_start_list(t: Tournament, rows: Sequence[Any], output: Any) -> None:
    """Before round 1: seed, player, club, category and rating, in seed order (a player
    not checked in while check-in is in use is marked: the draw leaves them out)."""
    labels = [
        f"{r.name} ({r.player_id})"
        + {"active": "", "absent": " [not checked in]"}.get(r.status, f" [{r.status}]")
        for r in rows
    ]
    wide = max([len("player"), *map(width, labels)])
    clubs = max([len("club"), *(width(r.club) for r in rows)])
    click.echo(
        f"{'seed':>4}  {ljust('player', wide)}  {ljust('club', clubs)}  category  rating",
        file=output,
    )
    for r, label in zip(rows, labels, strict=True):
        rating = t.players[r.player_id].rating
        click.echo(
            f"{r.rank:>4}  {ljust(label, wide)}  {ljust(r.club, clubs)}  "
            f"{ljust(r.category, 8)}  {'' if rating is None else rating:>6}".rstrip(),
            file=output,
        )


def _print_groups(
    t: Tournament, tables: Sequence[Sequence[Any]], category: str | None, output: Any, note: str
) -> None:
    """One table per group (each ranked on its own), then the bracket if there is one."""
    s = t.settings
    assert s is not None
    _print_heading(t, None, category, output, note)
    for number, rows in enumerate(tables, 1):
        click.echo(f"Group {number}", file=output)
        _print_table(t, rows, output)
    _print_tiebreak_order(t, output)
    if s.format == "groups_knockout" and any("seeds" in r.info for r in t.rounds):
        click.echo("Knockout", file=output)
        print_bracket(t, output)


def _print_heading(
    t: Tournament, group: int | None, category: str | None, output: Any, note: str = ""
) -> None:
    """What these standings are: ``after round 2``, ``during round 3: 7 of 19 matches
    decided``, ``before round 1 (in seed order)`` ... and, for ``--round``, when."""
    from tournament.domain.standings.progress import Stage

    s = t.settings
    assert s is not None
    click.echo(
        f"{s.name}: standings {Stage.of(t).heading()} (event {t.version})"
        + (f", group {group}" if group else "")
        + (f", category {category}" if category else ""),
        file=output,
    )
    if note:
        click.echo(f"  ({note})", file=output)


#: The terminal table aims to fit this many columns (an 80-100 column window, A4 portrait).
WIDTH = 100
#: Names are abbreviated to no fewer columns than this before columns are dropped.
NAME_MIN = 20


def _print_table(t: Tournament, rows: Sequence[Any], output: Any) -> None:
    """The standings as a terminal table: one line per player, tie-breaks last. Fits
    :data:`WIDTH` columns where it can: short tie-break headers (named under the table),
    then abbreviated names, then without the game points won:lost column (its difference
    stays when it is a tie-break)."""
    s = t.settings
    assert s is not None
    tbs = [tb for tb in s.tiebreaks if tb != "lot"]
    marked, luck = _luck_marks(rows)
    labels = [row_label(r) for r in rows]
    name_wide = max([len("player"), *map(width, labels)])
    layouts = [(False, True, name_wide), (True, True, name_wide)]
    layouts += [(True, True, max(NAME_MIN, len("player"))), (True, False, len("player"))]
    for short, game_points, least in layouts:
        heads, cells = _columns(t, rows, tbs, short, game_points)
        widths = [
            max([width(h), *(width(c) for c in column)])
            for h, column in zip(heads, cells, strict=True)
        ]
        room = WIDTH - 5 - sum(w + 2 for w in widths)  # rank, mark and spaces; each column
        if name_wide <= room or least <= room or not game_points:
            break
    wide = min(name_wide, max(room, least))
    if wide < name_wide:
        labels = [short_row_label(r, wide) for r in rows]
    click.echo(
        f"{'#':>3}  {ljust('player', wide)}"
        + "".join(f"  {rjust(h, w)}" for h, w in zip(heads, widths, strict=True)),
        file=output,
    )
    for i, (r, label) in enumerate(zip(rows, labels, strict=True)):
        click.echo(
            f"{'-' if r.rank is None else r.rank:>3}{'*' if r.player_id in marked else ' '} "
            f"{ljust(label, wide)}"
            + "".join(f"  {rjust(c[i], w)}" for c, w in zip(cells, widths, strict=True)),
            file=output,
        )
    if any(r.final_points is not None for r in rows):
        click.echo(_wrap(FINAL_NOTE), file=output)
    if luck:
        note = f"* tie settled by lot or seed, not by play: {', '.join(luck)} "
        click.echo(_wrap(note + "(decided_by in --csv/--json)"), file=output)
    if short:
        names = ", ".join(
            f"{SHORT_HEADERS[tb]} = {TIEBREAK_HEADERS[tb]}"
            for tb in tbs
            if SHORT_HEADERS[tb] != TIEBREAK_HEADERS[tb]
        )
        if names:
            click.echo(_wrap(f"columns: {names}"), file=output)


#: Under a lives table from the final on: lives and points no longer decide who is ahead.
FINAL_NOTE = "final: points in the final, which rank the finalists first (docs/standings.md)"


def _wrap(text: str) -> str:
    """A note under the table, wrapped to :data:`WIDTH` columns like the table."""
    return wrap(text, WIDTH)


def _columns(
    t: Tournament, rows: Sequence[Any], tbs: Sequence[str], short: bool, game_points: bool
) -> tuple[list[str], list[list[str]]]:
    """The table's columns after the player: headers and one cell per row each."""
    s = t.settings
    assert s is not None
    lives = s.format == "lives"
    bought = lives and bool(s.options.get("buy_back"))
    columns: list[tuple[str, list[str]]] = [
        ("pts", [str(r.points) for r in rows]),
        ("W-L", [f"{r.wins + r.forfeit_wins}-{r.losses}" for r in rows]),
    ]
    if lives:
        columns.append(("lives", [str(r.lives) if r.lives else "out" for r in rows]))
    if any(r.final_points is not None for r in rows):  # what ranks the finalists first
        final = [f"{r.final_points}" if r.final_points is not None else "" for r in rows]
        columns.append(("final", final))
    if bought:
        columns.append(("bought", [str(r.lives_bought) for r in rows]))
    columns.append(("Bummerl", [f"{r.bummerl_won}:{r.bummerl_lost}" for r in rows]))
    if game_points:
        columns.append(("game pts", [f"{r.gp_won}:{r.gp_lost}" for r in rows]))
    headers = SHORT_HEADERS if short else TIEBREAK_HEADERS
    columns += [(headers[tb], [_number(r.tiebreaks.get(tb)) for r in rows]) for tb in tbs]
    return [h for h, _ in columns], [c for _, c in columns]


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
#: Shorter headers, for a table that would not fit :data:`WIDTH` columns otherwise.
SHORT_HEADERS = {
    "bummerl_diff": "B+/-",
    "game_point_diff": "GP+/-",
    "game_points": "GP won",
    "direct_encounter": "H2H",
    "buchholz": "Buchh",
    "buchholz_cut1": "Buchh-1",
    "median_buchholz": "med.Buchh",
    "sonneborn_berger": "S-B",
    "wins": "wins",
    "schneider": "Schn",
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
@cli_errors
def bracket(tournament_id: str | None) -> None:
    """The knockout bracket as it stands; before round 1, the draw the seeding gives."""
    from tournament.domain.standings.pairing import bracket_of
    from tournament.domain.standings.progress import bracket_preview
    from tournament.domain.views.bracket_sheet import no_bracket

    tid = tournament_id_of(tournament_id)
    t = get_service().state(tid)
    drawn = bracket_of(t) is not None
    preview = None if drawn else bracket_preview(t)
    if not drawn and preview is None:
        raise click.ClickException(f"bracket: {no_bracket(t)} (T-format)")
    seal = seal_for_print(f"bracket of {tid} printed")
    if preview is not None:
        click.echo(
            "Draw preview from today's seeding and check-ins: nothing is drawn yet; "
            "`tournament round start` draws round 1 from them"
        )
    print_bracket(t, None, preview=preview)
    seal.echo()

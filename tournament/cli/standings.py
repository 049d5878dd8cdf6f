"""``tournament standings`` and ``tournament bracket``.

tournament standings [--csv | --json] [--as-of 120] [--category W]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from tournament.cli import main
from tournament.cli.columns import ljust, width
from tournament.cli.common import (
    WHOLE,
    PlainText,
    cli_errors,
    get_service,
    tournament_id_of,
    tournament_option,
)
from tournament.cli.describe import print_bracket, tournament_groups
from tournament.domain import events as ev
from tournament.domain.csvio import (
    standings_csv,
    standings_json,
)
from tournament.domain.pairing import lives_left, places
from tournament.domain.standings import standings as compute_standings
from tournament.domain.state import Tournament


@main.command()
@click.option("--csv", "as_csv", is_flag=True, help="CSV (docs/csv-formats.md)")
@click.option("--excel", is_flag=True, help="with --csv: for Excel (BOM, ';', decimal comma)")
@click.option("--json", "as_json", is_flag=True, help="JSON")
@click.option("--as-of", type=WHOLE, help="as after event N (see `tournament log`)")
@click.option("--category", type=PlainText(what="a category"), help="only this category, e.g. W")
@click.option("--group", type=WHOLE, help="only this group of a group format (1, 2, ...)")
@click.option(
    "-o",
    "--output",
    type=click.File("w", encoding="utf-8"),
    default="-",
    help="write to this file [default: the terminal]",
)
@tournament_option
@cli_errors
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
    if as_csv and as_json:
        raise click.ClickException("csv: give --csv or --json, not both")
    tid = tournament_id_of(tournament_id)
    t = get_service().state(tid, as_of=_as_of(tid, as_of))
    groups = tournament_groups(t)
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
    latest = get_service().state(tid).version
    if not 1 <= as_of <= latest:
        raise click.ClickException(
            f"as-of: tournament {tid} has events 1 to {latest} (see `tournament log`), not {as_of}"
        )
    return as_of


def _group_stage(tid: str, t: Tournament) -> Tournament:
    """The tournament as the group stage left it: in groups -> knockout, the state before
    the first knockout round, so knockout matches do not count in the group tables."""
    first_ko = next((r.number for r in t.rounds if "seeds" in r.info), None)
    if first_ko is None:
        return t
    service = get_service()
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
        print_bracket(t, output)


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
@cli_errors
def bracket(tournament_id: str | None) -> None:
    """The knockout bracket as it stands."""
    from tournament.domain.pairing import bracket_of

    t = get_service().state(tournament_id_of(tournament_id))
    if bracket_of(t) is None:
        raise click.ClickException("bracket: this tournament has no knockout bracket yet (T-round)")
    print_bracket(t, None)

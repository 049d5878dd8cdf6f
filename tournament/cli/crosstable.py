"""The progress table (``standings --crosstable``) and the players' labels it shares with
the standings table: name, start number and a status mark (``[withdrawn]``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from tournament.cli.columns import abbreviate, ljust, width
from tournament.domain.model.state import Tournament


def row_label(r: Any) -> str:
    """A row's label: name, start number and any status but active (`[withdrawn]`)."""
    return f"{r.name} ({r.player_id})" + ("" if r.status == "active" else f" [{r.status}]")


def short_row_label(r: Any, columns: int) -> str:
    """A row's label in ``columns``: the name abbreviated, the start number and status kept."""
    tail = f" ({r.player_id})" + ("" if r.status == "active" else f" [{r.status}]")
    return abbreviate(r.name, max(6, columns - width(tail))) + tail


def print_crosstable(t: Tournament, rows: Sequence[Any], output: Any) -> None:
    """The progress table (Fortschrittstabelle): per player in standings order, each round's
    opponent and result, then the match points. Names are shortened to keep 100 columns."""
    from tournament.domain.views.history import (
        LATE_BYE_LEGEND,
        LEGEND,
        VOID_LEGEND,
        cell,
        player_rounds,
    )

    lines = {r.player_id: player_rounds(t, r.player_id) for r in rows}
    cells = {pid: [cell(line) for line in rounds] for pid, rounds in lines.items()}
    wide = max([3, *(len(c) for line in cells.values() for c in line)])
    rounds = len(t.rounds)
    room = 100 - 4 - 2 - rounds * (wide + 2) - 5
    labels = [row_label(r) for r in rows]  # [withdrawn] as in the plain standings
    names = max(12, min(max(map(width, labels), default=6), room))
    heads = "".join(f"  {'R' + str(n):>{wide}}" for n in range(1, rounds + 1))
    click.echo(f"{'#':>3}  {ljust('player', names)}{heads}  {'pts':>3}", file=output)
    for r, label in zip(rows, labels, strict=True):
        if width(label) > names:
            label = short_row_label(r, names)
        line = "".join(f"  {c:>{wide}}" for c in cells[r.player_id])
        rank = "-" if r.rank is None else r.rank  # never played: listed, not ranked
        click.echo(f"{rank:>3}  {ljust(label, names)}{line}  {r.points:>3}", file=output)
    click.echo(LEGEND, file=output)
    if any("bye*" in line for line in cells.values()):
        click.echo(LATE_BYE_LEGEND, file=output)
    if any(line.void for rounds in lines.values() for line in rounds):
        click.echo(VOID_LEGEND, file=output)

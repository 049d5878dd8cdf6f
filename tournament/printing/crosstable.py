"""The crosstable print pack: who played whom with what result.

A round robin (each group of a group format) is the classic players x players matrix in
standings order, each cell the row player's result against the column player. Other
formats (Swiss and the rest) pair few of all possible opponents, so a matrix would be
mostly empty: they get the progress table (Fortschrittstabelle), each round's opponent
and result per player, as ``tournament standings --crosstable`` prints it. The cells are
the domain's (:func:`tournament.domain.views.history.cell`), as is the standings order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from tournament.domain.model.state import Tournament
from tournament.domain.standings import Row
from tournament.domain.views.history import RoundLine, cell, player_rounds
from tournament.domain.views.standings_view import Events, standings_view

MATRIX_FORMATS = ("round_robin", "groups_knockout")
#: The matrix cell of a player against themselves (greyed out).
SELF = "\u25a0"


@dataclasses.dataclass(frozen=True, slots=True)
class CrossRow:
    rank: int | None  # None: never played, listed last without a rank
    start: int
    name: str
    club: str
    withdrawn: bool
    points: int
    cells: tuple[str, ...]  # matrix: one per column player; progress: one per round


@dataclasses.dataclass(frozen=True)
class CrossTable:
    #: The group it shows (1, 2 ...; the page says "Group 2" in its language), or 0 for
    #: the one table.
    group: int
    matrix: bool
    heads: tuple[str, ...]  # matrix: the column players' ranks; progress: R1, R2 ...
    rows: tuple[CrossRow, ...]


def crosstables(t: Tournament, events: Events) -> list[CrossTable]:
    """The tournament's crosstables now: one per group of a round robin, else one."""
    assert t.settings is not None
    view = standings_view(t, events, per_group=True)
    if t.settings.format in MATRIX_FORMATS:
        groups = view.group_rows or [view.rows]
        titled = len(groups) > 1
        return [matrix(t, rows, n if titled else 0) for n, rows in enumerate(groups, 1)]
    return [progress(t, view.rows)]


def matrix(t: Tournament, rows: Sequence[Row], group: int = 0) -> CrossTable:
    """Players x players: the cell of row A and column B is A's result against B (won
    ``+``, lost ``-``, ``k`` not played, ``?`` open, ``x`` dropped) with the Bummerl
    score, every game between them when they met more than once; the diagonal is empty."""
    out = []
    for r in rows:
        against: dict[int, list[str]] = {}
        for line in player_rounds(t, r.player_id):
            if line.opponent is not None:
                against.setdefault(line.opponent, []).append(_result(line))
        cells = tuple(
            SELF if other.player_id == r.player_id else " ".join(against.get(other.player_id, []))
            for other in rows
        )
        out.append(_row(r, cells))
    return CrossTable(group, True, tuple(_rank(r) for r in rows), tuple(out))


def progress(t: Tournament, rows: Sequence[Row]) -> CrossTable:
    """Per player in standings order, each round's opponent (start number) and result."""
    out = [_row(r, tuple(cell(line) for line in player_rounds(t, r.player_id))) for r in rows]
    heads = tuple(f"R{n}" for n in range(1, len(t.rounds) + 1))
    return CrossTable(0, False, heads, tuple(out))


def _result(line: RoundLine) -> str:
    """A matrix cell's entry: the progress cell without the opponent (the column says
    who), and the Bummerl score of a game played to its end."""
    mark = cell(line)[len(str(line.opponent)) :]
    m = line.match
    if m is None or line.outcome not in ("won", "lost") or m.summary.forfeit:
        return mark
    won = m.summary.bummerl
    return f"{mark}{won[line.seat]}:{won[1 - line.seat]}"


def _rank(r: Row) -> str:
    """The rank as a column heads it; ``–`` for a player who never played (unranked)."""
    return "–" if r.rank is None else str(r.rank)


def _row(r: Row, cells: tuple[str, ...]) -> CrossRow:
    return CrossRow(r.rank, r.player_id, r.name, r.club, r.status == "withdrawn", r.points, cells)

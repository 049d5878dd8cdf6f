"""Standings as CSV (for Excel too) and JSON: formats in docs/csv-formats.md. Cells that a
spreadsheet would run as a formula are neutralised (trial 2, F4)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from typing import Any, Final

from tournament.domain.standings import Row

STANDINGS_COLUMNS = (
    "rank", "player_id", "name", "club", "category", "status", "points", "played", "wins",
    "forfeit_wins", "losses", "byes", "bummerl_won", "bummerl_lost", "bummerl_diff", "gp_won",
    "gp_lost", "gp_diff", "schneider",
)  # fmt: skip


def _flat(row: Row) -> dict[str, Any]:
    data = row.to_json()
    tiebreaks = data.pop("tiebreaks")
    data.pop("place", None)
    if data["lives"] is None:  # columns of the lives format only
        for key in ("lives", "lives_bought", "final_points"):
            del data[key]
    data["bummerl_diff"] = row.bummerl_won - row.bummerl_lost
    data["gp_diff"] = row.gp_won - row.gp_lost
    for name, value in tiebreaks.items():
        data[f"tb_{name}"] = value
    return data


def standings_csv(rows: Iterable[Row], *, excel: bool = False, seal: str | None = None) -> str:
    """Standings as CSV: the fixed columns, ``lives``, ``lives_bought`` and
    ``final_points`` (empty but for the finalists) in the lives format, then one
    ``tb_<name>`` column per tie-break, then with ``seal`` a column ``seal``: the short
    form of the log's seal the export carries, the same on every row, so that sorting or
    filtering the rows keeps it (``""``: the log has none, an empty column). ``excel``: as
    Excel in an Austrian or German locale opens it by double-click: a byte order mark (so
    it reads UTF-8, not cp1252), ``;`` between fields and a decimal comma (a Buchholz of
    4.5)."""
    return flat_standings_csv([_flat(r) for r in rows], excel=excel, seal=seal)


def flat_standings_csv(
    rows: Sequence[dict[str, Any]], *, excel: bool = False, seal: str | None = None
) -> str:
    """:func:`standings_csv` of rows already flat (:func:`standings_document`'s rows, as
    the standings projection keeps them)."""
    flat = [dict(r) for r in rows]
    extra = [k for k in (flat[0] if flat else {}) if k not in STANDINGS_COLUMNS]
    if seal is not None:
        extra.append("seal")
        for r in flat:
            r["seal"] = seal
    out = io.StringIO()
    writer = csv.DictWriter(
        out,
        [*STANDINGS_COLUMNS, *extra],
        extrasaction="ignore",
        lineterminator="\n",  # Excel reads LF; the output file's text mode adds CR on Windows
        delimiter=";" if excel else ",",
    )
    writer.writeheader()
    number = _excel_number if excel else _same
    writer.writerows([{k: number(neutral(v)) for k, v in r.items()} for r in flat])
    return ("\ufeff" if excel else "") + out.getvalue()


#: How a spreadsheet cell starts when the spreadsheet would run it as a formula (OWASP,
#: "CSV injection"): ``=HYPERLINK(...)`` in a name leaks the sheet at a double-click.
FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")


def neutral(value: Any) -> Any:
    """A text cell that a spreadsheet would read as a formula, with ``'`` before it (shown
    as text instead of run); numbers stay numbers, so a Bummerl difference of -3 is still
    the number -3.

    >>> neutral("=1+2"), neutral("@SUM(A1)"), neutral("-Anna"), neutral(-3), neutral("Anna")
    ("'=1+2", "'@SUM(A1)", "'-Anna", -3, 'Anna')
    """
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _same(value: Any) -> Any:
    return value


def _excel_number(value: Any) -> Any:
    """A number as Excel with a German locale reads it: ``4,5``; whole floats as ``4``."""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value).replace(".", ",")
    return value


def standings_document(rows: Iterable[Row], **meta: Any) -> dict[str, Any]:
    """Standings as one JSON object: ``{"tournament": ..., "as_of": ..., "rows": [...]}``,
    the rows as the CSV's columns (``tb_<name>`` per tie-break)."""
    return {**meta, "rows": [_flat(r) for r in rows]}


def standings_json(rows: Iterable[Row], **meta: Any) -> str:
    """Standings as one JSON document (:func:`standings_document`), as ``tournament
    standings --json`` prints it."""
    return json.dumps(standings_document(rows, **meta), ensure_ascii=False, indent=1)

"""A results sheet imported again: the rows whose results are stored already (T-repeat).

The very same file twice is refused by the store's idempotency key (see
:func:`tournament.cli.common.import_csv_file`). A sheet that has grown since, a sheet of
one table after the sheet of the whole round, or a sheet holding hands typed in at the
desk before is another file; imported whole, it would store those results a second
time. A scoresheet lists a match's results from its first hand, so per match the file's
rows are read against the match's stored results in order (whatever entered them: an
import, ``results enter``): the rows that read the same from the first on are stored
already; a row after them where a stored result stands but reading otherwise was mended
on the sheet (a correction, not a new hand); the rows after all stored results are new.
A sheet none of whose matches starts with its stored results is read as going on from
them (later hands on a sheet of their own): all its rows are new.

    >>> stored = {"1.1": [Stored("r1", "a"), Stored("r2", "b")], "1.2": [Stored("r3", "c")]}
    >>> rows = [NewRow(2, "1.1", "a"), NewRow(3, "1.1", "b"), NewRow(4, "1.2", "c"),
    ...         NewRow(5, "1.1", "d"), NewRow(6, "1.3", "e")]
    >>> found = compare(stored, rows)
    >>> found.stored, found.mended, found.new
    ([2, 3, 4], [], [5, 6])
    >>> compare(stored, [NewRow(2, "1.1", "a"), NewRow(3, "1.1", "x")]).mended
    [3]
    >>> compare(stored, [NewRow(2, "1.1", "d"), NewRow(3, "1.1", "a")]).new  # goes on
    [2, 3]
    >>> compare(stored, [NewRow(2, "1.1", "a"), NewRow(3, "1.2", "x")]).mended  # over
    [3]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from tournament.domain.model.events import EventLike


@dataclasses.dataclass(frozen=True)
class Stored:
    """A result stored in a match: its id and what it says (kind and content)."""

    result_id: str
    content: str


@dataclasses.dataclass(frozen=True)
class NewRow:
    """A row of the file being imported: its line, its match's id, what it says (None when
    the row cannot be read: it is refused with its line by the import itself)."""

    line: int
    match_id: str
    content: str | None


@dataclasses.dataclass
class Compared:
    """The file's lines: results stored already (with the ids of those results), mended
    (with the ids of the results they would replace), and new."""

    stored: list[int] = dataclasses.field(default_factory=list)
    mended: list[int] = dataclasses.field(default_factory=list)
    new: list[int] = dataclasses.field(default_factory=list)
    results: dict[int, str] = dataclasses.field(default_factory=dict)


def compare(stored: Mapping[str, Sequence[Stored]], rows: Sequence[NewRow]) -> Compared:
    """Each row of the file against its match's stored results, in order (see above)."""
    by_match: dict[str, list[NewRow]] = {}
    for row in rows:
        by_match.setdefault(row.match_id, []).append(row)
    alike: dict[str, int] = {}
    for match_id, mine in by_match.items():
        results = stored.get(match_id, ())
        n = 0
        while (
            n < min(len(mine), len(results))
            and mine[n].content is not None
            and mine[n].content == results[n].content
        ):
            n += 1
        alike[match_id] = n
    # A sheet that starts a match over from its first result (any match reading as stored)
    # starts every match over: a first row that reads otherwise was mended, not a new hand.
    over = any(alike.values())
    out = Compared()
    for match_id, mine in by_match.items():
        results = stored.get(match_id, ())
        if not over:  # later hands on a sheet of their own, or nothing stored
            out.new += [r.line for r in mine]
            continue
        for i, row in enumerate(mine):
            if i < alike[match_id]:
                out.stored.append(row.line)
            elif i < len(results):
                out.mended.append(row.line)
            else:
                out.new.append(row.line)
                continue
            out.results[row.line] = results[i].result_id
    out.stored.sort()
    out.mended.sort()
    out.new.sort()
    return out


class ImportedBefore(Exception):
    """The file holds results stored already: refused at ``line``, saying so."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def not_stored_before(
    events: Sequence[EventLike],
    found: Compared,
    *,
    leave_out: bool,
    when: Callable[[datetime], str] | None = None,
) -> list[int]:
    """The lines to import: all when no row's result is stored already; the new ones with
    ``leave_out``; else :class:`ImportedBefore`, naming the lines and when and how their
    results were stored (``when`` writes a time; default UTC). A mended row is refused
    either way: it is a correction of a stored result, not a new hand."""
    if not found.stored:
        return sorted(found.new)
    said = _how_stored(events, found, found.stored, when or _utc)
    if found.mended:
        mended = found.mended
        ids = ", ".join(found.results[line] for line in mended)
        raise ImportedBefore(
            mended[0],
            f"{_lines(mended, 'reads', 'read')} otherwise than the stored result{_s(mended)} "
            f"{ids} where {'it stands' if len(mended) == 1 else 'they stand'} on the sheet "
            f"({said}): a result mended on the sheet is corrected with `tournament results "
            f"correct {found.results[mended[0]]} ...`, not imported again (T-repeat)",
        )
    if not found.new:
        raise ImportedBefore(found.stored[0], f"every row is stored already: {said} (T-repeat)")
    if leave_out:
        return sorted(found.new)
    raise ImportedBefore(
        found.stored[0],
        f"{said}: the same results of the same matches, in the same order from each match's "
        "first (T-repeat); --only-new imports only the other rows, --again every row (new "
        "hands that read the same as earlier ones)",
    )


def _how_stored(
    events: Sequence[EventLike],
    found: Compared,
    lines: Sequence[int],
    when: Callable[[datetime], str],
) -> str:
    """``lines 2-4 were imported at 21:14 as action 3f2a1b0c (...); line 5 was entered
    at 21:20``: the lines by how their stored results got there."""
    how: dict[str, tuple[str, datetime | None, str]] = {}
    for event in events:
        result_id = event.payload.get("result_id")
        if result_id is not None and result_id not in how:
            meta = event.metadata
            how[str(result_id)] = (
                str(meta.get("source") or ""),
                getattr(event, "recorded_at", None),
                str(meta.get("correlation_id") or "")[:8],
            )
    groups: dict[str, list[int]] = {}
    for line in lines:
        source, at, action = how.get(found.results[line], ("", None, ""))
        time = f" at {when(at)}" if at else ""
        if source == "import" and action:
            key = f"imported{time} as action {action} (`tournament log --action {action}`)"
        else:
            key = f"entered{time}" + (f" ({source})" if source and source != "import" else "")
        groups.setdefault(key, []).append(line)
    return "; ".join(f"{_lines(group)} {key}" for key, group in groups.items())


def line_ranges(lines: Sequence[int]) -> str:
    """``2-4, 7``: line numbers as ranges.

    >>> line_ranges([2, 3, 4, 7, 9, 10])
    '2-4, 7, 9-10'
    """
    parts: list[str] = []
    start = prev = None
    for line in [*sorted(lines), None]:
        if line is not None and prev is not None and line == prev + 1:
            prev = line
            continue
        if start is not None:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = line
    return ", ".join(parts)


def _lines(lines: Sequence[int], one: str = "was", many: str = "were") -> str:
    return f"line {lines[0]} {one}" if len(lines) == 1 else f"lines {line_ranges(lines)} {many}"


def _s(items: Sequence[object]) -> str:
    return "" if len(items) == 1 else "s"


def _utc(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"

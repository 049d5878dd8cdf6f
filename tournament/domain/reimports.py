"""A results sheet imported again after it grew: the rows an earlier import stored.

The very same file twice is refused by the store's idempotency key (see
:func:`tournament.cli.common.import_csv_file`). A sheet that has grown by a row since is
another file; imported whole, it would record every earlier row again. So each imported
row's first event carries the row's digest (metadata ``import_row``), and a new import
looks for the earlier imports whose rows it holds: for a match of such an import, that
import's rows for the match, in their order, right where the new file's rows for the
match continue after what earlier imports already took (a sheet grows at the end of each
match's hands), such matches making at least half the earlier import's rows. The
organiser then imports only the new rows (``--only-new``) or, when the rows really are
new hands that read the same, all of them (``--again``).

    >>> earlier = [EarlierImport("d0f4d957", None, (("1.3", "a"), ("1.3", "b"), ("1.4", "c")))]
    >>> new = [NewRow(2, "1.3", "a"), NewRow(3, "1.3", "b"), NewRow(4, "1.4", "c"),
    ...        NewRow(5, "1.3", "d")]
    >>> [(found.action, lines) for found, lines in held(earlier, new)]
    [('d0f4d957', [2, 3, 4])]
    >>> held(earlier, [NewRow(2, "1.3", "b"), NewRow(3, "1.3", "a"), NewRow(4, "1.4", "c")])
    []
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from tournament.domain.events import EventLike

#: The metadata key of an imported row's digest, on the first event the row made.
ROW_KEY = "import_row"


@dataclasses.dataclass(frozen=True)
class EarlierImport:
    """One earlier import of the tournament: its action (correlation id), when it was
    stored, and its rows in file order as (match id, row digest)."""

    action: str
    at: datetime | None
    rows: tuple[tuple[str, str], ...]


@dataclasses.dataclass(frozen=True)
class NewRow:
    """A row of the file being imported: its line, its match's id, its digest."""

    line: int
    match_id: str
    digest: str


def row_digest(row: Mapping[str, str]) -> str:
    """What a row says apart from its match (named apart, as the match's id), as 16 hex
    digits: the same hand typed again has the same digest."""
    said = {k: v for k, v in row.items() if v and k != "match"}
    text = json.dumps(said, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def earlier_imports(events: Sequence[EventLike]) -> list[EarlierImport]:
    """The tournament's earlier imports that recorded their rows, oldest first."""
    rows: dict[str, list[tuple[str, str]]] = {}
    at: dict[str, datetime | None] = {}
    for event in events:
        digest = event.metadata.get(ROW_KEY)
        if not digest:
            continue
        action = str(event.metadata.get("correlation_id") or "")
        rows.setdefault(action, []).append((str(event.payload.get("match_id")), str(digest)))
        at.setdefault(action, getattr(event, "recorded_at", None))
    return [EarlierImport(action, at[action], tuple(found)) for action, found in rows.items()]


def held(
    earlier: Sequence[EarlierImport], new: Sequence[NewRow]
) -> list[tuple[EarlierImport, list[int]]]:
    """The earlier imports whose rows the new file holds, each with the lines holding
    them. Per match, the new file's rows are read in order: a match of an earlier import
    is held when that import's rows for it come next (after the rows of the imports held
    before it); the import is held when its held matches make at least half its rows
    (a sheet grown by rows, or with one row mended: the rest is imported twice else)."""
    by_match: dict[str, list[NewRow]] = {}
    for row in new:
        by_match.setdefault(row.match_id, []).append(row)
    taken = dict.fromkeys(by_match, 0)  # per match: rows the held imports account for
    out: list[tuple[EarlierImport, list[int]]] = []
    for found in earlier:
        mine: dict[str, list[str]] = {}
        for match_id, digest in found.rows:
            mine.setdefault(match_id, []).append(digest)
        lines: dict[str, list[int]] = {}
        for match_id, digests in mine.items():
            start = taken.get(match_id, 0)
            rows = by_match.get(match_id, [])[start : start + len(digests)]
            if [r.digest for r in rows] == digests:
                lines[match_id] = [r.line for r in rows]
        if 2 * sum(map(len, lines.values())) >= len(found.rows) and lines:
            for match_id, held_lines in lines.items():
                taken[match_id] += len(held_lines)
            out.append((found, sorted(x for held_lines in lines.values() for x in held_lines)))
    return out


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


class ImportedBefore(Exception):
    """The file holds rows an earlier import stored: refused at ``line``, saying so."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def not_imported_before(
    events: Sequence[EventLike],
    rows: Sequence[NewRow],
    *,
    leave_out: bool,
    when: Callable[[datetime], str] | None = None,
) -> set[int]:
    """The lines of ``rows`` to import: all, when no earlier import's rows are among them;
    the others with ``leave_out``; else :class:`ImportedBefore`, naming the lines, when and
    as which action they were imported (``when`` writes the time; default UTC)."""
    found = held(earlier_imports(events), rows)
    every = {r.line for r in rows}
    if not found:
        return every
    lines = {line for _, held_lines in found for line in held_lines}
    if leave_out:
        if not every - lines:
            raise ImportedBefore(min(every), "every row was imported before (T-repeat)")
        return every - lines
    at = when or _utc
    said = "; ".join(
        f"{_lines(held_lines)} imported {'at ' + at(imp.at) if imp.at else 'before'} "
        f"as action {imp.action[:8] or '-'} (`tournament log --action {imp.action[:8]}`)"
        for imp, held_lines in found
    )
    raise ImportedBefore(
        min(lines),
        f"{said}: the same rows of the same matches, in the same order (T-repeat); "
        "--only-new imports only the other rows, --again every row (new hands that read "
        "the same as earlier ones)",
    )


def _lines(lines: Sequence[int]) -> str:
    return f"line {lines[0]} was" if len(lines) == 1 else f"lines {line_ranges(lines)} were"


def _utc(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"

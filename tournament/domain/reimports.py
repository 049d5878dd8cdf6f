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
    >>> [(found.earlier.action, found.lines) for found in held(earlier, new)]
    [('d0f4d957', (2, 3, 4))]
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


@dataclasses.dataclass(frozen=True)
class Held:
    """An earlier import found in the new file: the lines that read as its rows, and
    the lines where one of its rows stood but that read otherwise (a mended row)."""

    earlier: EarlierImport
    lines: tuple[int, ...]
    changed: tuple[int, ...] = ()


def held(earlier: Sequence[EarlierImport], new: Sequence[NewRow]) -> list[Held]:
    """The earlier imports whose rows the new file holds. Per match, the new file's rows
    are read in order: where an earlier import's rows for the match stand (after the rows
    of the imports found before it), as many as read the same from the first on are held,
    the rest changed (once the import is found: the same sheet, mended). The import is
    found when its held rows are at least half of its rows (a sheet grown by rows, or with
    a row mended: the rest would be imported twice)."""
    by_match: dict[str, list[NewRow]] = {}
    for row in new:
        by_match.setdefault(row.match_id, []).append(row)
    taken = dict.fromkeys(by_match, 0)  # per match: rows the imports found account for
    out: list[Held] = []
    for found in earlier:
        mine: dict[str, list[str]] = {}
        for match_id, digest in found.rows:
            mine.setdefault(match_id, []).append(digest)
        same: list[int] = []
        changed: list[int] = []
        window: dict[str, int] = {}
        for match_id, digests in mine.items():
            start = taken.get(match_id, 0)
            rows = by_match.get(match_id, [])[start : start + len(digests)]
            alike = 0
            while alike < len(rows) and rows[alike].digest == digests[alike]:
                alike += 1
            same += [r.line for r in rows[:alike]]
            changed += [r.line for r in rows[alike:]]
            window[match_id] = len(rows)
        if same and 2 * len(same) >= len(found.rows):
            for match_id, width in window.items():
                taken[match_id] = taken.get(match_id, 0) + width
            out.append(Held(found, tuple(sorted(same)), tuple(sorted(changed))))
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
    as which action they were imported (``when`` writes the time; default UTC). A row that
    reads otherwise where an earlier import's row stood (mended in the sheet) is refused
    either way: it is a correction of what was stored, not a new hand."""
    found = held(earlier_imports(events), rows)
    every = {r.line for r in rows}
    if not found:
        return every
    lines = {line for h in found for line in h.lines}
    changed = sorted({line for h in found for line in h.changed})
    at = when or _utc
    said = "; ".join(
        f"{_lines(h.lines)} imported {'at ' + at(h.earlier.at) if h.earlier.at else 'before'} "
        f"as action {h.earlier.action[:8] or '-'} "
        f"(`tournament log --action {h.earlier.action[:8]}`)"
        for h in found
    )
    if changed:
        raise ImportedBefore(
            changed[0],
            f"{_lines(changed, 'reads', 'read')} otherwise than the row{_s(changed)} an earlier "
            f"import stored there ({said}): a result mended on the sheet is corrected with "
            "`tournament results correct RESULT ...` (`results show MATCH` lists its results), "
            "not imported again (T-repeat)",
        )
    new = every - lines
    if leave_out:
        if not new:
            raise ImportedBefore(min(every), f"every row was imported before: {said} (T-repeat)")
        return new
    if not new:
        raise ImportedBefore(
            min(lines), f"every row of this sheet was imported before: {said} (T-repeat)"
        )
    raise ImportedBefore(
        min(lines),
        f"{said}: the same rows of the same matches, in the same order (T-repeat); "
        "--only-new imports only the other rows, --again every row (new hands that read "
        "the same as earlier ones)",
    )


def _lines(lines: Sequence[int], one: str = "was", many: str = "were") -> str:
    return f"line {lines[0]} {one}" if len(lines) == 1 else f"lines {line_ranges(lines)} {many}"


def _s(items: Sequence[object]) -> str:
    return "" if len(items) == 1 else "s"


def _utc(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"

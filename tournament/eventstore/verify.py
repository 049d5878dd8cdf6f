"""Check every hash chain: ``tournament verify``.

    report = verify(store)
    if not report.ok:
        for link in report.broken:
            print(link)          # stream 'hand-…' version 7 (position 91): hash does not …

For each stream the first broken link is reported: an event whose content no longer
matches its hash (a row edited behind the store's back), whose ``prev_hash`` is not the
hash of the event before it, or whose version does not follow the one before (an event
removed). Positions must run 1, 2, 3 … without holes (the store assigns them densely),
so a removed event that was last in its stream still shows as a hole in the global log.
It also reports every append-only guard (trigger, PostgreSQL function) that is missing,
disabled or changed: such a store is not ``ok`` even while its chains still hold.
Removing the very last events of the whole log leaves no trace inside the store: keep the
head (``report.head_position``, ``report.head_hash``) somewhere else, e.g. with a backup.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable

from tournament.eventstore.backends import Row
from tournament.eventstore.chain import GENESIS, canonical, event_hash, format_time
from tournament.eventstore.guards import MissingGuard, missing_guards
from tournament.eventstore.store import SQLEventStore


@dataclasses.dataclass(frozen=True)
class BrokenLink:
    stream_id: str
    version: int
    position: int
    problem: str

    def __str__(self) -> str:
        where = f"stream {self.stream_id!r} version {self.version}" if self.stream_id else "log"
        return f"{where} (position {self.position}): {self.problem}"


@dataclasses.dataclass
class VerifyReport:
    events: int = 0
    streams: int = 0
    head_position: int = 0
    head_hash: str | None = None
    broken: list[BrokenLink] = dataclasses.field(default_factory=list)
    #: Append-only guards not in place (:mod:`.guards`): the chains may be intact, but
    #: the database no longer refuses a rewrite.
    missing_guards: list[MissingGuard] = dataclasses.field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.broken and not self.missing_guards


def recompute_hash(row: Row) -> str:
    """The hash the row's content should have (raises ValueError on invalid JSON)."""
    _, event_id, stream_id, version, kind, sv, payload, metadata, at, prev, _ = row
    return event_hash(
        prev, stream_id, version, str(event_id), kind, sv, format_time(at),
        canonical(json.loads(metadata)), canonical(json.loads(payload)),
    )  # fmt: skip


def check_rows(rows: Iterable[Row], on_row: Callable[[], object] | None = None) -> VerifyReport:
    """Verify rows given in position order (the store's log, or an import file)."""
    report = VerifyReport()
    heads: dict[str, tuple[int, str]] = {}
    bad: set[str] = set()
    last_position = 0
    for row in rows:
        position, _, stream_id, version, *_rest, prev, digest = row
        report.events += 1
        if on_row is not None:
            on_row()
        if position != last_position + 1:
            hole = (
                f"positions {last_position + 1}..{position - 1} are missing"
                if position > last_position
                else f"position {position} does not follow {last_position}"
            )
            report.broken.append(BrokenLink("", 0, position, hole))
        last_position = max(position, last_position)
        report.head_position, report.head_hash = position, digest
        if stream_id in bad:
            continue
        last_version, last_hash = heads.get(stream_id, (0, GENESIS))
        problem: str | None = None
        if version != last_version + 1:
            problem = f"follows version {last_version}: version(s) missing or out of order"
        elif prev != last_hash:
            problem = f"prev_hash is not the hash of version {last_version}"
        else:
            try:
                if recompute_hash(row) != digest:
                    problem = "hash does not match the event's content (changed after writing)"
            except ValueError as error:
                problem = f"payload or metadata is not valid JSON ({error})"
        if problem is not None:
            bad.add(stream_id)
            report.broken.append(BrokenLink(stream_id, version, position, problem))
        heads[stream_id] = (version, digest)
    report.streams = len(heads)
    return report


def verify(store: SQLEventStore, on_row: Callable[[], object] | None = None) -> VerifyReport:
    """Check every stream of ``store`` (constant memory per stream, one pass), and that
    the append-only guards are in place."""
    with store.engine.connect() as conn:
        missing = missing_guards(conn)
    report = check_rows(store.iter_raw(batch_size=5000), on_row)
    report.missing_guards = missing
    return report

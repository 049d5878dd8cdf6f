"""Check the log: ``tournament verify``.

    report = verify(store)
    if not report.ok:
        for link in report.broken:
            print(link)          # stream 'hand-…' version 7 (position 91): hash does not …

For each stream the first broken link is reported: an event whose content no longer
matches its hash (a row edited behind the store's back), whose ``prev_hash`` is not the
hash of the event before it, or whose version does not follow the one before (an event
removed). The whole log is checked against every seal (:mod:`.seals`): its head hash
folded over every event up to the seal's position must be the sealed one (where it is
not, the first event that no longer matches the seal's digests is named: changed,
inserted, missing or renumbered), the digests must be those events' (a seal made with
another key is not authenticated, but cannot list other events either), and the seal
must authenticate with the key that made it: the current seal key or a retired one of
the keyring (:mod:`.seal_keys`). Seals are numbered 1, 2, 3 … and a hole among them
is reported too. It also reports every
append-only guard (trigger, PostgreSQL function) that is missing, disabled or changed,
and (PostgreSQL) a connection that could get past them: such a store is not ``ok`` even
while its chains still hold. An event the log's readers cannot see while its stream's
readers can (a position below 1; on PostgreSQL a transaction id from the future, which
readers of the log stop before) is reported too: no pass over the log would meet it.

What no check inside the store can see: events appended after the last seal and then
removed together with any later seals. Keep a seal's short form elsewhere (printed
sheets carry it) and check it with ``verify --seal``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from tournament.eventstore.backends import Row
from tournament.eventstore.chain import GENESIS, canonical, event_hash, format_time, log_link
from tournament.eventstore.guards import MissingGuard, missing_guards
from tournament.eventstore.seals import DIGEST_CHARS, Seal, SealKey, digests_text
from tournament.eventstore.store import SQLEventStore

if TYPE_CHECKING:
    import sqlalchemy as sa


@dataclasses.dataclass(frozen=True)
class BrokenLink:
    stream_id: str
    version: int
    position: int
    problem: str
    #: The seal (its number) whose own line is the place to look: the seal itself is
    #: wrong, missing, or seals an event that is gone. None: the event at ``position``.
    seal: int | None = None

    def __str__(self) -> str:
        where = f"stream {self.stream_id!r} version {self.version}" if self.stream_id else "log"
        return f"{where} (position {self.position}): {self.problem}"


@dataclasses.dataclass
class VerifyReport:
    events: int = 0
    streams: int = 0
    head_position: int = 0
    head_hash: str | None = None  # the last event's own hash
    log_head: str = GENESIS  # the whole log's head (seals.fold) at head_position
    broken: list[BrokenLink] = dataclasses.field(default_factory=list)
    #: Append-only guards not in place (:mod:`.guards`): the chains may be intact, but
    #: the database no longer refuses a rewrite.
    missing_guards: list[MissingGuard] = dataclasses.field(default_factory=list)
    #: Why this connection could get past the guards (PostgreSQL: superuser, owner, ...).
    bypass: list[str] = dataclasses.field(default_factory=list)
    seals: int = 0  # seals checked against the log
    last_seal: Seal | None = None
    #: Seals whose authenticity could not be checked (made with another key).
    unchecked: list[str] = dataclasses.field(default_factory=list)
    #: ``(seal number, key_id)`` of every seal checked: which key made it (operator F8).
    made_with: list[tuple[int, str]] = dataclasses.field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.broken and not self.missing_guards

    @property
    def unsealed(self) -> int:
        """Events after the last seal: covered by their streams' chains only."""
        return self.events - (self.last_seal.events if self.last_seal else 0)


def recompute_hash(row: Row) -> str:
    """The hash the row's content should have (raises ValueError on invalid JSON)."""
    _, event_id, stream_id, version, kind, sv, payload, metadata, at, prev, _ = row
    return event_hash(
        prev, stream_id, version, str(event_id), kind, sv, format_time(at),
        canonical(json.loads(metadata)), canonical(json.loads(payload)),
    )  # fmt: skip


def check_rows(
    rows: Iterable[Row],
    on_row: Callable[[], object] | None = None,
    seals: Iterable[Seal] = (),
    key: SealKey | None = None,
    keyring: Mapping[str, SealKey] | None = None,
) -> VerifyReport:
    """Verify rows given in position order (the store's log, or an import file) and the
    seals over them (authenticated with ``key``, or a retired key of ``keyring``, where it
    is the key they name)."""
    keys = _keys(key, keyring)
    report = VerifyReport()
    heads: dict[str, tuple[int, str]] = {}
    bad: set[str] = set()
    last_position = 0
    sealing: _SealCheck | None = None
    for row in rows:
        if sealing is None:  # an import reads the seals before the first event
            sealing = _SealCheck(report, list(seals), keys, key)
        position, _, stream_id, version, *_rest, prev, digest = row
        if position <= last_position:
            disorder = f"position {position} does not follow {last_position}"
            report.broken.append(BrokenLink("", 0, position, disorder))
            continue
        sealing.before(position)
        report.events += 1
        if on_row is not None:
            on_row()
        last_position = position
        report.head_position, report.head_hash = position, digest
        report.log_head = log_link(report.log_head, position, digest)
        sealing.add(row)
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
    if sealing is None:
        sealing = _SealCheck(report, list(seals), keys, key)
    sealing.before(None)
    report.streams = len(heads)
    return report


class _SealCheck:
    """Checks each seal when the log has been read up to its position."""

    def __init__(
        self,
        report: VerifyReport,
        seals: list[Seal],
        keys: Mapping[str, SealKey],
        current: SealKey | None,
    ) -> None:
        self.report = report
        self.pending = sorted(seals, key=lambda s: s.seq)
        self.keys = keys
        self.current = current
        self.span: list[tuple[int, str, str, int]] = []  # (position, hash, stream, version)
        self.previous: Seal | None = None
        for expected, seal in enumerate(self.pending, start=1):
            if seal.seq != expected:
                report.broken.append(
                    BrokenLink("", 0, seal.position, f"seal #{expected} is missing (the "
                               f"seals go on with #{seal.seq})", seal.seq)
                )  # fmt: skip
                break

    def add(self, row: Row) -> None:
        if self.pending:
            self.span.append((row[0], row[10], row[2], row[3]))

    def before(self, position: int | None) -> None:
        """Check every seal the log has passed (``None``: the log ended)."""
        while self.pending and (position is None or position > self.pending[0].position):
            self._check(self.pending.pop(0))
            self.span = []

    def _check(self, seal: Seal) -> None:
        report = self.report
        report.seals += 1
        report.last_seal = seal
        sealed_at = format_time(seal.sealed_at)
        name = f"seal #{seal.seq} ({sealed_at}, {seal.short})"
        report.made_with.append((seal.seq, seal.key_id))
        key = self.keys.get(seal.key_id)
        if key is not None:
            if seal.mac != key.mac(seal.message()):
                which = "the seal key" if key is self.current else f"the retired key {key.key_id}"
                report.broken.append(
                    BrokenLink("", 0, seal.position, f"{name} does not authenticate with "
                               f"{which}: the seal was changed or forged", seal.seq)
                )  # fmt: skip
        else:
            here = self.current.key_id if self.current else "none"
            report.unchecked.append(
                f"{name} was made with key {seal.key_id} (this machine's: {here}): "
                "not authenticated"
            )
        self.previous = seal
        if report.log_head != seal.head or report.events != seal.events:
            report.broken.append(self._first_mismatch(seal, name))
        elif digests_text([(p, h) for p, h, *_ in self.span]) != seal.digests:
            # Head and count match, so the events are the sealed ones: the seal's list of
            # them was changed (what only a seal made with another key can hide).
            report.broken.append(
                BrokenLink("", 0, seal.position, f"{name} lists digests that are not its "
                           "events' (its head and count are): the seal was changed", seal.seq)
            )  # fmt: skip

    def _first_mismatch(self, seal: Seal, name: str) -> BrokenLink:
        """The first event of the seal's span that no longer matches its digests."""
        sealed = seal.digest_list()
        for i in range(max(len(sealed), len(self.span))):
            have = self.span[i] if i < len(self.span) else None
            want = sealed[i] if i < len(sealed) else None
            if have is not None and want is not None and have[0] == want[0]:
                if have[1][:DIGEST_CHARS] != want[1]:
                    return BrokenLink(have[2], have[3], have[0], f"changed after {name}")
                continue
            if have is not None and (want is None or have[0] < want[0]):
                return BrokenLink(
                    have[2], have[3], have[0], f"not in {name}: written or renumbered behind "
                    "the store's back after sealing",
                )  # fmt: skip
            if want is not None:
                return BrokenLink(
                    "", 0, want[0], f"the event {name} sealed at position {want[0]} is "
                    "missing (deleted or renumbered)", seal.seq,
                )  # fmt: skip
        return BrokenLink(
            "", 0, seal.position, f"the log up to position {seal.position} does not match "
            f"{name}: head or count differ ({self.report.events} events, {seal.events} sealed)",
            seal.seq,
        )  # fmt: skip


#: Rows the log's readers never return, while a stream's read (the tournament's) does:
#: a position the store never gives, and (PostgreSQL) a transaction id not given out yet,
#: which readers of the log wait for and stop before (postgres_backend). Neither verify's
#: pass nor a seal would ever see such a row, nor (the second) any event after it.
_HIDDEN = "SELECT position, stream_id, version, position <= 0 FROM es_events WHERE position <= 0"
_HIDDEN_PG = " OR tx_id >= pg_snapshot_xmax(pg_current_snapshot())::text::bigint"


def hidden_rows(conn: sa.Connection) -> list[BrokenLink]:
    """Events written behind the store's back where the log's readers cannot see them."""
    sql = _HIDDEN + (_HIDDEN_PG if conn.dialect.name == "postgresql" else "")
    out = []
    for position, stream_id, version, off_log in conn.exec_driver_sql(
        sql + " ORDER BY position LIMIT 100"
    ):
        where = (
            f"position {position}, which the store never gives"
            if off_log
            else "a transaction id PostgreSQL has not given out yet"
        )
        out.append(BrokenLink(stream_id, version, position, (
            f"hidden from the log: {where}, so that verify and the seals pass it by while "
            "the stream shows it (written behind the store's back)"
        )))  # fmt: skip
    return out


def _keys(current: SealKey | None, keyring: Mapping[str, SealKey] | None) -> dict[str, SealKey]:
    keys = dict(keyring or {})
    if current is not None:
        keys[current.key_id] = current
    return keys


def verify(
    store: SQLEventStore,
    on_row: Callable[[], object] | None = None,
    key: SealKey | None = None,
    keyring: Mapping[str, SealKey] | None = None,
) -> VerifyReport:
    """Check every stream of ``store`` and every seal (one pass, memory per stream and
    per seal's span), and that the append-only guards are in place."""
    from tournament.eventstore.guards import bypass_reasons

    with store.engine.connect() as conn:
        missing = missing_guards(conn)
        bypass = bypass_reasons(conn)
        hidden = hidden_rows(conn)
    seals = store.seals()
    report = check_rows(store.iter_raw(batch_size=5000), on_row, seals, key, keyring)
    report.broken.extend(hidden)
    report.missing_guards = missing
    report.bypass = bypass
    return report

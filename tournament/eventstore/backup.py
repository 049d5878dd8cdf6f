"""Export and import the whole store as JSON Lines: a backup a club can keep.

    export_store(store, open("club.jsonl", "w"))      # tournament export club.jsonl
    import_store(empty_store, open("club.jsonl"))     # tournament import club.jsonl

The file (format ``schnapsen-eventstore/3``) is one JSON object per line: a header, one
line per seal (:mod:`.seals`), one line per event in position order (payload and
metadata as stored, not upcast), one line per idempotency key, and a trailer that says
how many of each the file holds, where the log ends and the short form of its last
seal (an export seals the log first)::

    {"format": "schnapsen-eventstore/3", "events": 2, "exported_at": "…Z"}
    {"seal": 1, "position": 2, "events": 2, "head": "…", "digests": "1:…,2:…",
     "sealed_at": "…Z", "reason": "export", "key_id": "k…", "mac": "…"}
    {"position": 1, "event_id": "…", "stream_id": "hand-…", "version": 1,
     "type": "hand.dealt", "schema_version": 1, "payload": {…}, "metadata": {…},
     "recorded_at": "2025-03-01T18:02:11.123456Z", "prev_hash": "000…", "hash": "…"}
    {"idempotency_key": "…", "stream_id": "…", "first_version": 1, "last_version": 1,
     "recorded_at": "…Z"}
    {"trailer": "schnapsen-eventstore/3", "events": 2, "idempotency_keys": 1, "seals": 1,
     "head_position": 2, "head_hash": "…", "seal": "#1 @2 7KQM-3XJ9"}

An export is one consistent cut of the log: the events up to the log's head when it
began (on PostgreSQL, up to the last event no older transaction still running could
commit events before; those are fixed), the seals up to there and the keys of those
events, even while results are being entered.

Import restores into an empty store in one transaction and stores nothing unless all of
this holds: every line is strict JSON of the right shape (:mod:`.backup_lines`); every
hash chain verifies; the header's and the trailer's counts are the events and keys read,
and the trailer's head position and hash are the last event's -- so a backup cut off at
a line boundary (a full disk, an interrupted copy) or edited is refused; every key
names versions of a stream the file holds; and every seal matches the file's events (and
authenticates, where this machine has the key it was made with). Projection checkpoints
are not part of a backup; projections rebuild from the log.

Exports of format 2 (before seals) import as before, without seals. Older exports
(``schnapsen-eventstore/1``, before the trailer) still import: they counted
their events in the header but not their keys, so they are refused when they hold fewer
events than the header says and accepted otherwise (that exporter counted before it
wrote, so one taken while results came in may hold a few more), with a note that keys cut
off at the very end could not be noticed.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from typing import IO, Any

import sqlalchemy as sa
from tqdm import tqdm

from tournament.eventstore.backends import Row
from tournament.eventstore.backup_lines import (
    EVENT_FIELDS,
    KEY_FIELDS,
    SEAL_FIELDS,
    canonical_text,
    parse_time,
    read,
    typed,
)
from tournament.eventstore.chain import format_time
from tournament.eventstore.errors import (
    ChainError,
    EventStoreError,
    ImportFormatError,
    StoreNotEmptyError,
)
from tournament.eventstore.schema import events as events_table
from tournament.eventstore.schema import idempotency
from tournament.eventstore.seal_keys import retired_keys
from tournament.eventstore.seals import Seal, SealKey, SealKeyError, available_key, load_key
from tournament.eventstore.store import SQLEventStore
from tournament.eventstore.verify import VerifyReport, check_rows
from tournament.eventstore.withheld import is_withheld, open_payload, seal_payload

FORMAT = "schnapsen-eventstore/3"
#: Exports before seals were kept: read, without seals.
UNSEALED_FORMAT = "schnapsen-eventstore/2"
#: Exports written before the trailer existed: still read (see the module's docstring).
OLDER_FORMAT = "schnapsen-eventstore/1"

# PostgreSQL: only events of transactions older than every one still running are fixed
# (postgres_backend.read_all): those are a prefix of the log in position order.
_SETTLED = {
    "sqlite": "",
    "postgresql": " WHERE tx_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint",
}


def _cut(store: SQLEventStore) -> tuple[int, int]:
    """The log's settled head position and the number of events up to it, in one
    snapshot."""
    with store.engine.connect() as conn:
        where = _SETTLED[conn.dialect.name]
        head, count = conn.exec_driver_sql(
            f"SELECT coalesce(max(position), 0), count(*) FROM es_events{where}"
        ).one()
    return int(head), int(count)


def _seal_first(store: SQLEventStore) -> None:
    """Seal what is not sealed yet, so that the backup carries a seal over all of it. A
    store that cannot be sealed here (no key, read-only) is exported with its seals."""
    import logging

    try:
        store.seal("export")
    except Exception as error:  # whatever it is: the backup matters more
        logging.getLogger(__name__).warning("exported without sealing first: %s", error)


def _keys(store: SQLEventStore, head: int) -> list[dict[str, Any]]:
    """The idempotency keys of the events up to position ``head``."""
    e = events_table.c
    within = (
        sa.select(e.position)
        .where(
            e.stream_id == idempotency.c.stream_id,
            e.version == idempotency.c.last_version,
            e.position <= head,
        )
        .exists()
    )
    query = sa.select(idempotency).where(within)
    with store.engine.connect() as conn:
        rows = conn.execute(query.order_by(idempotency.c.recorded_at, idempotency.c.key)).all()
    return [
        {
            "idempotency_key": r.key,
            "stream_id": r.stream_id,
            "first_version": r.first_version,
            "last_version": r.last_version,
            "recorded_at": format_time(r.recorded_at),
        }
        for r in rows
    ]


def export_store(
    store: SQLEventStore,
    out: IO[str],
    progress: bool | None = None,
    *,
    withhold: Callable[[str], bool] | None = None,
) -> int:
    """Write the whole store to ``out``; returns the number of events written.

    ``progress``: show a progress bar on stderr (None: only on a terminal).
    ``withhold``: the streams whose payloads the file holds only sealed with the seal
    key (the live hands still in play: :mod:`.withheld`).
    """
    _seal_first(store)
    head, total = _cut(store)
    sealing: SealKey | None = None  # loaded when a payload is withheld
    header = {"format": FORMAT, "events": total, "exported_at": format_time(datetime.now(UTC))}
    out.write(json.dumps(header) + "\n")
    seals = [seal for seal in store.seals() if seal.position <= head]
    for seal in seals:
        out.write(json.dumps(seal.as_record(), ensure_ascii=False) + "\n")
    written, last_hash = 0, None
    with tqdm(total=total, unit="ev", disable=None if progress is None else not progress) as bar:
        for row in store.iter_raw(batch_size=5000):
            if row[0] > head:  # appended after the export began: the next backup's
                break
            hide = withhold is not None and withhold(row[2])
            sealing = (sealing or withholding_key()) if hide else sealing
            out.write(event_line(row, sealing if hide else None))
            written, last_hash = written + 1, row[10]
            if written % 1000 == 0:
                bar.update(1000)
        bar.update(written % 1000)
    if written != total:  # rows are append-only: only a rewrite behind the store does this
        raise EventStoreError(
            f"the log changed while it was exported ({total} events counted, {written} read)"
        )
    keys = _keys(store, head)
    for key in keys:
        out.write(json.dumps(key, ensure_ascii=False) + "\n")
    trailer = {
        "trailer": FORMAT, "events": written, "idempotency_keys": len(keys),
        "seals": len(seals), "head_position": head, "head_hash": last_hash,
        "seal": seals[-1].short if seals else None,
    }  # fmt: skip
    out.write(json.dumps(trailer) + "\n")
    return written


def withholding_key() -> SealKey:
    """The key an export seals withheld payloads with: an export that must withhold and
    cannot is refused rather than written in the clear."""
    try:
        return load_key()
    except SealKeyError as error:
        raise EventStoreError(
            f"a hand is in play and its deck must not be in the backup, but it cannot be "
            f"sealed: {error}; nothing exported"
        ) from None


def event_line(row: Row, withhold_with: SealKey | None = None) -> str:
    """One event's line of a backup (its text ends with a newline): the row as stored,
    payload and metadata spliced in as the canonical JSON text they are stored as; with
    ``withhold_with``, the payload sealed with that key instead (:mod:`.withheld`)."""
    p, eid, sid, version, kind, sv, payload, metadata, at, prev, digest = row
    if withhold_with is not None:
        payload = json.dumps(seal_payload(withhold_with, str(eid), payload))
    line = json.dumps(
        {"position": p, "event_id": str(eid), "stream_id": sid, "version": version,
         "type": kind, "schema_version": sv},
        ensure_ascii=False,
    )  # fmt: skip
    tail = json.dumps(
        {"recorded_at": format_time(at), "prev_hash": prev, "hash": digest}, ensure_ascii=False
    )
    return f'{line[:-1]}, "payload": {payload}, "metadata": {metadata}, {tail[1:]}\n'


def event_row(data: Any, number: int) -> Row:
    """An event's line of a backup (its JSON, read strictly) as a row to verify and store;
    :class:`ImportFormatError` naming line ``number`` when it is not one."""
    e = typed(data, EVENT_FIELDS, number)
    try:
        event_id = uuid.UUID(e["event_id"])
    except ValueError:
        raise ImportFormatError(number, f"bad event_id {e['event_id']!r}") from None
    if is_withheld(e["payload"]):  # a hand in play when it was taken: opened with the key
        payload = open_payload(e["payload"], str(event_id), number)
    else:
        payload = canonical_text(e["payload"], number)
    return (
        e["position"], event_id, e["stream_id"], e["version"], e["type"],
        e["schema_version"], payload,
        canonical_text(e["metadata"], number),
        parse_time(e["recorded_at"], number), e["prev_hash"], e["hash"],
    )  # fmt: skip


def import_store(
    store: SQLEventStore,
    lines: Iterable[str | bytes],
    progress: bool | None = None,
    notes: list[str] | None = None,
) -> int:
    """Restore an export into an empty ``store``; returns the number of events.

    Raises :class:`ImportFormatError` for a malformed line or an incomplete or edited
    file, :class:`ChainError` for a chain that does not verify, :class:`StoreNotEmptyError`
    if the store has events. Nothing is stored unless everything checks out. ``notes``
    gets what the organiser should know about a file that was imported (an older format).
    """
    records = read(lines)
    try:
        number, header = next(records)
    except StopIteration:
        raise ImportFormatError(1, "the file is empty") from None
    fmt = header.get("format") if isinstance(header, dict) else None
    if fmt not in (FORMAT, UNSEALED_FORMAT, OLDER_FORMAT):
        raise ImportFormatError(number, f"not an event store export (format {FORMAT!r})")
    total = header.get("events")
    if type(total) is not int or total < 0:
        if fmt != OLDER_FORMAT:
            raise ImportFormatError(number, "the header does not say how many events follow")
        total = None
    backend = store._backend
    read_back = _Read()

    def rows() -> Iterator[Row]:
        for number, data in records:
            read_back.last_line = number
            if read_back.trailer is not None:
                raise ImportFormatError(number, "a line after the trailer")
            if isinstance(data, dict) and "trailer" in data:
                read_back.trailer = (number, data)
                continue
            if isinstance(data, dict) and "idempotency_key" in data:
                read_back.keys.append((number, typed(data, KEY_FIELDS, number)))
                continue
            if isinstance(data, dict) and "seal" in data and fmt == FORMAT:
                if read_back.line_of:
                    raise ImportFormatError(number, "a seal after the first event")
                record = typed(data, SEAL_FIELDS, number)
                at = parse_time(record["sealed_at"], number)
                read_back.seals.append(Seal.from_record(record, at))
                read_back.seal_line[record["seal"]] = number
                continue
            if read_back.keys:
                raise ImportFormatError(number, "an event after the idempotency keys")
            row = event_row(data, number)
            read_back.line_of[row[0]] = number
            read_back.versions[row[2]] = row[3]  # in order: check_rows checks
            yield row

    with (
        tqdm(total=total, unit="ev", disable=None if progress is None else not progress) as bar,
        backend.write() as tx,
    ):
        if tx.head("", None).position != 0:
            raise StoreNotEmptyError(
                "import restores a whole store and needs an empty one: the target has events"
            )
        batch: list[dict[str, Any]] = []

        def flush() -> None:
            tx.insert(batch, None)
            bar.update(len(batch))
            batch.clear()

        def checked() -> Iterator[Row]:
            for row in rows():
                batch.append(_db_row(row, backend))
                if len(batch) >= 1000:
                    flush()
                yield row

        report = check_rows(
            checked(), seals=read_back.seals, key=available_key(), keyring=retired_keys()
        )
        # A file cut short is told as such before what that does to its chains and seals.
        note = _check_complete(fmt, total, report, read_back)
        if not report.ok:
            first = report.broken[0]
            if first.seal is not None:  # a problem of the seal's own line
                where = read_back.seal_line.get(first.seal)
            else:
                where = read_back.line_of.get(first.position)
            at = f"line {where}" if where is not None else "a seal"
            raise ChainError(f"{at}: {first}; nothing was imported")
        key_rows = _check_keys(read_back, backend)
        flush()
        for key in key_rows:
            tx.insert([], key)
        for seal in read_back.seals:
            tx.insert_seal(seal)
    if notes is not None:
        notes.extend(filter(None, [note, _unchecked_note(report)]))
    return report.events


def _unchecked_note(report: VerifyReport) -> str | None:
    if not report.unchecked:
        return None
    return (
        f"{len(report.unchecked)} of the backup's seals match its events but were made with "
        f"another seal key, so their authenticity was not checked here ({report.unchecked[0]})"
    )


class _Read:
    """What an import has read beside the events: keys, the trailer, stream heads."""

    def __init__(self) -> None:
        self.keys: list[tuple[int, dict[str, Any]]] = []
        self.seals: list[Seal] = []
        self.trailer: tuple[int, dict[str, Any]] | None = None
        self.versions: dict[str, int] = {}  # each stream's last version in the file
        self.line_of: dict[int, int] = {}  # position -> line
        self.seal_line: dict[int, int] = {}  # seal number -> line
        self.last_line = 1


def _check_complete(
    fmt: str, total: int | None, report: VerifyReport, read_back: _Read
) -> str | None:
    """Refuse a file that holds fewer (or other) events or keys than it says it does;
    returns a note for an older export that could be checked only in part."""
    count = report.events
    if fmt == OLDER_FORMAT and read_back.trailer is None:
        if total is not None and count < total:
            raise ImportFormatError(None, _incomplete(total, count))
        more = (
            f"; it holds {count - total} more than its header counted, as exports of that "
            "version did when results came in while they ran"
            if total is not None and count > total
            else ""
        )
        return (
            f"an older backup ({OLDER_FORMAT}, without a trailer): its {count} events are "
            f"complete and verified{more}; whether idempotency keys were cut off its end "
            "cannot be checked"
        )
    if total is not None and count != total:
        raise ImportFormatError(None, _incomplete(total, count))
    if read_back.trailer is None:
        raise ImportFormatError(
            None,
            f"the file ends at line {read_back.last_line} without its trailer line: the "
            "backup is incomplete; nothing imported",
        )
    line, trailer = read_back.trailer
    expected: dict[str, Any] = {
        "trailer": fmt, "events": count, "idempotency_keys": len(read_back.keys),
        "head_position": report.head_position, "head_hash": report.head_hash,
    }  # fmt: skip
    if fmt == FORMAT:
        seals = read_back.seals
        expected["seals"] = len(seals)
        expected["seal"] = max(seals, key=lambda s: s.seq).short if seals else None
    for name, value in expected.items():
        if name not in trailer or trailer[name] != value or type(trailer[name]) is bool:
            said = trailer.get(name, "nothing")
            raise ImportFormatError(
                line,
                f"the trailer says {name} {said!r:.80}, the file holds {value!r}: the backup "
                "was cut or changed; nothing imported",
            )
    if set(trailer) != set(expected):
        extra = sorted(set(trailer) - set(expected))
        raise ImportFormatError(line, f"the trailer has unknown fields {extra}")
    return None


def _incomplete(total: int, count: int) -> str:
    if count < total:
        return (
            f"header says {total} events, file holds {count}: the backup is incomplete; "
            "nothing imported"
        )
    return (
        f"header says {total} events, file holds {count}: the backup was changed; nothing imported"
    )


def _check_keys(read_back: _Read, backend: Any) -> list[dict[str, Any]]:
    """Every key names versions of a stream the file holds, and appears once."""
    seen: set[str] = set()
    out = []
    for line, key in read_back.keys:
        name, stream = key["idempotency_key"], key["stream_id"]
        first, last = key["first_version"], key["last_version"]
        if name in seen:
            raise ImportFormatError(line, f"idempotency key {name!r:.80} appears twice")
        seen.add(name)
        head = read_back.versions.get(stream)
        if head is None:
            raise ImportFormatError(
                line, f"idempotency key {name!r:.80} names stream {stream!r}, which has no "
                "event in the file",
            )  # fmt: skip
        if not first <= last <= head:
            raise ImportFormatError(
                line, f"idempotency key {name!r:.80} names versions {first}..{last} of stream "
                f"{stream!r}, which has versions 1..{head}",
            )  # fmt: skip
        out.append(_key_row(key, line, backend))
    return out


def _db_row(row: Row, backend: Any) -> dict[str, Any]:
    p, eid, sid, version, kind, sv, payload, metadata, at, prev, digest = row
    return {
        "p": p, "e": backend.db_uuid(eid), "s": sid, "v": version, "t": kind, "sv": sv,
        "pl": payload, "md": metadata, "ra": backend.db_time(at), "ph": prev, "h": digest,
    }  # fmt: skip


def _key_row(data: dict[str, Any], line: int, backend: Any) -> dict[str, Any]:
    return {
        "k": data["idempotency_key"], "s": data["stream_id"], "first": data["first_version"],
        "last": data["last_version"], "ra": backend.db_time(parse_time(data["recorded_at"], line)),
    }  # fmt: skip

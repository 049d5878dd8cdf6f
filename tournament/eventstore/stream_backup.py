"""Some streams of the store as JSON Lines, and restored into another store beside what it
holds: the backup of one tournament (its stream and its live hands' streams).

    export_streams(store, ["tournament-club", "hand-…"], out, about={"tournament": "club"})
    backup = read_streams_backup(lines)          # every line checked, every chain verified
    restore_streams(other_store, backup, ["hand-…", "tournament-club"])

The file (format ``schnapsen-streams/1``) is the whole-store backup's
(:mod:`.backup`) without what belongs to the store rather than to its streams (its seals,
its idempotency keys): a header, one line per event in the source's position order,
exactly as :mod:`.backup` writes them (payload and metadata as stored, hashes and all),
and a trailer naming each stream's last version and hash and the source log's seal::

    {"format": "schnapsen-streams/1", "events": 2, "streams": ["tournament-club"],
     "exported_at": "…Z", "about": {"tournament": "club"}}
    {"position": 17, "event_id": "…", "stream_id": "tournament-club", "version": 1, …}
    {"trailer": "schnapsen-streams/1", "events": 2,
     "heads": {"tournament-club": [2, "…"]}, "seal": "#4 @17 7KQM-3XJ9"}

The export seals the source log first: the trailer's ``seal`` checks the backup against
that log later (``tournament verify --seal``). A restore verifies everything before it
stores anything: strict JSON per line, each stream's hash chain from its first event,
the counts and heads of header and trailer (so a file cut short or edited is refused,
naming the line). It then appends each stream whole, through the store's ordinary
append, as a new stream: the events keep their ids, types, payloads and metadata, get
positions, times and hashes of the target log, and their metadata gains ``restored``
(the time first recorded and the hash in the backup). The streams are appended in the
order given, one append each; the caller gives the stream that makes the others count
(the tournament's) last, and each one's absence is checked first, so a refusal stores
nothing. (A restore that fails between its appends -- the database gone -- leaves
streams that nothing refers to yet; restoring the same backup again takes those as
restored and goes on.)
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import IO, Any

from tournament.eventstore.api import NO_STREAM, ConcurrencyError, NewEvent, StoredEvent
from tournament.eventstore.backends import Conflict, Replay, Row
from tournament.eventstore.backup import _seal_first, event_line, event_row, withholding_key
from tournament.eventstore.backup_lines import read
from tournament.eventstore.chain import format_time
from tournament.eventstore.errors import ChainError, EventStoreError, ImportFormatError
from tournament.eventstore.seals import SealKey
from tournament.eventstore.store import MAX_VERSION, SQLEventStore
from tournament.eventstore.verify import check_rows

FORMAT = "schnapsen-streams/1"
#: The whole store's backup: restored with ``tournament import``, into an empty store.
STORE_FORMAT_PREFIX = "schnapsen-eventstore/"
_HEADER = {"format": str, "events": int, "streams": list, "exported_at": str, "about": dict}
_TRAILER = {"trailer": str, "events": int, "heads": dict, "seal": (str, type(None))}


def export_streams(
    store: SQLEventStore,
    stream_ids: Sequence[str],
    out: IO[str],
    *,
    about: Mapping[str, Any] | None = None,
    upto: Mapping[str, int] | None = None,
    withhold: Callable[[str], bool] | None = None,
) -> int:
    """Write the streams to ``out`` (see the module's docstring); returns the number of
    events written. ``about``: what the backup is of, kept in its header; ``upto``: the
    last version to write of a stream (the one whose events named the others);
    ``withhold``: the streams whose payloads are written sealed (:mod:`.withheld`)."""
    _seal_first(store)
    key: SealKey | None = None  # loaded when a payload is withheld
    rows: list[Row] = []
    for stream_id in dict.fromkeys(stream_ids):
        backend = store._backend
        last = (upto or {}).get(stream_id, MAX_VERSION)
        rows += backend.rows(backend.read_stream(stream_id, 1, last))
    rows.sort(key=lambda row: row[0])
    streams = list(dict.fromkeys(row[2] for row in rows))
    header = {
        "format": FORMAT, "events": len(rows), "streams": streams,
        "exported_at": format_time(datetime.now(UTC)), "about": dict(about or {}),
    }  # fmt: skip
    out.write(json.dumps(header, ensure_ascii=False) + "\n")
    heads: dict[str, list[Any]] = {}
    for row in rows:
        hide = withhold is not None and withhold(row[2])
        key = (key or withholding_key()) if hide else key
        out.write(event_line(row, key if hide else None))
        heads[row[2]] = [row[3], row[10]]
    sealed = store.latest_seal()
    trailer = {
        "trailer": FORMAT, "events": len(rows), "heads": heads,
        "seal": sealed.short if sealed is not None else None,
    }  # fmt: skip
    out.write(json.dumps(trailer) + "\n")
    return len(rows)


class BrokenChainError(ChainError):
    """A hash chain of the backup does not verify, at ``line``."""

    def __init__(self, line: int | None, problem: str) -> None:
        super().__init__(f"line {line}: {problem}; nothing was imported")
        self.line = line


@dataclasses.dataclass(frozen=True)
class Restored:
    """One event of a backup, checked: its line and the event to append."""

    line: int
    stream_id: str
    event: NewEvent


@dataclasses.dataclass(frozen=True)
class StreamsBackup:
    """A backup read and verified: its events per stream (in the file's order), what it
    is of (``about``), and the source log's seal it carries."""

    streams: dict[str, list[Restored]]
    about: dict[str, Any]
    seal: str | None

    @property
    def events(self) -> int:
        return sum(len(events) for events in self.streams.values())


def read_streams_backup(lines: Iterable[str | bytes]) -> StreamsBackup:
    """Read and verify a backup (see the module's docstring); :class:`ImportFormatError`
    or :class:`ChainError`, naming the line, for anything that is not right."""
    records = read(lines)
    try:
        number, header = next(records)
    except StopIteration:
        raise ImportFormatError(1, "the file is empty") from None
    fmt = header.get("format") if isinstance(header, dict) else None
    if isinstance(fmt, str) and fmt.startswith(STORE_FORMAT_PREFIX):
        raise ImportFormatError(
            number,
            f"this is a backup of a whole store ({fmt}): `tournament import` restores it "
            "into an empty store",
        )
    if fmt != FORMAT:
        raise ImportFormatError(number, f"not a backup of streams (format {FORMAT!r})")
    _fields(header, _HEADER, number, "header")
    header_line = number
    rows: list[Row] = []
    line_of: dict[int, int] = {}
    trailer: tuple[int, dict[str, Any]] | None = None
    last = number
    for number, data in records:
        last = number
        if trailer is not None:
            raise ImportFormatError(number, "a line after the trailer")
        if isinstance(data, dict) and "trailer" in data:
            trailer = (number, _fields(data, _TRAILER, number, "trailer"))
            continue
        row = event_row(data, number)
        if row[0] in line_of:
            raise ImportFormatError(number, f"position {row[0]} appears twice")
        line_of[row[0]] = number
        rows.append(row)
    report = check_rows(rows)
    if not report.ok:
        first = report.broken[0]
        raise BrokenChainError(line_of.get(first.position), str(first))
    if trailer is None:
        raise ImportFormatError(
            None,
            f"the file ends at line {last} without its trailer line: the backup is "
            "incomplete; nothing imported",
        )
    _complete(header, header_line, trailer, rows)
    streams: dict[str, list[Restored]] = {}
    for row in rows:
        streams.setdefault(row[2], []).append(Restored(line_of[row[0]], row[2], _event(row)))
    seal = trailer[1]["seal"]
    return StreamsBackup(streams, dict(header["about"]), seal)


def _fields(
    data: dict[str, Any], fields: Mapping[str, Any], number: int, what: str
) -> dict[str, Any]:
    if set(data) != set(fields):
        wanted, got = sorted(fields), sorted(data)
        raise ImportFormatError(number, f"the {what} has the fields {wanted}, not {got!r:.200}")
    for name, kind in fields.items():
        value = data[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ImportFormatError(number, f"the {what}'s {name!r} cannot be {value!r:.80}")
    return data


def _complete(
    header: dict[str, Any],
    header_line: int,
    trailer: tuple[int, dict[str, Any]],
    rows: Sequence[Row],
) -> None:
    """Refuse a file that holds fewer (or other) events than its header and trailer say."""
    count = len(rows)
    if header["events"] != count:
        said = header["events"]
        cut = "incomplete" if count < said else "changed"
        raise ImportFormatError(
            header_line,
            f"the header says {said} events, the file holds {count}: the backup is {cut}; "
            "nothing imported",
        )
    heads = {row[2]: [row[3], row[10]] for row in rows}
    if sorted(header["streams"]) != sorted(heads):
        raise ImportFormatError(
            header_line,
            f"the header names the streams {sorted(header['streams'])!r:.200}, the file "
            f"holds events of {sorted(heads)!r:.200}: the backup was cut or changed",
        )
    line, data = trailer
    expected = {"events": count, "heads": heads}
    for name, value in expected.items():
        if data[name] != value:
            raise ImportFormatError(
                line,
                f"the trailer says {name} {data[name]!r:.120}, the file holds {value!r:.120}: "
                "the backup was cut or changed; nothing imported",
            )


def _event(row: Row) -> NewEvent:
    """The event to append for a row of the backup: as it was, its metadata saying when it
    was first recorded and its hash in the backup (a row restored before keeps the time
    it was first recorded)."""
    _, event_id, _, _, kind, sv, payload, metadata, at, _, digest = row
    meta = json.loads(metadata)
    before = meta.get("restored")
    first = before.get("recorded_at") if isinstance(before, dict) else None
    meta["restored"] = {"recorded_at": first or format_time(at), "hash": digest}
    return NewEvent(kind, json.loads(payload), meta, sv, event_id)


def restore_streams(
    store: SQLEventStore,
    backup: StreamsBackup,
    order: Sequence[str],
    *,
    note: Mapping[str, Any] | None = None,
    idempotency_key: str | None = None,
) -> list[StoredEvent]:
    """Append the backup's streams to ``store`` as new streams, in ``order`` (every stream
    of the backup, the one that makes the others count last): each is checked to be
    absent and its events to be what the store accepts before the first is appended.
    ``note`` goes into every event's ``restored`` metadata (who restored it); the
    ``idempotency_key`` goes with the last stream's append. Returns the events appended;
    raises :class:`ConcurrencyError` for a stream the store has already,
    :class:`ImportFormatError` naming the line of an event the store refuses."""
    if sorted(order) != sorted(backup.streams):
        raise EventStoreError("restore_streams: the order must name every stream of the backup")
    prepared = {}
    for number, stream_id in enumerate(order, 1):
        if store.stream_version(stream_id) != 0:
            if number < len(order) and _left_over(store, stream_id, backup.streams[stream_id]):
                continue  # appended by a restore of this backup that stopped before the last
            raise ConcurrencyError(stream_id, NO_STREAM, store.stream_version(stream_id))
        batch = []
        for item in backup.streams[stream_id]:
            event = item.event
            if note:
                meta = {**event.metadata}
                meta["restored"] = {**meta["restored"], **note}
                event = dataclasses.replace(event, metadata=meta)
            try:
                batch.append(store._prepare(0, event))
            except EventStoreError as error:
                why = f"the store refuses this event: {error}"
                raise ImportFormatError(item.line, why) from None
        prepared[stream_id] = batch
    stored: list[StoredEvent] = []
    for stream_id, batch in prepared.items():
        now = datetime.now(UTC)
        key = idempotency_key if stream_id == order[-1] else None
        # One append per stream, whatever its length (the store's max_batch is for
        # commands; a restored stream is appended whole or not at all).
        result = store._backend.append(stream_id, batch, NO_STREAM, key, now)
        if isinstance(result, Conflict | Replay):  # appended meanwhile (another restore)
            actual = result.actual if isinstance(result, Conflict) else 0
            raise ConcurrencyError(stream_id, NO_STREAM, actual)
        store._after_append(result)
        stored += store._stored(stream_id, batch, result)
    return stored


def _left_over(store: SQLEventStore, stream_id: str, events: Sequence[Restored]) -> bool:
    """Whether ``stream_id`` holds exactly these events already: a stream a restore of
    the same backup appended before it failed (the streams are appended one by one, the
    last one making the others count), which a retry takes as restored."""
    held = [e.event_id for e in store.read_stream(stream_id)]
    return held == [item.event.event_id for item in events]

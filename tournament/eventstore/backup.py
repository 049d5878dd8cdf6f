"""Export and import the whole store as JSON Lines: a backup a club can keep.

    export_store(store, open("club.jsonl", "w"))      # tournament export club.jsonl
    import_store(empty_store, open("club.jsonl"))     # tournament import club.jsonl

The file is one JSON object per line: a header, one line per event in position order
(payload and metadata as stored, not upcast), then one line per idempotency key::

    {"format": "schnapsen-eventstore/1", "events": 2, "exported_at": "…Z"}
    {"position": 1, "event_id": "…", "stream_id": "hand-…", "version": 1,
     "type": "hand.dealt", "schema_version": 1, "payload": {…}, "metadata": {…},
     "recorded_at": "2025-03-01T18:02:11.123456Z", "prev_hash": "000…", "hash": "…"}
    {"idempotency_key": "…", "stream_id": "…", "first_version": 1, "last_version": 1,
     "recorded_at": "…Z"}

Import restores into an empty store in one transaction, checking every hash chain as
it reads: a corrupt or edited file stores nothing. Lines are read as strict JSON in
UTF-8: a duplicate key, NaN or Infinity, nesting too deep for the decoder, a number
Python will not convert, or a value the columns cannot hold is an
:class:`ImportFormatError` naming the line. Projection checkpoints are not part
of a backup; projections rebuild from the log.
"""

from __future__ import annotations

import json
import math
import re
import uuid
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import IO, Any

import sqlalchemy as sa
from tqdm import tqdm

from tournament.eventstore.backends import Row
from tournament.eventstore.chain import canonical, format_time
from tournament.eventstore.errors import ChainError, ImportFormatError, StoreNotEmptyError
from tournament.eventstore.registry import TYPE_PATTERN
from tournament.eventstore.schema import idempotency
from tournament.eventstore.store import MAX_VERSION, STREAM_ID, SQLEventStore
from tournament.eventstore.verify import check_rows

FORMAT = "schnapsen-eventstore/1"
_EVENT_FIELDS = {
    "position": int, "event_id": str, "stream_id": str, "version": int, "type": str,
    "schema_version": int, "payload": dict, "metadata": dict, "recorded_at": str,
    "prev_hash": str, "hash": str,
}  # fmt: skip
_INT_LIMITS = {"position": 2**63 - 1}  # others: MAX_VERSION (a 32-bit integer column)
_HASH = re.compile(r"^[0-9a-f]{64}$")
_TEXT_FIELDS = {
    "stream_id": STREAM_ID, "type": TYPE_PATTERN, "prev_hash": _HASH, "hash": _HASH,
    "idempotency_key": re.compile(r"^.{1,200}$", re.S),
}  # fmt: skip
_KEY_FIELDS = {
    "idempotency_key": str, "stream_id": str, "first_version": int, "last_version": int,
    "recorded_at": str,
}  # fmt: skip


def _count(store: SQLEventStore) -> int:
    with store.engine.connect() as conn:
        return int(conn.exec_driver_sql("SELECT count(*) FROM es_events").scalar() or 0)


def _keys(store: SQLEventStore) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(idempotency).order_by(idempotency.c.recorded_at)).all()
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


def export_store(store: SQLEventStore, out: IO[str], progress: bool | None = None) -> int:
    """Write the whole store to ``out``; returns the number of events written.

    ``progress``: show a progress bar on stderr (None: only on a terminal).
    """
    total = _count(store)
    header = {"format": FORMAT, "events": total, "exported_at": format_time(datetime.now(UTC))}
    out.write(json.dumps(header) + "\n")
    written = 0
    with tqdm(total=total, unit="ev", disable=None if progress is None else not progress) as bar:
        for row in store.iter_raw(batch_size=5000):
            p, eid, sid, version, kind, sv, payload, metadata, at, prev, digest = row
            # payload and metadata are canonical JSON text already: splice them in.
            head = json.dumps(
                {"position": p, "event_id": str(eid), "stream_id": sid, "version": version,
                 "type": kind, "schema_version": sv},
                ensure_ascii=False,
            )  # fmt: skip
            tail = json.dumps(
                {"recorded_at": format_time(at), "prev_hash": prev, "hash": digest},
                ensure_ascii=False,
            )
            out.write(f'{head[:-1]}, "payload": {payload}, "metadata": {metadata}, {tail[1:]}\n')
            written += 1
            if written % 1000 == 0:
                bar.update(1000)
        bar.update(written % 1000)
    for key in _keys(store):
        out.write(json.dumps(key, ensure_ascii=False) + "\n")
    return written


def _typed(data: Any, fields: dict[str, type], line: int) -> dict[str, Any]:
    if not isinstance(data, dict) or set(data) != set(fields):
        got = sorted(data) if isinstance(data, dict) else type(data).__name__
        raise ImportFormatError(line, f"expected the fields {sorted(fields)}, got {got}")
    for name, kind in fields.items():
        value = data[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ImportFormatError(line, f"{name!r} must be a {kind.__name__}, not {value!r:.80}")
        # The columns' limits: a value beyond them would fail in the database's driver.
        limit = _INT_LIMITS.get(name, MAX_VERSION)
        if isinstance(value, int) and not 1 <= value <= limit:
            raise ImportFormatError(line, f"{name!r} is out of range (1..{limit})")
        pattern = _TEXT_FIELDS.get(name)
        if pattern is not None and isinstance(value, str) and not pattern.match(value):
            raise ImportFormatError(line, f"{name!r} {value!r:.80} is not a valid {name}")
    return data


def _canonical(value: dict[str, Any], line: int) -> str:
    try:
        return canonical(value)
    except RecursionError:
        raise ImportFormatError(line, "payload or metadata nested too deeply") from None


def _time(text: str, line: int) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ImportFormatError(line, f"'recorded_at' {text!r} is not an ISO time") from None
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        keys = [key for key, _ in pairs]
        twice = next(key for key in keys if keys.count(key) > 1)
        raise ValueError(f"the key {twice!r} appears twice in one object")
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999: valid JSON syntax, but no finite float holds it
        raise ValueError(f"{text} is too large for a JSON number")
    return value


# Strict JSON: a duplicate key or NaN could not have come from an export, and the hash
# of whichever value json kept would not be the hash of the file's text.
_decode = json.JSONDecoder(
    object_pairs_hook=_no_duplicates, parse_constant=_no_constant, parse_float=_finite
).decode


def _decode_line(number: int, raw: str | bytes) -> Any:
    """One line's JSON, or an :class:`ImportFormatError` saying what is wrong with it."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as error:
        raise ImportFormatError(number, f"not UTF-8 text ({error.reason} at byte "
                                f"{error.start})") from None  # fmt: skip
    try:
        return _decode(text)
    except json.JSONDecodeError as error:
        raise ImportFormatError(number, f"not valid JSON: {error}") from None
    except RecursionError:
        raise ImportFormatError(number, "JSON nested too deeply") from None
    except ValueError as error:  # int digit limit, duplicate keys, NaN, 1e999
        raise ImportFormatError(number, f"not valid JSON: {error}") from None


def _read(lines: Iterable[str | bytes]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Numbered JSON values of the non-blank lines. Bytes are decoded here, line by line,
    so that a file that is not UTF-8 fails with its line number."""
    for number, raw in enumerate(lines, start=1):
        if raw.strip():
            yield number, _decode_line(number, raw)


def import_store(
    store: SQLEventStore, lines: Iterable[str | bytes], progress: bool | None = None
) -> int:
    """Restore an export into an empty ``store``; returns the number of events.

    Raises :class:`ImportFormatError` for a malformed line, :class:`ChainError` for a
    chain that does not verify, :class:`StoreNotEmptyError` if the store has events.
    Nothing is stored unless everything checks out.
    """
    records = _read(lines)
    try:
        number, header = next(records)
    except StopIteration:
        raise ImportFormatError(1, "the file is empty") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ImportFormatError(number, f"not an event store export (format {FORMAT!r})")
    total = header.get("events") if isinstance(header.get("events"), int) else None
    backend = store._backend
    keys: list[dict[str, Any]] = []
    line_of: dict[int, int] = {}

    def rows() -> Iterator[Row]:
        for number, data in records:
            if isinstance(data, dict) and "idempotency_key" in data:
                keys.append(_key_row(_typed(data, _KEY_FIELDS, number), number, backend))
                continue
            if keys:
                raise ImportFormatError(number, "an event after the idempotency keys")
            e = _typed(data, _EVENT_FIELDS, number)
            try:
                event_id = uuid.UUID(e["event_id"])
            except ValueError:
                raise ImportFormatError(number, f"bad event_id {e['event_id']!r}") from None
            line_of[e["position"]] = number
            yield (
                e["position"], event_id, e["stream_id"], e["version"], e["type"],
                e["schema_version"], _canonical(e["payload"], number),
                _canonical(e["metadata"], number),
                _time(e["recorded_at"], number), e["prev_hash"], e["hash"],
            )  # fmt: skip

    imported = 0
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

        report = check_rows(checked())
        if not report.ok:
            first = report.broken[0]
            where = line_of.get(first.position)
            raise ChainError(f"line {where}: {first}; nothing was imported")
        flush()
        for key in keys:
            tx.insert([], key)
        imported = report.events
    return imported


def _db_row(row: Row, backend: Any) -> dict[str, Any]:
    p, eid, sid, version, kind, sv, payload, metadata, at, prev, digest = row
    return {
        "p": p, "e": backend.db_uuid(eid), "s": sid, "v": version, "t": kind, "sv": sv,
        "pl": payload, "md": metadata, "ra": backend.db_time(at), "ph": prev, "h": digest,
    }  # fmt: skip


def _key_row(data: dict[str, Any], line: int, backend: Any) -> dict[str, Any]:
    return {
        "k": data["idempotency_key"], "s": data["stream_id"], "first": data["first_version"],
        "last": data["last_version"], "ra": backend.db_time(_time(data["recorded_at"], line)),
    }  # fmt: skip

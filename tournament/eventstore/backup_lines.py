"""One line of a backup (JSON Lines) at a time, read strictly: what :mod:`.backup` imports.

Lines are strict JSON in UTF-8: a duplicate key, NaN or Infinity, nesting too deep for the
decoder, a number Python will not convert, or a value the columns cannot hold is an
:class:`ImportFormatError` naming the line, never a driver's error half-way through.

    >>> list(read([b'{"a": 1}', b"", b'{"a": NaN}']))
    Traceback (most recent call last):
    ...
    tournament.eventstore.errors.ImportFormatError: line 3: not valid JSON: NaN is not a JSON number
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from tournament.eventstore.chain import canonical
from tournament.eventstore.errors import ImportFormatError
from tournament.eventstore.registry import TYPE_PATTERN
from tournament.eventstore.store import MAX_VERSION, STREAM_ID

EVENT_FIELDS = {
    "position": int, "event_id": str, "stream_id": str, "version": int, "type": str,
    "schema_version": int, "payload": dict, "metadata": dict, "recorded_at": str,
    "prev_hash": str, "hash": str,
}  # fmt: skip
_INT_LIMITS = {
    "position": 2**63 - 1,
    "events": 2**63 - 1,
}  # others: MAX_VERSION (a 32-bit integer column)
_HASH = re.compile(r"^[0-9a-f]{64}$")
_TEXT_FIELDS = {
    "stream_id": STREAM_ID, "type": TYPE_PATTERN, "prev_hash": _HASH, "hash": _HASH,
    "idempotency_key": re.compile(r"^.{1,200}$", re.S), "head": _HASH, "mac": _HASH,
    "digests": re.compile(r"^(\d{1,19}:[0-9a-f]{16}(,\d{1,19}:[0-9a-f]{16})*)?$"),
    "reason": re.compile(r"^.{1,200}$", re.S), "key_id": re.compile(r"^k[0-9a-f]{1,15}$"),
}  # fmt: skip
SEAL_FIELDS = {
    "seal": int, "position": int, "events": int, "head": str, "digests": str,
    "sealed_at": str, "reason": str, "key_id": str, "mac": str,
}  # fmt: skip
KEY_FIELDS = {
    "idempotency_key": str, "stream_id": str, "first_version": int, "last_version": int,
    "recorded_at": str,
}  # fmt: skip


def typed(data: Any, fields: dict[str, type], line: int) -> dict[str, Any]:
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


def canonical_text(value: dict[str, Any], line: int) -> str:
    try:
        return canonical(value)
    except RecursionError:
        raise ImportFormatError(line, "payload or metadata nested too deeply") from None


def parse_time(text: str, line: int) -> datetime:
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


def read(lines: Iterable[str | bytes]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Numbered JSON values of the non-blank lines. Bytes are decoded here, line by line,
    so that a file that is not UTF-8 fails with its line number."""
    for number, raw in enumerate(lines, start=1):
        if raw.strip():
            yield number, _decode_line(number, raw)

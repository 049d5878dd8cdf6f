"""Canonical JSON and the per-stream hash chain.

An event's hash is the SHA-256 (hex) of the canonical JSON of the array::

    [prev_hash, stream_id, version, event_id, type, schema_version, recorded_at,
     metadata, payload]

where canonical JSON means sorted keys, no whitespace, UTF-8 without ``\\u`` escapes of
non-ASCII, no NaN/Infinity, and ``recorded_at`` is UTC as ``YYYY-MM-DDTHH:MM:SS.ffffffZ``.
The first event of a stream has ``prev_hash`` :data:`GENESIS`. Anyone can re-check a
backup with ``json`` and ``hashlib`` alone.

    >>> canonical({"b": [1, 2.5], "a": "Schnapsen ♥"})
    '{"a":"Schnapsen ♥","b":[1,2.5]}'
    >>> len(event_hash(GENESIS, "hand-1", 1, "00000000-0000-0000-0000-000000000001",
    ...                "hand.dealt", 1, "2024-01-01T00:00:00.000000Z", "{}", "{}"))
    64
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from tournament.eventstore.errors import MalformedEventError

GENESIS = "0" * 64

_encoder = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":")
)
_encode = _encoder.encode
_LEAVES = frozenset({str, int, bool})  # exact types only: floats need a finiteness check


def _string(text: str) -> str:
    """JSON string literal; ids, type names, hashes and time stamps need no escaping."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return _encode(text)


def canonical(value: Any) -> str:
    """Canonical JSON text of an already-checked JSON value."""
    return _encode(value)


def event_hash(
    prev_hash: str,
    stream_id: str,
    version: int,
    event_id: str,
    event_type: str,
    schema_version: int,
    recorded_at: str,
    metadata_json: str,
    payload_json: str,
) -> str:
    """The chained hash; ``*_json`` are canonical texts (spliced, not re-encoded)."""
    body = (
        f"[{_string(prev_hash)},{_string(stream_id)},{version},{_string(event_id)},"
        f"{_string(event_type)},{schema_version},{_string(recorded_at)},"
        f"{metadata_json},{payload_json}]"
    )
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def log_link(prev_head: str, position: int, digest: str) -> str:
    """The log's head after the event at ``position`` whose hash is ``digest``: a chain
    over the whole log in position order, positions included (see .seals)."""
    return hashlib.sha256(f'["{prev_head}",{position},"{digest}"]'.encode()).hexdigest()


def format_time(moment: datetime) -> str:
    """UTC, microseconds, ``Z``: the form the hash covers (naive means UTC)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat(timespec="microseconds") + "Z"


def to_json_value(value: Any, where: str, index: int | None = None) -> Any:
    """A plain JSON copy of ``value`` (tuples become lists), or a typed error naming
    the path of the first thing JSON cannot hold faithfully."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        if not math.isfinite(value):
            raise MalformedEventError(where, f"{value} is not a JSON number", index)
        return value
    if kind is dict and all(
        type(k) is str and (type(v) in _LEAVES or v is None) for k, v in value.items()
    ):
        return dict(value)  # the usual flat payload: no recursion needed
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise MalformedEventError(
                    where, f"key {key!r} is a {type(key).__name__}; JSON keys are strings", index
                )
            out[key] = to_json_value(item, f"{where}.{key}", index)
        return out
    if kind is list or kind is tuple:
        return [to_json_value(item, f"{where}[{i}]", index) for i, item in enumerate(value)]
    if isinstance(value, int | float | str):  # subclasses (IntEnum, ...): store the plain value
        return to_json_value(
            int(value)
            if isinstance(value, int)
            else float(value)
            if isinstance(value, float)
            else str(value),
            where,
            index,
        )
    raise MalformedEventError(
        where,
        f"{type(value).__name__} {value!r:.60} is not JSON (object, array, string, "
        "number, true/false, null)",
        index,
    )

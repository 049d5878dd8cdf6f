"""Schema evolution: events stored at an older schema version read back upcast.

``golden/schema-v1.jsonl`` is an export written when ``test.player_registered`` was at
schema version 1 (``{"name": "Anna Huber"}``). It must keep reading, through pure
upcasters, as the current version; the stored rows and their hashes never change.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tournament.eventstore import EventRegistry, NewEvent, SchemaVersionError, SQLEventStore
from tournament.eventstore.backup import import_store
from tournament.eventstore.verify import verify

GOLDEN = Path(__file__).with_name("golden") / "schema-v1.jsonl"


def v1_to_v2(p: dict[str, Any]) -> dict[str, Any]:
    first, *rest = p["name"].split()
    return {"first": first, "last": " ".join(rest)}


def v2_to_v3(p: dict[str, Any]) -> dict[str, Any]:
    return {**p, "club": None}


def registry() -> EventRegistry:
    reg = EventRegistry()
    reg.register("test.player_registered", 3, upcasters={1: v1_to_v2, 2: v2_to_v3})
    return reg


def test_golden_v1_events_read_as_v3(open_store: Callable[..., SQLEventStore]) -> None:
    store = open_store(registry=registry())
    with GOLDEN.open() as lines:
        assert import_store(store, lines, progress=False) == 3
    events = store.read_stream("tournament-golden")
    assert [(e.schema_version, dict(e.payload)) for e in events] == [
        (3, {"first": "Anna", "last": "Huber", "club": None}),
        (3, {"first": "Josef", "last": "Maria Gruber", "club": None}),
        (3, {"first": "Zoë", "last": "", "club": None}),
    ]
    assert verify(store).ok  # upcasting is on read only: the stored rows are untouched
    # Old and current versions may be written; a version from the future may not.
    store.append("tournament-golden", [NewEvent("test.player_registered", {"name": "A B"})], 3)
    current = {"first": "C", "last": "D", "club": "Wien"}
    store.append("tournament-golden", [NewEvent("test.player_registered", current, {}, 3)], 4)
    assert [e.payload for e in store.read_stream("tournament-golden", 4)] == [
        {"first": "A", "last": "B", "club": None},
        current,
    ]
    with pytest.raises(SchemaVersionError, match=r"1\.\.3"):
        store.append("x", [NewEvent("test.player_registered", current, {}, 4)], 0)


def test_golden_hashes_follow_the_documented_form() -> None:
    """Re-derive a golden hash with json and hashlib alone, as docs/event-store.md says."""
    for line in GOLDEN.read_text().splitlines()[1:]:
        e = json.loads(line)
        body = [
            e["prev_hash"], e["stream_id"], e["version"], e["event_id"], e["type"],
            e["schema_version"], e["recorded_at"], e["metadata"], e["payload"],
        ]  # fmt: skip
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert hashlib.sha256(text.encode()).hexdigest() == e["hash"]


def test_upcaster_chain_must_be_complete() -> None:
    with pytest.raises(SchemaVersionError, match="missing \\[2\\]"):
        EventRegistry().register("test.x", 3, upcasters={1: v1_to_v2})
    with pytest.raises(SchemaVersionError, match="dotted"):
        EventRegistry().register("Test X", 1)
    reg = registry()
    with pytest.raises(SchemaVersionError, match="already registered"):
        reg.register("test.player_registered", 1)

"""The event store: append-only event streams in SQL (SQLite by default, PostgreSQL).

    from tournament.eventstore import SQLEventStore, NewEvent, NO_STREAM, ConcurrencyError
    store = SQLEventStore()                      # DATABASE_URL, else instance/ SQLite
    store.append("match-7", [NewEvent("match.hand_recorded", {...},
                                      {"actor": "referee", "source": "paper"})],
                 expected_version=NO_STREAM, idempotency_key="sheet-7-1")
    state, version = load_aggregate(store, "match-7", initial, apply)  # .fold

See docs/event-store.md for the design and the guarantees.
"""

from tournament.eventstore.api import (
    NO_STREAM,
    ConcurrencyError,
    Decided,
    EventStore,
    EventStoreError,
    KeyRecord,
    NewEvent,
    StoredEvent,
)
from tournament.eventstore.errors import (
    ChainError,
    CheckpointConflictError,
    DuplicateEventError,
    FoldError,
    IdempotencyKeyReusedError,
    ImportFormatError,
    MalformedEventError,
    NotAStoreError,
    PayloadTooLargeError,
    SchemaVersionError,
    StoreMissingError,
    StoreNotEmptyError,
    StoreNotReadyError,
    UnknownEventTypeError,
)
from tournament.eventstore.registry import REGISTRY, EventRegistry, register_event_type
from tournament.eventstore.store import SQLEventStore

__all__ = [
    "NO_STREAM",
    "REGISTRY",
    "ChainError",
    "CheckpointConflictError",
    "ConcurrencyError",
    "Decided",
    "DuplicateEventError",
    "EventRegistry",
    "EventStore",
    "EventStoreError",
    "FoldError",
    "IdempotencyKeyReusedError",
    "ImportFormatError",
    "KeyRecord",
    "MalformedEventError",
    "NewEvent",
    "NotAStoreError",
    "PayloadTooLargeError",
    "SQLEventStore",
    "SchemaVersionError",
    "StoreMissingError",
    "StoreNotEmptyError",
    "StoreNotReadyError",
    "StoredEvent",
    "UnknownEventTypeError",
    "register_event_type",
]

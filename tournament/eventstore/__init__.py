"""The event store: append-only event streams in SQL (SQLite by default, PostgreSQL).

    from tournament.eventstore import SQLEventStore, NewEvent, NO_STREAM, ConcurrencyError
    store = SQLEventStore()                      # DATABASE_URL, else instance/ SQLite
    store.append("match-7", [NewEvent("match.hand_recorded", {...},
                                      {"actor": "referee", "source": "paper"})],
                 expected_version=NO_STREAM, idempotency_key="sheet-7-1")
    state, version = load_aggregate(store, "match-7", initial, apply)  # .fold

See docs/event-store.md for the design and the guarantees.

What the domain needs (the values and the interface of :mod:`.api`, the typed errors,
the registry) is imported here at once: a few small modules, no database driver. The
store itself (:class:`SQLEventStore`, with the database code behind it) is imported the
first time it is named (PEP 562), so that ``import tournament.eventstore.api`` from a pure
module does not load it.

    >>> import tournament.eventstore as es
    >>> es.SQLEventStore.__module__
    'tournament.eventstore.store'
"""

from typing import TYPE_CHECKING

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
from tournament.lazy import lazy_names

if TYPE_CHECKING:
    from tournament.eventstore.store import SQLEventStore

#: Names imported when first used: name -> the module that defines it.
_LAZY = {"SQLEventStore": "tournament.eventstore.store"}


__getattr__ = lazy_names(__name__, _LAZY)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


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

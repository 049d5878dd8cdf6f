"""The store's typed errors beyond :mod:`tournament.eventstore.api`'s two.

Each says what is wrong and where (event index in the batch, JSON path), so the API can
answer with a useful 4xx. All derive from :class:`EventStoreError`; nothing is stored
when one is raised.

    >>> str(MalformedEventError("payload", "not a JSON object", index=2))
    'event 2: payload: not a JSON object'
"""

from __future__ import annotations

from tournament.eventstore.api import ConcurrencyError, EventStoreError

__all__ = [
    "ChainError",
    "CheckpointConflictError",
    "ConcurrencyError",
    "DuplicateEventError",
    "EventStoreError",
    "FoldError",
    "IdempotencyKeyReusedError",
    "ImportFormatError",
    "MalformedEventError",
    "NotAStoreError",
    "PayloadTooLargeError",
    "SchemaVersionError",
    "StoreMissingError",
    "StoreNotEmptyError",
    "StoreNotReadyError",
    "UnknownEventTypeError",
]


class MalformedEventError(EventStoreError, ValueError):
    """An event (or the append's arguments) is not storable: bad JSON, bad stream id..."""

    def __init__(self, where: str, problem: str, index: int | None = None) -> None:
        prefix = f"event {index}: " if index is not None else ""
        super().__init__(f"{prefix}{where}: {problem}")
        self.where = where
        self.problem = problem
        self.index = index


class PayloadTooLargeError(MalformedEventError):
    """The encoded payload or metadata exceeds the store's limit (HTTP 413)."""

    def __init__(self, where: str, size: int, limit: int, index: int | None = None) -> None:
        super().__init__(where, f"{size} bytes encoded, more than the limit of {limit}", index)
        self.size = size
        self.limit = limit


class UnknownEventTypeError(EventStoreError, ValueError):
    """The event type is not registered (see :mod:`tournament.eventstore.registry`)."""

    def __init__(self, event_type: str, index: int | None = None) -> None:
        prefix = f"event {index}: " if index is not None else ""
        super().__init__(
            f"{prefix}unknown event type {event_type!r}: register it with "
            "tournament.eventstore.registry.register_event_type"
        )
        self.event_type = event_type
        self.index = index


class SchemaVersionError(EventStoreError, ValueError):
    """A schema version the registry cannot read, or an upcaster chain with a hole."""


class IdempotencyKeyReusedError(EventStoreError):
    """The idempotency key was first used for a different stream (a caller bug)."""

    def __init__(self, key: str, first_stream: str, stream_id: str) -> None:
        super().__init__(
            f"idempotency key {key!r} was used for stream {first_stream!r}, not {stream_id!r}"
        )
        self.key = key
        self.first_stream = first_stream
        self.stream_id = stream_id


class DuplicateEventError(EventStoreError):
    """An event id is already stored (a retry without an idempotency key?)."""


class CheckpointConflictError(EventStoreError):
    """Another runner moved the projection's checkpoint first; this batch rolled back."""


class ChainError(EventStoreError):
    """A hash chain does not verify (tampering, or a corrupt backup)."""


class ImportFormatError(EventStoreError, ValueError):
    """A line of an export file is not a valid record, or (``line`` None) the file as a
    whole is not a complete backup."""

    def __init__(self, line: int | None, problem: str) -> None:
        super().__init__(problem if line is None else f"line {line}: {problem}")
        self.line = line
        self.problem = problem


class StoreNotReadyError(EventStoreError):
    """The database has no event store tables: run ``tournament db upgrade``."""


class StoreMissingError(StoreNotReadyError):
    """There is no database at the configured place (a SQLite file that does not exist).
    Nothing creates one on a read: a mistyped path must not leave an empty store behind."""


class NotAStoreError(EventStoreError):
    """The configured file or database is not a tournament store (not SQLite at all, or a
    database of another program); it is neither read nor migrated."""


class StoreNotEmptyError(EventStoreError):
    """Import restores a whole store and so needs an empty one."""


class FoldError(EventStoreError):
    """An event in a stream cannot be folded into the state (names the rule broken)."""

    def __init__(self, stream_id: str, version: int, rule: str, message: str) -> None:
        super().__init__(f"stream {stream_id!r} version {version}: [{rule}] {message}")
        self.stream_id = stream_id
        self.version = version
        self.rule = rule
        self.message = message

"""The narrow interface every event store implements, and the values it deals in.

Everything in the service writes through ``EventStore.append`` (or, to decide on the
newest state under the stream's lock, ``append_decided``) and reads back through
``read_stream`` / ``read_all``. Events are plain data: a stable type string, a schema
version and a JSON payload; nothing Python-specific is stored.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

#: ``expected_version`` for "this stream must not exist yet".
NO_STREAM = 0


@dataclasses.dataclass(frozen=True)
class NewEvent:
    """An event to append: a stable type (``match.hand_recorded``), payload and metadata.

    ``metadata`` carries who (``actor``), where from (``source``: paper / live / import),
    ``correlation_id`` and anything else the writer wants to keep beside the event.
    """

    type: str
    payload: Mapping[str, Any]
    metadata: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    schema_version: int = 1
    event_id: uuid.UUID = dataclasses.field(default_factory=uuid.uuid4)


@dataclasses.dataclass(frozen=True)
class StoredEvent:
    """An event as stored: its place in the stream and in the global log, and its hash."""

    event_id: uuid.UUID
    stream_id: str
    version: int  # 1, 2, 3 ... within the stream, no gaps
    position: int  # global log position, strictly increasing in commit order
    type: str
    schema_version: int
    payload: Mapping[str, Any]
    metadata: Mapping[str, Any]
    recorded_at: datetime
    prev_hash: str
    hash: str

    if not TYPE_CHECKING:  # for the type checker, both are plain fields

        def __getattr__(self, name: str) -> Any:
            """``event_id`` and ``recorded_at`` of an event read from SQLite, parsed from
            their stored text the first time they are asked for (then kept): most readers
            of the log never look at them, and parsing them cost a read as much as its
            JSON (issue 22). Called only for an attribute the instance does not have."""
            parse = _LAZY_FIELDS.get(name)
            text = self.__dict__.get("_text_" + name) if parse is not None else None
            if text is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            value = parse()(text)
            self.__dict__[name] = value  # immutable, like the field it stands for
            return value


def _text_uuid() -> Callable[[str], uuid.UUID]:
    from tournament.eventstore.sqlite_backend import text_uuid

    return text_uuid


def _text_time() -> Callable[[str], datetime]:
    from tournament.eventstore.sqlite_backend import text_time

    return text_time


#: The fields :meth:`StoredEvent.__getattr__` parses from text on first use (kept in the
#: instance as ``_text_<field>``), and their parsers.
_LAZY_FIELDS: dict[str, Callable[[], Callable[[str], Any]]] = {
    "event_id": _text_uuid,
    "recorded_at": _text_time,
}


@dataclasses.dataclass(frozen=True)
class KeyRecord:
    """What an idempotency key names: the append it was first used for."""

    key: str
    stream_id: str
    first_version: int
    last_version: int
    recorded_at: datetime
    events: list[StoredEvent]  # versions first_version..last_version of stream_id


@dataclasses.dataclass(frozen=True)
class Decided:
    """What :meth:`EventStore.append_decided` did: ``events`` it appended now, or, when
    ``replayed``, the events its idempotency key stored the first time (nothing was
    decided or stored this time)."""

    events: list[StoredEvent]
    replayed: bool = False


#: ``decide(events)``: given the stream's events after the caller's version (read under
#: the stream's lock), the events to append; raising stores nothing.
Decide = Callable[[list[StoredEvent]], Sequence[NewEvent]]


class EventStoreError(Exception):
    """Base class of the store's typed errors."""


class ConcurrencyError(EventStoreError):
    """The stream's version was not the expected one (the API answers HTTP 409)."""

    def __init__(self, stream_id: str, expected: int | None, actual: int) -> None:
        super().__init__(
            f"stream {stream_id!r} is at version {actual}, not the expected {expected}"
        )
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual


class EventStore(Protocol):
    """What the domain, the API and the workers may rely on; nothing more."""

    def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        expected_version: int | None,
        idempotency_key: str | None = None,
    ) -> list[StoredEvent]:
        """Append atomically. ``expected_version`` is the stream's current version
        (``NO_STREAM`` for a new stream, None for no check); a mismatch raises
        :class:`ConcurrencyError` and stores nothing. Repeating an ``idempotency_key``
        returns the events stored the first time and stores nothing.
        """
        ...

    def append_decided(
        self,
        stream_id: str,
        decide: Decide,
        *,
        after_version: int = 0,
        idempotency_key: str | None = None,
    ) -> Decided:
        """Decide and append under the stream's lock, so that nobody appends to the stream
        between the read the decision rests on and the append: a used
        ``idempotency_key`` returns what it stored (``replayed``) without calling
        ``decide``; otherwise ``decide`` gets the events after ``after_version`` and its
        events are appended after them (expected version still checked), atomically.
        """
        ...

    def read_key(self, key: str) -> KeyRecord | None:
        """What ``key`` stored when it was first used (None: never used)."""
        ...

    def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[StoredEvent]: ...

    def read_all(self, after_position: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """The global log in order, never skipping an event committed before the read."""
        ...

    def stream_version(self, stream_id: str) -> int: ...

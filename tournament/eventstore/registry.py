"""Known event types: their current schema version, upcasters and payload checks.

Every module that writes events registers its types once, at import::

    >>> registry = EventRegistry()
    >>> _ = registry.register(
    ...     "player.registered", schema_version=2,
    ...     upcasters={1: lambda p: {"first": p["name"].split()[0],
    ...                              "last": p["name"].split()[-1]}},
    ... )
    >>> registry.upcast("player.registered", 1, {"name": "Anna Huber"})
    (2, {'first': 'Anna', 'last': 'Huber'})

``upcasters[n]`` is a pure function lifting a version-``n`` payload to version ``n + 1``;
reads apply the chain up to the current version, the stored row never changes. Writing
an unregistered type is an :class:`UnknownEventTypeError`; writing an older (but known)
version is allowed, so that an old process in a rolling deploy keeps working.

:data:`REGISTRY` is the process-wide registry the store uses by default;
:func:`register_event_type` registers into it.
"""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any

from tournament.eventstore.errors import SchemaVersionError, UnknownEventTypeError

Payload = dict[str, Any]
Upcaster = Callable[[Payload], Payload]
#: Checks a payload, raising ValueError (or an engine error) with a message saying what is wrong.
Validator = Callable[[Mapping[str, Any]], None]

#: Stable type strings: dotted lower-case words, e.g. ``match.hand_recorded``.
TYPE_PATTERN = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$")


@dataclasses.dataclass(frozen=True)
class EventType:
    name: str
    schema_version: int
    upcasters: Mapping[int, Upcaster]
    validate: Validator | None = None


class EventRegistry:
    """A set of event types; thread-safe to register into."""

    def __init__(self) -> None:
        self._types: dict[str, EventType] = {}
        self._lock = threading.Lock()

    def register(
        self,
        name: str,
        schema_version: int = 1,
        upcasters: Mapping[int, Upcaster] | None = None,
        validate: Validator | None = None,
    ) -> EventType:
        """Register ``name``; registering it again at the same version replaces it."""
        if not TYPE_PATTERN.match(name) or len(name) > 100:
            raise SchemaVersionError(
                f"event type {name!r} must be dotted lower-case words (e.g. 'hand.dealt'), "
                "at most 100 characters"
            )
        if not isinstance(schema_version, int) or schema_version < 1:
            raise SchemaVersionError(f"{name}: schema_version must be an int >= 1")
        upcasters = dict(upcasters or {})
        missing = [v for v in range(1, schema_version) if v not in upcasters]
        extra = [v for v in upcasters if not 1 <= v < schema_version]
        if missing or extra:
            raise SchemaVersionError(
                f"{name} is at schema version {schema_version}: it needs one upcaster for "
                f"each of versions 1..{schema_version - 1} (missing {missing}, unexpected {extra})"
            )
        entry = EventType(name, schema_version, upcasters, validate)
        with self._lock:
            old = self._types.get(name)
            if old is not None and old.schema_version != schema_version:
                raise SchemaVersionError(
                    f"event type {name!r} is already registered at schema version "
                    f"{old.schema_version}, not {schema_version}"
                )
            self._types[name] = entry
        return entry

    def get(self, name: str) -> EventType:
        try:
            return self._types[name]
        except KeyError:
            raise UnknownEventTypeError(name) from None

    def __contains__(self, name: object) -> bool:
        return name in self._types

    def names(self) -> list[str]:
        return sorted(self._types)

    def upcast(self, name: str, version: int, payload: Payload) -> tuple[int, Payload]:
        """Lift ``payload`` from ``version`` to the type's current version.

        Unknown types (written by a module this process has not imported) pass through
        unchanged: reading never fails for want of a registration.
        """
        entry = self._types.get(name)
        if entry is None or version >= entry.schema_version:
            return version, payload
        for step in range(version, entry.schema_version):
            payload = entry.upcasters[step](payload)
        return entry.schema_version, payload


#: The process-wide registry (the store's default).
REGISTRY = EventRegistry()


def register_event_type(
    name: str,
    schema_version: int = 1,
    upcasters: Mapping[int, Upcaster] | None = None,
    validate: Validator | None = None,
) -> EventType:
    """Register an event type into :data:`REGISTRY` (call at module import)."""
    return REGISTRY.register(name, schema_version, upcasters, validate)

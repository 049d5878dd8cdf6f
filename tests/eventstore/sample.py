"""Event types of the store's own tests: the store knows no game, so its tests use these.

``sample.moved`` is checked on append (a seat 0 or 1 and an action word), as a domain's
types are; ``sample.noted`` takes any payload. Imported by the fixtures and by the worker
processes, which register them with the store's registry the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournament.eventstore import REGISTRY, NewEvent

MOVED = "sample.moved"
NOTED = "sample.noted"


def _check_moved(payload: Mapping[str, Any]) -> None:
    if payload.get("seat") not in (0, 1) or not isinstance(payload.get("action"), str):
        raise ValueError("needs a seat (0 or 1) and an action")


REGISTRY.register(MOVED, 1, validate=_check_moved)  # again at the same version: harmless
REGISTRY.register(NOTED, 1)


def moved(seat: int, action: str = "close", **metadata: Any) -> NewEvent:
    return NewEvent(MOVED, {"seat": seat, "action": action}, dict(metadata))

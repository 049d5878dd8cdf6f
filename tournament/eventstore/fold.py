"""Current state from a stream: fold its events through a pure ``apply`` function.

    >>> from tournament.eventstore.api import StoredEvent
    >>> def count(total, event):
    ...     return total + event.payload["n"]
    >>> fold([], 0, count)
    0

``load_aggregate(store, stream_id, initial, apply)`` reads a stream and folds it, and
gives the version to pass as ``expected_version`` to the next append::

    state, version = load_aggregate(store, "match-7", Match(...), apply_match_event)
    store.append("match-7", [event], expected_version=version)   # 409 if someone was faster

The store knows no event's meaning: ``apply`` is the domain's (live hands:
:func:`tournament.domain.model.hands.load_hand`). No snapshots: a hand has at most ~30 events
and folds in microseconds (see bench/eventstore.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Generic, NamedTuple, TypeVar

from tournament.eventstore.api import EventStore, StoredEvent

__all__ = ["Loaded", "fold", "load_aggregate"]

S = TypeVar("S")


class Loaded(NamedTuple, Generic[S]):
    state: S
    version: int  # the stream's version: the next append's expected_version


def fold(events: Iterable[StoredEvent], initial: S, apply: Callable[[S, StoredEvent], S]) -> S:
    """``apply`` each event in turn (``apply`` raises :class:`FoldError` for an event its
    state cannot take)."""
    state = initial
    for event in events:
        state = apply(state, event)
    return state


def load_aggregate(
    store: EventStore, stream_id: str, initial: S, apply: Callable[[S, StoredEvent], S]
) -> Loaded[S]:
    """Read ``stream_id`` and fold it from ``initial``; version 0 if it does not exist."""
    events = store.read_stream(stream_id)
    version = events[-1].version if events else 0
    return Loaded(fold(events, initial, apply), version)

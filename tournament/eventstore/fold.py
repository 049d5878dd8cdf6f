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

Hands: :func:`fold_hand` / :func:`load_hand`. No snapshots: a hand has at most ~30
events and folds in microseconds (see bench/eventstore.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Generic, NamedTuple, TypeVar

from engine import EngineError, HandState
from tournament.eventstore.api import EventStore, StoredEvent
from tournament.eventstore.errors import FoldError
from tournament.eventstore.hands import apply_hand_event, fold_hand

__all__ = ["Loaded", "fold", "fold_hand", "load_aggregate", "load_hand"]

S = TypeVar("S")


class Loaded(NamedTuple, Generic[S]):
    state: S
    version: int  # the stream's version: the next append's expected_version


def fold(events: Iterable[StoredEvent], initial: S, apply: Callable[[S, StoredEvent], S]) -> S:
    """``apply`` each event in turn; an engine refusal becomes a :class:`FoldError`."""
    state = initial
    for event in events:
        try:
            state = apply(state, event)
        except EngineError as error:
            raise FoldError(event.stream_id, event.version, error.rule, error.message) from None
    return state


def load_aggregate(
    store: EventStore, stream_id: str, initial: S, apply: Callable[[S, StoredEvent], S]
) -> Loaded[S]:
    """Read ``stream_id`` and fold it from ``initial``; version 0 if it does not exist."""
    events = store.read_stream(stream_id)
    version = events[-1].version if events else 0
    return Loaded(fold(events, initial, apply), version)


def load_hand(store: EventStore, stream_id: str) -> Loaded[HandState]:
    """The hand's state and version; :class:`FoldError` if the stream is empty or bad."""
    events = store.read_stream(stream_id)
    if not events:
        raise FoldError(stream_id, 0, "stream", "no such hand")
    state: HandState | None = None
    for event in events:
        state = apply_hand_event(state, event)
    assert state is not None
    return Loaded(state, events[-1].version)

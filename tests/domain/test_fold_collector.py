"""Folding pauses Python's cyclic garbage collector (a fold builds a great many objects
that all stay alive) and hands it back as it found it, however folds nest or fail."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from tournament.domain.model.state import collector_paused, fold
from tournament.domain.testing import registered

EVENTS = registered(4)


def watched(events: list[Any], seen: list[bool], inner: bool = False) -> Iterator[Any]:
    """The events, noting whether the collector runs while each is folded."""
    for event in events:
        seen.append(gc.isenabled())
        if inner:
            fold(EVENTS)  # a fold inside a fold (the service reads while folding)
            seen.append(gc.isenabled())
        yield event


def test_the_collector_is_paused_while_folding_and_runs_again_after() -> None:
    assert gc.isenabled()
    seen: list[bool] = []
    t = fold(watched(EVENTS, seen, inner=True))
    assert seen and not any(seen)
    assert gc.isenabled()
    assert len(t.players) == 4


def test_a_collector_switched_off_before_stays_off() -> None:
    gc.disable()
    try:
        fold(EVENTS)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_failing_fold_still_hands_the_collector_back() -> None:
    def broken() -> Iterator[Any]:
        yield from EVENTS
        raise RuntimeError("the store went away")

    with pytest.raises(RuntimeError):
        fold(broken())
    assert gc.isenabled()


def test_objects_someone_froze_stay_frozen() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector_paused():
            fold(EVENTS)
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()

"""When the log is sealed: at intervals as appends come (every N events or seconds), at
the end of every round, and by hand; a seal that cannot be made never loses an append."""

from __future__ import annotations

import logging
import threading

import pytest

from tests.eventstore.test_verify_backup import act
from tournament.eventstore import SQLEventStore
from tournament.eventstore.seals import SealKey, SealPolicy
from tournament.eventstore.verify import verify

KEY = SealKey(bytes(range(32)))


def test_appends_seal_the_log_every_n_events(store: SQLEventStore) -> None:
    store.sealing = SealPolicy(KEY, every_events=3, every_seconds=3600)
    for n in range(7):
        store.append(f"s{n % 2}", [act()], None)
    # The first append seals at once (a store never sealed), then every 3 events.
    assert [(s.seq, s.position, s.events) for s in store.seals()] == [
        (1, 1, 1),
        (2, 4, 4),
        (3, 7, 7),
    ]
    assert all(s.reason == "interval" for s in store.seals())
    report = verify(store, key=KEY)
    assert report.ok and report.seals == 3 and report.unsealed == 0


def test_appends_seal_the_log_when_the_interval_has_passed(store: SQLEventStore) -> None:
    store.sealing = SealPolicy(KEY, every_events=1000, every_seconds=0)
    for _ in range(3):
        store.append("s", [act()], None)
    assert [s.position for s in store.seals()] == [1, 2, 3]


def test_a_seal_that_cannot_be_made_never_fails_the_append(
    store: SQLEventStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("SCHNAPSEN_SEAL_KEY", "not hex")
    store.sealing = SealPolicy.from_environment()
    with caplog.at_level(logging.WARNING):
        stored = store.append("s", [act()], 0)
    assert [e.version for e in store.read_stream("s")] == [e.version for e in stored] == [1]
    assert store.seals() == []
    assert "the log was not sealed: SCHNAPSEN_SEAL_KEY: a seal key is 64 hex digits" in caplog.text


def test_sealing_by_hand_covers_every_event_and_is_idempotent(store: SQLEventStore) -> None:
    assert store.seal("by hand", KEY) is None  # an empty log: nothing to seal
    store.append("s", [act(), act()], 0)
    first = store.seal("by hand", KEY)
    assert first is not None and (first.seq, first.position, first.events) == (1, 2, 2)
    assert store.seal("again", KEY) == first  # nothing new: the latest seal stands


def test_processes_sealing_at_once_leave_one_unbroken_row_of_seals(store: SQLEventStore) -> None:
    """Two writers that seal at the same moment: the second computes its seal again on
    top of the first; seals stay numbered 1, 2, 3 … and every one matches the log."""
    errors: list[BaseException] = []

    def write(i: int) -> None:
        try:
            for n in range(15):
                store.append(f"w{i}", [act()], n)
                store.seal(f"writer {i}", KEY)
        except BaseException as error:  # pragma: no cover
            errors.append(error)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    seals = store.seals()
    assert [s.seq for s in seals] == list(range(1, len(seals) + 1))
    assert seals[-1].events == 60
    report = verify(store, key=KEY)
    assert report.ok and report.seals == len(seals), report.broken[:3]

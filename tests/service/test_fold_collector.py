"""The service folds a tournament as ``fold`` does: with Python's cyclic garbage collector
paused (a fold builds objects that all stay alive, so a collection during it walks them
for nothing), whether it folds the whole stream or what other writers appended, and it
hands the collector back afterwards."""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from tests.databases import Database
from tournament.app.service import TournamentService
from tournament.domain.commands.registration import register_player
from tournament.domain.testing import paired
from tournament.eventstore import SQLEventStore, StoredEvent
from tournament.eventstore.api import Decide, Decided


class Noted:
    """An event that notes, when the fold reads its payload, whether the collector runs."""

    def __init__(self, event: StoredEvent, seen: list[bool]) -> None:
        self.event, self.seen = event, seen
        self.type, self.version = event.type, event.version

    @property
    def payload(self) -> Any:
        self.seen.append(gc.isenabled())
        return self.event.payload


class Watching:
    """The store (a real one), every event it hands the service wrapped in :class:`Noted`."""

    def __init__(self, store: SQLEventStore, seen: list[bool]) -> None:
        self.store, self.seen = store, seen

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def read_stream(self, *args: Any) -> list[Any]:
        return [Noted(e, self.seen) for e in self.store.read_stream(*args)]

    def append_decided(self, stream_id: str, decide: Decide, **kwargs: Any) -> Decided:
        def noting(since: list[StoredEvent]) -> Sequence[Any]:
            return decide([Noted(e, self.seen) for e in since])  # type: ignore[misc]

        return self.store.append_decided(stream_id, noting, **kwargs)


@pytest.fixture
def store(sqlite_db: Database) -> Iterator[SQLEventStore]:
    store = SQLEventStore(sqlite_db.url)
    store.append("tournament-test", paired(players=4, best_of=3), expected_version=0)
    yield store
    store.close()


def test_the_whole_tournament_is_folded_with_the_collector_paused(store: SQLEventStore) -> None:
    seen: list[bool] = []
    service = TournamentService(Watching(store, seen))  # type: ignore[arg-type]
    assert len(service.state("test").players) == 4
    assert len(seen) > 4 and not any(seen)
    assert gc.isenabled()


def test_what_others_appended_is_folded_under_the_lock_with_the_collector_paused(
    store: SQLEventStore,
) -> None:
    seen: list[bool] = []
    service = TournamentService(Watching(store, seen))  # type: ignore[arg-type]
    service.state("test")
    other = TournamentService(store)
    other.execute("test", lambda t: register_player(t, "Emil"))  # while we are not looking
    seen.clear()
    service.execute("test", lambda t: register_player(t, "Franz"))
    assert seen == [False]  # Emil's registration, folded under the lock before deciding
    assert [p.name for p in service.state("test").players.values()][-2:] == ["Emil", "Franz"]
    assert gc.isenabled()

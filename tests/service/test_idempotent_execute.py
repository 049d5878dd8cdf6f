"""``TournamentService.execute`` with an idempotency key (the web API's
``Idempotency-Key``, a CSV file's content): a key used before returns what it stored then,
without deciding again; and the service decides on the newest state, always."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.databases import Database
from tournament.app.service import TournamentService
from tournament.domain.commands.registration import register_player
from tournament.domain.commands.results import record_forfeit
from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.testing import paired
from tournament.eventstore import ConcurrencyError, IdempotencyKeyReusedError, SQLEventStore
from tournament.eventstore.api import Decided


@pytest.fixture
def service(db: Database) -> Iterator[TournamentService]:
    engine = db.engine()
    store = SQLEventStore(engine)
    store.append("tournament-test", paired(players=2, best_of=1), expected_version=0)
    yield TournamentService(store)
    engine.dispose()


def test_a_used_key_returns_the_first_events_without_deciding_again(
    service: TournamentService,
) -> None:
    def win(t: Any) -> Any:
        return record_forfeit(t, "1.1", winner=1)

    first = service.submit("test", win, idempotency_key="api-7f3a")
    assert not first.replayed and service.state("test").matches["1.1"].decided
    # Deciding again now would refuse: the match is decided (R20). The key answers instead.
    again = service.submit("test", win, idempotency_key="api-7f3a")
    assert again.replayed and again.events == first.events
    assert service.execute("test", win, idempotency_key="api-7f3a") == first.events
    with pytest.raises(DomainError, match="R20"):
        service.execute("test", win, idempotency_key="api-other")
    assert len(service.events("test")) == len(paired(players=2, best_of=1)) + 1


def test_a_key_of_one_tournament_is_no_key_of_another(
    service: TournamentService,
) -> None:
    service.store.append("tournament-other", paired(players=2, best_of=1), expected_version=0)
    service.execute("test", lambda t: register_player(t, "Carla"), idempotency_key="k")
    with pytest.raises(IdempotencyKeyReusedError):
        service.execute("other", lambda t: register_player(t, "Carla"), idempotency_key="k")


def test_a_command_for_a_tournament_that_does_not_exist_stores_nothing(
    service: TournamentService,
) -> None:
    with pytest.raises(NotFoundError, match="there is no tournament 'nope'"):
        service.execute("nope", lambda t: register_player(t, "Anna"))
    assert service.store.read_stream("tournament-nope") == []


def test_two_services_on_one_store_each_decide_on_the_newest_state(
    service: TournamentService,
) -> None:
    other = TournamentService(service.store)
    for n in range(4):
        for s in (service, other):
            s.state("test")  # each keeps a cached state, soon stale
            name = f"{'AB'[s is other]}{n}"
            s.execute("test", lambda t, name=name: register_player(t, name))
    assert sorted(service.state("test").players) == list(range(1, 2 + 8 + 1))


class LosingStore:
    """A store on which a writer without the lock wins the first ``losses`` races."""

    def __init__(self, store: SQLEventStore, losses: int) -> None:
        self.store, self.losses, self.attempts = store, losses, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def append_decided(self, stream_id: str, decide: Any, **kwargs: Any) -> Decided:
        self.attempts += 1
        if self.attempts <= self.losses:
            raise ConcurrencyError(stream_id, 0, 1)
        return self.store.append_decided(stream_id, decide, **kwargs)


def test_a_lost_race_is_decided_again_a_bounded_number_of_times(
    service: TournamentService,
) -> None:
    store = service.store
    assert isinstance(store, SQLEventStore)
    flaky = LosingStore(store, losses=2)
    stored = TournamentService(flaky).execute("test", lambda t: register_player(t, "Carla"))  # type: ignore[arg-type]
    assert flaky.attempts == 3 and stored[0].payload["name"] == "Carla"
    hopeless = LosingStore(store, losses=99)
    with pytest.raises(ConflictError, match="T-concurrency"):
        TournamentService(hopeless, retries=3).execute(  # type: ignore[arg-type]
            "test", lambda t: register_player(t, "Doris")
        )
    assert hopeless.attempts == 3

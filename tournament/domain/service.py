"""Load a tournament from the event store, run a command, append its events: the I/O edge.

    store = SQLEventStore(url)
    service = TournamentService(store)
    service.create("club-cup", {"name": "Club Cup"})
    service.execute("club-cup", lambda t: commands.register_player(t, "Anna"))
    service.state("club-cup").players

Commands are pure, so a write that loses a race (:class:`ConcurrencyError`: somebody
appended first) is simply decided again on the newer state and retried. The service
keeps each tournament's folded state and reads only the events appended since, so a
long-running process (the web app, a worker) pays for one result, not for the whole log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tournament.domain import events as ev
from tournament.domain.errors import ConflictError, NotFoundError
from tournament.domain.registration import create_tournament
from tournament.domain.state import Tournament, fold
from tournament.eventstore.api import NO_STREAM, ConcurrencyError, EventStore, NewEvent, StoredEvent

Command = Callable[[Tournament], list[NewEvent]]


class TournamentService:
    """Tournaments on an :class:`EventStore`, one stream ``tournament-<id>`` each."""

    def __init__(self, store: EventStore, *, retries: int = 5) -> None:
        self.store = store
        self.retries = retries
        self._cache: dict[str, Tournament] = {}

    def events(self, tournament_id: str) -> list[StoredEvent]:
        """Every event of the tournament, oldest first."""
        return self.store.read_stream(ev.stream_id(tournament_id))

    def state(self, tournament_id: str, *, as_of: int | None = None) -> Tournament:
        """The tournament now (incrementally from the cached state), or after event ``as_of``."""
        if as_of is not None:
            events = self.store.read_stream(ev.stream_id(tournament_id), 1, as_of)
            t = fold(events)
        else:
            t = self._cache.get(tournament_id) or Tournament()
            for event in self.store.read_stream(ev.stream_id(tournament_id), t.version + 1):
                t.apply(event)
            self._cache[tournament_id] = t
        if not t.created:
            raise NotFoundError(
                "tournament", "T-settings", f"there is no tournament {tournament_id!r}"
            )
        return t

    def create(
        self,
        tournament_id: str,
        settings: Mapping[str, Any],
        *,
        actor: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> list[StoredEvent]:
        events = ev.stamped(create_tournament(tournament_id, settings, actor=actor), metadata or {})
        try:
            return self.store.append(
                ev.stream_id(tournament_id), events, expected_version=NO_STREAM
            )
        except ConcurrencyError:
            raise ConflictError(
                "tournament_id", "T-settings", f"tournament {tournament_id!r} exists already"
            ) from None

    def execute(
        self,
        tournament_id: str,
        command: Command,
        *,
        idempotency_key: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> list[StoredEvent]:
        """Decide ``command`` on the current state and append its events atomically,
        each with ``metadata`` laid over its own (e.g. the action's ``correlation_id``).

        A :class:`DomainError` from the command propagates and nothing is stored.
        """
        for _ in range(self.retries):
            t = self.state(tournament_id)
            new = ev.stamped(command(t), metadata or {})
            if not new:
                return []
            try:
                return self.store.append(
                    ev.stream_id(tournament_id),
                    new,
                    expected_version=t.version,
                    idempotency_key=idempotency_key,
                )
            except ConcurrencyError:
                continue  # somebody else appended first: decide again on the newer state
        raise ConflictError(
            "tournament", "T-concurrency", "the tournament kept changing while writing; try again"
        )

    def tournament_ids(self) -> list[str]:
        """Ids of every tournament in the store, oldest first (reads the whole log)."""
        ids: list[str] = []
        after = 0
        while True:
            batch = self.store.read_all(after, 5000)
            if not batch:
                return ids
            ids += [e.payload["tournament_id"] for e in batch if e.type == ev.TOURNAMENT_CREATED]
            after = batch[-1].position

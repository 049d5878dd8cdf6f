"""Load a tournament from the event store, run a command, append its events: the I/O edge.

    store = SQLEventStore(url)
    service = TournamentService(store)
    service.create("club-cup", {"name": "Club Cup"})
    service.execute("club-cup", lambda t: commands.register_player(t, "Anna"))
    service.state("club-cup").players

A command is decided and appended under the tournament's lock
(:meth:`EventStore.append_decided`): inside it the service reads what was appended since
its cached state, folds it, decides the command on that newest state and appends, so
writers of one tournament queue instead of losing races, and none is refused for being
second. The service keeps each tournament's folded state and reads only the events
appended since, so a long-running process (the web app, a worker) pays for one result,
not for the whole log.

An ``idempotency_key`` (the web API's ``Idempotency-Key``, a CSV file's content) is looked
up first, under the same lock: if it was used, what it stored then is returned
(``Executed.replayed``) without deciding the command again -- deciding again could refuse
what was accepted then (the match may be decided by now).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from tournament.domain.commands.registration import create_tournament
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError, NotFoundError
from tournament.domain.model.state import Tournament, fold
from tournament.eventstore.api import NO_STREAM, ConcurrencyError, EventStore, NewEvent, StoredEvent

Command = Callable[[Tournament], list[NewEvent]]


@dataclasses.dataclass(frozen=True)
class Executed:
    """What :meth:`TournamentService.submit` did: ``events`` appended now, or, when
    ``replayed``, the events its idempotency key stored the first time (nothing was
    decided or stored this time)."""

    events: list[StoredEvent]
    replayed: bool = False


class TournamentService:
    """Tournaments on an :class:`EventStore`, one stream ``tournament-<id>`` each."""

    def __init__(self, store: EventStore, *, retries: int = 5) -> None:
        self.store = store
        #: Attempts when a writer without the stream's lock (a plain ``store.append``)
        #: appended first; writers through this service never race each other.
        self.retries = retries
        self._cache: dict[str, Tournament] = {}
        # One thread folds into a cached state at a time, or reads one (``reading``);
        # reentrant, so that a reader may ask for the state it reads.
        self._folding = threading.RLock()
        #: Called with a tournament's id after each command of this service stored events
        #: (the web app nudges the tournament's projection); a failing one is logged.
        self.committed: list[Callable[[str], object]] = []

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
            t = self._fold(
                tournament_id, t, self.store.read_stream(ev.stream_id(tournament_id), t.version + 1)
            )
        if not t.created:
            raise _no_tournament(tournament_id)
        return t

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Hold off every fold into the cached states while a view is worked out from one
        (``with service.reading(): rows = standings(service.state(tid))``): the states
        are shared by the web app's threads, and a view worked out while another thread
        folds a result into the same state could see half of it. Keep it short, and do
        no store write inside it (a writer folds while holding the store's lock)."""
        with self._folding:
            yield

    def _fold(self, tournament_id: str, t: Tournament, since: list[StoredEvent]) -> Tournament:
        """``t`` advanced by ``since`` (in place) and kept as the cached state.

        Folded as :func:`tournament.domain.model.state.fold` folds, with the cyclic collector
        paused (``Tournament.apply_all``): a fold builds objects that all stay alive, so a
        collection during it walks them for nothing (1,024 players: 0.78 s of CPU with
        the collector, 0.44 s without)."""
        if (not since or since[-1].version <= t.version) and self._cache.get(tournament_id) is t:
            # Nothing new (the common read: an online table's every move asks): no lock.
            # Safe without it: ``t`` is already the cached state, and the lock never made
            # a returned state immune to later folds anyway (only ``reading`` does that,
            # and a caller inside ``reading`` holds the lock, so no fold runs meanwhile).
            # If another thread is folding into ``t`` right now, the events it folds are
            # newer than the ones read here (``since`` was read from ``t.version + 1``
            # onwards after that fold began, or is empty because it took them all): this
            # caller sees at least the version it asked for, as with the lock (``version``
            # moves only once an event is wholly applied: ``Tournament.apply``). Without
            # this path every read waited for a projection run's ``reading`` (~100 ms
            # for 400 players) even when it folds nothing.
            return t
        with self._folding:
            # Another thread may have folded some of them already.
            t.apply_all(event for event in since if event.version > t.version)
            self._cache[tournament_id] = t
        return t

    def create(
        self,
        tournament_id: str,
        settings: Mapping[str, Any],
        *,
        actor: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> list[StoredEvent]:
        """Create the tournament; a used ``idempotency_key`` returns what it stored."""
        events = ev.stamped(create_tournament(tournament_id, settings, actor=actor), metadata or {})
        try:
            stored = self.store.append(
                ev.stream_id(tournament_id),
                events,
                expected_version=NO_STREAM,
                idempotency_key=idempotency_key,
            )
        except ConcurrencyError:
            raise ConflictError(
                "tournament_id",
                "T-settings",
                code="service.tournament_exists_already",
                params={"tournament_id": repr(tournament_id)},
            ) from None
        self._committed(tournament_id)
        return stored

    def execute(
        self,
        tournament_id: str,
        command: Command,
        *,
        idempotency_key: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> list[StoredEvent]:
        """Decide ``command`` on the newest state and append its events atomically, each
        with ``metadata`` laid over its own (e.g. the action's ``correlation_id``); with a
        used ``idempotency_key``, the events it stored the first time.

        A :class:`DomainError` from the command propagates and nothing is stored.
        """
        return self.submit(
            tournament_id, command, idempotency_key=idempotency_key, metadata=metadata
        ).events

    def submit(
        self,
        tournament_id: str,
        command: Command,
        *,
        idempotency_key: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Executed:
        """:meth:`execute`, saying whether the events were stored now or replayed."""
        stream = ev.stream_id(tournament_id)
        # A used idempotency_key is answered by append_decided, which looks it up under
        # the stream's lock in the round trip that reads the stream: a retry (rare) waits
        # for the lock, and no first request pays a lookup of its own (issue 22).
        for attempt in range(self.retries):
            t = self._cache.get(tournament_id) or Tournament()
            if not t.version:
                # Folded up to now before the lock, so that under it only what other
                # writers appended meanwhile is read and folded: the lock is held for
                # little more than the command itself. (A cached state is close enough.)
                t = self._fold(tournament_id, t, self.store.read_stream(stream, 1))

            open_round: list[int] = []  # the round this command may end, if any

            def decide(
                since: list[StoredEvent], t: Tournament = t, open_round: list[int] = open_round
            ) -> list[NewEvent]:
                self._fold(tournament_id, t, since)
                if not t.created:
                    raise _no_tournament(tournament_id)
                open_round[:] = [] if t.round_complete() else [t.current_round]
                return ev.stamped(command(t), metadata or {})

            try:
                done = self.store.append_decided(
                    stream, decide, after_version=t.version, idempotency_key=idempotency_key
                )
            except ConcurrencyError:
                # A writer without the lock appended between our read and our append:
                # decide again on the newer state, after a short random pause.
                time.sleep(random.uniform(0, 0.005 * 2**attempt))
                continue
            if done.events and not done.replayed:
                if open_round:
                    self._seal_if_round_ended(tournament_id, open_round[0], done.events)
                self._committed(tournament_id)
            return Executed(done.events, done.replayed)
        raise ConflictError(
            "tournament", "T-concurrency", code="service.tournament_kept_changing_while"
        )

    def _seal_if_round_ended(
        self, tournament_id: str, number: int, appended: list[StoredEvent]
    ) -> None:
        """Seal the log when this command ended round ``number`` (every match settled):
        the standings after a round are what gets printed and pinned on the wall. A seal
        that fails is logged; the command's events are stored whatever happens here."""
        cached = self._cache.get(tournament_id)
        if cached is not None and cached.version + 1 >= appended[0].version:
            t = self._fold(tournament_id, cached, appended)  # what it just appended
        else:
            t = self.state(tournament_id)
        seal = getattr(self.store, "seal", None)  # stores without seals: nothing to do
        if seal is None or t.current_round != number or not t.round_complete(number):
            return
        try:
            seal(f"end of round {number} of {tournament_id}")
        except Exception as error:  # whatever it is (see the docstring)
            logging.getLogger(__name__).warning("round %s was not sealed: %s", number, error)

    def _committed(self, tournament_id: str) -> None:
        for listener in self.committed:
            try:
                listener(tournament_id)
            except Exception as error:  # the events are stored whatever happens here
                logging.getLogger(__name__).warning(
                    "after storing events of %s: %s", tournament_id, error
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


def _no_tournament(tournament_id: str) -> NotFoundError:
    return NotFoundError(
        "tournament",
        "T-settings",
        code="service.there_tournament",
        params={"tournament_id": repr(tournament_id)},
    )

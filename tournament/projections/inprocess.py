"""Projections run by the web process itself: the club laptop's way (no ``REDIS_URL``),
with the same :class:`~tournament.projections.runner.Projector` a Celery worker runs.

After each commit the web app nudges the tournament; one background thread runs the
nudged projections (a burst of nudges for one tournament makes one run). A tournament's
runs are spaced: the next one starts at least ``spacing_factor`` times what the last run
took after that run's start (at least ``spacing`` s), so that the projection takes at
most a third of a core however often results come (a run of 400 players takes ~100 ms
of CPU; an online table ends a hand, two commits, every few seconds, and 200 tables
would otherwise keep the thread and the database's write lock busy all the time), while
a small tournament's results follow each other at once (40 players: a run of ~10 ms
waits ~20 ms) and a nudge after a quiet spell runs at once. The projector folds with a
:class:`~tournament.app.service.TournamentService` of its own, so that working out the
rows never holds up the web threads' folds (``reading`` locks the states it reads). On a
timer
it sweeps for tournaments behind their log (results entered with the command line while
the service runs) and reconciles a few. ``mode="inline"`` runs a nudge at once in the
caller's thread instead (the tests' default: a read right after a write finds its
result projected) and keeps no thread.
"""

from __future__ import annotations

import logging
import threading
import time

from tournament.app.service import TournamentService
from tournament.projections.runner import Projector
from tournament.projections.upkeep import Sweeper, due_for_reconciliation, reconcile

log = logging.getLogger(__name__)


class InProcessProjections:
    def __init__(
        self,
        projector: Projector,
        *,
        mode: str = "thread",
        sweep_every: float = 2.0,
        reconcile_every: float = 600.0,
        reconcile_batch: int = 5,
        spacing: float = 0.05,
        spacing_factor: float = 3.0,
    ) -> None:
        # Its own service in both modes: a run holds its service's read lock while it
        # reads the log (a database connection); sharing the web's service, a run inline
        # in one request would wait for a connection that requests holding the
        # tournament's lock keep while they wait for that read lock (fifty writers on
        # PostgreSQL ran the pool dry).
        projector.service = TournamentService(projector.store)
        self.projector = projector
        self.mode = mode
        self.spacing = spacing
        self.spacing_factor = spacing_factor
        #: Per tournament: when (``time.monotonic``) its next run may start.
        self._due: dict[str, float] = {}
        self.sweep_every = sweep_every
        self.reconcile_every = reconcile_every
        self.reconcile_batch = reconcile_batch
        self._pending: dict[str, None] = {}
        self._wake = threading.Condition()
        self._stop = False
        self._thread: threading.Thread | None = None
        self._last_reconcile = time.monotonic()
        self._sweeper = Sweeper(projector.store.engine)

    def nudge(self, tournament_id: str) -> None:
        if self.mode == "inline":
            self._project(tournament_id)
            return
        with self._wake:
            self._pending[tournament_id] = None
            self._wake.notify()
        self.start()

    def start(self) -> None:
        if self.mode == "inline" or (self._thread is not None and self._thread.is_alive()):
            return
        with self._wake:
            if self._thread is None or not self._thread.is_alive():
                self._stop = False
                self._thread = threading.Thread(target=self._run, name="projections", daemon=True)
                self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        with self._wake:
            self._stop = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(timeout)

    def sweep(self) -> list[str]:
        """Project every tournament behind its log; the ones it ran (a tournament
        nudged and waiting for its turn is left to it)."""
        found = self._sweeper.behind()
        with self._wake:
            waiting = set(self._pending)
        ran = [tid for tid in found if tid not in waiting]
        for tid in ran:
            self._project(tid)
        return ran

    def _run(self) -> None:
        next_sweep = time.monotonic()
        while True:
            with self._wake:
                while True:
                    if self._stop:
                        return
                    now = time.monotonic()
                    batch = [tid for tid in self._pending if self._due.get(tid, 0.0) <= now]
                    if batch or now >= next_sweep:
                        break
                    soonest = min([next_sweep, *(self._due[tid] for tid in self._pending)])
                    self._wake.wait(max(soonest - now, 0.001))
                for tid in batch:
                    del self._pending[tid]
            for tid in batch:
                started = time.monotonic()
                self._project(tid)
                took = time.monotonic() - started
                self._due[tid] = started + max(self.spacing, self.spacing_factor * took)
            if time.monotonic() >= next_sweep:
                next_sweep = time.monotonic() + self.sweep_every
                self._upkeep()

    def _upkeep(self) -> None:
        try:
            self.sweep()
            if time.monotonic() - self._last_reconcile >= self.reconcile_every:
                self._last_reconcile = time.monotonic()
                engine = self.projector.store.engine
                for tid in due_for_reconciliation(engine, self.reconcile_batch):
                    reconcile(self.projector, tid)
        except Exception as error:  # the database away for a moment: next time
            log.warning("projections: sweep failed: %s", error)

    def _project(self, tournament_id: str) -> None:
        try:
            self.projector.project(tournament_id)
        except Exception as error:  # logged; the sweep tries again
            log.warning("projection of %s failed: %s", tournament_id, error, exc_info=True)

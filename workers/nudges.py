"""The web app's side of the workers: after a commit, queue the tournament's projection.

A nudge never holds a request up and never fails one: it goes into this process's pending
set, and one background thread sends them. With Redis away the nudge stays pending and is
tried again every half second (and beat's sweep finds any tournament left behind), so the
standings catch up as soon as Redis is back. A burst of commits to one tournament queues
one run: the thread sets the tournament's nudge key (``SET NX``, 10 s) and queues a run
only if it was not set; the run clears it when it starts.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from tournament.live.bus import redis_client
from workers.tasks import nudge_key, project_tournament

log = logging.getLogger(__name__)


class CeleryNudges:
    def __init__(self, redis_url: str, retry: float = 0.5) -> None:
        self.redis_url = redis_url
        self.retry = retry
        self._pending: dict[str, None] = {}
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._client: Any = None
        self._stop = False
        #: Nudges that could not be sent yet (Redis away), for /readyz and the tests.
        self.failing = False

    def nudge(self, tournament_id: str) -> None:
        with self._wake:
            self._pending[tournament_id] = None
            self._wake.notify()
            if self._thread is None or not self._thread.is_alive():
                self._stop = False
                self._thread = threading.Thread(target=self._run, name="nudges", daemon=True)
                self._thread.start()

    def stop(self) -> None:
        with self._wake:
            self._stop = True
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._pending and not self._stop:
                    self._wake.wait()
                if self._stop:
                    return
                batch = list(self._pending)
                self._pending.clear()
            unsent = [tid for tid in batch if not self._send(tid)]
            self.failing = bool(unsent)
            if unsent:
                with self._wake:
                    for tid in unsent:
                        self._pending.setdefault(tid, None)
                    self._wake.wait(self.retry)

    def _send(self, tournament_id: str) -> bool:
        try:
            if self._client is None:
                self._client = redis_client(self.redis_url)
            if self._client.set(nudge_key(tournament_id), "1", nx=True, ex=10):
                try:
                    project_tournament.apply_async((tournament_id,), retry=False)
                except Exception:
                    self._client.delete(nudge_key(tournament_id))
                    raise
            return True
        except Exception as error:  # Redis away: keep it, try again shortly
            if not self.failing:
                log.warning("projection of %s not queued (will retry): %s", tournament_id, error)
            return False

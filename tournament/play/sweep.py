"""The online tables' repair sweep: a thread per web process (T-online).

A read of a table never writes (a link preview must change nothing), so a hand that a
crash interrupted -- its last move stored, its result not, or the next hand not dealt --
is made good by the table's next write, or, when no write can come (the hand is over and
nobody may move), by this sweep: every few seconds it repairs the tables this process
has shown (:meth:`~tournament.app.play.PlayService.sweep`). It starts with the
process's first live stream (a phone at an online table holds one, and reconnects to a
restarted process by itself). Repairs of two processes at once are safe: each write is
checked again under the tournament's lock.
"""

from __future__ import annotations

import logging
import threading
from typing import Final

from tournament.app.play import PlayService

log = logging.getLogger(__name__)

#: Seconds between two sweeps.
SWEEP_SECONDS: Final = 3.0


class OnlineSweep:
    def __init__(self, play: PlayService, every: float = SWEEP_SECONDS) -> None:
        self.play = play
        self.every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="online-sweep", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                repaired = self.play.sweep()
                if repaired:
                    log.info("online tables repaired after a crash: %s", ", ".join(repaired))
            except Exception as error:  # the database away for a moment: next time
                log.warning("online sweep failed: %s", error)

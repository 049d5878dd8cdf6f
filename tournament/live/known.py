"""The tournaments' versions a process knows to be current, so that a read skips the
database's version lookup (issue 22, trial 9's P1).

A read looks the projected and the log's version up (:class:`tournament.web.projected.
VersionProbe`). When they are equal -- the projection is fresh -- this process keeps that
version, and the next reads of the tournament take it from here instead of asking again,
for as long as nothing can have moved it on unseen:

- every write announces itself: in this process at once (the service's ``committed``
  listener calls :meth:`KnownVersions.written`), in the other processes on the bus (Redis
  channel ``schnapsen:written``, :mod:`tournament.live.bus`), whose listener calls the
  same; a write ends what is known of its tournament, and any lookup still running when
  it arrived is not kept (it may have read the version before the write);
- the bus must be listening: ``epoch()`` names the subscription that carries the other
  processes' writes (None: none stands, every read asks). A subscription lost and made
  again is a new epoch, and what was known under the old one (which may have missed a
  write meanwhile) is forgotten;
- and at most ``seconds`` after its lookup, a version is looked up again (a writer that
  announces nothing, such as the command line, is seen within that time).

Only a fresh projection is kept: a stale one goes the long way, which waits for the
projection or says how stale it is, as before.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

#: How long a version looked up is taken as current without asking again, at most.
SECONDS = 1.0


class KnownVersions:
    def __init__(self, epoch: Callable[[], int | None], seconds: float = SECONDS) -> None:
        self.epoch = epoch
        self.seconds = seconds
        self._lock = threading.Lock()
        #: Writes announced so far (any tournament): a lookup begun before one is not kept.
        self._writes = 0
        #: Per tournament: (fresh version, the epoch it was looked up under, until when).
        self._known: dict[str, tuple[int, int, float]] = {}

    def get(self, tid: str) -> int | None:
        """The tournament's version, when it is known to be current (projection and log
        alike); None: look it up."""
        found = self._known.get(tid)
        if found is None:
            return None
        version, epoch, until = found
        if epoch != self.epoch() or time.monotonic() > until:
            return None
        return version

    def begin(self) -> tuple[int, int | None]:
        """Before a lookup: what :meth:`found` checks nothing was written meanwhile."""
        with self._lock:
            return self._writes, self.epoch()

    def found(self, tid: str, begun: tuple[int, int | None], projected: int, log: int) -> None:
        """A lookup begun at ``begun`` found these versions: keep them when fresh and
        when no write was announced and no subscription changed since it began."""
        writes, epoch = begun
        if epoch is None or projected != log:
            return
        with self._lock:
            if writes != self._writes or epoch != self.epoch():
                return
            if len(self._known) > 10_000:
                self._known.clear()
            self._known[tid] = (projected, epoch, time.monotonic() + self.seconds)

    def written(self, tid: str) -> None:
        """Events of ``tid`` were stored (here or by another process)."""
        with self._lock:
            self._writes += 1
            self._known.pop(tid, None)

"""One process's live listeners: Server-Sent Events streams and readers waiting for a
projection to reach a version.

The bus (:mod:`tournament.live.bus`) hands every announcement of every tournament to
:meth:`LiveHub.deliver`; the hub wakes that tournament's streams, each of which then
writes its events to its client. A stream is a :class:`Listener` with a tiny queue of
its own: a slow phone never holds the others up, and a listener that falls behind keeps
only the newest version (the older ones say nothing the newest does not).

Streams are counted: over ``cap`` a new one is refused (the route answers 503 with
``Retry-After``), since each holds a thread (waitress, gthread) or a greenlet (gevent).
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime

from tournament.live.change import Change


class Full(Exception):
    """Over the cap of live streams this process holds."""


class Listener:
    """A stream of one tournament's changes, merged when the reader falls behind."""

    def __init__(self, hub: LiveHub, tournament_id: str) -> None:
        self.hub = hub
        self.tournament_id = tournament_id
        self._pending: list[Change] = []
        self._ready = threading.Event()

    def put(self, change: Change) -> None:
        pending = self._pending
        if pending and pending[-1].version >= change.version:
            return
        if len(pending) >= 8:  # far behind: the newest says it all
            merged = {k for c in pending for k in c.kinds} | set(change.kinds)
            matches = {m for c in pending for m in c.matches} | set(change.matches)
            change = Change(
                change.tournament_id,
                change.version,
                tuple(k for k in ("round", "result", "bracket", "standings") if k in merged),
                tuple(sorted(matches)),
            )
            pending.clear()
        pending.append(change)
        self._ready.set()

    def get(self, timeout: float) -> list[Change]:
        """The changes since the last call (empty after ``timeout`` seconds of none)."""
        if not self._ready.wait(timeout):
            return []
        self._ready.clear()
        found, self._pending = self._pending, []
        return found

    def wake(self) -> None:
        """End the reader's wait now (the hub is closing)."""
        self._ready.set()

    def close(self) -> None:
        self.hub.unsubscribe(self)

    def __enter__(self) -> Listener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LiveHub:
    def __init__(self, cap: int = 500) -> None:
        self.cap = cap
        self._lock = threading.Lock()
        self._listeners: dict[str, set[Listener]] = defaultdict(set)
        self._count = 0
        self._versions: dict[str, int] = {}
        self._changed = threading.Condition(self._lock)
        #: Whether announcements arrive (the bus is connected), and since when not.
        self.down_since: datetime | None = None
        #: Set by :meth:`close`: every stream ends (the server is stopping).
        self.closed = False
        #: Told after the streams' count or the bus's state changed (``/metrics``'s gauges
        #: of this process: under several processes they are written when they change).
        self.watch: Callable[[LiveHub], None] | None = None

    @property
    def streams(self) -> int:
        return self._count

    def subscribe(self, tournament_id: str) -> Listener:
        with self._lock:
            if self._count >= self.cap:
                raise Full(f"this process holds {self._count} live streams, its cap")
            listener = Listener(self, tournament_id)
            self._listeners[tournament_id].add(listener)
            self._count += 1
        self._tell()
        return listener

    def unsubscribe(self, listener: Listener) -> None:
        with self._lock:
            found = self._listeners.get(listener.tournament_id)
            if found is not None and listener in found:
                found.discard(listener)
                self._count -= 1
                if not found:
                    del self._listeners[listener.tournament_id]
            else:
                return
        self._tell()

    def deliver(self, change: Change) -> None:
        """Hand ``change`` to its tournament's listeners and waiting readers."""
        with self._lock:
            known = self._versions.get(change.tournament_id, 0)
            if change.version > known:
                self._versions[change.tournament_id] = change.version
            listeners = list(self._listeners.get(change.tournament_id, ()))
            self._changed.notify_all()
        for listener in listeners:
            listener.put(change)

    def wait_for(self, tournament_id: str, version: int, timeout: float) -> bool:
        """Wait until an announcement of ``tournament_id`` at ``version`` or later
        arrived (True), or ``timeout`` seconds passed (False)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._versions.get(tournament_id, 0) < version:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
            return True

    def close(self) -> None:
        """End every stream: each would otherwise hold its thread (and the server's
        shutdown) until its client goes away."""
        with self._lock:
            self.closed = True
            listeners = [one for group in self._listeners.values() for one in group]
            self._changed.notify_all()
        for listener in listeners:
            listener.wake()

    def set_connected(self, connected: bool) -> None:
        if connected:
            self.down_since = None
        elif self.down_since is None:
            self.down_since = datetime.now(UTC)
        self._tell()

    def _tell(self) -> None:
        if self.watch is not None:
            self.watch(self)

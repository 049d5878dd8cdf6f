"""Who is watching which online table, in one process: a move wakes that table's screens.

Keys are ``<tournament>/<match>``. A :class:`TableListener` is a flag, not a queue: a
screen that wakes reads the table afresh and sends what changed, so missed wake-ups
cost nothing and a slow phone holds nobody up. Across processes (gunicorn, Celery) the
announcement travels on Redis (:data:`CHANNEL`, :mod:`tournament.live.bus`), within one
it is a call.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable

#: The Redis channel of online tables' wake-ups (the message is the key).
CHANNEL = "schnapsen:play"


def table_key(tournament_id: str, match_id: str) -> str:
    return f"{tournament_id}/{match_id}"


class TableListener:
    def __init__(self, hub: TableHub, key: str) -> None:
        self.hub = hub
        self.key = key
        self._ready = threading.Event()

    def wake(self) -> None:
        self._ready.set()

    def wait(self, timeout: float) -> bool:
        """True when the table changed (or the hub closes) within ``timeout`` seconds."""
        woke = self._ready.wait(timeout)
        self._ready.clear()
        return woke

    def close(self) -> None:
        self.hub.unsubscribe(self)

    def __enter__(self) -> TableListener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class TableHub:
    """One process's table screens (each stream holds a thread, counted by the live
    hub's cap where the route checks it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[str, set[TableListener]] = defaultdict(set)
        self.closed = False

    def subscribe(self, key: str) -> TableListener:
        listener = TableListener(self, key)
        with self._lock:
            self._listeners[key].add(listener)
        return listener

    def unsubscribe(self, listener: TableListener) -> None:
        with self._lock:
            found = self._listeners.get(listener.key)
            if found is not None:
                found.discard(listener)
                if not found:
                    del self._listeners[listener.key]

    def deliver(self, key: str) -> None:
        with self._lock:
            listeners = list(self._listeners.get(key, ()))
        for listener in listeners:
            listener.wake()

    @property
    def watching(self) -> int:
        with self._lock:
            return sum(len(group) for group in self._listeners.values())

    def close(self) -> None:
        with self._lock:
            self.closed = True
            listeners = [one for group in self._listeners.values() for one in group]
        for listener in listeners:
            listener.wake()


class RedisAnnouncer:
    """Publishes a table's wake-up for every process's hub (the deploy's many processes)."""

    def __init__(self, url: str) -> None:
        from tournament.live.bus import redis_client

        self.client = redis_client(url)

    def __call__(self, key: str) -> None:
        self.client.publish(CHANNEL, key)


Announce = Callable[[str], None]

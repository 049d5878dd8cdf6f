"""Who is watching which online table, in one process: a move wakes that table's screens.

Keys are ``<tournament>/<match>``. A :class:`TableListener` is a flag, not a queue: a
screen that wakes reads the table afresh and sends what changed, so missed wake-ups
cost nothing and a slow phone holds nobody up. Across processes (gunicorn, Celery) the
announcement travels on Redis (:data:`CHANNEL`, :mod:`tournament.live.bus`), within one
it is a call.

"Afresh" is once per table, not once per screen (speed P5): every announcement moves
the table's *generation* on, and the first screen to wake works the table out
(:meth:`TableHub.moment`) while the others of that table (the other seat, the room's
screens) wait for it and take the same snapshot; each then shows only what its reader
may see (its own ``render``). A move hands the table as it left it straight to the
hub (:meth:`TableHub.deliver` with ``moment``), so its screens read nothing at all.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Final

#: The Redis channel of online tables' wake-ups (the message is the key, then a tab and
#: the announcing hub's :attr:`TableHub.origin`).
CHANNEL = "schnapsen:play"

#: A mark before every generation: a snapshot offered against it is never kept
#: (:meth:`TableHub.deliver`).
UNWATCHED: Final = -1


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


class _Watched:
    """A watched table: its generation (moved on by every announcement), the snapshot
    worked out at a generation, and the lock under which one screen works it out."""

    __slots__ = ("generation", "made_at", "made_generation", "snapshot", "working")

    def __init__(self, generation: int) -> None:
        self.generation = generation
        self.snapshot: Any = None
        self.made_at = 0.0
        self.made_generation = UNWATCHED
        self.working = threading.Lock()


class _Lookout:
    """One thread that looks, every ``every`` seconds, whether the readers of the
    streams it watches have gone, and wakes those whose reader did (where the server can
    tell only when asked, waitress or gthread: :mod:`tournament.live.departure`). Without
    it each waiting stream woke every second to ask for itself: 400 screens were 400
    thread wake-ups a second, each contending for the interpreter (speed P5)."""

    def __init__(self, every: float) -> None:
        self.every = every
        self._lock = threading.Lock()
        self._watched: dict[int, tuple[Callable[[], bool], Callable[[], None]]] = {}
        self._ids = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def watch(self, gone: Callable[[], bool], wake: Callable[[], None]) -> Callable[[], None]:
        with self._lock:
            self._ids += 1
            number = self._ids
            self._watched[number] = (gone, wake)
            if self._thread is None or not self._thread.is_alive():
                self._stop.clear()
                self._thread = threading.Thread(target=self._run, name="table-lookout", daemon=True)
                self._thread.start()

        def stop() -> None:
            with self._lock:
                self._watched.pop(number, None)

        return stop

    def close(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            with self._lock:
                watched = list(self._watched.values())
                if not watched:  # nobody left to look after: the next watch starts one
                    self._thread = None
                    return
            for gone, wake in watched:
                try:
                    left = gone()
                except Exception:  # (a socket closed under us: its stream's write tells)
                    left = False
                if left:
                    wake()


class TableHub:
    """One process's table screens (each stream holds a thread, counted by the live
    hub's cap where the route checks it), and the table snapshot they share."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[str, set[TableListener]] = defaultdict(set)
        self._watched: dict[str, _Watched] = {}
        #: Generations are unique and rising in the process (a table watched again starts
        #: from a new one): a table announced after a writer's :meth:`mark` has one at or
        #: above it.
        self._next = 0
        self.closed = False
        #: This hub's name on Redis: its own announcements, heard back, wake nobody (the
        #: service woke its screens already, handing them the table).
        self.origin = secrets.token_hex(8)
        self._lookouts: dict[float, _Lookout] = {}

    def look_after(
        self, gone: Callable[[], bool], wake: Callable[[], None], every: float
    ) -> Callable[[], None]:
        """Ask ``gone()`` every ``every`` seconds, in one thread for all the streams
        here, and ``wake()`` a stream whose reader left; returns what stops asking."""
        with self._lock:
            lookout = self._lookouts.get(every)
            if lookout is None:
                lookout = self._lookouts[every] = _Lookout(every)
        return lookout.watch(gone, wake)

    def subscribe(self, key: str) -> TableListener:
        listener = TableListener(self, key)
        with self._lock:
            self._listeners[key].add(listener)
            if key not in self._watched:
                self._watched[key] = _Watched(self._generation())
        return listener

    def unsubscribe(self, listener: TableListener) -> None:
        with self._lock:
            found = self._listeners.get(listener.key)
            if found is not None:
                found.discard(listener)
                if not found:
                    del self._listeners[listener.key]
                    self._watched.pop(listener.key, None)  # and its snapshot

    def mark(self) -> int:
        """Now, in the hub's generations: a writer takes it before it reads the tables it
        will write to, and offers its snapshot against it (:meth:`deliver`)."""
        with self._lock:
            return self._next

    def _generation(self) -> int:  # (under the lock)
        self._next += 1
        return self._next - 1

    def deliver(self, key: str, snapshot: Any = None, since: int = UNWATCHED) -> None:
        """The table changed: its screens wake. ``snapshot``: the table as the writer
        left it, kept for the screens to share when the table was not announced (nor
        first watched) since ``since``, the writer's :meth:`mark` before it read the
        table; otherwise the first screen to wake reads it."""
        with self._lock:
            listeners = list(self._listeners.get(key, ()))
            found = self._watched.get(key)
            if found is not None:
                fits = snapshot is not None and 0 <= found.generation < since
                found.generation = self._generation()
                if fits:
                    found.snapshot = snapshot
                    found.made_generation = found.generation
                    found.made_at = time.monotonic()
        for listener in listeners:
            listener.wake()

    def heard(self, message: str) -> None:
        """An announcement from Redis (``key``, or ``key<TAB>origin``): delivered unless
        this hub made it."""
        key, _, origin = message.partition("\t")
        if origin != self.origin:
            self.deliver(key)

    def moment(
        self, key: str, read: Callable[[], Any], *, max_age: float | None = None,
        usable: Callable[[Any], bool] | None = None,
    ) -> Any:  # fmt: skip
        """The table's snapshot at its current generation, ``read()`` by the first screen
        that asks (the others of the table wait for it and share it). ``max_age``: a
        snapshot older than that many seconds is read again even if nothing was
        announced (a screen that was quiet for a while looks at the store itself: a
        change nobody announced, a desk's forfeit, shows within its keep-alive);
        ``usable``: whether a kept snapshot still holds (False: its clock ran out)."""
        with self._lock:
            found = self._watched.get(key)
        if found is None:  # nobody subscribed (a caller outside a stream): just read
            return read()
        with found.working:
            with self._lock:
                generation = found.generation
                kept, made, at = found.snapshot, found.made_generation, found.made_at
            if (
                kept is not None
                and made == generation
                and (max_age is None or time.monotonic() - at <= max_age)
                and (usable is None or usable(kept))
            ):
                return kept
            snapshot = read()  # what the store holds from ``generation`` on, at least
            with self._lock:
                if found.made_generation <= generation:  # (not a writer's newer one)
                    found.snapshot = snapshot
                    found.made_generation = generation
                    found.made_at = time.monotonic()
            return snapshot

    @property
    def watching(self) -> int:
        with self._lock:
            return sum(len(group) for group in self._listeners.values())

    def close(self) -> None:
        with self._lock:
            self.closed = True
            listeners = [one for group in self._listeners.values() for one in group]
            lookouts = list(self._lookouts.values())
        for listener in listeners:
            listener.wake()
        for lookout in lookouts:
            lookout.close()


class RedisAnnouncer:
    """Publishes a table's wake-up for every process's hub (the deploy's many processes);
    ``origin``: the hub of this process (:meth:`TableHub.heard` skips its own)."""

    def __init__(self, url: str, origin: str | None = None) -> None:
        from tournament.live.bus import redis_client

        self.client = redis_client(url)
        self.origin = origin

    def __call__(self, key: str) -> None:
        self.client.publish(CHANNEL, key if self.origin is None else f"{key}\t{self.origin}")


Announce = Callable[[str], None]

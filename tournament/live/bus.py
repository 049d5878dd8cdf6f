"""How a projection's announcement reaches every web process's :class:`LiveHub`.

On a laptop (no ``REDIS_URL``) the projection runs in the web process, and its
announcement is a call: :class:`LocalBus`. On a server the workers publish on Redis
(:class:`RedisBus`, channel ``schnapsen:live``), and each web process holds one
subscription (:class:`RedisSubscriber`) that hands every message to its hub. Losing
Redis loses announcements, never results: the subscriber reconnects every half second,
the hub records since when it was cut off, and the pages fall back to asking.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from tournament.live.change import Change
from tournament.live.hub import LiveHub

log = logging.getLogger(__name__)

CHANNEL = "schnapsen:live"
#: "Events of tournament T were stored": each web process's reads forget the version they
#: knew of T (:mod:`tournament.live.known`).
WRITTEN = "schnapsen:written"

#: Numbers of the subscriptions that stood (:attr:`RedisSubscriber.epoch`).
_epochs = itertools.count(1)


class LocalBus:
    """Announcements within one process."""

    def __init__(self, hub: LiveHub) -> None:
        self.hub = hub

    def publish(self, change: Change) -> None:
        self.hub.deliver(change)


def redis_client(url: str, **options: Any) -> Any:
    import redis

    # Short timeouts: a web request or a projection never waits long on a lost Redis.
    return redis.Redis.from_url(
        url,
        socket_connect_timeout=options.pop("socket_connect_timeout", 1),
        socket_timeout=options.pop("socket_timeout", 2),
        **options,
    )


class RedisBus:
    """Publishes announcements on Redis (the workers' side)."""

    def __init__(self, url: str) -> None:
        self.client = redis_client(url)

    def publish(self, change: Change) -> None:
        self.client.publish(CHANNEL, change.encode())


class WriteAnnouncer:
    """Announces a write on Redis, before the writer's answer leaves (so a client that
    stored a result and then asks another process sees it). Short timeouts and one
    immediate retry (a pooled connection Redis closed), not redis-py's ten with backoff
    (seconds per write while Redis is away): a failed announcement is not tried again
    for a second; the other processes' subscriptions are cut off too, and their reads ask
    the database."""

    def __init__(self, url: str, pause: float = 1.0) -> None:
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self.client = redis_client(
            url, socket_timeout=0.25, socket_connect_timeout=0.25, retry=Retry(NoBackoff(), 1)
        )
        self.pause = pause
        self._failed_at = float("-inf")

    def __call__(self, tournament_id: str) -> None:
        if time.monotonic() - self._failed_at < self.pause:
            return
        try:
            self.client.publish(WRITTEN, tournament_id)
        except Exception as error:
            self._failed_at = time.monotonic()
            log.warning("live: could not announce a write of %s: %s", tournament_id, error)


class RedisSubscriber:
    """One subscription per web process, feeding ``hub``; reconnects by itself."""

    #: How long the first :meth:`start` waits for the first subscription (once per
    #: process; a few milliseconds while Redis is there).
    FIRST_WAIT = 0.25

    def __init__(
        self,
        url: str,
        hub: LiveHub,
        retry: float = 0.5,
        others: dict[str, Callable[[str], object]] | None = None,
    ) -> None:
        self.url = url
        self.hub = hub
        self.retry = retry
        #: Further channels and what each message is handed to (the online tables' wake-ups,
        #: tournament.play.hub): one subscription per process carries them all.
        self.others = dict(others or {})
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()
        #: The subscription standing now, confirmed by Redis for every channel (None:
        #: none): a message published while it stands reaches this process.
        self.epoch: int | None = None
        self.hub.set_connected(False)  # until the first subscription stands

    def start(self) -> None:
        """Start the subscription, and wait briefly for its first try: a read right after
        a write in a fresh process waits for its projection only while announcements
        arrive (tournament.web.projected), and a hub still "cut off" because the
        subscription was not tried yet made that first read answer stale at once."""
        if self._thread is not None and self._thread.is_alive():
            return
        with self._starting:
            if self._thread is not None and self._thread.is_alive():
                return
            tried = threading.Event()
            self._thread = threading.Thread(
                target=self._run, args=(tried,), name="live-subscriber", daemon=True
            )
            self._thread.start()
        tried.wait(self.FIRST_WAIT)

    @property
    def started(self) -> bool:
        """Whether :meth:`start` was called: the process needed announcements."""
        return self._thread is not None

    def stop(self) -> None:
        self._stop.set()

    def _hand_on(self, message: dict[str, Any]) -> None:
        channel = message.get("channel")
        name = channel.decode() if isinstance(channel, bytes) else str(channel)
        handler = self.others.get(name)
        if handler is None:
            self.hub.deliver(Change.decode(message["data"]))
            return
        data = message["data"]
        handler(data.decode() if isinstance(data, bytes) else str(data))

    def _confirm(self, message: dict[str, Any], channels: set[str], confirmed: set[str]) -> None:
        """Redis confirmed a channel: the subscription stands once every channel is.
        A channel confirmed again is a subscription made again (redis-py reconnected by
        itself, and what was published meanwhile is lost): a new epoch."""
        channel = message.get("channel")
        name = channel.decode() if isinstance(channel, bytes) else str(channel)
        if name in confirmed:
            self.epoch = None
            confirmed.clear()
        confirmed.add(name)
        if self.epoch is None and confirmed >= channels:
            self.epoch = next(_epochs)

    def _run(self, tried: threading.Event) -> None:
        while not self._stop.is_set():
            try:
                # No read timeout: a quiet channel is normal; the health check pings.
                client = redis_client(self.url, socket_timeout=None, health_check_interval=5)
                pubsub = client.pubsub()
                channels = {CHANNEL, *self.others}
                pubsub.subscribe(*channels)
                self.hub.set_connected(True)
                tried.set()
                log.info("live: subscribed to %s", CHANNEL)
                confirmed: set[str] = set()
                while not self._stop.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if not message:
                        continue
                    if message.get("type") == "message":
                        self._hand_on(message)
                    elif message.get("type") == "subscribe":
                        self._confirm(message, channels, confirmed)
                self.epoch = None
                pubsub.close()
            except Exception as error:  # Redis gone: say so, try again shortly
                self.epoch = None
                if self.hub.down_since is None:
                    log.warning("live: lost the subscription to %s: %s", CHANNEL, error)
                self.hub.set_connected(False)
                tried.set()
                time.sleep(self.retry)

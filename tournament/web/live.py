"""The web app's projections and live updates, wired once per app (:func:`install`).

Without ``REDIS_URL`` (a club laptop) the app runs the projections itself
(:class:`~tournament.projections.inprocess.InProcessProjections`: after each commit and
on a timer) and announces on an in-process bus. With ``REDIS_URL`` the Celery workers
run them: the app queues a run after each commit (:class:`workers.nudges.CeleryNudges`)
and one subscription per process hands the workers' announcements to its hub. Either
way the same :class:`~tournament.projections.runner.Projector` does the work, and the
routes see one :class:`Live`.

Settings (``app.config``):

- ``PROJECTIONS``: ``thread`` (default) or ``inline`` (embedded only: a nudge projects at
  once in the writing request -- the tests' choice).
- ``LIVE_MAX_STREAMS``: live streams one process holds (env ``SCHNAPSEN_LIVE_MAX_STREAMS``).
- ``LIVE_KEEPALIVE``: seconds between keep-alive comments on a quiet stream (15).
- ``PROJECTION_WAIT``: how long a read right after a write waits for its projection (1 s).
- ``ONLINE_SWEEP_SECONDS``: how often the online tables a crash interrupted are repaired
  (:mod:`tournament.play.sweep`; 3 s).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, current_app, request, stream_with_context
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from tournament.app.play import PlayService
from tournament.app.services import Services
from tournament.live.bus import WRITTEN, LocalBus, RedisSubscriber, WriteAnnouncer, redis_client
from tournament.live.departure import departure_of
from tournament.live.hub import LiveHub
from tournament.live.known import KnownVersions
from tournament.play.hub import CHANNEL as TABLES_CHANNEL
from tournament.play.hub import RedisAnnouncer, TableHub
from tournament.play.stream import Render, table_events
from tournament.play.sweep import SWEEP_SECONDS, OnlineSweep
from tournament.web import metrics

if TYPE_CHECKING:
    from tournament.projections.inprocess import InProcessProjections

KEY = "schnapsen_live"
log = logging.getLogger(__name__)


@dataclasses.dataclass
class Live:
    hub: LiveHub
    #: ``embedded`` (projections in this process) or ``workers`` (Celery, Redis).
    mode: str
    #: The workers' queue (CeleryNudges: .nudge(tid)); None when embedded.
    nudges: Any
    subscriber: RedisSubscriber | None = None
    #: Embedded: makes the projections on first need (:attr:`projections`).
    make_projections: Callable[[], InProcessProjections] | None = None
    #: The online tables' screens in this process, and the service their moves go through.
    tables: TableHub = dataclasses.field(default_factory=TableHub)
    play: PlayService | None = None
    #: Repairs the tables a crash interrupted (started with the first live stream).
    sweep: OnlineSweep | None = None
    #: The fresh versions reads take without a lookup (told of every write).
    known: KnownVersions = dataclasses.field(default_factory=lambda: KnownVersions(_never))

    _projections: InProcessProjections | None = dataclasses.field(default=None, repr=False)
    _made: threading.Lock = dataclasses.field(default_factory=threading.Lock, repr=False)

    @property
    def projections(self) -> InProcessProjections | None:
        """The projections run in this process (embedded; None with workers), made on
        first need: their modules (SQLAlchemy, the projector) are a third of a second of
        a start that /healthz does not need (speed P10)."""
        if self._projections is None and self.make_projections is not None:
            with self._made:
                if self._projections is None:
                    self._projections = self.make_projections()
        return self._projections

    def nudge(self, tournament_id: str) -> None:
        """A tournament's log grew: its projections run (here, or by a worker)."""
        found = self.projections
        (found if found is not None else self.nudges).nudge(tournament_id)

    def listen(self) -> None:
        """Make sure announcements arrive (the subscription starts on first need), and
        that the online tables' repair sweep runs."""
        if self.sweep is not None:
            self.sweep.start()
        if self.subscriber is not None:
            self.subscriber.start()
        elif self.projections is not None:
            self.projections.start()

    def stop(self) -> None:
        self.hub.close()  # the streams end, and free their threads
        self.tables.close()
        if self.sweep is not None:
            self.sweep.stop()
        if self.subscriber is not None:
            self.subscriber.stop()
        if self._projections is not None:
            self._projections.stop()
        stop = getattr(self.nudges, "stop", None)
        if stop is not None:
            stop()


def _never() -> int | None:
    return None


def install(app: Flask, found: Services) -> Live:
    configured = app.config.get("LIVE_MAX_STREAMS")
    # 0 is a cap too (no streams at all: every page polls), not "unset".
    cap = 200 if configured is None or configured == "" else int(configured)
    hub = LiveHub(cap=cap)
    redis_url = app.config.get("REDIS_URL")
    live: Live
    if redis_url:
        from workers.celery_app import celery_init_app
        from workers.nudges import CeleryNudges

        celery_init_app(app)
        tables = TableHub()
        # Another process's write reaches this one's reads through the subscription,
        # while it stands (its epoch).
        known = KnownVersions(lambda: subscriber.epoch)
        subscriber = RedisSubscriber(
            redis_url, hub, others={TABLES_CHANNEL: tables.heard, WRITTEN: known.written}
        )
        live = Live(hub, "workers", CeleryNudges(redis_url), subscriber, tables=tables, known=known)
        found.tournaments.committed.append(known.written)
    else:
        mode = str(app.config.get("PROJECTIONS") or "thread")

        def make_projections() -> InProcessProjections:
            from tournament.projections.inprocess import InProcessProjections
            from tournament.projections.runner import Projector

            projector = Projector(found.store, found.tournaments, publish=LocalBus(hub).publish)
            return InProcessProjections(projector, mode=mode)

        # The in-process bus carries only this process's writes: reads trust it only when
        # no other process serves the app (``SOLE_PROCESS``: tournament serve sets it).
        known = KnownVersions(lambda: 0 if app.config.get("SOLE_PROCESS") else None)
        live = Live(hub, "embedded", None, make_projections=make_projections, known=known)
        found.tournaments.committed.append(known.written)
    found.tournaments.committed.append(live.nudge)
    if redis_url:  # after the nudge, which it must not hold up
        found.tournaments.committed.append(WriteAnnouncer(redis_url))
    live.play = PlayService(
        found.tournaments, announce=_announcer(live.tables, redis_url), tables=live.tables
    )
    live.sweep = OnlineSweep(
        live.play, float(app.config.get("ONLINE_SWEEP_SECONDS") or SWEEP_SECONDS)
    )
    app.extensions[KEY] = live
    counted = metrics.of(app)
    if counted is not None:
        _watch(live, counted)
        counted.registry.register(_LiveCollector(live, found, redis_url))
    return live


def _watch(live: Live, counted: metrics.Metrics) -> None:
    """Keep this process's gauges as its streams and its subscription change (under
    several processes a scrape reaches one of them: each writes its own when it changes).
    ``schnapsen_live_bus_connected`` is 0 only while a subscription this process needs is
    cut off: one that was never needed (no stream yet) is no alarm (operator F5)."""
    subscriber = live.subscriber

    def tell(hub: LiveHub) -> None:
        cut_off = hub.down_since is not None
        needed = subscriber is None or subscriber.started
        counted.live_streams.set(hub.streams)
        counted.bus_subscribed.set(1 if needed and not cut_off else 0)
        counted.bus_connected.set(0 if needed and cut_off else 1)

    live.hub.watch = tell
    tell(live.hub)


def _announcer(tables: TableHub, redis_url: str | None) -> Callable[[str], None] | None:
    """A table's wake-up for the other processes' screens, on Redis (a lost Redis loses
    only theirs, which look again within seconds); this process's are woken by the
    service itself (``PlayService(tables=...)``), handed the table as the write left it."""
    if not redis_url:
        return None
    remote = RedisAnnouncer(redis_url, origin=tables.origin)  # (heard back: skipped)

    def announce(key: str) -> None:
        try:
            remote(key)
        except Exception as error:  # Redis away: the move stands, screens poll
            log.warning("play: could not announce %s on Redis: %s", key, error)

    return announce


def play_service() -> PlayService:
    """The app's online tables (:mod:`tournament.app.play`)."""
    found = live().play
    assert found is not None
    return found


def table_event_stream(tournament_id: str, match_id: str, render: Render) -> Response:
    """An online table's Server-Sent Events for one reader (a seat's page, the room's page,
    the API), as ``render`` shows it. Each stream holds a place under the process's cap
    of live streams (:class:`~tournament.live.hub.Full` when over it: the caller answers
    503 in its own form) and makes sure other processes' wake-ups arrive (Redis)."""
    state = live()
    slot = state.hub.subscribe(f"table:{tournament_id}/{match_id}")
    state.listen()
    keepalive = float(current_app.config.get("LIVE_KEEPALIVE", 15))
    departure = departure_of(request.environ)  # a client gone frees its place at once
    play = play_service()

    def stream() -> Iterator[str]:
        with slot:
            yield from table_events(
                play, state.tables, tournament_id, match_id, render, keepalive=keepalive,
                departure=departure,
            )  # fmt: skip

    response = Response(stream_with_context(stream()), mimetype="text/event-stream")
    response.call_on_close(slot.close)  # also when the stream never started
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def live() -> Live:
    found: Live = current_app.extensions[KEY]
    return found


#: What :class:`_LiveCollector` may report.
DESCRIBED = (
    "schnapsen_projection_mismatches",
    "schnapsen_projections_behind",
    "schnapsen_projection_lag_seconds",
    "schnapsen_redis_up",
    "schnapsen_celery_queue_length",
)


class _LiveCollector(Collector):
    """``/metrics``: what is worked out when asked (the same on every process of a host):
    the projections' lag and alarm from the database, the Celery queue from Redis. Each
    part fails soft: a store or a Redis away leaves its figures out, not the scrape."""

    def __init__(self, live: Live, found: Services, redis_url: str | None) -> None:
        self.live = live
        self.services = found
        self.redis_url = redis_url
        self._redis: Any = None

    def describe(self) -> Iterator[GaugeMetricFamily]:
        """The names collected, told without asking the database or Redis: the registry
        asks at registration, and would otherwise run :meth:`collect` (the projections'
        modules and an engine at every start, speed P10)."""
        for name in DESCRIBED:
            yield GaugeMetricFamily(name, name)

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield from self._queue()
        from tournament.projections.lag import projection_lag
        from tournament.projections.upkeep import mismatches

        try:
            count = mismatches(self.services.store.engine)
            lagging, seconds = projection_lag(self.services.store.engine)
        except Exception:  # the database away: the other figures still count
            return
        yield GaugeMetricFamily(
            "schnapsen_projection_mismatches",
            "Reconciliations that found a projection differing from a rebuild (an alarm)",
            count,
        )
        yield GaugeMetricFamily(
            "schnapsen_projections_behind",
            "Tournaments whose projection is behind their log (for long: no worker runs)",
            lagging,
        )
        yield GaugeMetricFamily(
            "schnapsen_projection_lag_seconds",
            "Age of the oldest event no projection has applied yet (0: all current)",
            seconds,
        )

    def _queue(self) -> Iterator[GaugeMetricFamily]:
        """The broker's queue (``LLEN``), asked with a short timeout: tasks waiting for a
        worker. Without Redis configured (a laptop) there is none to report."""
        if not self.redis_url:
            return
        from workers.celery_app import QUEUE

        try:
            if self._redis is None:
                self._redis = redis_client(self.redis_url, socket_timeout=0.5)
            depth = int(self._redis.llen(QUEUE))
        except Exception:  # Redis away: say so, and leave the depth out
            yield GaugeMetricFamily(
                "schnapsen_redis_up", "1 when Redis answered this scrape (broker, live bus)", 0
            )
            return
        yield GaugeMetricFamily(
            "schnapsen_redis_up", "1 when Redis answered this scrape (broker, live bus)", 1
        )
        yield GaugeMetricFamily(
            "schnapsen_celery_queue_length",
            f"Tasks waiting in the broker's queue '{QUEUE}' for a worker",
            depth,
        )

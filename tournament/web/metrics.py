"""Prometheus ``/metrics``: requests counted and timed by route, and the process's own
figures (CPU, memory, open files, garbage collection).

A series is labelled with the route (``/api/v1/tournaments/<tid>/standings``), never
the path: one series per route however many tournaments, players and matches there are,
and a path nobody routes (a scanner's ``/wp-login.php``) counts as ``<unmatched>``.
Methods outside HTTP's usual ones count as ``OTHER`` for the same reason.

Each app keeps its figures in a registry of its own (not prometheus_client's global
one), so a second app in the same process -- the test suite makes hundreds -- counts
its own requests.

Under gunicorn with ``SCHNAPSEN_METRICS_DIR`` (:mod:`tournament.metrics_dir`) every
process writes its figures to files, and ``/metrics`` answers the host's: counters and
histograms summed over the web, stream and worker processes (the dead ones' too, so a
counter never goes down before a restart), the per-process gauges labelled with the
``pid`` of each living process. The process collectors (CPU, memory, open files, garbage
collection) describe only the process that answers, so they are left out there.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from typing import Any

from flask import Flask, Request, Response, current_app, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.metrics_core import Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from tournament import metrics_dir

KEY = "metrics"
UNMATCHED = "<unmatched>"
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# From a cached standings read (~1 ms) to a round's draw of a big Swiss (~1 s).
_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """The app's registry and the two request series."""

    def __init__(self) -> None:
        #: Each (method, route, status)'s two series (see :meth:`observe_route`).
        self._series: dict[tuple[str, str, int], tuple[Any, Any]] = {}
        #: What ``/metrics`` answers: the figures worked out when asked (the collectors
        #: registered here), and this process's own (single process) or the host's files.
        self.registry = CollectorRegistry(auto_describe=True)
        self.shared = metrics_dir.shared()
        own: CollectorRegistry | None = None
        if self.shared:
            self.registry.register(_HostFiles())
        else:
            own = self.registry
            ProcessCollector(registry=own)
            PlatformCollector(registry=own)
            GCCollector(registry=own)
        self.requests = Counter(
            "schnapsen_http_requests",
            "HTTP requests answered, by method, route and status",
            ("method", "route", "status"),
            registry=own,
        )
        self.duration = Histogram(
            "schnapsen_http_request_duration_seconds",
            "Time from a request's start to its response, by method and route",
            ("method", "route"),
            buckets=_BUCKETS,
            registry=own,
        )
        # A figure of each living process (label ``pid`` under several processes).
        self.live_streams = Gauge(
            "schnapsen_live_streams",
            "Live (SSE) streams this process holds",
            registry=own,
            multiprocess_mode="liveall",
        )
        self.bus_subscribed = Gauge(
            "schnapsen_live_bus_subscribed",
            "1 while this process's subscription to the live announcements stands (Redis), "
            "or they are in-process; 0 before its first stream or read-after-write needs it, "
            "or while it is cut off",
            registry=own,
            multiprocess_mode="liveall",
        )
        self.bus_connected = Gauge(
            "schnapsen_live_bus_connected",
            "0 while this process's subscription to the live announcements is cut off "
            "(Redis away): its streams miss changes; 1 otherwise, also before it was needed",
            registry=own,
            multiprocess_mode="liveall",
        )

    def observe(self, request: Request, status: int, seconds: float | None) -> None:
        route = request.url_rule.rule if request.url_rule is not None else UNMATCHED
        self.observe_route(request.method, route, status, seconds)

    def observe_route(self, method: str, route: str, status: int, seconds: float | None) -> None:
        method = method if method in _METHODS else "OTHER"
        key = (method, route, status)
        series = self._series.get(key)
        if series is None:
            # labels() takes a lock and builds its key each time: a fifth of a cached
            # standings GET's own cost. The routes, methods and statuses are few.
            series = (
                self.requests.labels(method, route, str(status)),
                self.duration.labels(method, route),
            )
            self._series[key] = series
        series[0].inc()
        if seconds is not None:
            series[1].observe(seconds)

    def exposition(self) -> Response:
        if not may_read(request):
            from tournament.web.problems import Problem

            raise Problem(
                403,
                "Forbidden",
                "/metrics answers the machine itself (the loopback), or a scraper that "
                "sends the metrics token (SCHNAPSEN_METRICS_TOKEN) as 'Authorization: "
                "Bearer <token>'",
            )
        return Response(generate_latest(self.registry), content_type=CONTENT_TYPE_LATEST)


class _HostFiles(Collector):
    """The figures every process of the host wrote (:mod:`tournament.metrics_dir`), read
    afresh at each scrape: a process started since is counted, and a dead one's counters
    stay in the sums. Each sample is labelled with its ``kind`` (``web``, ``live``,
    ``worker``): the kinds' processes may share pids (containers), and an operator wants
    the stream processes' requests apart from the pages'."""

    def describe(self) -> Iterable[Metric]:
        return ()  # read at each scrape only (not when registered)

    def collect(self) -> Iterable[Metric]:
        families: dict[str, Metric] = {}
        for kind, files in metrics_dir.files_by_kind().items():
            merged: Iterable[Metric] = MultiProcessCollector.merge(  # type: ignore[no-untyped-call]
                files, accumulate=True
            )
            for metric in merged:
                family = families.get(metric.name)
                if family is None:
                    family = families[metric.name] = Metric(
                        metric.name, metric.documentation, metric.type
                    )
                family.samples.extend(
                    sample._replace(labels={**sample.labels, "kind": kind})
                    for sample in metric.samples
                )
        return families.values()


#: Addresses of the machine itself.
LOOPBACK = ("127.", "::1", "::ffff:127.")


def may_read(asked: Request) -> bool:
    """Whether ``asked`` may read the figures (trial 2, F13): always from the loopback;
    from elsewhere with the metrics token (``METRICS_TOKEN``), else only when the service
    neither listens on the club's network (``--lan`` sets ``METRICS_LOOPBACK_ONLY``) nor
    has a token (a server's proxy keeps /metrics to the monitoring network:
    deploy/nginx.conf)."""
    config = current_app.config
    if (asked.remote_addr or "").startswith(LOOPBACK):
        return True
    token = str(config.get("METRICS_TOKEN") or "")
    if token:
        scheme, _, sent = asked.headers.get("Authorization", "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            sent.strip().encode(), token.encode()
        )
    return not config.get("METRICS_LOOPBACK_ONLY")


def install(app: Flask) -> Metrics:
    """Count ``app``'s requests and answer ``/metrics``."""
    found = app.extensions[KEY] = Metrics()
    app.add_url_rule("/metrics", "metrics", found.exposition, methods=["GET"])
    return found


def of(app: Flask) -> Metrics | None:
    """The app's metrics, when it keeps any (``METRICS`` is not false)."""
    found: Metrics | None = app.extensions.get(KEY)
    return found

"""Prometheus ``/metrics``: requests counted and timed by route, and the process's own
figures (CPU, memory, open files, garbage collection).

A series is labelled with the route (``/api/v1/tournaments/<tid>/standings``), never
the path: one series per route however many tournaments, players and matches there are,
and a path nobody routes (a scanner's ``/wp-login.php``) counts as ``<unmatched>``.
Methods outside HTTP's usual ones count as ``OTHER`` for the same reason.

Each app keeps its figures in a registry of its own (not prometheus_client's global
one), so a second app in the same process -- the test suite makes hundreds -- counts
its own requests. Under several worker processes (gunicorn) each worker answers its
own figures; Prometheus adds them up per instance.
"""

from __future__ import annotations

import hmac

from flask import Flask, Request, Response, current_app, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)

KEY = "metrics"
UNMATCHED = "<unmatched>"
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# From a cached standings read (~1 ms) to a round's draw of a big Swiss (~1 s).
_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """The app's registry and the two request series."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        GCCollector(registry=self.registry)
        self.requests = Counter(
            "schnapsen_http_requests",
            "HTTP requests answered, by method, route and status",
            ("method", "route", "status"),
            registry=self.registry,
        )
        self.duration = Histogram(
            "schnapsen_http_request_duration_seconds",
            "Time from a request's start to its response, by method and route",
            ("method", "route"),
            buckets=_BUCKETS,
            registry=self.registry,
        )

    def observe(self, request: Request, status: int, seconds: float | None) -> None:
        route = request.url_rule.rule if request.url_rule is not None else UNMATCHED
        method = request.method if request.method in _METHODS else "OTHER"
        self.requests.labels(method, route, str(status)).inc()
        if seconds is not None:
            self.duration.labels(method, route).observe(seconds)

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

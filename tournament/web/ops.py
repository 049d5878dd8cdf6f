"""What an operator watches: ``/healthz``, ``/readyz``, ``/metrics`` and one JSON log line
per request, each with the request's id.

``/healthz`` answers while the process runs; ``/readyz`` only when the database answers
and is migrated (and Redis, when one is configured), so a load balancer sends no
request to a process that would fail it. The request id is the caller's ``X-Request-ID``
when it sends a sane one (a proxy's), else a new one; it is answered in ``X-Request-ID``,
logged with every line and quoted in every problem body.
"""

from __future__ import annotations

import logging
import re
import sys
import time
import uuid
from typing import Any

import structlog
from flask import Blueprint, Flask, Response, current_app, g, jsonify, request

from tournament.web.services import services

_SANE_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")

ops = Blueprint("ops", __name__)


@ops.get("/healthz")
def healthz() -> Response:
    return jsonify(status="ok")


@ops.get("/readyz")
def readyz() -> tuple[Response, int]:
    checks: dict[str, str] = {}
    ready = True
    try:
        from tournament.eventstore import migrate

        migrate.ensure_current(services().url, may_create=False)
        checks["database"] = "ok"
    except Exception as error:  # any failure means: not ready, and why
        ready = False
        checks["database"] = _first_line(error)
    redis_url = current_app.config.get("REDIS_URL")
    if redis_url:
        try:
            import redis

            redis.Redis.from_url(redis_url, socket_timeout=1, socket_connect_timeout=1).ping()
            checks["redis"] = "ok"
        except Exception as error:
            ready = False
            checks["redis"] = _first_line(error)
    return jsonify(status="ready" if ready else "not ready", checks=checks), 200 if ready else 503


def _first_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"[:300]


def _start() -> None:
    sent = request.headers.get("X-Request-ID", "")
    g.request_id = sent if _SANE_ID.match(sent) else uuid.uuid4().hex
    g.started = time.perf_counter()
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(request_id=g.request_id)


def _finish(response: Response) -> Response:
    response.headers["X-Request-ID"] = getattr(g, "request_id", "")
    started = getattr(g, "started", None)
    who = getattr(g, "caller", None)
    structlog.get_logger("schnapsen.request").info(
        "request",
        method=request.method,
        path=request.path,
        status=response.status_code,
        ms=round((time.perf_counter() - started) * 1000, 1) if started else None,
        account=getattr(who, "email", None),
        remote=request.remote_addr,
    )
    return response


def configure_logging(level: int = logging.INFO) -> None:
    """JSON lines on stderr, each with the request id bound for the request."""
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        cache_logger_on_first_use=True,
    )


def _metrics(app: Flask) -> None:
    from prometheus_flask_exporter import PrometheusMetrics

    # Grouped by the route (``/api/v1/tournaments/<tid>``), not the path: one series per
    # route, however many tournaments there are.
    metrics = PrometheusMetrics(
        app, group_by="url_rule", default_labels={}, export_defaults=True, path="/metrics"
    )
    app.extensions["metrics"] = metrics


def install(app: Flask, *, metrics: bool = True) -> None:
    app.before_request(_start)
    app.after_request(_finish)
    app.register_blueprint(ops)
    if metrics:
        _metrics(app)


def log_event(message: str, **fields: Any) -> None:
    structlog.get_logger("schnapsen").info(message, **fields)

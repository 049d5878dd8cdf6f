"""What an operator watches: ``/healthz``, ``/readyz``, ``/metrics`` and one JSON log line
per request, each with the request's id.

``/healthz`` answers while the process runs; ``/readyz`` only when the database answers
and is migrated (and Redis, and the seal key, when configured), so a load balancer sends no
request to a process that would fail it: otherwise 503, problem+json naming each cause.
The request id is the caller's ``X-Request-ID`` when it sends a sane one (a proxy's),
else a new one; it is answered in ``X-Request-ID``, logged with every line and quoted in
every problem body.
"""

from __future__ import annotations

import logging
import re
import sys
import time
import uuid
from typing import Any, TextIO, cast

import structlog
from flask import Blueprint, Flask, Response, current_app, g, jsonify, request

from tournament.web import metrics as prometheus
from tournament.web.problems import Problem
from tournament.web.services import services

_SANE_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")

ops = Blueprint("ops", __name__)


@ops.get("/healthz")
def healthz() -> Response:
    return jsonify(status="ok")


@ops.get("/readyz")
def readyz() -> Response:
    checks: dict[str, str] = {}
    try:
        from tournament.eventstore import migrate

        # A probe only looks: it neither creates nor migrates (the start did that).
        migrate.ensure_current(services().url, may_upgrade=False, may_create=False)
        checks["database"] = "ok"
    except Exception as error:  # any failure means: not ready, and why
        checks["database"] = _first_line(error)
    redis_url = current_app.config.get("REDIS_URL")
    if redis_url:
        try:
            import redis

            redis.Redis.from_url(redis_url, socket_timeout=1, socket_connect_timeout=1).ping()
            checks["redis"] = "ok"
        except Exception as error:
            checks["redis"] = _first_line(error)
    from tournament.eventstore.seal_keys import configured_key_problem

    checks["seal key"] = configured_key_problem() or "ok"  # attack F11: never unsealed
    failed = [f"{name}: {state}" for name, state in checks.items() if state != "ok"]
    if failed:
        raise Problem(503, "Not ready", "; ".join(failed), kind="not-ready", checks=checks)
    return jsonify(status="ready", checks=checks)


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
    seconds = time.perf_counter() - started if started is not None else None
    counted = prometheus.of(current_app)
    if counted is not None:
        counted.observe(request, response.status_code, seconds)
    who = getattr(g, "caller", None)
    structlog.get_logger("schnapsen.request").info(
        "request",
        method=request.method,
        path=request.path,
        status=response.status_code,
        ms=round(seconds * 1000, 1) if seconds is not None else None,
        account=getattr(who, "email", None),
        remote=request.remote_addr,
    )
    return response


class _Stderr:
    """Whatever ``sys.stderr`` is when a line is written, not when logging was set up:
    a test capturing stderr, or a server whose stderr was redirected, gets the lines."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


STDERR = cast(TextIO, _Stderr())

_SHARED: list[Any] = [
    structlog.contextvars.merge_contextvars,
    structlog.processors.add_log_level,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]


def configure_logging(level: int = logging.INFO) -> None:
    """JSON lines on stderr, each with the request id bound for the request; an
    exception's traceback is the line's ``exception`` field (one line, not twenty)."""
    structlog.configure(
        processors=[
            *_SHARED,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(STDERR),
        cache_logger_on_first_use=True,
    )


def json_stdlib_logging(level: int = logging.INFO) -> None:
    """Route the standard library's logging (waitress, the event store's warnings) into
    the same JSON lines. For a process of its own (``tournament serve``): the root
    logger is the whole process's."""
    handler = logging.StreamHandler(STDERR)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[*_SHARED, structlog.stdlib.add_logger_name],
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                structlog.processors.JSONRenderer(),
            ],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


def install(app: Flask, *, metrics: bool = True) -> None:
    app.before_request(_start)
    app.after_request(_finish)
    app.register_blueprint(ops)
    if metrics:
        prometheus.install(app)


def log_event(message: str, **fields: Any) -> None:
    structlog.get_logger("schnapsen").info(message, **fields)

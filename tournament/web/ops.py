"""What an operator watches: ``/healthz``, ``/readyz``, ``/metrics`` and one JSON log line
per request, each with the request's id.

``/healthz`` answers while the process runs; ``/readyz`` only when the database answers,
is migrated and has room, and the configured seal key can be read, so a load balancer
sends no request to a process that would fail it: otherwise 503, problem+json naming each
cause. Without the configured Redis it answers 200 ``degraded``
(:mod:`tournament.web.readiness`).
The request id is the caller's ``X-Request-ID`` when it sends a sane one (a proxy's),
else a new one; it is answered in ``X-Request-ID``, logged with every line and quoted in
every problem body.
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import sys
import time
from typing import Any, TextIO, cast

from flask import Blueprint, Flask, Request, Response, current_app, g, jsonify, request

from tournament.app.services import services
from tournament.json_logs import CODE, redact_path
from tournament.version import describe
from tournament.web import metrics as prometheus
from tournament.web import readiness
from tournament.web.plain_structlog import structlog
from tournament.web.problems import Problem

_SANE_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")

ops = Blueprint("ops", __name__)


@ops.get("/healthz")
def healthz() -> Response:
    return jsonify(status="ok", version=describe())


@ops.get("/readyz")
def readyz() -> Response:
    # tournament.web.readiness says what each check looks at, and why Redis only degrades.
    notes: dict[str, str] = {}  # ready, but the operator should know (a newer schema)
    checks: dict[str, str] = {"database": readiness.database(services(), notes)}
    redis_url = current_app.config.get("REDIS_URL")
    if redis_url:
        checks["redis"] = readiness.redis(redis_url)
    from tournament.eventstore.seal_keys import configured_key_problem

    checks["seal key"] = configured_key_problem() or "ok"  # attack F11: never unsealed
    failed = [f"{name}: {state}" for name, state in checks.items() if state != "ok"]
    degraded = [line for line in failed if line.startswith("redis: ")]
    failed = [line for line in failed if line not in degraded]
    if failed:
        raise Problem(
            503,
            "Not ready",
            "; ".join(failed),
            kind="not-ready",
            checks=checks,
            version=describe(),
        )
    found: dict[str, Any] = {"notes": notes} if notes else {}
    if degraded:  # still serving: results are stored, the standings say they are stale
        return jsonify(
            status="degraded", checks=checks, degraded=degraded, version=describe(), **found
        )
    return jsonify(status="ready", checks=checks, version=describe(), **found)


#: A new request id: this process's random prefix and a count, as unique as a uuid4 and
#: 32 hex digits like one, for a fraction of its cost (uuid4 was 4.5 % of a standings
#: GET, trial 9 P1). The prefix is drawn again in a forked child (gunicorn's workers).
_ids: list[Any] = []


def _new_id_source() -> None:
    _ids[:] = [os.urandom(8).hex(), itertools.count(1), os.getpid()]


def new_request_id() -> str:
    if not _ids or _ids[2] != os.getpid():
        _new_id_source()
    prefix, counter, _ = _ids
    return f"{prefix}{next(counter):016x}"


def request_id_for(sent: str) -> str:
    """The request's id: the caller's ``X-Request-ID`` when sane, else a new one; bound
    to every log line of the request from now on."""
    found = sent if _SANE_ID.match(sent) else new_request_id()
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(request_id=found)
    return found


def _start() -> None:
    g.request_id = request_id_for(request.headers.get("X-Request-ID", ""))
    g.started = time.perf_counter()


def _finish(response: Response) -> Response:
    response.headers["X-Request-ID"] = getattr(g, "request_id", "")
    started = getattr(g, "started", None)
    seconds = time.perf_counter() - started if started is not None else None
    counted = prometheus.of(current_app)
    if counted is not None:
        counted.observe(request, response.status_code, seconds)
    who = getattr(g, "caller", None)
    access_line(
        request.method,
        loggable_path(request),
        response.status_code,
        seconds,
        getattr(who, "email", None),
        request.remote_addr,
    )
    return response


def access_line(
    method: str, path: str, status: int, seconds: float | None, account: str | None,
    remote: str | None,
) -> None:  # fmt: skip
    """The request's line in the access log (its id is bound: :func:`request_id_for`)."""
    _access_log().info(
        "request",
        method=method,
        path=path,
        status=status,
        ms=round(seconds * 1000, 1) if seconds is not None else None,
        account=account,
        remote=remote,
    )


_access: list[Any] = []


def _access_log() -> Any:
    """The access log's logger, made once per configuration (a fresh proxy per request
    bound itself anew each time: about half of the line's cost)."""
    if not _access:
        _access.append(structlog.get_logger("schnapsen.request").bind())
    return _access[0]


def loggable_path(asked: Request) -> str:
    """The request's path without a table code (a seat's credential, operator F14): the
    route's ``code`` argument, and any seat or report path no route took, say
    ``<code>``. The query string is never logged (a ``/setup?token=`` secret)."""
    path = asked.path
    code = (asked.view_args or {}).get("code")
    if isinstance(code, str) and code:
        path = "/".join(CODE if part == code else part for part in path.split("/"))
    return redact_path(path)


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


class _NamedPrintLogger(structlog.PrintLogger):
    """structlog's printing logger, with the name it was asked for: each line says its
    ``logger`` like the standard library's lines (gunicorn's, Celery's) do."""

    def __init__(self, file: TextIO, name: str) -> None:
        super().__init__(file)
        self.name = name


def _named(*args: Any) -> _NamedPrintLogger:
    return _NamedPrintLogger(STDERR, str(args[0]) if args else "schnapsen")


def _logger_name(logger: Any, method: str, event: Any) -> Any:
    event.setdefault("logger", getattr(logger, "name", "schnapsen"))
    return event


def configure_logging(level: int = logging.INFO) -> None:
    """JSON lines on stderr, each with the request id bound for the request; an
    exception's traceback is the line's ``exception`` field (one line, not twenty). The
    keys are those of every other process's lines (tournament.json_logs): ``event``,
    ``level``, ``timestamp``, ``logger`` and the line's own."""
    structlog.configure(
        processors=[
            *_SHARED,
            _logger_name,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=_named,
        cache_logger_on_first_use=True,
    )
    _access.clear()  # bound again under this configuration


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
    readiness.install(app)
    if metrics:
        prometheus.install(app)


def log_event(message: str, **fields: Any) -> None:
    structlog.get_logger("schnapsen").info(message, **fields)

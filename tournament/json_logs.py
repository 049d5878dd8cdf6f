"""One log format for every process of the service: a JSON object per line, with the keys
the app's own lines have (``event``, ``level``, ``timestamp``, ``logger``, and
``exception`` with a traceback), whoever wrote the line: the app (structlog,
:mod:`tournament.web.ops`), gunicorn's master and workers, Celery's worker and beat.

Standard library only: gunicorn's master loads it with its settings
(``deploy/gunicorn/*.py``), and the stream processes' master must not import what gevent
patches later in each worker (asyncio, which structlog brings). The lines match what
structlog's ``JSONRenderer`` writes for the app (``tests/deploy/test_json_logs.py``).

Table codes are a seat's credential (docs/api.md, "The code is the credential"), so no
line carries one: :func:`redact_path` is applied to the request log's path, to gunicorn's
access lines and to every other line's message (a Celery task's arguments never hold a
code, but a library's error message might quote a URL).
"""

from __future__ import annotations

import json
import logging
import re
import sys
import traceback
from datetime import UTC, datetime
from typing import Any, NoReturn

#: The paths that carry a table code in their first segment after the prefix: a seat's API
#: and pages, and the report page of a table card's QR code; where a path starts (the
#: text's start, after a space, a quote or a URL's host), not inside another path.
_CODE_PATH = re.compile(r"((?:^|[\s\"'(=]|://[^/\s\"']+)(?:/api/v1/play/|/play/|/r/))[^/\s?#\"']+")
#: What stands in for a code.
CODE = "<code>"

#: The periodic sweep (beat, every few seconds): its "sending", "received", "succeeded"
#: and "discarding" (expired) lines say nothing at INFO; the sweep logs by itself when it
#: finds work.
QUIET_TASKS = frozenset({"workers.tasks.sweep_projections"})


def redact_path(text: str) -> str:
    """``text`` with every table code in a seat's or a report page's path replaced."""
    return _CODE_PATH.sub(rf"\1{CODE}", text)


def timestamp(seconds: float) -> str:
    """As structlog's ``TimeStamper(fmt="iso", utc=True)`` writes it."""
    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")


class JsonFormatter(logging.Formatter):
    """A standard library record as one JSON line, keyed like the app's structlog lines."""

    def format(self, record: logging.LogRecord) -> str:
        # The event is the message's first line; what a library puts after it (beat's
        # "Message Error: ...\n" and the whole stack, during a Redis outage) goes with the
        # traceback, so that a search on "event" finds one line (operator trial of main, 5).
        event, _, more = redact_path(record.getMessage()).partition("\n")
        line: dict[str, Any] = {
            "event": event,
            "level": record.levelname.lower(),
            "timestamp": timestamp(record.created),
            "logger": record.name,
        }
        details = [more.strip()] if more.strip() else []
        if record.exc_info:
            details.append("".join(traceback.format_exception(*record.exc_info)).rstrip())
        elif record.exc_text:
            details.append(record.exc_text)
        if details:
            line["exception"] = "\n".join(details)
        return json.dumps(line, ensure_ascii=False, default=str)


def refuse_to_start(error: object, logger: str, status: int = 1) -> NoReturn:
    """Say why a process cannot start in one JSON line, ``"event": "Error: ..."``, on
    stderr and exit with ``status``: a gunicorn or Celery process logs only JSON lines,
    and its refusal (a configured seal key missing, a store not migrated) was a plain
    line or a traceback of two dozen among them (operator trial of main, 3 and 4)."""
    record = logging.makeLogRecord(
        {"name": logger, "levelno": logging.ERROR, "levelname": "ERROR", "msg": f"Error: {error}"}
    )
    # One write: gunicorn's workers refuse at once, and two writes each would interleave.
    sys.stderr.write(JsonFormatter().format(record) + "\n")
    sys.stderr.flush()
    raise SystemExit(status)


class QuietPeriodic(logging.Filter):
    """Lowers Celery's per-task lines about the periodic sweep to DEBUG: beat's
    "Scheduler: Sending due task", the worker's "Task ... received" and "... succeeded".
    On a logger (not a handler), so that the handler's level then drops them at INFO."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.INFO and _names_quiet_task(record.args):
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)
        return True


def _names_quiet_task(args: object) -> bool:
    if isinstance(args, dict):  # the worker's lines: a context with the task's name
        return args.get("name") in QUIET_TASKS
    if isinstance(args, tuple):  # beat's: (entry name, task name)
        return any(arg in QUIET_TASKS for arg in args if isinstance(arg, str))
    return False


#: The loggers that write Celery's per-task lines; ``celery.worker.request`` says
#: "Discarding revoked task" for a sweep that expired in the queue (a worker slow to start
#: finds dozens: harmless, the next sweep follows two seconds later).
CELERY_TASK_LOGGERS = (
    "celery.beat",
    "celery.worker.strategy",
    "celery.app.trace",
    "celery.worker.request",
)

"""The worker's and beat's log: JSON lines on stderr like the web's (one object per line,
the same keys: :mod:`tournament.json_logs`), and no line per periodic sweep at INFO
(operator F11: beat's "Sending due task", the worker's "received" and "succeeded ...: []"
every two seconds made some 130,000 lines a day of nothing). The sweep logs by itself
when it found work; ``--loglevel DEBUG`` shows the per-sweep lines again.

Connected to Celery's ``setup_logging`` signal: Celery then installs none of its own
handlers and does not redirect stdout and stderr into its logger (the app's structlog
lines would come out wrapped in a second line). Start the processes with ``celery
--quiet`` as deploy/ does, or Celery prints its start banner as plain text on stdout.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.signals import setup_logging

from tournament.json_logs import CELERY_TASK_LOGGERS, JsonFormatter, QuietPeriodic


class KeepRunningWarning(logging.Filter):
    """Drops Celery 5's warning, logged on every lost broker connection, that Celery 6
    will cancel running tasks then: ``worker_cancel_long_running_tasks_on_connection_loss``
    is False on purpose (workers.celery_app says why), and the warning was a dozen lines
    each time Redis went away (operator trial of main, 5). A logging filter, because
    Celery sets ``always`` for its warnings after this module's setup."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "In Celery 5.1 we introduced an optional breaking change" not in record.getMessage()


@setup_logging.connect
def json_lines(loglevel: int | str | None = None, **_: Any) -> None:
    level = logging.getLevelName(loglevel) if isinstance(loglevel, int) else loglevel
    handler = logging.StreamHandler()  # stderr
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(str(level or "INFO").upper())
    warned = logging.getLogger("py.warnings")  # where captureWarnings sends warnings
    if not any(isinstance(found, KeepRunningWarning) for found in warned.filters):
        warned.addFilter(KeepRunningWarning())
    quiet = QuietPeriodic()
    for name in CELERY_TASK_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(found, QuietPeriodic) for found in logger.filters):
            logger.addFilter(quiet)

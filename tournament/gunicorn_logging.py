"""gunicorn's own lines as JSON, like the app's (``logger_class`` in deploy/gunicorn/*.py):
its error log (starting, a worker booted, timed out or killed) and, when an operator turns
it on (``--access-logfile -``), its access log, whose paths lose their table codes
(:func:`tournament.json_logs.redact_path`).

A logger class rather than ``logconfig_dict``: gunicorn counts any logging configuration
as "access log on", and the app already logs each request as a JSON line with its
request id. Imports gunicorn and the standard library only (the master loads it).
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

from tournament.json_logs import JsonFormatter


class JsonLogger(Logger):  # type: ignore[misc]  # gunicorn is untyped
    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(JsonFormatter())

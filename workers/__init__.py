"""The Celery workers: projections (standings, brackets, outstanding matches, per-player
summaries), their sweep and reconciliation, and live announcements.

    celery --quiet -A workers worker --pool prefork --concurrency 2 --loglevel INFO
    celery --quiet -A workers beat --loglevel INFO

``REDIS_URL`` (the broker) and ``DATABASE_URL`` configure both, as they configure the web
app: the Celery app is built from the Flask app's settings (:func:`celery_init_app`,
Flask's documented pattern), made when Celery first asks for ``workers.app``. Without
``REDIS_URL`` there are no workers: the web process runs the same projections itself
(:mod:`tournament.projections.inprocess`). ``--quiet`` leaves out Celery's start banner,
the one line that would not be JSON (:mod:`workers.log_setup`).
"""

from __future__ import annotations

import sys
from typing import Any

from tournament import metrics_dir


def _worker_figures() -> None:
    """A worker (``celery ... worker``, not beat nor ``inspect``) writes its figures to
    the host's metrics folder (``SCHNAPSEN_METRICS_DIR/worker``, emptied as it starts:
    :mod:`tournament.metrics_dir`); before prometheus_client is imported, which reads
    the folder once."""
    if "worker" in sys.argv[1:]:
        path = metrics_dir.use("worker")
        if path is not None:
            metrics_dir.wipe(path)


_worker_figures()


def __getattr__(name: str) -> Any:
    # ``celery -A workers`` looks up ``workers.app``: the Flask app is made then, not when
    # the web app imports ``workers.tasks`` (which would make a second one).
    if name in ("app", "celery"):
        from tournament.eventstore.api import EventStoreError
        from tournament.json_logs import refuse_to_start
        from tournament.web import create_app

        try:
            # No /metrics of its own: a worker serves no HTTP (its figures: workers.metrics).
            flask_app = create_app({"METRICS": False})
        except EventStoreError as error:  # a seal key missing, a store not migrated
            refuse_to_start(error, "workers")
        return flask_app.extensions["celery"]
    raise AttributeError(name)

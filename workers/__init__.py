"""The Celery workers: projections (standings, brackets, outstanding matches, per-player
summaries), their sweep and reconciliation, and live announcements.

    celery -A workers worker --pool prefork --concurrency 2 --loglevel INFO
    celery -A workers beat --loglevel INFO

``REDIS_URL`` (the broker) and ``DATABASE_URL`` configure both, as they configure the web
app: the Celery app is built from the Flask app's settings (:func:`celery_init_app`,
Flask's documented pattern), made when Celery first asks for ``workers.app``. Without
``REDIS_URL`` there are no workers: the web process runs the same projections itself
(:mod:`tournament.projections.inprocess`).
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    # ``celery -A workers`` looks up ``workers.app``: the Flask app is made then, not when
    # the web app imports ``workers.tasks`` (which would make a second one).
    if name in ("app", "celery"):
        from tournament.web import create_app

        flask_app = create_app()
        return flask_app.extensions["celery"]
    raise AttributeError(name)

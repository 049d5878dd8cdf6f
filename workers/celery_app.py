"""The Celery app, from the Flask app's settings (Flask's ``celery_init_app`` pattern).

Every task runs inside the Flask app's context, so it reaches the same services (store,
tournament service) the web app's views do. The settings say how a task survives a crash:

- ``task_acks_late`` and ``task_reject_on_worker_lost``: a task is acknowledged after it
  ran; a worker killed in the middle of one (SIGKILL, out of memory) leaves it to be
  delivered again. Projection runs are idempotent, so a second delivery is harmless.
- ``worker_prefetch_multiplier = 1``: a worker takes one task at a time, so a killed
  worker strands at most the task it was running.
- No result backend (``task_ignore_result``): nothing waits on a result, so there are no
  chords; a task's effect is in the database.
- The prefork pool, never gevent: redelivery with the Redis broker is unreliable under
  gevent, and a projection is CPU work.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, Task
from flask import Flask

#: How often beat sends the sweep (behind projections) and the reconciliation.
SWEEP_SECONDS = float(os.environ.get("SCHNAPSEN_SWEEP_SECONDS", "2"))
RECONCILE_SECONDS = float(os.environ.get("SCHNAPSEN_RECONCILE_SECONDS", "600"))
QUEUE = "schnapsen"


def celery_settings(redis_url: str) -> dict[str, Any]:
    return {
        "broker_url": redis_url,
        "task_ignore_result": True,
        "result_backend": None,
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "worker_pool": "prefork",
        "task_default_queue": QUEUE,
        "task_serializer": "json",
        "accept_content": ["json"],
        "broker_connection_retry_on_startup": True,
        # Celery 5's behaviour, chosen (Celery 6 will cancel): a task running when Redis
        # goes away runs to its end. Cancelled, it would be "delivered again" only if
        # Redis kept it, and a restarted Redis without persistence comes back empty; a
        # projection that runs to its end twice makes the same tables. Celery warns on
        # every reconnect that the default changes (CPendingDeprecationWarning): said
        # here once, its log line is dropped (workers.log_setup.KeepRunningWarning).
        "worker_cancel_long_running_tasks_on_connection_loss": False,
        # An unacknowledged task (its worker died) is delivered again after this long;
        # the sweep nudges the tournament well before that anyway.
        "broker_transport_options": {
            "visibility_timeout": 300,
            "socket_connect_timeout": 1,
            "socket_timeout": 5,
        },
        # Back on the broker at once after Redis returns (workers.consumer).
        "worker_consumer": "workers.consumer:QuickReconnectConsumer",
        "worker_hijack_root_logger": False,
        "beat_schedule": {
            "sweep-projections": {
                "task": "workers.tasks.sweep_projections",
                "schedule": SWEEP_SECONDS,
                "options": {"expires": SWEEP_SECONDS * 5},
            },
            "expire-idempotency-keys": {
                "task": "workers.tasks.expire_idempotency_keys",
                "schedule": 24 * 3600.0,
                "options": {"expires": 3600},
            },
            "reconcile-projections": {
                "task": "workers.tasks.reconcile_projections",
                "schedule": RECONCILE_SECONDS,
                "options": {"expires": RECONCILE_SECONDS},
            },
        },
    }


def celery_init_app(app: Flask) -> Celery:
    class FlaskTask(Task):  # type: ignore[misc]  # Celery's Task is untyped
        def __call__(self, *args: object, **kwargs: object) -> object:
            with app.app_context():
                return self.run(*args, **kwargs)

    # The app's settings: REDIS_URL is the broker; CELERY may override any of it.
    app.config["CELERY"] = {
        **celery_settings(app.config["REDIS_URL"]),
        **app.config.get("CELERY", {}),
    }
    celery_app = Celery(app.name, task_cls=FlaskTask)
    celery_app.config_from_object(app.config["CELERY"])
    celery_app.set_default()
    from workers.pool import QuickPoolUpkeep

    celery_app.steps["worker"].add(QuickPoolUpkeep)  # a killed child's task requeued at once
    celery_app.flask_app = app  # the worker's children reach it after the fork
    app.extensions["celery"] = celery_app
    import workers.log_setup
    import workers.metrics
    import workers.printing
    import workers.tasks  # noqa: F401

    return celery_app

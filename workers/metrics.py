"""The workers' figures, for the web's ``/metrics`` (:mod:`tournament.metrics_dir`: the
worker processes write them to the host's folder; without one they stay unseen):

- ``schnapsen_worker_tasks_total{task, outcome}``: tasks run, by outcome (``succeeded``,
  ``failed``, ``retried``); failures rising is an alarm.
- ``schnapsen_worker_last_success_timestamp_seconds{task}``: when a task of that kind
  last succeeded. The sweep's (every few seconds from beat) going stale means beat or
  every worker stopped; the projection run's says when standings last moved.
"""

from __future__ import annotations

import time
from typing import Any

from celery.signals import task_failure, task_retry, task_success
from prometheus_client import Counter, Gauge

TASKS = Counter(
    "schnapsen_worker_tasks",
    "Celery tasks run by the workers, by task and outcome",
    ("task", "outcome"),
    registry=None,
)
LAST_SUCCESS = Gauge(
    "schnapsen_worker_last_success_timestamp_seconds",
    "Unix time a task of this kind last succeeded (any worker process of the host)",
    ("task",),
    registry=None,
    multiprocess_mode="max",
)


def _name(sender: Any) -> str:
    return str(getattr(sender, "name", None) or "unknown")


@task_success.connect
def _succeeded(sender: Any = None, **_: Any) -> None:
    TASKS.labels(_name(sender), "succeeded").inc()
    LAST_SUCCESS.labels(_name(sender)).set(time.time())


@task_failure.connect
def _failed(sender: Any = None, **_: Any) -> None:
    TASKS.labels(_name(sender), "failed").inc()


@task_retry.connect
def _retried(sender: Any = None, **_: Any) -> None:
    TASKS.labels(_name(sender), "retried").inc()

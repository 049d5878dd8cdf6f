"""A task that keeps a worker busy for a while, for the tests that take Redis away from
a worker in the middle of a task (loaded into the test's worker with ``--include``)."""

from __future__ import annotations

import time

from celery import shared_task


@shared_task(name="tests.live.busy_tasks.hold", acks_late=True)  # type: ignore[misc]
def hold(seconds: float) -> None:
    time.sleep(seconds)

"""A Celery worker outlives Redis restarts while it is busy, whoever started it (trial 2:
operator F6, attack F6: "Unrecoverable error: AttributeError('NoneType' object has no
attribute 'hostname')" from kombu's Redis transport, and the worker process exited).

The worker runs as deployed (prefork, two pool processes), against this test's own
redis-server. Before each restart it holds a task unacknowledged (``acks_late``) while its
other pool process waits for work, a BRPOP outstanding: the state in which kombu's clean-up
used to end the worker (workers/consumer.py says why). Redis is stopped as an operator
stops it (SIGTERM) and started again on the same port, empty; a supervisor would restart
a dead worker, so the test asserts the very process it started is still there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.live.conftest import create_swiss, draw, points, post_result, standings
from tests.live.harness import CeleryWorker, RedisServer, wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

RESTARTS = 5
#: How long the held task runs: long enough to span a restart.
HOLD_SECONDS = 1.0


def held(worker: CeleryWorker, state: str) -> int:
    """How many held tasks the worker logged as ``received`` or ``succeeded``."""
    return len(re.findall(rf"busy_tasks\.hold\[[0-9a-f-]+\] {state}", worker.log()))


def alive(worker: CeleryWorker) -> bool:
    assert worker.process is not None
    if worker.process.poll() is not None:
        raise AssertionError(f"the worker exited: {worker.log()[-3000:]}")
    return True


def logged_again(worker: CeleryWorker, count: Callable[[], int]) -> Callable[[], bool]:
    """A check: the worker is alive and ``count`` (of its log) grew since now."""
    before = count()
    return lambda: alive(worker) and count() > before


def lines(worker: CeleryWorker, text: str) -> Callable[[], int]:
    return lambda: worker.log().count(text)


def test_a_busy_worker_outlives_redis_restarts_and_the_standings_become_fresh_again(
    start_workers_mode: Any, own_redis: RedisServer
) -> None:
    mode = start_workers_mode(
        worker_options={"concurrency": 2, "include": ["tests.live.busy_tasks"]},
        RATELIMIT_STORAGE_URI=own_redis.url,  # login attempts are counted in Redis
    )
    worker, http = mode.worker, mode.http
    create_swiss(http, "cup", players=2 * (RESTARTS + 1), rounds=1)
    matches = draw(http, "cup")

    for restart, (match_id, _) in enumerate(matches[:RESTARTS]):
        # The previous held task done, so that one pool process is busy from here on
        # and the other waits for work.
        wait_until(lambda r=restart: held(worker, "succeeded") >= r, 10,
                   f"restart {restart}: the previous held task is done")  # fmt: skip
        assert post_result(http, "cup", match_id).status == 201  # a projection queued
        taken = logged_again(worker, lambda: held(worker, "received"))
        mode.celery.send_task("tests.live.busy_tasks.hold", args=[HOLD_SECONDS])
        wait_until(taken, 10, f"restart {restart}: the worker took the held task")
        lost = logged_again(worker, lines(worker, "Connection to broker lost"))
        mode.redis.stop()
        wait_until(lost, 10, f"restart {restart}: the worker notices Redis is away")
        back = logged_again(worker, lines(worker, "Connected to redis://"))
        mode.redis.start()
        wait_until(back, 10, f"restart {restart}: the worker is back on Redis")

    assert alive(worker)
    assert "Unrecoverable error" not in worker.log()
    # No plain-text warning per reconnect (operator trial of main, 5: opfix 5)
    assert "CPendingDeprecationWarning" not in worker.log()
    assert "In Celery 5.1 we introduced" not in worker.log()
    # Redis came back empty: a result now queues the projection that brings the
    # standings up to every result stored, the ones entered around the restarts too.
    assert post_result(http, "cup", matches[RESTARTS][0]).status == 201
    wait_until(
        lambda: not standings(http, "cup")["projection"]["stale"]
        and sum(points(standings(http, "cup")).values()) == RESTARTS + 1,
        10, "fresh standings with every result", every=0.1,
    )  # fmt: skip
    assert alive(worker)

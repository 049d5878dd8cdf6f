"""A worker killed in the middle of a projection (SIGKILL: the OOM killer, a pulled plug)
leaves the standings exactly as a rebuild from scratch would make them, nothing counted
twice (issue 10: "A repeated or redelivered run changes nothing").

The worker's test-only hook (tests/live/paused_projections.py, passed to the projector
as its ``before_commit``) stops each run after it wrote its rows, before its commit, and
says which process it is in (the mark file): the test kills that process there. Mostly
it kills the pool child: with ``acks_late`` and ``reject_on_worker_lost`` Celery gives
the task to a new child, whose run finds the mark and goes through. Now and then it kills
the worker's main process instead (its child dies with it: Celery gives pool children
SIGKILL as their parent-death signal): the task stays unacknowledged on the broker
until the visibility timeout, so a new worker and beat's sweep must bring the
tournament up to date.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tests.live.conftest import WorkersMode, create_swiss, draw, points, post_result, standings
from tests.live.harness import gone, log_version, projected_version, wait_until
from tests.live.paused_projections import paused_worker
from tournament.eventstore import SQLEventStore
from tournament.projections.runner import Projector, stored

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

#: A Swiss of 16 over 3 rounds: 24 results, each killed once mid-projection. The soak
#: (bench/kill_soak.py) sets SCHNAPSEN_KILL_SOAK="20,10": 100 kills.
PLAYERS, ROUNDS = (int(n) for n in os.environ.get("SCHNAPSEN_KILL_SOAK", "16,3").split(","))
KILLS = PLAYERS // 2 * ROUNDS
#: The kills (counted from 0) that kill the worker's main process instead of its child:
#: one in eight.
MAIN_PROCESS = set(range(5, KILLS, 8))


def paused_in(mark: Path) -> int | None:
    """The process id a paused projection run wrote into the mark (None: not yet)."""
    try:
        text = mark.read_text().strip()
    except FileNotFoundError:
        return None
    return int(text) if text.isdigit() else None


def caught_up(mode: WorkersMode, tid: str) -> bool:
    return projected_version(mode.engine, tid) == log_version(mode.engine, tid)


def assert_equals_a_rebuild(engine: sa.Engine, tid: str) -> None:
    rebuilt = Projector(SQLEventStore(engine)).rebuild(tid)
    assert rebuilt is not None
    with engine.connect() as conn:
        assert stored(conn, tid) == rebuilt.comparable()


def kill_mid_projection(mode: WorkersMode, mark: Path, main: bool) -> None:
    pid = wait_until(lambda: paused_in(mark), 15, "a projection run paused before its commit")
    assert not caught_up(mode, "cup")  # the run's rows are not committed
    if not main:
        assert mode.worker.process is not None and pid != mode.worker.process.pid
        os.kill(pid, signal.SIGKILL)
        return
    mode.worker.kill_main()
    wait_until(lambda: gone(pid), 5, "the pool child ends with its main process")
    mode.worker.start()
    # The killed worker's task waits out the broker's visibility timeout: beat's sweep
    # (sent here, not waited for) finds the tournament behind its log.
    mode.celery.send_task("workers.tasks.sweep_projections")


def test_standings_equal_a_rebuild_after_each_of_many_kills_in_the_middle_of_a_projection(
    start_workers_mode: Any, tmp_path: Path
) -> None:
    mark = tmp_path / "projection.mark"
    mark.write_text("setting up")  # no pause until the first kill
    mode = start_workers_mode(**paused_worker(120, mark))
    http = mode.http
    create_swiss(http, "cup", PLAYERS, ROUNDS)
    kills, started = 0, time.monotonic()
    for _ in range(ROUNDS):
        matches = draw(http, "cup")
        wait_until(lambda: caught_up(mode, "cup"), 15, "the draw projected")
        for match_id, winner in matches:
            mark.unlink()
            reply = post_result(http, "cup", match_id)
            assert reply.status == 201, reply.text
            kill_mid_projection(mode, mark, main=kills in MAIN_PROCESS)
            kills += 1
            wait_until(lambda: caught_up(mode, "cup"), 20, f"projected again after kill {kills}")
            assert_equals_a_rebuild(mode.engine, "cup")
            body = standings(http, "cup")
            assert body["projection"]["stale"] is False
            assert points(body)[winner] >= 1
            assert sum(points(body).values()) == kills  # each result counted once
    assert kills == KILLS >= 20
    assert time.monotonic() - started < 90 * KILLS / 24
    took = time.monotonic() - started
    print(f"kills: {kills} ({len(MAIN_PROCESS)} of the main process) in {took:.1f} s")

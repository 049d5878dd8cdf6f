"""Test-only Celery module: makes the worker's projection runs pause before their commit.

A test starts the worker with ``--include tests.live.paused_projections`` (see
:func:`paused_worker`) and two variables of its environment: a run that finds no file at
``PROJECTION_MARK`` writes its process id there after writing its rows and checkpoint,
then waits ``PROJECTION_PAUSE`` seconds before its commit -- so that the test can kill the
worker in the middle of a projection (and the run delivered again finds the file and goes
through). The production code knows nothing of this: the module wraps the worker's
projector factory and passes a ``before_commit`` seam to :class:`Projector`.

Celery imports ``--include`` modules in the worker's main process before it forks its pool,
so every pool child (and every replacement child) runs with the hook.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from tournament.projections.runner import Projector

PAUSE_VARIABLE = "PROJECTION_PAUSE"
MARK_VARIABLE = "PROJECTION_MARK"
MODULE = __name__


def pause_before_commit(_: sa.Connection) -> None:
    pause = os.environ.get(PAUSE_VARIABLE)
    mark = os.environ.get(MARK_VARIABLE)
    if not pause or not mark:
        return
    path = Path(mark)
    if path.exists():
        return
    path.write_text(str(os.getpid()))
    time.sleep(float(pause))


def paused_worker(pause: float, mark: Path) -> dict[str, Any]:
    """``start_workers_mode``'s arguments for a worker whose runs pause at ``mark``."""
    return {
        "worker_env": {PAUSE_VARIABLE: str(pause), MARK_VARIABLE: str(mark)},
        "worker_options": {"include": [MODULE]},
    }


def _install() -> None:
    import workers.tasks as tasks

    made = tasks.projector

    def projector() -> Projector:
        found = made()
        found.before_commit = pause_before_commit
        return found

    tasks.projector = projector  # type: ignore[assignment]  # (the worker's lookup at call time)


if os.environ.get(PAUSE_VARIABLE):
    _install()

"""A pool child killed in the middle of a task (SIGKILL, out of memory) is replaced, and
its task handed back to the broker, within half a second instead of up to five.

Celery's prefork pool notices a dead child when the child's sentinel pipe closes, and
then asks the kernel for its exit status. The kernel closes a dying process's files
before it makes it reapable, so that question often comes too early ("still running"):
the pool then stops watching the sentinel and finds the dead child only at its next
5-second check, and the task (``acks_late``, ``reject_on_worker_lost``) waits that long
before it goes back to the queue. This worker bootstep checks every half second; a check
walks the pool's few processes and costs nothing when none died.
"""

from __future__ import annotations

from typing import Any

from celery import bootsteps

#: Seconds between checks for dead pool children.
CHECK_EVERY = 0.5


class QuickPoolUpkeep(bootsteps.StartStopStep):  # type: ignore[misc]  # Celery is untyped
    requires = ("celery.worker.components:Pool",)

    def start(self, worker: Any) -> None:
        pool = getattr(getattr(worker, "pool", None), "_pool", None)
        hub = getattr(worker, "hub", None)
        if pool is None or hub is None or not hasattr(pool, "maintain_pool"):
            return  # not the prefork pool on the event loop: nothing to add
        hub.call_repeatedly(CHECK_EVERY, pool.maintain_pool)

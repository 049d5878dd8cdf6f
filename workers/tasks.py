"""The workers' tasks. Each takes ids, never objects, and may run twice (a redelivery
after a worker died): what it does is idempotent.

- :func:`project_tournament`: bring a tournament's projection up to its log and announce
  the new version (the web app nudges it after each commit).
- :func:`sweep_projections` (beat, every few seconds): nudge every tournament whose
  projection is behind its log -- a nudge lost while Redis was away, a result entered
  with the command line.
- :func:`reconcile_projections` (beat, every ten minutes): rebuild a few tournaments
  from scratch and compare; a difference is an alarm, and is repaired.
- :func:`expire_idempotency_keys` (beat, daily): forget the API's idempotency keys older
  than ``SCHNAPSEN_KEY_RETENTION_DAYS`` (30), as ``tournament db expire-keys`` does.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

from celery import shared_task
from celery.signals import worker_process_init

from tournament.live.bus import RedisBus, redis_client
from tournament.projections.runner import Projector
from tournament.projections.upkeep import Sweeper, due_for_reconciliation, reconcile
from tournament.web.services import services

log = logging.getLogger(__name__)
T = TypeVar("T")

#: What a retry waits for at most (exponential back-off from 1 s).
RETRY_BACKOFF_MAX = 30

#: What each process keeps between tasks, made after the fork: (pid, name) -> object.
_kept: dict[tuple[int, str], Any] = {}


def _this_process(name: str, make: Callable[[], T]) -> T:
    """``name``'s object of this process, made by ``make`` the first time (a pool child
    never uses what its parent made before the fork)."""
    key = (os.getpid(), name)
    found = _kept.get(key)
    if found is None:
        found = _kept[key] = make()
    return cast(T, found)


def nudge_key(tournament_id: str) -> str:
    """Set while a projection run of the tournament is queued and not yet started: a
    burst of commits then queues one run. Only merges nudges; correctness never rests on
    it (the run takes the tournament's database lock)."""
    return f"schnapsen:nudge:{tournament_id}"


def projector() -> Projector:
    """This process's projector (its folded states make each run pay only for what is
    new); made in the child process, after the fork."""
    from flask import current_app

    return _this_process(
        "projector",
        lambda: Projector(
            services().store,
            services().tournaments,
            publish=RedisBus(current_app.config["REDIS_URL"]).publish,
        ),
    )


@worker_process_init.connect
def _after_fork(**_: object) -> None:
    # The parent made the app (and its database pool) before forking: a child must not
    # share the parent's connections. Forget them (without closing the parent's).
    from celery import current_app as celery_app

    flask_app = getattr(celery_app, "flask_app", None)
    if flask_app is not None:
        with flask_app.app_context():
            services().store.engine.dispose(close=False)


@shared_task(
    name="workers.tasks.project_tournament",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(Exception,),
    retry_backoff=True,
    retry_backoff_max=RETRY_BACKOFF_MAX,
    max_retries=8,
    ignore_result=True,
)
def project_tournament(tournament_id: str) -> int | None:
    """Project ``tournament_id``; the version announced (None: nothing new)."""
    _forget_nudge(tournament_id)
    change = projector().project(tournament_id)
    return change.version if change is not None else None


@shared_task(name="workers.tasks.sweep_projections", acks_late=True, ignore_result=True)
def sweep_projections() -> list[str]:
    """Queue a projection run for every tournament behind its log."""
    found = _this_process("sweeper", lambda: Sweeper(services().store.engine)).behind()
    for tid in found:
        project_tournament.apply_async((tid,))
    if found:
        log.info("sweep: %d projection(s) behind their log: %s", len(found), ", ".join(found))
    return found


@shared_task(name="workers.tasks.reconcile_projections", acks_late=True, ignore_result=True)
def reconcile_projections(batch: int = 5) -> list[str]:
    """Rebuild the ``batch`` tournaments reconciled longest ago and compare; the ids that
    differed (each logged as an alarm, recorded, and repaired)."""
    differed = []
    for tid in due_for_reconciliation(services().store.engine, batch):
        found = reconcile(projector(), tid)
        if found is not None and not found.matched:
            differed.append(tid)
    return differed


def _forget_nudge(tournament_id: str) -> None:
    """The run starts now: a commit from here on must queue another run."""
    from flask import current_app

    try:
        client = _this_process("redis", lambda: redis_client(current_app.config["REDIS_URL"]))
        client.delete(nudge_key(tournament_id))
    except Exception as error:  # merging is an optimisation: go on without it
        log.warning("nudge key of %s not cleared: %s", tournament_id, error)


@shared_task(name="workers.tasks.expire_idempotency_keys", acks_late=True, ignore_result=True)
def expire_idempotency_keys() -> int:
    """Forget idempotency keys older than the retention (a retry after that is decided
    again like a new request); how many."""
    from datetime import timedelta

    from tournament.eventstore.store import KEY_RETENTION_DAYS

    text = os.environ.get("SCHNAPSEN_KEY_RETENTION_DAYS", "").strip()
    days = int(text) if text.isdigit() and int(text) >= 1 else KEY_RETENTION_DAYS
    gone = services().store.expire_keys(timedelta(days=days))
    log.info("forgot %d idempotency key(s) older than %d day(s)", gone, days)
    return gone

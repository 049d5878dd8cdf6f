"""Projection checkpoints: how far each projection has read the global log.

A projection keeps its tables in the same database and moves its checkpoint in the same
transaction as its own writes, so after a crash it resumes exactly where its last commit
left it: no event is applied twice, none is skipped::

    def count_hands(conn, event):
        conn.execute(text("UPDATE hand_counts SET n = n + 1"))

    run_projection(store, "hand-counts", count_hands)     # applies what is new, returns how many

The checkpoint moves by compare-and-set, so two runners of the same projection cannot
both apply a batch: the slower one gets :class:`CheckpointConflictError` and its writes
roll back. A projection kept outside the database (Redis, files) cannot share the
transaction; it must make its writes idempotent by position instead.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import sqlalchemy as sa

from tournament.eventstore.api import StoredEvent
from tournament.eventstore.errors import CheckpointConflictError
from tournament.eventstore.schema import checkpoints
from tournament.eventstore.store import SQLEventStore

Handler = Callable[[sa.Connection, StoredEvent], object]


def get_checkpoint(conn: sa.Connection, name: str) -> int:
    """The last position ``name`` has applied (0: none yet)."""
    query = sa.select(checkpoints.c.position).where(checkpoints.c.name == name)
    return int(conn.execute(query).scalar() or 0)


def save_checkpoint(conn: sa.Connection, name: str, expected: int, position: int) -> None:
    """Move ``name`` from ``expected`` to ``position`` inside the caller's transaction."""
    if position < expected:
        raise ValueError(f"checkpoint {name!r} cannot move back from {expected} to {position}")
    now = datetime.now(UTC)
    moved = conn.execute(
        sa.update(checkpoints)
        .where(checkpoints.c.name == name, checkpoints.c.position == expected)
        .values(position=position, updated_at=now)
    ).rowcount
    if moved == 1:
        return
    if expected == 0 and get_checkpoint(conn, name) == 0:
        try:
            with conn.begin_nested():
                conn.execute(
                    sa.insert(checkpoints).values(name=name, position=position, updated_at=now)
                )
            return
        except sa.exc.IntegrityError:
            pass
    raise CheckpointConflictError(
        f"projection {name!r} is no longer at position {expected}: another runner moved it"
    )


def run_projection(
    store: SQLEventStore,
    name: str,
    handle: Handler,
    batch_size: int = 500,
    max_batches: int | None = None,
) -> int:
    """Apply every event after ``name``'s checkpoint; returns how many were applied.

    Each batch is one transaction: ``handle(conn, event)`` for each event, then the
    checkpoint. An exception rolls the whole batch back (checkpoint included).
    """
    applied = 0
    batches = 0
    # On SQLite take the write lock up front: a read-then-write transaction that only
    # upgrades later can fail with "database is locked" instead of waiting.
    engine = store.engine.execution_options(sqlite_begin="IMMEDIATE")
    while max_batches is None or batches < max_batches:
        with engine.begin() as conn:
            start = get_checkpoint(conn, name)
            events = store.read_all(start, batch_size)
            if not events:
                return applied
            for event in events:
                handle(conn, event)
            save_checkpoint(conn, name, start, events[-1].position)
        applied += len(events)
        batches += 1
    return applied


def reset_checkpoint(engine: sa.Engine, name: str) -> None:
    """Forget ``name``'s checkpoint (before rebuilding the projection from scratch)."""
    with engine.begin() as conn:
        conn.execute(sa.delete(checkpoints).where(checkpoints.c.name == name))

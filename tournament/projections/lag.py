"""How far the projections trail the log, in seconds: the age of the oldest event no
projection has applied yet (``/metrics``: ``schnapsen_projection_lag_seconds``).

A count of tournaments behind (``schnapsen_projections_behind``) says nothing about how
long: a busy evening has a few behind for a moment after every result. The age of the
oldest unapplied event does: it stays near zero while the workers keep up, and grows
without bound when none runs (Redis away, the worker stopped), whatever the traffic.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa

from tournament.domain.model import events as ev
from tournament.eventstore.schema import checkpoints, events
from tournament.projections.runner import checkpoint_name
from tournament.projections.upkeep import behind


def projection_lag(engine: sa.Engine, now: datetime | None = None) -> tuple[int, float]:
    """(tournaments behind their log, seconds since the oldest event not yet projected
    was recorded; 0.0 when every projection is current)."""
    lagging = behind(engine)
    if not lagging:
        return 0, 0.0
    names = {checkpoint_name(tid): tid for tid in lagging}
    oldest: datetime | None = None
    with engine.connect() as conn:
        done = {
            names[name]: int(position)
            for name, position in conn.execute(
                sa.select(checkpoints.c.name, checkpoints.c.position).where(
                    checkpoints.c.name.in_(list(names))
                )
            )
        }
        # One indexed look-up per tournament behind (a handful): its first unapplied event.
        for tid in lagging:
            recorded = conn.execute(
                sa.select(events.c.recorded_at).where(
                    events.c.stream_id == ev.stream_id(tid),
                    events.c.version == done.get(tid, 0) + 1,
                )
            ).scalar()
            if recorded is None:
                continue
            if recorded.tzinfo is None:  # SQLite hands back the UTC time without its zone
                recorded = recorded.replace(tzinfo=UTC)
            oldest = recorded if oldest is None else min(oldest, recorded)
    if oldest is None:
        return len(lagging), 0.0
    now = now or datetime.now(UTC)
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    return len(lagging), max(0.0, (now - oldest).total_seconds())

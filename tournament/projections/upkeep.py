"""Keeping projections right: find the tournaments whose projection is behind the log
(the sweep re-nudges them: a nudge lost while Redis was away, a result entered with the
command line), and reconcile: rebuild a tournament from scratch and compare it with the
rows the incremental runs wrote. A difference is an alarm (a log line, a row in
``proj_reconciliations``, ``schnapsen_projection_mismatches`` on ``/metrics``) and is
repaired by writing the rebuild's rows.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from datetime import UTC, datetime

import sqlalchemy as sa

from tournament.domain import events as ev
from tournament.eventstore.checkpoints import get_checkpoint
from tournament.eventstore.schema import checkpoints, events
from tournament.projections import tables
from tournament.projections.runner import (
    Projector,
    checkpoint_name,
    lock_tournament,
    stored,
    write_rows,
)

log = logging.getLogger(__name__)

_PREFIX = ev.stream_id("")


def behind(engine: sa.Engine) -> list[str]:
    """Tournaments whose projection is older than their log, oldest change first."""
    heads = (
        sa.select(events.c.stream_id, sa.func.max(events.c.version), sa.func.max(events.c.position))
        .where(events.c.stream_id.startswith(_PREFIX, autoescape=True))
        .group_by(events.c.stream_id)
    )
    marks = sa.select(checkpoints.c.name, checkpoints.c.position).where(
        checkpoints.c.name.startswith("projection:", autoescape=True)
    )
    with engine.connect() as conn:
        done = {name: int(position) for name, position in conn.execute(marks)}
        found = [
            (int(position), stream[len(_PREFIX) :])
            for stream, version, position in conn.execute(heads)
            if done.get(checkpoint_name(stream[len(_PREFIX) :]), 0) < int(version)
        ]
    return [tid for _, tid in sorted(found)]


@dataclasses.dataclass(frozen=True)
class Reconciled:
    tournament_id: str
    version: int
    matched: bool
    differences: list[str]


def reconcile(projector: Projector, tournament_id: str) -> Reconciled | None:
    """Rebuild ``tournament_id``'s projection from scratch and compare it with the stored
    rows, under the tournament's lock (no run moves them meanwhile); repair a difference.
    None: the tournament was never projected."""
    engine = projector.store.engine.execution_options(sqlite_begin="IMMEDIATE")
    with engine.begin() as conn:
        lock_tournament(conn, tournament_id)
        version = get_checkpoint(conn, checkpoint_name(tournament_id))
        if not version:
            return None
        have = stored(conn, tournament_id)
        rebuilt = projector.rebuild(tournament_id, version=version)
        assert rebuilt is not None
        want = rebuilt.comparable()
        differences = [
            f"{part}: stored {_short(have.get(part))} != rebuilt {_short(want[part])}"
            for part in want
            if have.get(part) != want[part]
        ]
        now = datetime.now(UTC)
        if differences:
            log.error(
                "projection mismatch: %s at version %s differs from a rebuild (repaired): %s",
                tournament_id,
                version,
                "; ".join(differences),
            )
            header = conn.execute(
                sa.select(tables.tournaments.c.event_at).where(
                    tables.tournaments.c.tournament_id == tournament_id
                )
            ).scalar()
            write_rows(conn, rebuilt, event_at=header or now)
        conn.execute(
            sa.update(tables.tournaments)
            .where(tables.tournaments.c.tournament_id == tournament_id)
            .values(reconciled_at=now)
        )
        conn.execute(
            sa.insert(tables.reconciliations).values(
                tournament_id=tournament_id,
                version=version,
                checked_at=now,
                matched=not differences,
                differences=json.dumps(differences)[:10_000],
            )
        )
    return Reconciled(tournament_id, version, not differences, differences)


def due_for_reconciliation(engine: sa.Engine, limit: int) -> list[str]:
    """The ``limit`` projected tournaments reconciled longest ago (never: first)."""
    t = tables.tournaments
    query = (
        sa.select(t.c.tournament_id)
        .order_by(t.c.reconciled_at.is_not(None), t.c.reconciled_at, t.c.tournament_id)
        .limit(limit)
    )
    with engine.connect() as conn:
        return list(conn.execute(query).scalars())


def mismatches(engine: sa.Engine) -> int:
    """How many reconciliations found a difference (the alarm's count)."""
    r = tables.reconciliations
    with engine.connect() as conn:
        return int(
            conn.execute(sa.select(sa.func.count()).where(r.c.matched.is_(False))).scalar() or 0
        )


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."

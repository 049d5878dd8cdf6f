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
import time
from datetime import UTC, datetime

import sqlalchemy as sa

from tournament.domain.model import events as ev
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


def behind(engine: sa.Engine, after: int = 0) -> list[str]:
    """Tournaments whose projection is older than their log, oldest change first; with
    ``after``, only tournaments with events after that log position."""
    return [tid for tid, _ in _behind(engine, after)[0]]


def _behind(engine: sa.Engine, after: int) -> tuple[list[tuple[str, int]], int]:
    """(tournament, log position of its newest event) of those behind, and the newest
    position read (``after`` when nothing was appended since)."""
    heads = (
        sa.select(events.c.stream_id, sa.func.max(events.c.version), sa.func.max(events.c.position))
        .where(events.c.stream_id.startswith(_PREFIX, autoescape=True), events.c.position > after)
        .group_by(events.c.stream_id)
    )
    marks = sa.select(checkpoints.c.name, checkpoints.c.position).where(
        checkpoints.c.name.startswith("projection:", autoescape=True)
    )
    with engine.connect() as conn:
        streams = conn.execute(heads).all()
        done = {name: int(position) for name, position in conn.execute(marks)} if streams else {}
    top = max((int(position) for _, _, position in streams), default=after)
    found = sorted(
        (int(position), stream[len(_PREFIX) :])
        for stream, version, position in streams
        if done.get(checkpoint_name(stream[len(_PREFIX) :]), 0) < int(version)
    )
    return [(tid, position) for position, tid in found], top


class Sweeper:
    """:func:`behind`, reading only what was appended since the last sweep that found
    every projection current, and the whole log once every ``full_every`` seconds.

    The log of a federation holds millions of events: a whole scan every two seconds
    would cost a core. The occasional whole scan is there because on PostgreSQL an event
    can commit after one with a higher position (positions are taken before commit); a
    sweep that moved past its position would not see it again, and such an event is found
    by the next whole scan (its tournament's own nudge finds it at once anyway)."""

    def __init__(self, engine: sa.Engine, full_every: float = 60.0) -> None:
        self.engine = engine
        self.full_every = full_every
        self.after = 0
        self._last_full: float | None = None

    def behind(self) -> list[str]:
        now = time.monotonic()
        full = self._last_full is None or now - self._last_full >= self.full_every
        found, top = _behind(self.engine, 0 if full else self.after)
        if full:
            self._last_full = now
        if not found:
            self.after = max(self.after, top)
        return [tid for tid, _ in found]


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

"""The reconciliation raises the alarm (issue 10: "a periodic reconciliation rebuilds a
tournament from scratch and raises an alarm (log line and metric) if it differs from the
incremental result"), records it, and repairs the rows.

The difference is made by hand here (an UPDATE of a stored standings row), as a bug in
the incremental runs or a stray write would make it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.databases import Database
from tests.web import played
from tests.web.conftest import Web, make_web
from tournament.app.services import services
from tournament.projections import tables
from tournament.projections.runner import Projector, stored
from tournament.projections.upkeep import reconcile
from tournament.web.live import KEY as LIVE


@pytest.fixture
def web_on(db: Database, tmp_path: Path) -> Iterator[Web]:
    found = make_web(db.schema_url, tmp_path)
    yield found
    with found.app.app_context():
        services().store.close()
        services().accounts.close()


def projector_of(web: Web) -> Projector:
    projections = web.app.extensions[LIVE].projections
    assert projections is not None
    found: Projector = projections.projector
    return found


def mismatch_gauge(web: Web) -> str:
    text = web.client.get("/metrics").get_data(as_text=True)
    return next(line for line in text.splitlines() if line.startswith("schnapsen_projection_mis"))


def test_a_stored_row_that_differs_from_a_rebuild_is_an_alarm_recorded_and_repaired(
    web_on: Web, caplog: pytest.LogCaptureFixture
) -> None:
    tid = played.swiss(web_on, rounds=1)
    projector = projector_of(web_on)
    engine = projector.store.engine
    assert reconcile(projector, tid).matched  # type: ignore[union-attr]
    assert mismatch_gauge(web_on) == "schnapsen_projection_mismatches 0.0"
    with engine.begin() as conn:
        s = tables.standings
        leader = (s.c.tournament_id == tid) & (s.c.place == 1)
        conn.execute(sa.update(s).where(leader).values(points=s.c.points + 5))

    with caplog.at_level(logging.ERROR, logger="tournament.projections.upkeep"):
        found = reconcile(projector, tid)

    assert found is not None and found.matched is False
    assert [d.split(":")[0] for d in found.differences] == ["standings"]
    alarms = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(alarms) == 1
    assert "projection mismatch" in alarms[0].getMessage()
    assert tid in alarms[0].getMessage()
    with engine.connect() as conn:
        r = tables.reconciliations
        recorded = conn.execute(sa.select(r.c.matched, r.c.version).order_by(r.c.id)).all()
        assert [tuple(row) for row in recorded] == [(True, found.version), (False, found.version)]
        rebuilt = projector.rebuild(tid)
        assert rebuilt is not None
        assert stored(conn, tid) == rebuilt.comparable()  # repaired
    assert mismatch_gauge(web_on) == "schnapsen_projection_mismatches 1.0"

    again = reconcile(projector, tid)
    assert again is not None and again.matched  # the repair holds; the alarm stays counted
    assert mismatch_gauge(web_on) == "schnapsen_projection_mismatches 1.0"

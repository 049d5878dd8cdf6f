"""``tournament projections``: status says how far behind, rebuild brings them up from
scratch, reconcile finds (and repairs) a projection that differs from a rebuild."""

from __future__ import annotations

import os

import sqlalchemy as sa

from tournament.db import make_engine


def test_status_rebuild_and_reconcile(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--date", "2026-11-27", "--format", "swiss", "--option", "rounds=2")
    for name in ("Anna", "Berti", "Cilli", "Didi"):
        cli("players", "add", name)
    cli("round", "start")
    assert "projected 0\tlog 6\t6 behind" in cli("projections", "status").output
    assert "rebuilt at version 6" in cli("projections", "rebuild").output
    assert "up to date" in cli("projections", "status").output
    assert "matches a rebuild" in cli("projections", "reconcile").output

    engine = make_engine(os.environ["DATABASE_URL"])
    with engine.begin() as conn:  # what a bug (or a hand in the database) could leave
        conn.execute(sa.text("UPDATE proj_standings SET points = points + 3"))
    engine.dispose()
    found = cli("projections", "reconcile", ok=False)
    assert found.exit_code == 1
    assert "DIFFERED (repaired)" in found.output and "standings: stored" in found.output
    assert "matches a rebuild" in cli("projections", "reconcile").output

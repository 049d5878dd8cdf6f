"""Migration 0006 gives the print packs their language: the column the model has (alembic
check), German for the packs asked for before it (their templates were German), and gone
again on a downgrade to 0005 without touching the packs."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa

from tests.databases import Database
from tournament.eventstore import migrate


def columns(engine: sa.Engine) -> set[str]:
    return {c["name"] for c in sa.inspect(engine).get_columns("proj_print_packs")}


def test_the_migration_matches_the_model_and_a_pack_of_before_is_german(db: Database) -> None:
    engine = db.engine()
    try:
        assert "lang" in columns(engine)
        migrate.check(engine)  # the database matches tournament/projections/tables.py
        migrate.downgrade(engine, "0005")
        assert "lang" not in columns(engine)
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO proj_print_packs (id, tournament_id, kind, version, status, "
                    "requested_by, requested_at) VALUES ('p1', 'cup', 'standings', 3, 'done', "
                    "'organiser', :at)"
                ),
                {"at": datetime.now(UTC)},
            )
        migrate.upgrade(engine)
        with engine.connect() as conn:
            lang = conn.execute(sa.text("SELECT lang FROM proj_print_packs")).scalar_one()
        assert lang == "de"
        migrate.check(engine)
    finally:
        engine.dispose()

"""Migration 0005 makes exactly the projections' tables of the model (alembic check), and
undoing it drops them and the projections' checkpoints, nothing else."""

from __future__ import annotations

import sqlalchemy as sa

from tests.databases import Database
from tournament.eventstore import migrate
from tournament.projections.tables import metadata


def test_the_migration_makes_the_tables_of_the_model(db: Database) -> None:
    engine = db.engine()
    try:
        names = set(sa.inspect(engine).get_table_names())
        assert set(metadata.tables) <= names
        assert {n for n in names if n.startswith("proj_")} == set(metadata.tables)
        migrate.check(engine)  # the database matches every model (alembic check)
    finally:
        engine.dispose()


def test_undoing_it_drops_the_tables_and_the_projection_checkpoints_only(db: Database) -> None:
    engine = db.engine()
    try:
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO es_checkpoints (name, position, updated_at) VALUES "
                    "('projection:cup', 3, CURRENT_TIMESTAMP), ('other', 5, CURRENT_TIMESTAMP)"
                )
            )
        migrate.downgrade(engine, "0004")
        names = set(sa.inspect(engine).get_table_names())
        assert not {n for n in names if n.startswith("proj_")}
        with engine.connect() as conn:
            left = conn.execute(sa.text("SELECT name FROM es_checkpoints")).scalars().all()
        assert left == ["other"]
    finally:
        engine.dispose()

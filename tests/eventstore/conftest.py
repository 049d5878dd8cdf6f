"""Event store fixtures: a migrated store on a real SQLite file or a real PostgreSQL.

Each PostgreSQL store lives in its own schema (``es_test_<random>``), dropped after the
test, so tests never touch tables they did not create. ``store`` runs a test on both.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa

from tournament.db import make_engine
from tournament.eventstore import SQLEventStore, migrate


@dataclass
class Database:
    """Where a test's store lives: URL plus what a subprocess needs to reach it."""

    kind: str  # "sqlite" | "postgresql"
    url: str
    schema: str | None = None

    def engine(self, **kwargs: object) -> sa.Engine:
        if self.schema:
            kwargs.setdefault("connect_args", {"options": f"-csearch_path={self.schema}"})
        return make_engine(self.url, **kwargs)


def sqlite_database(tmp_path: Path) -> Database:
    return Database("sqlite", f"sqlite:///{tmp_path / 'events.sqlite3'}")


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Database:
    database = sqlite_database(tmp_path)
    engine = database.engine()
    migrate.upgrade(engine)
    engine.dispose()
    return database


@pytest.fixture
def pg_db(postgres_url: str) -> Iterator[Database]:
    schema = f"es_test_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    database = Database("postgresql", postgres_url, schema)
    engine = database.engine()
    try:
        migrate.upgrade(engine)
        engine.dispose()
        yield database
    finally:
        engine.dispose()
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest) -> Database:
    """The same test on a SQLite file and on PostgreSQL."""
    name = "sqlite_db" if request.param == "sqlite" else "pg_db"
    return request.getfixturevalue(name)


@pytest.fixture
def store(db: Database) -> Iterator[SQLEventStore]:
    engine = db.engine()
    yield SQLEventStore(engine)
    engine.dispose()

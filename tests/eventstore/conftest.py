"""The store's own tests: with event types of their own (``sample``), since the store
knows no game, and each on every way to a database the store has (fixtures ``db`` and
``store`` here, on tests/conftest.py's ``sqlite_db`` and ``pg_db``):

- ``sqlite``: a SQLite file opened by its URL, through the ``sqlite3`` module (what the
  command line does; no SQLAlchemy);
- ``sqlite-sqlalchemy``: the same kind of file through an engine, SQLAlchemy's pool (an
  application or tool that brings its engine);
- ``postgresql``: PostgreSQL through an engine (psycopg 3).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.databases import Database
from tests.eventstore import sample  # noqa: F401  (registers the sample event types)
from tournament.eventstore import SQLEventStore, migrate

#: A script the tests run in processes of its own (it imports ``sample`` beside it).
collect_ignore = ["_worker.py"]

#: Each way: the fixture of its database, and whether the store is given an engine.
WAYS = {
    "sqlite": ("sqlite_db", False),
    "sqlite-sqlalchemy": ("sqlite_db", True),
    "postgresql": ("pg_db", True),
}


@dataclasses.dataclass
class StoreDatabase(Database):
    """A test's database and the way the store opens it: given an engine (SQLAlchemy's
    pool), or by URL (a SQLite file: the ``sqlite3`` module)."""

    through_engine: bool = True

    @property
    def way(self) -> str:
        """How a worker process opens the store (tests/eventstore/_worker.py)."""
        return "engine" if self.through_engine else "url"

    def open_store(self, **kwargs: Any) -> SQLEventStore:
        if self.through_engine:
            return SQLEventStore(self.engine(), **kwargs)
        return SQLEventStore(self.url, **kwargs)


@pytest.fixture(params=list(WAYS))
def db(request: pytest.FixtureRequest) -> StoreDatabase:
    """The same test on every way to a database (see the module's docstring)."""
    fixture, through_engine = WAYS[request.param]
    database: Database = request.getfixturevalue(fixture)
    return StoreDatabase(**dataclasses.asdict(database), through_engine=through_engine)


@pytest.fixture
def open_store(db: StoreDatabase) -> Iterator[Callable[..., SQLEventStore]]:
    """``open_store(**kwargs)``: a new store on the test's database, the test's way (a
    store of its own: new connections, as after a restart); all closed at the end."""
    opened: list[SQLEventStore] = []

    def open_(**kwargs: Any) -> SQLEventStore:
        opened.append(db.open_store(**kwargs))
        return opened[-1]

    yield open_
    for store in opened:
        store.close()
        if db.through_engine:
            store.engine.dispose()  # the engine it was given


@pytest.fixture
def store(open_store: Callable[..., SQLEventStore]) -> SQLEventStore:
    return open_store()


@pytest.fixture
def target(tmp_path: Path) -> SQLEventStore:
    """An empty store to import a backup into (a SQLite file, migrated)."""
    store = SQLEventStore(f"sqlite:///{tmp_path / 'restored.sqlite3'}")
    migrate.upgrade(store.engine)
    return store

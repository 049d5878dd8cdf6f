"""Where a test's event store lives: a SQLite file or a schema of the real PostgreSQL.

The fixtures built on these (``sqlite_db``, ``pg_db``, ``db`` for both, ``store``) are in
``tests/conftest.py``; each PostgreSQL store lives in its own schema (``es_test_<random>``),
dropped after the test, so tests never touch tables they did not create.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from tournament.db import make_engine


@dataclass
class Database:
    """Where a test's store lives: URL plus what a subprocess needs to reach it."""

    kind: str  # "sqlite" | "postgresql"
    url: str
    schema: str | None = None

    @property
    def schema_url(self) -> str:
        """The URL with the schema in it, for code that makes its own engine from a URL
        (the web app, a subprocess)."""
        if not self.schema:
            return self.url
        return f"{self.url}?options=-csearch_path%3D{self.schema}"

    def engine(self, **kwargs: object) -> sa.Engine:
        if self.schema:
            kwargs.setdefault("connect_args", {"options": f"-csearch_path={self.schema}"})
        return make_engine(self.url, kind="tests", **kwargs)


def sqlite_database(tmp_path: Path) -> Database:
    return Database("sqlite", f"sqlite:///{tmp_path / 'events.sqlite3'}")

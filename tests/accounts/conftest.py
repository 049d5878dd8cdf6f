"""The accounts' tests: an :class:`Accounts` on a migrated SQLite file and on a schema of
the real PostgreSQL (tests/conftest.py's ``db``), with cheap argon2 parameters so that a
test hashes in microseconds (the service's default is the library's, ~50-100 ms)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from argon2 import PasswordHasher

from tests.databases import Database
from tournament.accounts import Accounts

#: argon2id at its cheapest: what the tests hash with.
FAST = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


def open_accounts(db: Database, monkeypatch: pytest.MonkeyPatch, **kwargs: object) -> Accounts:
    """An Accounts on ``db`` by its URL, as the web app and the CLI make one; on
    PostgreSQL the test's schema is reached through libpq's PGOPTIONS."""
    if db.schema:
        monkeypatch.setenv("PGOPTIONS", f"-csearch_path={db.schema}")
    kwargs.setdefault("hasher", FAST)
    return Accounts(db.url, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def accounts(db: Database, monkeypatch: pytest.MonkeyPatch) -> Iterator[Accounts]:
    """Accounts on a migrated, empty store: the same test on SQLite and PostgreSQL."""
    opened = open_accounts(db, monkeypatch)
    yield opened
    opened.close()

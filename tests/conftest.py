"""Shared fixtures: the real PostgreSQL and Redis services, and event stores on both databases.

On a laptop without them, tests that need them are skipped. CI sets
SCHNAPSEN_REQUIRE_SERVICES=1 (see .ci/run), which turns that skip into a failure, so a
service that is down can never make CI green by skipping.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import sqlalchemy as sa

from tests.databases import Database, sqlite_database
from tournament.db import APPLICATION_NAME, application_name
from tournament.eventstore import SQLEventStore, migrate

#: The suite stays under 40 PostgreSQL connections: checked after each test that uses it.
pytest_plugins = ["tests.pg_connections"]

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
REQUIRE_SERVICES = os.environ.get("SCHNAPSEN_REQUIRE_SERVICES") == "1"
POSTGRES_URL = os.environ.get(
    "SCHNAPSEN_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("SCHNAPSEN_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url.replace("+psycopg", ""))
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), 1
        ):
            return True
    except OSError:
        return False


def _need(name: str, url: str, port: int) -> str:
    if _reachable(url, port):
        return url
    message = f"{name} is not reachable at {url}"
    if REQUIRE_SERVICES:
        pytest.fail(message + " (SCHNAPSEN_REQUIRE_SERVICES=1: CI requires it)")
    pytest.skip(message)


#: The seal key of every test (tournament.eventstore.seals): from the environment, so
#: that no test writes instance/seal.key into the checkout.
TEST_SEAL_KEY = "5e" * 32


@pytest.fixture(autouse=True)
def _seal_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHNAPSEN_SEAL_KEY", TEST_SEAL_KEY)


@pytest.fixture(autouse=True)
def _connections_named(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every PostgreSQL connection made while a test runs (by the engines it makes, the
    apps, the processes it starts) carries the xdist worker and the test's name in its
    ``application_name`` (tournament.db.application_name), so that the connection guard
    (tests/pg_connections.py) names who holds what, and a connection left over names the
    test that made it."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    monkeypatch.setenv(APPLICATION_NAME, f"{worker} {request.node.name}")


@pytest.fixture(autouse=True)
def _apps_closed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every app a test makes (``create_app``) is closed after it, its threads stopped and
    its connections closed (``tournament.web.close_app``): an app left open holds its
    pools' connections until the garbage collector happens to free them, connections
    that no pool size explains (issue 22: 48 of them late in tests/web)."""
    import tournament.app.services as web_services
    from tournament.web import close_app

    made: list[Any] = []
    opening = web_services.open_services

    def open_services(app: Any, url: str) -> web_services.Services:
        made.append(app)
        return opening(app, url)

    monkeypatch.setattr(web_services, "open_services", open_services)
    yield
    for app in made:
        close_app(app)


@pytest.fixture(autouse=True)
def _small_pools(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each PostgreSQL pool of a test (and of the processes it starts) holds at most 1 + 3
    connections: the suite, two workers at once, must stay under 40 (tests/pg_connections.py),
    and a test of 50 threads would otherwise open the deploy's 10 per pool. Fewer
    connections than threads is safe: no path waits for a second connection while holding
    one (tests/web/test_pool_deadlock.py); a test that wants other sizes sets its own."""
    monkeypatch.setenv("SCHNAPSEN_DB_POOL_SIZE", "1")
    monkeypatch.setenv("SCHNAPSEN_DB_MAX_OVERFLOW", "3")


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """URL of the real PostgreSQL test database (skips, or fails in CI, without it)."""
    return _need("PostgreSQL", POSTGRES_URL, 5432)


@pytest.fixture(scope="session")
def redis_url() -> str:
    """URL of the real Redis test database (skips, or fails in CI, without it)."""
    return _need("Redis", REDIS_URL, 6379)


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
    admin = sa.create_engine(
        postgres_url,
        isolation_level="AUTOCOMMIT",
        connect_args={"application_name": application_name("schemas")},
    )
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

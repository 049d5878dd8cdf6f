"""deploy/postgres-roles.sql: the app role can read and append, and nothing else."""

from __future__ import annotations

import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.conftest import REQUIRE_SERVICES
from tournament.db import make_engine
from tournament.eventstore import NewEvent, SQLEventStore, migrate
from tournament.eventstore.checkpoints import run_projection

ROLES_SQL = Path(__file__).resolve().parents[2] / "deploy" / "postgres-roles.sql"


@pytest.fixture
def roles(postgres_url: str) -> Iterator[dict[str, str]]:
    if shutil.which("psql") is None:
        message = "psql is not installed"
        pytest.fail(message) if REQUIRE_SERVICES else pytest.skip(message)
    tag = uuid.uuid4().hex[:10]
    names = {"owner": f"es_owner_{tag}", "app": f"es_app_{tag}", "schema": f"es_roles_{tag}"}
    admin = sa.create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {names['schema']}")
    try:
        yield names
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {names['schema']} CASCADE")
            for role in (names["app"], names["owner"]):
                exists = conn.exec_driver_sql(
                    "SELECT 1 FROM pg_roles WHERE rolname = %(r)s", {"r": role}
                ).scalar()
                if exists:
                    conn.exec_driver_sql(f"DROP OWNED BY {role}")
                    conn.exec_driver_sql(f"DROP ROLE {role}")
        admin.dispose()


def apply_roles(postgres_url: str, names: dict[str, str]) -> None:
    url = sa.make_url(postgres_url)
    variables = [arg for key, value in names.items() for arg in ("-v", f"{key}={value}")]
    subprocess.run(
        ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", *variables, "-h", url.host or "127.0.0.1",
         "-p", str(url.port or 5432), "-U", url.username or "postgres", "-d", url.database or "",
         "-f", str(ROLES_SQL)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip


def engine_as(postgres_url: str, role: str, schema: str) -> sa.Engine:
    url = sa.make_url(postgres_url).set(username=role)
    return make_engine(url, connect_args={"options": f"-csearch_path={schema}"})


def test_app_role_reads_and_appends_only(postgres_url: str, roles: dict[str, str]) -> None:
    apply_roles(postgres_url, roles)  # before the first migration: roles, defaults
    owner = engine_as(postgres_url, roles["owner"], roles["schema"])
    migrate.upgrade(owner)
    apply_roles(postgres_url, roles)  # after it: grants on the tables now there
    app = engine_as(postgres_url, roles["app"], roles["schema"])
    store = SQLEventStore(app)
    event = NewEvent("sample.moved", {"seat": 1, "action": "close"}, {"source": "live"})
    store.append("s", [event], 0, idempotency_key="k")
    assert [e.version for e in store.read_stream("s")] == [1]
    # Deciding under the stream's lock needs nothing more: an advisory lock, a read.
    moved = NewEvent("sample.moved", {"seat": 0, "action": "close"}, {"source": "live"})
    done = store.append_decided("s", lambda since: [moved], after_version=1, idempotency_key="d")
    assert [e.version for e in done.events] == [2] and store.read_key("d") is not None
    assert run_projection(store, "p", lambda conn, e: None) == 2  # moves its checkpoint
    for statement in (
        "UPDATE es_events SET payload = '{}'",
        "DELETE FROM es_events",
        "TRUNCATE es_events",
        "DELETE FROM es_idempotency",
        "DROP TRIGGER es_events_no_update_delete ON es_events",
        "CREATE TABLE sneaky (x int)",
    ):
        with (
            pytest.raises(sa.exc.ProgrammingError, match=r"denied|must be owner"),
            app.begin() as conn,
        ):
            conn.exec_driver_sql(statement)
    assert len(store.read_all()) == 2
    app.dispose()
    owner.dispose()

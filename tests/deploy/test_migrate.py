"""deploy/migrate.py, compose's one-shot `migrate` and the club server's migration unit:
the roles script as a superuser, the migrations as the owner, the script again
(docs/operations.md, "PostgreSQL roles"); the roles' passwords from the URLs."""

from __future__ import annotations

import base64
import os
import runpy
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import sqlalchemy as sa

from tests.conftest import REQUIRE_SERVICES
from tests.deploy.files import DEPLOY, ENV_EXAMPLE, OWNER_ENV_EXAMPLE, env_settings

migrate: Any = SimpleNamespace(**runpy.run_path(str(DEPLOY / "migrate.py")))


def example_env() -> dict[str, str]:
    """What compose's migrate service gets: both example files."""
    settings = {**env_settings(ENV_EXAMPLE), **env_settings(OWNER_ENV_EXAMPLE)}
    return {name: s.value for name, s in settings.items() if not s.optional}


def test_a_url_is_taken_apart_and_its_password_taken_out() -> None:
    env = {"X": "postgresql+psycopg://app%40club:p%3Ass@db:5433/club?sslmode=require"}
    conn = migrate.connection("X", env)
    assert (conn.user, conn.password, conn.database) == ("app@club", "p:ss", "club")
    assert conn.url == "postgresql://app%40club@db:5433/club?sslmode=require"
    assert conn.schema == "public"
    local = migrate.connection("X", {"X": "postgresql:///schnapsen"})
    assert (local.url, local.user, local.password) == ("postgresql:///schnapsen", None, None)
    elsewhere = migrate.connection("X", {"X": "postgresql://u@h/d?options=-csearch_path%3Dclub"})
    assert elsewhere.schema == "club"


@pytest.mark.parametrize(
    "value,said",
    [
        ("", "X is not set"),
        ("mysql://u@h/d", "X is not a PostgreSQL URL"),
        ("postgresql://u:p@h", "X names no database"),
    ],
)
def test_a_wrong_url_is_said_in_one_line_without_its_password(value: str, said: str) -> None:
    with pytest.raises(migrate.SetupError, match=said) as error:
        migrate.connection("X", {"X": value})
    assert ":p@" not in str(error.value)


def test_compose_migrates_roles_then_upgrade_as_owner_then_roles_again() -> None:
    steps = migrate.plan("all", example_env())
    titles = [step.title.split(" ")[0] for step in steps]
    assert titles == ["roles", "the", "migrations", "roles", "the"]
    roles, passwords, upgrade = steps[0], steps[1], steps[2]
    assert roles.command[-8:] == [
        "-v", "owner=schnapsen_owner", "-v", "app=schnapsen_app", "-v", "schema=public",
        "-f", str(DEPLOY / "postgres-roles.sql"),
    ]  # fmt: skip
    assert upgrade.command[1:] == ["-m", "tournament", "db", "upgrade"]
    assert upgrade.env["DATABASE_URL"] == example_env()["OWNER_DATABASE_URL"]
    assert 'ALTER ROLE "schnapsen_owner" PASSWORD' in passwords.stdin
    assert 'ALTER ROLE "schnapsen_app" PASSWORD' in passwords.stdin


def test_no_password_is_on_a_command_line_or_sent_in_the_clear() -> None:
    env = example_env()
    for step in migrate.plan("all", env):
        assert "change-me" not in " ".join(step.command), step.title
        assert "change-me" not in (step.stdin or ""), step.title
        if step.command[0] == "psql":  # the superuser's, from POSTGRES_PASSWORD
            assert step.env["PGPASSWORD"] == env["POSTGRES_PASSWORD"]


def test_the_dry_run_prints_the_commands_and_runs_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in example_env().items():
        monkeypatch.setenv(name, value)
    assert migrate.main(["--dry-run"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in printed] == ["psql", "psql", sys.executable, "psql", "psql"]


@pytest.mark.parametrize(
    "change,said",
    [
        ({"DATABASE_URL": "postgresql://schnapsen_owner:x@postgres/schnapsen"}, "both log in as"),
        ({"DATABASE_URL": "postgresql://schnapsen_app:x@postgres/other"}, "must be one database"),
        ({"OWNER_DATABASE_URL": "postgresql://postgres/schnapsen"}, "names no user"),
        (
            {"DATABASE_URL": "postgresql://a@postgres/schnapsen?options=-csearch_path%3Dx"},
            "the app must read the tables the owner makes",
        ),
    ],
)
def test_urls_that_disagree_are_refused_before_anything_runs(
    change: Mapping[str, str], said: str
) -> None:
    with pytest.raises(migrate.SetupError, match=said):
        migrate.plan("all", {**example_env(), **change})


def test_a_password_that_is_not_ascii_is_left_to_the_server_to_hash() -> None:
    conn = migrate.connection("X", {"X": "postgresql://app:gr%C3%BC%C3%9F'e@db/club"})
    assert "PASSWORD 'grüß''e';" in migrate.password_sql([conn])


# -- against the real PostgreSQL ----------------------------------------------------------


@pytest.mark.postgres
def test_the_scram_verifier_is_the_one_postgresql_makes(postgres_url: str) -> None:
    role = f"deploy_scram_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql("SET password_encryption = 'scram-sha-256'")
            conn.exec_driver_sql(f"CREATE ROLE {role} PASSWORD 'Sch''nap$en-66'")
            stored = conn.exec_driver_sql(
                "SELECT rolpassword FROM pg_authid WHERE rolname = %(r)s", {"r": role}
            ).scalar_one()
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP ROLE IF EXISTS {role}")
        admin.dispose()
    salt = base64.b64decode(stored.split("$")[1].split(":")[1])
    assert migrate.scram_verifier("Sch'nap$en-66", salt) == stored


@pytest.fixture
def database(postgres_url: str) -> Iterator[dict[str, str]]:
    """A schema of the test database and two role names of the test's own, removed
    afterwards (a database of its own would cost a checkpoint to drop)."""
    if shutil.which("psql") is None:
        message = "psql is not installed"
        pytest.fail(message) if REQUIRE_SERVICES else pytest.skip(message)
    tag = uuid.uuid4().hex[:10]
    schema, owner, app = f"deploy_{tag}", f"deploy_owner_{tag}", f"deploy_app_{tag}"
    admin = sa.create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    url = sa.make_url(postgres_url)
    place = f"{url.host or '127.0.0.1'}:{url.port or 5432}/{url.database}"
    search_path = f"?options=-csearch_path%3D{schema}"
    try:
        yield {
            "ADMIN_DATABASE_URL": f"postgresql://{url.username or 'postgres'}@{place}",
            "OWNER_DATABASE_URL": f"postgresql://{owner}:owner-pw@{place}{search_path}",
            "DATABASE_URL": f"postgresql://{app}:app-pw@{place}{search_path}",
        }
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            for role in (app, owner):
                if conn.exec_driver_sql(
                    "SELECT 1 FROM pg_roles WHERE rolname = %(r)s", {"r": role}
                ).scalar():
                    conn.exec_driver_sql(f"DROP OWNED BY {role}")
                    conn.exec_driver_sql(f"DROP ROLE {role}")
        admin.dispose()


@pytest.mark.postgres
def test_a_new_database_ends_migrated_with_an_app_role_that_only_reads_the_log(
    database: dict[str, str], tmp_path: Path
) -> None:
    env = {"PATH": os.environ["PATH"], "SCHNAPSEN_INSTANCE": str(tmp_path), **database}
    result = subprocess.run(
        [sys.executable, str(DEPLOY / "migrate.py")], env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "owner-pw" not in result.stderr + result.stdout
    assert "app-pw" not in result.stderr + result.stdout
    app = sa.make_url(database["DATABASE_URL"]).set(drivername="postgresql+psycopg")
    engine = sa.create_engine(app)
    try:
        with engine.connect() as conn:
            may = conn.exec_driver_sql(
                "SELECT has_table_privilege('es_events', 'SELECT'),"
                " has_table_privilege('es_events', 'INSERT'),"
                " has_function_privilege('es_append_lock()', 'EXECUTE')"
            ).one()
    finally:
        engine.dispose()
    assert tuple(may) == (True, False, True)

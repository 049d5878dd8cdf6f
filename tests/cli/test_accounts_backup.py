"""The accounts' backup beside the event backup (operator F14): `tournament accounts
export` writes every account with its password hash, its roles and its tokens' hashes
(never a secret); `accounts import` restores them into a new store, where the organiser
signs in with the same password and the script's token still works."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.databases import Database
from tournament.accounts import Accounts
from tournament.cli import main

PASSWORD = "a long password 1"
SCORER_PASSWORD = "another password 2"


def run(url: str, *args: str, ok: bool = True, input: str | None = None) -> Result:
    result = CliRunner().invoke(
        main, list(args), input=input, env={"DATABASE_URL": url}, catch_exceptions=False
    )
    if ok:
        assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def fresh(db: Database, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A second, new store of the same kind as ``db``: where the backup is restored."""
    if db.kind == "sqlite":
        return f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    second: Database = request.getfixturevalue("pg_db_second")
    return second.schema_url


@pytest.fixture
def pg_db_second(postgres_url: str):  # type: ignore[no-untyped-def]
    import uuid

    import sqlalchemy as sa

    from tournament.eventstore import migrate

    schema = f"es_test_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    database = Database("postgresql", postgres_url, schema)
    try:
        migrate.upgrade(database.schema_url)
        yield database
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


def test_accounts_export_and_import_keep_passwords_roles_and_tokens_operator_f14(
    db: Database, fresh: str, tmp_path: Path
) -> None:
    url = db.schema_url
    run(url, "accounts", "add", "anna@club.at", "--admin", "--password-stdin",
        input=PASSWORD + "\n")  # fmt: skip
    run(url, "accounts", "add", "bernd@club.at", "--password-stdin", input=SCORER_PASSWORD + "\n")
    run(url, "create", "Montag", "--id", "montag")
    run(url, "create", "Dienstag", "--id", "dienstag")
    run(url, "accounts", "grant", "bernd@club.at", "montag", "scorer")
    run(url, "accounts", "grant", "bernd@club.at", "dienstag", "organiser")
    secret = run(url, "tokens", "create", "anna@club.at", "--name", "scoreboard").output
    secret = secret.strip().splitlines()[-1]
    run(url, "tokens", "create", "bernd@club.at", "--name", "old")
    run(url, "tokens", "revoke", "bernd@club.at", "old")
    accounts = run(url, "accounts", "list").output
    tokens = run(url, "tokens", "list").output

    backup = tmp_path / "accounts.json"
    done = run(url, "accounts", "export", str(backup))
    assert "exported 2 accounts, 2 roles, 2 tokens" in done.output
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600  # it holds the password hashes
    text = backup.read_text()
    assert PASSWORD not in text and SCORER_PASSWORD not in text and secret not in text
    assert json.loads(text)["format"] == "schnapsen-accounts/1"

    restored = run(fresh, "accounts", "import", str(backup))
    assert restored.output.strip() == "imported 2 accounts, 2 roles, 2 tokens"
    assert run(fresh, "accounts", "list").output == accounts
    assert run(fresh, "tokens", "list").output == tokens
    store = Accounts(fresh)
    try:
        anna = store.authenticate("anna@club.at", PASSWORD)
        assert anna is not None and anna.admin
        bernd = store.authenticate("bernd@club.at", SCORER_PASSWORD)
        assert bernd is not None and not bernd.admin
        assert {tid: role.label for tid, role in store.roles(bernd.id).items()} == {
            "montag": "scorer",
            "dienstag": "organiser",
        }
        assert store.authenticate("anna@club.at", "a wrong password 1") is None
        by_token = store.account_for_token(secret)
        assert by_token is not None and by_token.email == "anna@club.at"
    finally:
        store.close()


def test_the_accounts_export_goes_to_stdout_with_a_dash(sqlite_db: Database) -> None:
    run(sqlite_db.url, "accounts", "add", "anna@club.at", "--password-stdin",
        input=PASSWORD + "\n")  # fmt: skip
    done = CliRunner().invoke(
        main, ["accounts", "export", "-"], env={"DATABASE_URL": sqlite_db.url}
    )
    assert done.exit_code == 0
    assert json.loads(done.stdout)["accounts"][0]["email"] == "anna@club.at"


def test_import_into_a_store_with_accounts_is_refused_in_one_line(
    sqlite_db: Database, tmp_path: Path
) -> None:
    run(sqlite_db.url, "accounts", "add", "anna@club.at", "--password-stdin",
        input=PASSWORD + "\n")  # fmt: skip
    backup = tmp_path / "a.json"
    run(sqlite_db.url, "accounts", "export", str(backup))
    again = run(sqlite_db.url, "accounts", "import", str(backup), ok=False)
    assert again.exit_code == 1
    assert again.output.startswith("Error: ")
    assert "the store has 1 account(s) already" in again.output
    (tmp_path / "bad.json").write_text('{"format": "something else"}')
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    bad = run(other, "accounts", "import", str(tmp_path / "bad.json"), ok=False)
    assert bad.exit_code == 1 and "not an accounts export" in bad.output
    assert "Traceback" not in bad.output

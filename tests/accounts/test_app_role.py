"""deploy/postgres-roles.sql and the accounts: the app role may do what the service does
with them and nothing more (no account or token is deleted; the log stays as confined as
before: tests/eventstore/test_roles.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from argon2 import PasswordHasher

from tests.accounts.conftest import FAST
from tests.eventstore.test_roles import Confined, confined_store, refused
from tournament.accounts import Accounts, Role

#: What the app may do to each table of the accounts.
GRANTS = {
    "acct_accounts": {"SELECT", "INSERT", "UPDATE"},
    "acct_api_tokens": {"SELECT", "INSERT", "UPDATE"},
    "acct_setup_tokens": {"SELECT", "INSERT", "UPDATE"},
    "acct_tournament_roles": {"SELECT", "INSERT", "UPDATE", "DELETE"},
}
PRIVILEGES = ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER")


@pytest.fixture(scope="module")
def confined(postgres_url: str) -> Iterator[Confined]:
    with confined_store(postgres_url) as store:
        yield store


@pytest.fixture
def as_app(confined: Confined, monkeypatch: pytest.MonkeyPatch) -> Iterator[Accounts]:
    """The service logged in as the app role, on the confined schema (emptied first)."""
    with confined.owner.begin() as conn:
        conn.exec_driver_sql(
            "TRUNCATE acct_tournament_roles, acct_api_tokens, acct_setup_tokens, acct_accounts"
        )
    monkeypatch.setenv("PGOPTIONS", f"-csearch_path={confined.names['schema']}")
    url = confined.app.url.render_as_string(hide_password=False)
    accounts = Accounts(url, hasher=FAST)
    yield accounts
    accounts.close()


def test_the_app_role_has_exactly_the_grants_the_accounts_need(confined: Confined) -> None:
    with confined.superuser.connect() as conn:
        held = {
            table: {
                privilege
                for privilege in PRIVILEGES
                if conn.exec_driver_sql(
                    "SELECT has_table_privilege(%(app)s, %(t)s::regclass, %(p)s)",
                    {"app": confined.names["app"], "t": table, "p": privilege},
                ).scalar()
            }
            for table in GRANTS
        }
    assert held == GRANTS


def test_the_app_role_runs_every_part_of_the_service(
    as_app: Accounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = as_app.setup_token()
    assert secret is not None
    anna = as_app.complete_setup(secret, "anna@club.at", "a long password")
    as_app.add("berti@club.at", "a long password")
    as_app.grant("berti@club.at", "cup", Role.SCORER, by=anna.email)
    as_app.grant("berti@club.at", "cup", Role.ORGANISER, by=anna.email)  # replaces
    berti = as_app.by_email("berti@club.at")
    assert berti is not None and as_app.role_of(berti.id, "cup") is Role.ORGANISER
    assert as_app.revoke_role("berti@club.at", "cup") is True
    _, token = as_app.create_token("berti@club.at", "script")
    assert as_app.account_for_token(token) == berti
    assert as_app.tokens("berti@club.at")[0].last_used_at is not None
    as_app.revoke_token("berti@club.at", "script")
    as_app.set_password("berti@club.at", "a new password")
    as_app.end_sessions(berti.id)  # signing out
    as_app.passwords.hasher = PasswordHasher(time_cost=2, memory_cost=8, parallelism=1)
    again = as_app.authenticate("berti@club.at", "a new password")  # and rehashes
    assert again is not None and again.id == berti.id
    assert again.session_generation == berti.session_generation + 2
    assert as_app.count() == 2


@pytest.mark.parametrize(
    "statement",
    [
        "DELETE FROM acct_accounts",
        "DELETE FROM acct_api_tokens",
        "DELETE FROM acct_setup_tokens",
        "TRUNCATE acct_accounts CASCADE",
        "ALTER TABLE acct_accounts ADD COLUMN sneaky int",
        "DROP TABLE acct_tournament_roles",
    ],
)
def test_the_app_role_deletes_no_account_and_no_token(confined: Confined, statement: str) -> None:
    message = refused(confined.app, statement)
    assert message.startswith(("permission denied", "must be owner")), message


def test_the_event_tables_stay_read_only_for_the_app(confined: Confined) -> None:
    with confined.superuser.connect() as conn:
        writes = conn.exec_driver_sql(
            "SELECT c.relname FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace"
            " AND c.relkind = 'r' AND c.relname LIKE 'es\\_%%' AND c.relname <> 'es_checkpoints'"
            " AND (has_table_privilege(%(app)s, c.oid, 'INSERT')"
            "      OR has_table_privilege(%(app)s, c.oid, 'UPDATE')"
            "      OR has_table_privilege(%(app)s, c.oid, 'DELETE'))",
            {"app": confined.names["app"]},
        ).scalars()
        assert list(writes) == []


def test_the_app_role_may_take_ids_but_not_move_them(confined: Confined) -> None:
    for sequence in ("acct_accounts_id_seq", "acct_api_tokens_id_seq"):
        message = refused(confined.app, f"SELECT setval('{sequence}', 1000)")
        assert message.startswith(f"permission denied for sequence {sequence}")

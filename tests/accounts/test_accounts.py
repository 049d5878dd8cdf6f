"""Accounts: emails kept one way, the first account an admin, argon2id hashes checked at
login and made again when their parameters are old; bad input refused by field with
nothing stored (on SQLite and PostgreSQL)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher

from tests.accounts.conftest import FAST, open_accounts
from tests.databases import Database
from tournament.accounts import AccountError, AccountInfo, Accounts, TokenInfo


def stored_hash(accounts: Accounts, email: str) -> str:
    with accounts.engine.connect() as conn:
        return conn.execute(
            sa.text("SELECT password_hash FROM acct_accounts WHERE email = :e"), {"e": email}
        ).scalar_one()


def test_the_first_account_is_an_admin_whatever_it_asks(accounts: Accounts) -> None:
    first = accounts.add("anna@club.at", "first password")
    second = accounts.add("berti@club.at", "second password")
    third = accounts.add("carla@club.at", "third password", admin=True)
    assert (first.admin, second.admin, third.admin) == (True, False, True)
    assert accounts.count() == 3
    assert [a.email for a in accounts.list()] == ["anna@club.at", "berti@club.at", "carla@club.at"]


def test_an_email_is_kept_stripped_and_lower_cased_and_found_in_any_case(
    accounts: Accounts,
) -> None:
    anna = accounts.add("  Anna.Huber@Club.AT\t", "a long password")
    assert anna.email == "anna.huber@club.at"
    assert accounts.by_email("ANNA.HUBER@club.at ") == anna
    assert accounts.get(anna.id) == anna
    assert accounts.authenticate(" anna.huber@CLUB.at", "a long password") == anna


def test_a_second_account_with_the_same_email_is_refused_and_nothing_is_stored(
    accounts: Accounts,
) -> None:
    accounts.add("anna@club.at", "a long password")
    with pytest.raises(AccountError) as refused:
        accounts.add("ANNA@club.at ", "another password")
    assert refused.value.field == "email" and refused.value.rule == "T-account"
    assert refused.value.message == "there is an account 'anna@club.at' already"
    assert accounts.count() == 1
    assert accounts.authenticate("anna@club.at", "a long password") is not None
    assert accounts.authenticate("anna@club.at", "another password") is None


@pytest.mark.parametrize(
    ("email", "password", "field", "message"),
    [
        ("anna@club.at", "too short", "password", "at least 10 characters; this one has 9"),
        ("anna@club.at", "x" * 257, "password", "at most 256 characters; this one has 257"),
        ("anna club.at", "a long password", "email", "is not an email address"),
        ("anna@", "a long password", "email", "is not an email address"),
        ("anna@club@at", "a long password", "email", "is not an email address"),
        ("anna@cl ub.at", "a long password", "email", "is not an email address"),
        ("anna@club.at\x1b]0;", "a long password", "email", "is not an email address"),
        ("   ", "a long password", "email", "an email address is needed"),
        ("a" * 250 + "@club.at", "a long password", "email", "is longer than 254 characters"),
    ],
)
def test_bad_emails_and_passwords_are_refused_naming_the_field(
    accounts: Accounts, email: str, password: str, field: str, message: str
) -> None:
    with pytest.raises(AccountError) as refused:
        accounts.add(email, password)
    assert refused.value.field == field
    assert message in refused.value.message
    assert password not in str(refused.value)
    assert accounts.count() == 0


def test_a_password_of_exactly_the_limits_is_taken(accounts: Accounts) -> None:
    accounts.add("ten@club.at", "x" * 10)
    accounts.add("long@club.at", "y" * 256)
    assert accounts.authenticate("ten@club.at", "x" * 10) is not None
    assert accounts.authenticate("long@club.at", "y" * 256) is not None


def test_only_the_right_password_signs_in(accounts: Accounts) -> None:
    anna = accounts.add("anna@club.at", "Schnapsen 66!")
    assert accounts.authenticate("anna@club.at", "Schnapsen 66!") == anna
    assert accounts.authenticate("anna@club.at", "schnapsen 66!") is None
    assert accounts.authenticate("anna@club.at", "") is None
    assert accounts.authenticate("berti@club.at", "Schnapsen 66!") is None
    assert accounts.authenticate("not an address", "Schnapsen 66!") is None
    assert accounts.authenticate("anna@club.at", "x" * 100_000) is None


class CountingHasher(PasswordHasher):
    """The tests' cheap hasher, counting the verifications it runs."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.verified = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.verified += 1
        return super().verify(hash, password)


def test_an_unknown_email_costs_a_verification_as_a_known_one_does(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """So the time of the answer does not tell which addresses have accounts."""
    hasher = CountingHasher()
    accounts = open_accounts(db, monkeypatch, hasher=hasher)
    accounts.add("anna@club.at", "a long password")
    for email in ("anna@club.at", "nobody@club.at", "no address"):
        before = hasher.verified
        assert accounts.authenticate(email, "a wrong password") is None
        assert hasher.verified == before + 1, email
    accounts.close()


def test_a_hash_with_old_parameters_is_made_again_at_the_next_login(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = open_accounts(db, monkeypatch, hasher=FAST)
    old.add("anna@club.at", "a long password")
    assert "$m=8,t=1,p=1$" in stored_hash(old, "anna@club.at")
    stronger = PasswordHasher(time_cost=2, memory_cost=16, parallelism=1)
    new = open_accounts(db, monkeypatch, hasher=stronger)
    assert new.authenticate("anna@club.at", "a wrong password") is None
    assert "$m=8,t=1,p=1$" in stored_hash(new, "anna@club.at")  # not on a failed login
    assert new.authenticate("anna@club.at", "a long password") is not None
    rehashed = stored_hash(new, "anna@club.at")
    assert rehashed.startswith("$argon2id$") and "$m=16,t=2,p=1$" in rehashed
    assert new.authenticate("anna@club.at", "a long password") is not None
    assert stored_hash(new, "anna@club.at") == rehashed  # current now: left as it is
    old.close()
    new.close()


def test_the_default_hasher_is_argon2id_with_the_librarys_defaults(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    accounts = open_accounts(db, monkeypatch, hasher=None)
    accounts.add("anna@club.at", "a long password")
    defaults = PasswordHasher()
    stored = stored_hash(accounts, "anna@club.at")
    assert stored.startswith("$argon2id$")
    assert f"$m={defaults.memory_cost},t={defaults.time_cost},p={defaults.parallelism}$" in stored
    accounts.close()


def test_a_new_password_replaces_the_old_one(accounts: Accounts) -> None:
    accounts.add("anna@club.at", "the old password")
    accounts.set_password("Anna@Club.at", "the new password")
    assert accounts.authenticate("anna@club.at", "the old password") is None
    assert accounts.authenticate("anna@club.at", "the new password") is not None


def test_a_new_password_is_checked_and_needs_an_account(accounts: Accounts) -> None:
    accounts.add("anna@club.at", "the old password")
    with pytest.raises(AccountError, match="at least 10 characters"):
        accounts.set_password("anna@club.at", "short")
    with pytest.raises(AccountError) as refused:
        accounts.set_password("berti@club.at", "a long password")
    assert refused.value.line() == "email: there is no account 'berti@club.at' (T-account)"
    assert accounts.authenticate("anna@club.at", "the old password") is not None


def test_what_leaves_the_service_holds_no_hash(accounts: Accounts) -> None:
    anna = accounts.add("anna@club.at", "a long password")
    token, _ = accounts.create_token("anna@club.at", "script")
    assert [f.name for f in dataclasses.fields(AccountInfo)] == [
        "id",
        "email",
        "admin",
        "created_at",
        "session_generation",  # a number: which sessions still sign in (issue 21, F4)
    ]
    assert [f.name for f in dataclasses.fields(TokenInfo)] == [
        "id", "account_id", "name", "prefix", "created_at", "last_used_at", "revoked_at",
    ]  # fmt: skip
    with pytest.raises(dataclasses.FrozenInstanceError):
        anna.admin = False  # type: ignore[misc]
    assert "argon2" not in repr(anna) + repr(accounts.list()) + repr(token)


def test_times_come_back_in_utc_on_every_database(accounts: Accounts) -> None:
    before = datetime.now(UTC)
    anna = accounts.add("anna@club.at", "a long password")
    again = accounts.get(anna.id)
    assert again is not None and again.created_at.tzinfo is not None
    assert again.created_at.utcoffset() == timedelta(0)
    assert before - timedelta(seconds=1) <= again.created_at <= datetime.now(UTC)


def test_nothing_is_found_for_what_is_not_there(accounts: Accounts) -> None:
    assert accounts.count() == 0 and accounts.list() == []
    assert accounts.get(1) is None
    assert accounts.by_email("anna@club.at") is None
    assert accounts.by_email("no address at all") is None


@pytest.mark.parametrize("wrong", ["1", 0, -1, 2**40, True, None, 1.0])
def test_an_id_that_cannot_be_one_finds_nothing(accounts: Accounts, wrong: object) -> None:
    """A session or a URL may hand in anything: nothing is found, no database error."""
    from tournament.accounts import Role

    accounts.add("anna@club.at", "a long password")
    assert accounts.get(wrong) is None  # type: ignore[arg-type]
    assert accounts.role_of(wrong, "cup") is Role.PUBLIC  # type: ignore[arg-type]
    assert accounts.roles(wrong) == {}  # type: ignore[arg-type]


def test_one_instance_serves_many_threads(accounts: Accounts) -> None:
    """The web app shares one Accounts across its threads."""
    import threading

    accounts.add("anna@club.at", "a long password")
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            accounts.add(f"player{n}@club.at", "a long password")
            for _ in range(3):
                assert accounts.authenticate(f"player{n}@club.at", "a long password")
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert accounts.count() == 13
    assert [a.admin for a in accounts.list()].count(True) == 1

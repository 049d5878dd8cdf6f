"""The first account through a setup secret: only while there is no account, once per
secret, and of two at the same time only one (threads on SQLite and PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
import sqlalchemy as sa

from tournament.accounts import AccountError, AccountInfo, Accounts


def test_setup_makes_the_first_account_an_admin_once(accounts: Accounts) -> None:
    secret = accounts.setup_token()
    assert secret is not None
    anna = accounts.complete_setup(secret, " Anna@Club.at", "a long password")
    assert (anna.email, anna.admin) == ("anna@club.at", True)
    assert accounts.authenticate("anna@club.at", "a long password") == anna
    with pytest.raises(AccountError) as again:
        accounts.complete_setup(secret, "berti@club.at", "a long password")
    assert again.value.line() == (
        "token: setup is done: there is an account already; sign in with it (T-account)"
    )
    assert accounts.count() == 1


def test_no_setup_secret_once_there_is_an_account(accounts: Accounts) -> None:
    unused = accounts.setup_token()
    assert unused is not None
    accounts.add("anna@club.at", "a long password")  # from the command line, say
    assert accounts.setup_token() is None
    with pytest.raises(AccountError, match="setup is done"):
        accounts.complete_setup(unused, "berti@club.at", "a long password")
    assert [a.email for a in accounts.list()] == ["anna@club.at"]


def test_earlier_setup_secrets_stay_valid_until_one_is_used(accounts: Accounts) -> None:
    first, second = accounts.setup_token(), accounts.setup_token()
    assert first is not None and second is not None and first != second
    assert accounts.complete_setup(first, "anna@club.at", "a long password").admin
    with pytest.raises(AccountError, match="setup is done"):
        accounts.complete_setup(second, "berti@club.at", "a long password")


@pytest.mark.parametrize("secret", ["", "not the secret", "x" * 10_000])
def test_only_a_secret_that_was_given_out_sets_up(accounts: Accounts, secret: str) -> None:
    accounts.setup_token()
    with pytest.raises(AccountError) as refused:
        accounts.complete_setup(secret, "anna@club.at", "a long password")
    assert refused.value.line() == (
        "token: this setup link is not valid or was used already (T-account)"
    )
    assert accounts.count() == 0


def test_only_the_secrets_hash_is_stored(accounts: Accounts) -> None:
    secret = accounts.setup_token()
    assert secret is not None
    with accounts.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT * FROM acct_setup_tokens")).all()
    assert len(rows) == 1 and secret not in str(rows)


def test_a_bad_email_or_password_does_not_use_the_secret_up(accounts: Accounts) -> None:
    secret = accounts.setup_token()
    assert secret is not None
    with pytest.raises(AccountError, match="at least 10 characters"):
        accounts.complete_setup(secret, "anna@club.at", "short")
    with pytest.raises(AccountError, match="not an email address"):
        accounts.complete_setup(secret, "anna", "a long password")
    assert accounts.count() == 0
    assert accounts.complete_setup(secret, "anna@club.at", "a long password").admin


def race(
    threads: int, attempt: Callable[[int], AccountInfo]
) -> tuple[list[AccountInfo], list[str]]:
    """``attempt(i)`` in ``threads`` threads let go at once: what succeeded, what was
    refused (any other error fails the test)."""
    barrier = threading.Barrier(threads, timeout=30)
    made: list[AccountInfo] = []
    refused: list[str] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def run(i: int) -> None:
        try:
            barrier.wait()
            account = attempt(i)
            with lock:
                made.append(account)
        except AccountError as error:
            with lock:
                refused.append(error.message)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    pool = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    assert errors == []
    return made, refused


def test_two_setups_with_the_same_secret_at_once_make_one_account(accounts: Accounts) -> None:
    secret = accounts.setup_token()
    assert secret is not None
    made, refused = race(
        8, lambda i: accounts.complete_setup(secret, f"p{i}@club.at", "a long password")
    )
    assert len(made) == 1 and len(refused) == 7
    assert accounts.list() == made


def test_setups_with_different_secrets_at_once_make_one_account(accounts: Accounts) -> None:
    secrets = [accounts.setup_token() for _ in range(6)]
    assert None not in secrets
    made, refused = race(
        6, lambda i: accounts.complete_setup(str(secrets[i]), f"p{i}@club.at", "a long password")
    )
    assert len(made) == 1 and len(refused) == 5
    assert all("setup is done" in message for message in refused)
    assert accounts.list() == made


def test_accounts_added_at_once_have_one_first_admin(accounts: Accounts) -> None:
    made, refused = race(8, lambda i: accounts.add(f"p{i}@club.at", "a long password"))
    assert len(made) == 8 and refused == []
    assert sum(a.admin for a in accounts.list()) == 1

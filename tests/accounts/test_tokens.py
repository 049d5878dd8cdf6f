"""API tokens: a random secret shown once and stored only as its SHA-256, named,
revocable, noted when used at most once a minute (on SQLite and PostgreSQL)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

import tournament.accounts.service as service_module
from tournament.accounts import AccountError, Accounts


@pytest.fixture
def club(accounts: Accounts) -> Accounts:
    accounts.add("anna@club.at", "a long password")
    accounts.add("berti@club.at", "a long password")
    return accounts


def stored_tokens(accounts: Accounts) -> list[dict[str, object]]:
    with accounts.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT * FROM acct_api_tokens ORDER BY id")).mappings()
        return [dict(row) for row in rows]


def test_a_token_is_a_random_secret_of_which_only_the_hash_is_stored(club: Accounts) -> None:
    info, secret = club.create_token("berti@club.at", "scoreboard")
    other, second = club.create_token("berti@club.at", "results script")
    assert secret.startswith("sch_") and len(secret) == 4 + 43 and secret != second
    assert info.prefix == secret[:8] and info.name == "scoreboard"
    berti = club.by_email("berti@club.at")
    assert berti is not None and info.account_id == berti.id
    assert (info.last_used_at, info.revoked_at) == (None, None)
    rows = stored_tokens(club)
    assert [row["token_hash"] for row in rows] == [
        hashlib.sha256(secret.encode()).hexdigest(),
        hashlib.sha256(second.encode()).hexdigest(),
    ]
    assert not any(
        secret in str(value) or second in str(value) for r in rows for value in r.values()
    )
    assert club.tokens("berti@club.at") == [info, other]


def test_a_live_token_names_its_account_and_nothing_else_does(club: Accounts) -> None:
    _, secret = club.create_token("berti@club.at", "scoreboard")
    assert club.account_for_token(secret) == club.by_email("berti@club.at")
    for wrong in (
        secret[:-1],
        secret + "x",
        secret[4:],
        "",
        "sch_",
        "Bearer " + secret,
        "x" * 10_000,
    ):
        assert club.account_for_token(wrong) is None, wrong


def test_a_revoked_token_stops_working_at_once(club: Accounts) -> None:
    info, secret = club.create_token("berti@club.at", "scoreboard")
    assert club.account_for_token(secret) is not None
    revoked = club.revoke_token("Berti@club.at", "scoreboard")
    assert revoked.id == info.id and revoked.revoked_at is not None
    assert club.account_for_token(secret) is None
    assert club.tokens("berti@club.at") == [revoked]  # kept, as revoked


def test_a_token_is_revoked_by_its_name_or_its_id(club: Accounts) -> None:
    first, _ = club.create_token("berti@club.at", "one")
    second, _ = club.create_token("berti@club.at", "two")
    assert club.revoke_token("berti@club.at", str(second.id)).name == "two"
    assert club.revoke_token("berti@club.at", "one").id == first.id


def test_a_name_is_free_again_once_its_token_is_revoked(club: Accounts) -> None:
    first, _ = club.create_token("berti@club.at", "scoreboard")
    with pytest.raises(AccountError) as refused:
        club.create_token("berti@club.at", "scoreboard")
    assert refused.value.line() == (
        f"name: berti@club.at has a token 'scoreboard' already (id {first.id}): revoke it or "
        "choose another name (T-account)"
    )
    club.create_token("anna@club.at", "scoreboard")  # another account's names are its own
    club.revoke_token("berti@club.at", "scoreboard")
    again, secret = club.create_token("berti@club.at", "scoreboard")
    assert again.id != first.id and club.account_for_token(secret) is not None
    # The name now means the live token; the old one is still revoked by its id only.
    assert club.revoke_token("berti@club.at", "scoreboard").id == again.id


def test_revoking_what_is_not_there_or_gone_already_says_which_tokens_are(club: Accounts) -> None:
    first, _ = club.create_token("berti@club.at", "scoreboard")
    club.create_token("berti@club.at", "results")
    with pytest.raises(AccountError) as unknown:
        club.revoke_token("berti@club.at", "scorebaord")
    assert unknown.value.message == (
        f"berti@club.at has no live token 'scorebaord' (its live tokens: scoreboard (id "
        f"{first.id}), results (id {first.id + 1}))"
    )
    club.revoke_token("berti@club.at", "scoreboard")
    with pytest.raises(AccountError, match="was revoked already, at "):
        club.revoke_token("berti@club.at", str(first.id))
    with pytest.raises(AccountError, match="no live token"):  # anna's id is not berti's
        club.revoke_token("anna@club.at", str(first.id + 1))
    assert [t.revoked_at is None for t in club.tokens("berti@club.at")] == [False, True]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "a token's name is needed"),
        ("12", "a token's name is not a number alone"),
        ("x" * 101, "longer than 100 characters"),
        ("score\nboard", "control character"),
    ],
)
def test_a_token_needs_a_plain_name(club: Accounts, name: str, message: str) -> None:
    with pytest.raises(AccountError) as refused:
        club.create_token("berti@club.at", name)
    assert refused.value.field == "name" and message in refused.value.message
    assert club.tokens() == []


def test_a_token_needs_an_account(club: Accounts) -> None:
    with pytest.raises(AccountError, match=r"there is no account 'dora@club\.at'"):
        club.create_token("dora@club.at", "script")
    with pytest.raises(AccountError, match=r"there is no account 'dora@club\.at'"):
        club.tokens("dora@club.at")
    assert club.tokens() == []


def test_every_accounts_tokens_are_listed_without_an_email(club: Accounts) -> None:
    a, _ = club.create_token("anna@club.at", "a")
    b, _ = club.create_token("berti@club.at", "b")
    assert club.tokens() == [a, b]
    assert club.tokens("anna@club.at") == [a]


def test_a_busy_token_is_noted_as_used_at_most_once_a_minute(
    club: Accounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A script polling every second does not write on every request."""
    start = datetime(2026, 11, 27, 19, 0, tzinfo=UTC)
    clock = [start]
    monkeypatch.setattr(service_module, "now", lambda: clock[0])
    _, secret = club.create_token("berti@club.at", "scoreboard")

    def last_used() -> datetime | None:
        return club.tokens("berti@club.at")[0].last_used_at

    assert last_used() is None
    assert club.account_for_token(secret) is not None
    assert last_used() == start
    for seconds in (1, 30, 59):
        clock[0] = start + timedelta(seconds=seconds)
        assert club.account_for_token(secret) is not None
        assert last_used() == start
    clock[0] = start + timedelta(seconds=60)
    club.account_for_token(secret)
    assert last_used() == start + timedelta(seconds=60)

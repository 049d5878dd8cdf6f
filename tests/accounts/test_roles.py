"""Roles per tournament: one per account and tournament, an admin is owner everywhere,
nobody without a grant is more than public (on SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest

from tournament.accounts import AccountError, Accounts, Role


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("public", Role.PUBLIC),
        ("Scorer", Role.SCORER),
        (" ORGANISER ", Role.ORGANISER),
        ("organizer", Role.ORGANISER),
        ("owner", Role.OWNER),
    ],
)
def test_a_role_is_named_in_any_case_and_either_spelling(text: str, role: Role) -> None:
    assert Role.parse(text) is role


def test_an_unknown_role_names_the_valid_ones() -> None:
    with pytest.raises(AccountError) as refused:
        Role.parse("admin")
    assert refused.value.line() == (
        "role: 'admin' is not a role: one of public, scorer, organiser, owner (T-account)"
    )


def test_roles_are_ordered_from_public_to_owner() -> None:
    assert Role.PUBLIC < Role.SCORER < Role.ORGANISER < Role.OWNER
    assert [int(r) for r in Role] == [0, 1, 2, 3]


@pytest.fixture
def club(accounts: Accounts) -> Accounts:
    """Anna (the first account: admin), Berti and Carla."""
    for name in ("anna", "berti", "carla"):
        accounts.add(f"{name}@club.at", "a long password")
    return accounts


def _id(accounts: Accounts, email: str) -> int:
    account = accounts.by_email(email)
    assert account is not None
    return account.id


def test_without_a_grant_an_account_is_public_and_an_admin_is_owner_everywhere(
    club: Accounts,
) -> None:
    assert club.role_of(_id(club, "berti@club.at"), "cup") is Role.PUBLIC
    assert club.role_of(_id(club, "anna@club.at"), "cup") is Role.OWNER
    assert club.role_of(_id(club, "anna@club.at"), "any-other") is Role.OWNER
    assert club.role_of(999, "cup") is Role.PUBLIC  # no such account


def test_a_grant_is_per_tournament_and_a_new_one_replaces_the_old(club: Accounts) -> None:
    berti = _id(club, "berti@club.at")
    club.grant("berti@club.at", "cup", Role.SCORER, by="anna@club.at")
    club.grant("Berti@Club.at", "liga", Role.ORGANISER, by="anna@club.at")
    assert club.role_of(berti, "cup") is Role.SCORER
    assert club.role_of(berti, "liga") is Role.ORGANISER
    assert club.role_of(berti, "other") is Role.PUBLIC
    club.grant("berti@club.at", "cup", Role.OWNER, by="anna@club.at")
    assert club.roles(berti) == {"cup": Role.OWNER, "liga": Role.ORGANISER}


def test_members_are_listed_highest_role_first(club: Accounts) -> None:
    club.grant("carla@club.at", "cup", Role.SCORER, by="anna@club.at")
    club.grant("berti@club.at", "cup", Role.OWNER, by="anna@club.at")
    club.grant("carla@club.at", "liga", Role.OWNER, by="anna@club.at")
    members = [(account.email, role) for account, role in club.members("cup")]
    assert members == [("berti@club.at", Role.OWNER), ("carla@club.at", Role.SCORER)]
    assert club.members("nothing") == []


def test_an_admins_owner_role_is_no_grant_of_its_own(club: Accounts) -> None:
    anna = _id(club, "anna@club.at")
    assert club.roles(anna) == {}
    club.grant("anna@club.at", "cup", Role.SCORER, by="anna@club.at")
    assert club.roles(anna) == {"cup": Role.SCORER}
    assert club.role_of(anna, "cup") is Role.OWNER  # still an admin


def test_revoking_a_role_leaves_public_and_says_whether_there_was_one(club: Accounts) -> None:
    berti = _id(club, "berti@club.at")
    club.grant("berti@club.at", "cup", Role.ORGANISER, by="anna@club.at")
    club.grant("berti@club.at", "liga", Role.SCORER, by="anna@club.at")
    assert club.revoke_role("berti@club.at", "cup") is True
    assert club.revoke_role("berti@club.at", "cup") is False
    assert club.role_of(berti, "cup") is Role.PUBLIC
    assert club.roles(berti) == {"liga": Role.SCORER}


@pytest.mark.parametrize(
    ("email", "tournament", "role", "by", "field", "message"),
    [
        ("dora@club.at", "cup", Role.SCORER, "anna", "email", "there is no account 'dora@club.at'"),
        ("no address", "cup", Role.SCORER, "anna", "email", "is not an email address"),
        ("berti@club.at", "", Role.SCORER, "anna", "tournament", "a tournament id is needed"),
        ("berti@club.at", "c\x1bup", Role.SCORER, "anna", "tournament", "control character"),
        ("berti@club.at", "x" * 201, Role.SCORER, "anna", "tournament", "longer than 200"),
        ("berti@club.at", "cup", 7, "anna", "role", "7 is not a role"),
        ("berti@club.at", "cup", Role.SCORER, " ", "by", "who grants it is needed"),
    ],
)
def test_a_bad_grant_is_refused_naming_the_field_and_stores_nothing(
    club: Accounts, email: str, tournament: str, role: Role, by: str, field: str, message: str
) -> None:
    with pytest.raises(AccountError) as refused:
        club.grant(email, tournament, role, by=by)
    assert refused.value.field == field
    assert message in refused.value.message
    assert all(club.roles(a.id) == {} for a in club.list())


def test_revoking_for_an_unknown_account_is_refused(club: Accounts) -> None:
    with pytest.raises(AccountError, match=r"there is no account 'dora@club\.at'"):
        club.revoke_role("dora@club.at", "cup")

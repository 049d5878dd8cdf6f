"""Owners grant and take back roles in their tournament over the API (issue 9: roles per
tournament); the roles decide what each account may write."""

from __future__ import annotations

from tests.web.conftest import Web
from tournament.accounts.roles import Role

MEMBERS = "/api/v1/tournaments/club/members"


def test_an_owner_makes_a_scorer_who_may_then_enter_but_not_draw(web: Web) -> None:
    web.tournament("club")
    owner = web.caller(Role.OWNER, "club", email="owner@club.at")
    helper = web.token("helper@club.at")
    assert web.post("/api/v1/tournaments/club/rounds", {}, token=helper).status_code == 403
    listed = web.ok("POST", MEMBERS, {"email": "helper@club.at", "role": "scorer"}, token=owner)
    assert {"email": "helper@club.at", "role": "scorer"} in listed["members"]
    assert web.ok("GET", "/api/v1/me", token=helper)["roles"] == {"club": "scorer"}
    assert web.post("/api/v1/tournaments/club/rounds", {}, token=helper).status_code == 403
    taken = web.ok("POST", f"{MEMBERS}/revoke", {"email": "helper@club.at"}, token=owner)
    assert "helper@club.at" not in [m["email"] for m in taken["members"]]


def test_an_organiser_sees_the_members_but_may_not_grant(web: Web) -> None:
    web.tournament("club")
    organiser = web.caller(Role.ORGANISER, "club", email="org@club.at")
    assert web.ok("GET", MEMBERS, token=organiser)["members"] == [
        {"email": "admin@club.at", "role": "owner"},  # its creator (opfix 6c)
        {"email": "org@club.at", "role": "organiser"},
    ]
    grant = web.post(MEMBERS, {"email": "org@club.at", "role": "owner"}, token=organiser)
    assert grant.status_code == 403
    assert web.get(MEMBERS, token=None).status_code == 401


def test_granting_to_an_unknown_account_or_an_unknown_role_is_422(web: Web) -> None:
    web.tournament("club")
    unknown = web.post(MEMBERS, {"email": "nobody@club.at", "role": "scorer"})
    assert unknown.status_code == 422 and "nobody@club.at" in unknown.get_json()["detail"]
    bad = web.post(MEMBERS, {"email": "admin@club.at", "role": "king"})
    assert bad.status_code == 422 and bad.get_json()["field"] == "body.role"


def test_an_owner_cannot_lock_themselves_out(web: Web) -> None:
    web.tournament("club")
    owner = web.caller(Role.OWNER, "club", email="owner@club.at")
    reply = web.post(f"{MEMBERS}/revoke", {"email": "owner@club.at"}, token=owner)
    assert reply.status_code == 409
    assert web.ok("GET", "/api/v1/me", token=owner)["roles"] == {"club": "owner"}

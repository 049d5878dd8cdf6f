"""Every write route needs a role (issue 9): walked over the whole URL map, so a route
added later without one fails here.

For each non-GET route: an anonymous caller gets 401 and a caller with the next smaller
role gets 403 -- before the body is even read, so the test sends none -- and nothing is
stored by either.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.conftest import Web
from tournament.accounts.roles import Role
from tournament.web.auth import ACCOUNT, ADMIN, ANYONE, required_of

#: Writes anyone may make, and why.
OPEN_WRITES = {
    "/login": "signing in",
    "/logout": "signing out ends one's own session",
    "/setup": "the first organiser's one-time link (the token is the credential)",
    "/api/v1/tokens": "a token for an email and password (the password is the credential)",
    "/r/ACDEFH": "a player's report from the table (the table code is the credential, T-code)",
    "/api/v1/play/ACDEFH/seat": "a device takes its seat (the table code, T-code)",
    "/play/ACDEFH/seat": "a player's phone takes its seat (the table code, T-code)",
    "/api/v1/play/ACDEFH/actions": "a move at an online table (the table code, T-code)",
    "/api/v1/play/ACDEFH/no-claim": "no claim after the last trick (the table code, T-code)",
    "/play/ACDEFH/move": "a player's move at an online table (the table code is the credential)",
    "/play/ACDEFH/no-claim": "a player's no claim (R16) at an online table (the code, T-code)",
}
#: A value for each path parameter (the tournament exists; the rest need not).
VALUES = {
    "tid": "club",
    "pid": "1",
    "n": "1",
    "mid": "1.1",
    "rid": "r1",
    "token_id": "1",
    "code": "ACDEFH",
}
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def routes(web: Web) -> list[tuple[str, str, Any]]:
    found = []
    for rule in web.app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) & WRITE_METHODS):
            view = web.app.view_functions[rule.endpoint]
            path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", lambda m: VALUES[m.group(1)], rule.rule)
            found.append((method, path, required_of(view)))
    return found


def smaller(need: Any) -> Role | str | None:
    """The next smaller standing than ``need``: a role one down, an account with no
    role, or the owner of the tournament who is not an admin."""
    if need == ADMIN:
        return Role.OWNER
    if need == ACCOUNT:
        return None  # only anonymous is smaller
    assert isinstance(need, Role), need
    return Role(need - 1)


def test_every_write_route_says_what_it_needs(web: Web) -> None:
    for method, path, need in routes(web):
        if path in OPEN_WRITES:
            assert need == ANYONE, f"{method} {path}: open to anyone on purpose, say so"
            continue
        assert need is not None, f"{method} {path} has no requires(): every write needs a role"
        assert need != ANYONE, f"{method} {path} is open to anyone: add it to OPEN_WRITES"


def test_every_write_route_refuses_anonymous_and_a_too_small_role(web: Web) -> None:
    web.tournament("club")
    version = web.ok("GET", "/api/v1/tournaments/club")["version"]
    checked = 0
    for method, path, need in routes(web):
        if need == ANYONE or path in OPEN_WRITES:
            continue
        # A page of the desk answers as a page (issue 11): sign in first, and come back.
        page = path.startswith("/desk")
        anonymous = web.call(method, path, token=None)
        if page:
            assert anonymous.status_code == 303, (method, path)
            assert anonymous.headers["Location"].startswith("/login?next=")
        else:
            assert anonymous.status_code == 401, (method, path, anonymous.get_json())
            assert anonymous.mimetype == "application/problem+json"
            assert "Bearer" in anonymous.headers["WWW-Authenticate"]
        below = smaller(need)
        if below is not None:
            token = web.caller(below, "club", email=f"{below.name.lower()}@club.at")
            refused = web.call(method, path, token=token)
            assert refused.status_code == 403, (method, path, below, refused.get_data())
            assert refused.mimetype == ("text/html" if page else "application/problem+json")
        checked += 1
    assert checked >= 18  # every write route of issue 9 (a new one adds to it)
    # Nothing any refused call sent was stored.
    assert web.ok("GET", "/api/v1/tournaments/club")["version"] == version


def test_a_route_nobody_marked_is_refused_even_to_an_owner(web: Web) -> None:
    """Fail closed: a write route without requires() needs an admin."""

    @web.app.post("/unmarked-test-route")
    def unmarked() -> str:  # pragma: no cover - never reached by a non-admin
        return "stored"

    web.tournament("club")
    owner = web.caller(Role.OWNER, "club", email="owner@club.at")
    refused = web.post("/unmarked-test-route", token=owner)
    assert refused.status_code == 403


@pytest.mark.parametrize("header", ["Basic YWRtaW46eA==", "Bearer", "Bearer sch_not-a-token"])
def test_a_bad_authorization_header_is_401_saying_what_to_send(web: Web, header: str) -> None:
    reply = web.client.post("/api/v1/tournaments", json={"name": "x"}, headers={
        "Authorization": header
    })  # fmt: skip
    assert reply.status_code == 401
    problem = reply.get_json()
    assert "Bearer" in problem["detail"] or "token" in problem["detail"]
    assert reply.headers["WWW-Authenticate"].startswith("Bearer")


def test_a_revoked_token_no_longer_opens_anything(web: Web) -> None:
    web.tournament("club")
    token = web.caller(Role.ORGANISER, "club", email="org@club.at")
    web.accounts.revoke_token("org@club.at", "tests")
    reply = web.post("/api/v1/tournaments", {"name": "Other"}, token=token)
    assert reply.status_code == 401
    assert "revoked" in reply.get_json()["detail"]

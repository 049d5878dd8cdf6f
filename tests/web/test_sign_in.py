"""Signing in for pages: session cookies, CSRF on every form and every write, a login
that is rate-limited, and the first organiser's one-time setup link (issue 9)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.web.conftest import Web, make_web

PASSWORD = "a long password 1"


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, html
    return found.group(1)


def sign_in(web: Web, email: str = "admin@club.at", password: str = PASSWORD) -> int:
    page = web.client.get("/login").get_data(as_text=True)
    reply = web.client.post(
        "/login", data={"email": email, "password": password, "csrf_token": csrf_of(page)}
    )
    return reply.status_code


def test_a_session_cookie_is_httponly_samesite_and_secure_unless_told_otherwise(
    tmp_path: Path,
) -> None:
    web = make_web(f"sqlite:///{tmp_path / 'w.sqlite3'}", tmp_path, SESSION_COOKIE_SECURE=True)
    web.admin()
    assert sign_in(web) == 303
    cookie = web.client.get_cookie("session")
    assert cookie is not None
    assert cookie.http_only and cookie.secure and cookie.same_site == "Lax"


def test_a_signed_in_page_writes_only_with_its_csrf_token(web: Web) -> None:
    web.admin()
    assert sign_in(web) == 303
    without = web.client.post("/api/v1/tournaments", json={"name": "Club Cup"})
    assert without.status_code == 403
    assert without.get_json()["type"].endswith("/csrf")
    token = csrf_of(web.client.get("/login").get_data(as_text=True))
    with_token = web.client.post(
        "/api/v1/tournaments", json={"name": "Club Cup"}, headers={"X-CSRFToken": token}
    )
    assert with_token.status_code == 201
    me = web.client.get("/api/v1/me").get_json()
    assert me["email"] == "admin@club.at"


def test_a_login_form_without_its_csrf_token_is_refused(web: Web) -> None:
    web.admin()
    reply = web.client.post("/login", data={"email": "admin@club.at", "password": PASSWORD})
    assert reply.status_code == 403
    assert web.client.get_cookie("session") is None or "account_id" not in str(
        web.client.get("/api/v1/me").get_json()
    )


def test_a_wrong_password_says_so_without_saying_which_part_was_wrong(web: Web) -> None:
    web.admin()
    assert sign_in(web, password="not the password") == 401
    assert sign_in(web, email="nobody@club.at") == 401
    assert web.client.get("/api/v1/me").get_json()["email"] is None


def test_logins_are_rate_limited_per_address(tmp_path: Path) -> None:
    web = make_web(f"sqlite:///{tmp_path / 'w.sqlite3'}", tmp_path, LOGIN_RATE_LIMIT="3 per minute")
    web.admin()
    codes = [sign_in(web, password="wrong") for _ in range(4)]
    assert codes[:3] == [401, 401, 401]
    assert codes[3] == 429
    # The token route counts against the same kind of limit.
    body = {"email": "admin@club.at", "password": "wrong", "name": "x"}
    replies = [web.client.post("/api/v1/tokens", json=body) for _ in range(4)]
    assert replies[-1].status_code == 429
    assert replies[-1].mimetype == "application/problem+json"
    assert "Retry-After" in replies[-1].headers


def test_a_token_for_email_and_password_is_shown_once_and_works(web: Web) -> None:
    web.admin()
    body = {"email": "admin@club.at", "password": PASSWORD, "name": "results laptop"}
    made = web.client.post("/api/v1/tokens", json=body)
    assert made.status_code == 201
    secret = made.get_json()["token"]
    me = web.client.get("/api/v1/me", headers={"Authorization": f"Bearer {secret}"})
    assert me.get_json()["email"] == "admin@club.at"
    listed = web.get("/api/v1/tokens", token=secret).get_json()["tokens"]
    assert secret not in str(listed)
    assert "results laptop" in [t["name"] for t in listed]


def test_the_setup_link_works_once_and_only_with_its_token(web: Web) -> None:
    secret = web.accounts.setup_token()
    assert secret
    page = web.client.get(f"/setup?token={secret}").get_data(as_text=True)
    form = {"email": "anna@club.at", "password": PASSWORD, "csrf_token": csrf_of(page)}
    wrong = web.client.post("/setup", data={**form, "token": "sch_wrong"})
    assert wrong.status_code == 422
    assert web.accounts.count() == 0
    made = web.client.post("/setup", data={**form, "token": secret})
    assert made.status_code == 303
    assert web.client.get("/api/v1/me").get_json() == {
        "email": "anna@club.at",
        "admin": True,
        "roles": {},
    }
    page = web.client.get(f"/setup?token={secret}")
    assert page.status_code == 410  # says it is set up already
    form["csrf_token"] = csrf_of(page.get_data(as_text=True))  # the new session's token
    again = web.client.post("/setup", data={**form, "email": "eve@club.at", "token": secret})
    assert again.status_code == 410
    assert web.accounts.by_email("eve@club.at") is None


def test_logging_out_ends_the_session(web: Web) -> None:
    web.admin()
    sign_in(web)
    token = csrf_of(web.client.get("/login").get_data(as_text=True))
    web.client.post("/logout", data={"csrf_token": token})
    assert web.client.get("/api/v1/me").get_json()["email"] is None

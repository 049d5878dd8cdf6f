"""The doors of signing in (issue 21, trial 2): ``next=`` never leads off the site (F1),
signing out and a new password end every session of the account on the server (F4), and
refused sign-ins are limited per account as well as per address, successful ones not
counted (F12)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from tests.web.conftest import Web, make_web
from tests.web.test_sign_in import PASSWORD, csrf_of
from tournament.cli import main

#: Every way of writing another host that trial 2 and its peers found (F1), as a
#: ``next=`` query value (percent-encoded where the attacker's link would be).
OFF_SITE = [
    "/%09/evil.invalid/",  # TAB: Werkzeug dropped it and sent //evil.invalid/
    "/\t/evil.invalid/",
    "/%5Cevil.invalid/",
    "/%5C%5Cevil.invalid/",
    "/\\evil.invalid/",
    "/\\\\evil.invalid/",
    "\\/evil.invalid/",
    "//evil.invalid/",
    "///evil.invalid/",
    "https://evil.invalid/",
    "https:evil.invalid",
    "/%2F/evil.invalid/",
    "/%252F/evil.invalid/",
    "%2F%2Fevil.invalid/",
    " //evil.invalid/",
    "/%0A/evil.invalid/",
    "/%0D%0A/evil.invalid/",
    "/ /evil.invalid/",
    "javascript:alert(1)",
    "evil.invalid",
]


def sign_in_at(client: FlaskClient, next_: str | None, email: str = "admin@club.at") -> str:
    """Sign in through the real form and POST; the answer's Location."""
    query = {"next": next_} if next_ is not None else {}
    page = client.get("/login", query_string=query).get_data(as_text=True)
    reply = client.post(
        "/login",
        query_string=query,
        data={"email": email, "password": PASSWORD, "csrf_token": csrf_of(page)},
    )
    assert reply.status_code == 303, reply.get_data(as_text=True)
    return str(reply.headers["Location"])


@pytest.mark.parametrize("next_", OFF_SITE)
def test_next_after_signing_in_never_leads_to_another_host(web: Web, next_: str) -> None:
    web.admin()
    location = sign_in_at(web.client, next_)
    parts = urlsplit(location)
    assert parts.netloc in ("", "localhost"), location
    assert location == "/desk"


@pytest.mark.parametrize("next_", ["/t/club", "/desk/t/club/rounds?lang=de", "/t/a%20b"])
def test_next_after_signing_in_keeps_a_path_of_this_site(web: Web, next_: str) -> None:
    web.admin()
    assert sign_in_at(web.client, next_) == next_


def post_with_csrf(client: FlaskClient, path: str) -> int:
    token = csrf_of(client.get("/login").get_data(as_text=True))
    return client.post(path, data={"csrf_token": token}).status_code


def signed_in_as(client: FlaskClient) -> str | None:
    email: str | None = client.get("/api/v1/me").get_json()["email"]
    return email


def copy_of(web: Web, client: FlaskClient) -> FlaskClient:
    """Another browser holding a copy of ``client``'s session cookie (a synced profile,
    a backup of the club laptop)."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    other = web.app.test_client()
    other.set_cookie("session", cookie.value)
    return other


@pytest.fixture(params=["sqlite", "postgresql"])
def any_web(request: pytest.FixtureRequest) -> Web:
    found: Web = request.getfixturevalue("web" if request.param == "sqlite" else "web_pg")
    return found


def test_signing_out_ends_every_session_of_the_account_also_copied_cookies(any_web: Web) -> None:
    web = any_web
    web.admin()
    sign_in_at(web.client, None)
    copied = copy_of(web, web.client)
    laptop = web.app.test_client()  # the same organiser signed in on another machine
    sign_in_at(laptop, None)
    assert signed_in_as(copied) == signed_in_as(laptop) == "admin@club.at"
    assert post_with_csrf(web.client, "/logout") == 303
    assert signed_in_as(web.client) is None
    assert signed_in_as(copied) is None
    assert signed_in_as(laptop) is None
    assert copied.get("/desk").status_code in (302, 303)  # to the sign-in page
    sign_in_at(web.client, None)  # signing in again works
    assert signed_in_as(web.client) == "admin@club.at"


def test_a_new_password_on_the_command_line_ends_every_session_of_the_account(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    web = make_web(url, tmp_path)
    web.admin()
    web.accounts.add("berti@club.at", PASSWORD)
    sign_in_at(web.client, None)
    copied = copy_of(web, web.client)
    berti = web.app.test_client()
    sign_in_at(berti, None, email="berti@club.at")
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("SCHNAPSEN_INSTANCE", str(tmp_path))
    changed = CliRunner().invoke(
        main,
        ["accounts", "password", "admin@club.at", "--password-stdin"],
        input="a new long password\n",
        catch_exceptions=False,
    )
    assert changed.exit_code == 0, changed.output
    assert signed_in_as(web.client) is None
    assert signed_in_as(copied) is None
    assert signed_in_as(berti) == "berti@club.at"  # another account's session goes on


def test_a_new_password_ends_the_sessions_of_the_old_one_on_postgresql(web_pg: Web) -> None:
    web_pg.admin()
    sign_in_at(web_pg.client, None)
    copied = copy_of(web_pg, web_pg.client)
    web_pg.accounts.set_password("admin@club.at", "a new long password")
    assert signed_in_as(copied) is None


def test_a_session_from_before_the_upgrade_signs_in_again(web: Web) -> None:
    # A cookie made before sessions had a generation holds only the account's id.
    web.admin()
    with web.client.session_transaction() as session:
        session["account_id"] = web.accounts.by_email("admin@club.at").id
    assert signed_in_as(web.client) is None


def wrong(client: FlaskClient, email: str = "admin@club.at", address: str = "127.0.0.1") -> int:
    page = client.get("/login", environ_base={"REMOTE_ADDR": address}).get_data(as_text=True)
    data = {"email": email, "password": "not the password", "csrf_token": csrf_of(page)}
    return client.post("/login", data=data, environ_base={"REMOTE_ADDR": address}).status_code


def right(client: FlaskClient, address: str = "127.0.0.1") -> int:
    page = client.get("/login", environ_base={"REMOTE_ADDR": address}).get_data(as_text=True)
    data = {"email": "admin@club.at", "password": PASSWORD, "csrf_token": csrf_of(page)}
    return client.post("/login", data=data, environ_base={"REMOTE_ADDR": address}).status_code


def test_refused_sign_ins_are_limited_per_account_from_any_address(tmp_path: Path) -> None:
    web = make_web(
        f"sqlite:///{tmp_path / 'w.sqlite3'}",
        tmp_path,
        LOGIN_RATE_LIMIT="100 per minute",
        LOGIN_ACCOUNT_RATE_LIMIT="3 per minute",
    )
    web.admin()
    web.accounts.add("berti@club.at", PASSWORD)
    codes = [wrong(web.client, address=f"10.0.0.{n}") for n in range(1, 5)]
    assert codes == [401, 401, 401, 429]
    assert wrong(web.client, address="10.0.0.9") == 429  # a fresh address too
    # The token route guesses the same account's password: it shares the count.
    body = {"email": "Admin@Club.at ", "password": "wrong", "name": "x"}
    assert web.client.post("/api/v1/tokens", json=body).status_code == 429
    # Another account is not locked out.
    assert wrong(web.client, email="berti@club.at", address="10.0.0.9") == 401


def test_successful_sign_ins_do_not_count_toward_the_limits(tmp_path: Path) -> None:
    web = make_web(
        f"sqlite:///{tmp_path / 'w.sqlite3'}",
        tmp_path,
        LOGIN_RATE_LIMIT="3 per minute",
        LOGIN_ACCOUNT_RATE_LIMIT="3 per minute",
    )
    web.admin()
    assert [right(web.client) for _ in range(6)] == [303] * 6
    assert [wrong(web.client) for _ in range(3)] == [401] * 3
    assert wrong(web.client) == 429


def test_a_new_password_on_the_web_ends_every_other_session_of_the_account(any_web: Web) -> None:
    web = any_web
    web.admin()
    sign_in_at(web.client, None)
    copied = copy_of(web, web.client)
    page = web.client.get("/desk/password")
    assert page.status_code == 200
    form = {"csrf_token": csrf_of(page.get_data(as_text=True)), "password": "wrong one!!",
            "new_password": "a new long password"}  # fmt: skip
    assert web.client.post("/desk/password", data=form).status_code == 401
    assert signed_in_as(copied) == "admin@club.at"  # a refused change ends nothing
    changed = web.client.post("/desk/password", data={**form, "password": PASSWORD})
    assert changed.status_code == 303
    assert signed_in_as(web.client) == "admin@club.at"  # this browser stays signed in
    assert signed_in_as(copied) is None
    assert web.accounts.authenticate("admin@club.at", "a new long password") is not None


def test_the_password_page_sends_a_visitor_who_is_not_signed_in_to_sign_in(web: Web) -> None:
    reply = web.client.get("/desk/password")
    assert reply.status_code == 303
    assert reply.headers["Location"] == "/login?next=/desk/password"


def test_a_browser_over_the_sign_in_limit_gets_a_page_not_json(tmp_path: Path) -> None:
    web = make_web(f"sqlite:///{tmp_path / 'w.sqlite3'}", tmp_path, LOGIN_RATE_LIMIT="1 per minute")
    web.admin()
    assert wrong(web.client) == 401
    page = web.client.get("/login").get_data(as_text=True)
    data = {"email": "admin@club.at", "password": "x" * 12, "csrf_token": csrf_of(page)}
    limited = web.client.post("/login", data=data)
    assert limited.status_code == 429
    assert limited.mimetype == "text/html"
    assert "Retry-After" in limited.headers

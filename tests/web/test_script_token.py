"""A script gets its API token with the account's email and password
(``POST /api/v1/tokens``, docs/api.md): a JSON request, no cookie and no CSRF token;
the sign-in forms still need theirs."""

from __future__ import annotations

from tests.web.conftest import Web

LOGIN = {"email": "admin@club.at", "password": "a long password 1", "name": "results script"}


def test_a_script_gets_a_token_with_email_and_password_as_json(web: Web) -> None:
    web.admin()
    reply = web.post("/api/v1/tokens", LOGIN, token=None)
    assert reply.status_code == 201, reply.get_json()
    token = reply.get_json()["token"]
    me = web.get("/api/v1/me", token=token).get_json()
    assert me["email"] == "admin@club.at" and me["admin"] is True


def test_a_wrong_password_gets_no_token(web: Web) -> None:
    web.admin()
    reply = web.post("/api/v1/tokens", {**LOGIN, "password": "wrong password 1"}, token=None)
    assert reply.status_code == 401
    assert reply.get_json()["detail"] == "wrong email or password"
    assert [t.name for t in web.accounts.tokens("admin@club.at")] == ["tests"]


def test_a_form_post_without_its_csrf_token_is_refused(web: Web) -> None:
    """What another site's form could send: refused before the password is checked."""
    web.admin()
    for path in ("/api/v1/tokens", "/login"):
        reply = web.client.post(path, data=LOGIN)
        assert reply.status_code == 403, path
        if path == "/login":  # a page: the refusal is a page too, in words (operator F2)
            assert reply.mimetype == "text/html"
            assert "nicht angenommen" in reply.get_data(as_text=True)
            continue
        assert reply.get_json()["type"].endswith("/csrf")
    assert [t.name for t in web.accounts.tokens("admin@club.at")] == ["tests"]

"""Where the sign-in form posts (issue 11 review): an old setup link shows the sign-in
form, which must sign in (post to /login), not post back to /setup and its 410 again;
a form shown on /login?next=... keeps where to go after signing in."""

from __future__ import annotations

from tests.pages.markup import elements
from tests.web.conftest import Web
from tests.web.test_sign_in import PASSWORD, csrf_of


def form_action(html: str) -> str | None:
    forms = [e for e in elements(html) if e.tag == "form"]
    assert len(forms) == 1, html
    return forms[0].attrs.get("action")


def test_an_old_setup_link_shows_a_sign_in_form_that_signs_in(web: Web) -> None:
    web.admin()
    reply = web.client.get("/setup?token=used-up-token&lang=en")
    html = reply.get_data(as_text=True)
    assert reply.status_code == 410 and "The service is set up already" in html
    action = form_action(html)
    assert action == "/login"
    signed = web.client.post(
        action, data={"email": "admin@club.at", "password": PASSWORD, "csrf_token": csrf_of(html)}
    )
    assert signed.status_code == 303 and signed.headers["Location"].endswith("/desk")
    assert web.client.get("/api/v1/me").get_json()["email"] == "admin@club.at"


def test_the_login_form_posts_to_login_and_keeps_where_to_go_next(web: Web) -> None:
    web.admin()
    html = web.client.get("/login?next=/desk/t/club/players").get_data(as_text=True)
    action = form_action(html)
    assert action is not None and action.startswith("/login?next=")
    signed = web.client.post(
        action, data={"email": "admin@club.at", "password": PASSWORD, "csrf_token": csrf_of(html)}
    )
    assert signed.status_code == 303
    assert signed.headers["Location"].endswith("/desk/t/club/players")


def test_the_setup_form_still_posts_to_setup_with_its_token(web: Web) -> None:
    html = web.client.get("/setup?token=abc").get_data(as_text=True)
    assert form_action(html) in (None, "")
    assert 'name="token" value="abc"' in html

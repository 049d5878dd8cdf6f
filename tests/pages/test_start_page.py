"""The start page at ``/`` (O-L3): the first address ``./dev serve`` prints shows the
tournaments of this service to everybody, the desk link to a signed-in organiser; a
browser never gets raw JSON, a JSON client keeps problem+json for unknown paths."""

from __future__ import annotations

from tests.web.conftest import Web
from tests.web.test_sign_in import sign_in

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def test_the_start_page_lists_the_tournaments_for_everybody(web: Web, club: str) -> None:
    reply = web.client.get("/?lang=en", headers=BROWSER)
    html = reply.get_data(as_text=True)
    assert reply.status_code == 200 and reply.mimetype == "text/html"
    assert 'href="/t/club"' in html and "Club Cup" in html
    assert 'id="sign-in-link"' in html and 'id="desk-link"' not in html
    german = web.client.get("/?lang=de", headers=BROWSER).get_data(as_text=True)
    assert "Schnapsturniere" in german and "Runde 3" in german


def test_a_signed_in_organiser_gets_the_desk_link(web: Web, club: str) -> None:
    web.admin()
    assert sign_in(web) == 303
    html = web.client.get("/?lang=en", headers=BROWSER).get_data(as_text=True)
    assert 'id="desk-link"' in html and 'href="/desk"' in html


def test_a_browser_asking_for_nothing_gets_a_page_in_its_language(web: Web) -> None:
    reply = web.client.get("/no-such-page?lang=de", headers=BROWSER)
    assert reply.status_code == 404 and reply.mimetype == "text/html"
    assert "Unter /no-such-page gibt es nichts." in reply.get_data(as_text=True)


def test_a_json_client_keeps_problem_json_for_unknown_paths(web: Web) -> None:
    for accept in ("*/*", "application/json"):
        reply = web.client.get("/no-such-page", headers={"Accept": accept})
        assert reply.status_code == 404 and reply.mimetype == "application/problem+json"
        assert reply.get_json()["detail"] == "there is nothing at /no-such-page"
    api = web.client.get("/api/v1/nothing", headers=BROWSER)
    assert api.status_code == 404 and api.mimetype == "application/problem+json"

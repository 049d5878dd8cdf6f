"""The browser trial's polish 1: ``/favicon.ico`` answered 404 on every page, an error in
the console of every page. Every page links a small icon of the service's own, the old
address answers with it, cached, and the CSP allows it (tournament/web/headers.py)."""

from __future__ import annotations

import re

from tests.web.conftest import Web
from tournament.web.headers import POLICY

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
ICON_LINK = re.compile(r'<link rel="icon" href="(/static/favicon\.svg)" type="image/svg\+xml">')


def test_favicon_ico_is_answered_cached_and_allowed_by_the_csp(web: Web) -> None:
    reply = web.client.get("/favicon.ico", headers={"Accept": "image/*"})
    assert reply.status_code == 200
    assert reply.mimetype == "image/vnd.microsoft.icon"
    body = reply.get_data()
    assert body[:4] == b"\x00\x00\x01\x00" and b"\x89PNG" in body  # an ICO holding a PNG
    assert "max-age=86400" in reply.headers["Cache-Control"]
    # what the CSP says of images covers an icon of this site
    assert "img-src 'self'" in POLICY
    assert reply.headers["X-Content-Type-Options"] == "nosniff"


def test_every_kind_of_page_links_the_favicon_and_it_is_served(web: Web, club: str) -> None:
    for path in ("/?lang=de", f"/t/{club}?lang=de", "/no-such-page?lang=de"):
        html = web.client.get(path, headers=BROWSER).get_data(as_text=True)
        found = ICON_LINK.search(html)
        assert found is not None, path
    svg = web.client.get(found.group(1))
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert b"<svg" in svg.get_data()

"""The browser trial's polish 1: ``/favicon.ico`` answered 404 on every page, an error in
the console of every page. A page now links its icon, and the browser itself draws both
the linked SVG and ``/favicon.ico`` under the page's CSP (a violation or a failed load
fails the harness)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Site
from tests.browser.test_public_page import a_swiss

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page

#: The width the browser decodes an image to, or 0 when it could not load it.
DRAWN_WIDTH = """url => new Promise(done => {
  const img = new Image();
  img.onload = () => done(img.naturalWidth);
  img.onerror = () => done(0);
  img.src = url;
})"""


def test_polish_1_the_favicon_loads_under_the_csp_on_a_german_page(page: Page, site: Site) -> None:
    a_swiss(site, rounds=1)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site.url("/t/club?lang=de"))
    linked = page.locator("link[rel=icon]").get_attribute("href")
    assert linked == "/static/favicon.svg"
    assert page.evaluate(DRAWN_WIDTH, linked) > 0
    # With a query: under this harness (Chromium behind Playwright's routes) the bare
    # /favicon.ico, loaded from a page, fails in the browser and never reaches the
    # server; the server answers the same file either way.
    assert page.evaluate(DRAWN_WIDTH, "/favicon.ico?drawn=1") == 32
    reply = page.request.get(site.url("/favicon.ico"))
    assert reply.status == 200 and "max-age=86400" in reply.headers["cache-control"]

"""The first address ``./dev serve`` prints (O-L3): a start page listing the tournaments,
in German and English at 1366x768, never raw JSON; a missing page is a page too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Site
from tests.browser.harness import assert_accessible, shot
from tests.browser.test_public_page import a_swiss

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page


def test_the_first_address_is_a_start_page_in_both_languages(page: Page, site: Site) -> None:
    a_swiss(site, rounds=1)
    page.set_viewport_size({"width": 1366, "height": 768})
    for lang, heading, sign_in in (
        ("en", "Schnapsen tournaments", "sign in to the desk"),
        ("de", "Schnapsturniere", "anmelden"),
    ):
        page.goto(site.url(f"/?lang={lang}"))
        assert page.locator("h1").inner_text() == heading
        assert page.locator("a[href='/t/club']").inner_text() == "Club Cup"
        assert page.locator("#sign-in-link").inner_text() == sign_in
        assert_accessible(page)
        shot(page, f"start-page-{lang}", full_page=False)
    # A missing page, as the browser asks for it: a page, never JSON (fetched aside, so
    # the 404 is not a console error of the page under test).
    reply = page.request.get(
        site.url("/nothing-here?lang=de"), headers={"Accept": "text/html,*/*;q=0.8"}
    )
    assert reply.status == 404 and reply.headers["content-type"].startswith("text/html")
    assert "Unter /nothing-here gibt es nichts." in reply.text()

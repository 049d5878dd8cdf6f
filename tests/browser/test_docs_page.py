"""The API's docs page (Swagger UI from the installed wheel) in a real browser: it shows
the API's operations with nothing fetched from a CDN or a validator (club halls are
often offline), at phone and desktop size."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import CLUB_HOST, Browse, Site
from tests.browser.harness import View, in_every_view

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page


def test_the_docs_page_shows_the_api_with_nothing_from_elsewhere(page: Page, site: Site) -> None:
    def look(view: View) -> None:
        # Swagger UI draws the page from /openapi.json after load: wait for its operations.
        page.locator(".swagger-ui .opblock").first.wait_for()
        assert page.locator(".swagger-ui .info .title").inner_text().strip()
        page.wait_for_load_state("networkidle")

    # Swagger UI speaks English only, and draws for ~1.5 s: one language is enough. The
    # screen only: the whole list of operations is a very long picture to take.
    in_every_view(page, site.url("/docs/"), look, full_page=False, languages=("en",))


def test_an_operation_opens_on_the_docs_page(page: Page, site: Site) -> None:
    page.goto(site.url("/docs/"))
    operation = page.locator(".swagger-ui .opblock").first
    operation.locator(".opblock-summary").click()
    operation.locator(".opblock-body").wait_for()


def test_the_docs_page_asks_no_validator_when_served_to_a_clubs_network(
    browse: Browse, site: Site
) -> None:
    page = browse(site, host=CLUB_HOST)
    page.goto(site.url("/docs/", host=CLUB_HOST))
    page.locator(".swagger-ui .opblock").first.wait_for()
    page.wait_for_load_state("networkidle")
    # Taken here, not left for the fixture: the expected failure is this assertion.
    assert browse.watch(page).take_blocked() == []

"""The table cards' print page warns when phones cannot open the cards' QR codes (issue 11
review): the desk served on this computer only (``./dev serve`` without ``--lan``) and
opened at 127.0.0.1 gives codes of 127.0.0.1; the page says so in German and English, at
phone and desktop size, and stays free of serious accessibility faults."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Site
from tests.browser.harness import View, assert_accessible, fits_width, in_every_view
from tests.browser.test_desk_rounds import sign_in_by_keyboard
from tests.browser.test_public_page import a_swiss
from tests.web.played import run
from tournament.domain.commands.rounds import start_round

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page

WARNING = {"en": "phones cannot open it", "de": "Handys können sie nicht öffnen"}


def test_table_cards_of_a_desk_on_this_computer_only_are_warned_about(
    page: Page, site: Site
) -> None:
    web = a_swiss(site, rounds=0)
    run(web, "club", lambda t: start_round(t))
    site.app.config["SERVE_LISTEN"] = "127.0.0.1"  # as ./dev serve without --lan
    sign_in_by_keyboard(page, site, "/desk/t/club/rounds")
    page.get_by_role("button", name="Table cards (PDF)").click()
    page.wait_for_url("**/desk/t/club/rounds/print/*")
    page.locator("#pack-pdf").wait_for(timeout=60_000)

    def look(view: View) -> None:
        warning = page.locator("#qr-unreachable")
        assert WARNING[view.lang] in warning.inner_text()
        assert "http://127.0.0.1:" in warning.inner_text()
        assert fits_width(page), f"{view.name}: the page scrolls sideways"
        assert_accessible(page)

    in_every_view(page, page.url, look)

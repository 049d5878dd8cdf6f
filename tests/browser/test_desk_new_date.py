"""The new tournament's suggested date is replaced by the date typed, never appended to
(N-L1): a German organiser clicks into *Datum* and types 24.12.2026."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Site
from tests.browser.desk_steps import sign_in_by_keyboard
from tests.browser.harness import type_text

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page


def test_a_date_typed_into_the_suggested_date_replaces_it(page: Page, site: Site) -> None:
    sign_in_by_keyboard(page, site)
    page.goto(site.url("/desk/new?lang=de"))
    date = page.locator("#date")
    date.wait_for()
    assert date.input_value().count(".") == 2  # today, as a German page writes it
    date.click()
    type_text(page, "24.12.2026")
    assert date.input_value() == "24.12.2026"
    page.locator("#venue").click()
    date.focus()  # by keyboard (Tab) the same: all of it selected
    type_text(page, "2026-12-07")
    assert date.input_value() == "2026-12-07"

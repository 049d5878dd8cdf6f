"""The sign-in pages in a real browser (issue 9's /login and /setup, issue 11's rules for
every page): they load nothing from another host, read at phone and desktop size in both
languages, have no serious accessibility fault, and work by keyboard alone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Browse, Site
from tests.browser.harness import (
    SIZES,
    View,
    assert_accessible,
    fits_width,
    focused,
    in_every_view,
    press,
    shot,
    tab_to,
    type_text,
)

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page


def test_the_login_page_reads_in_every_view_with_nothing_from_elsewhere(
    page: Page, site: Site
) -> None:
    def look(view: View) -> None:
        assert page.locator("h1").is_visible()
        assert page.locator("#email").is_visible() and page.locator("#password").is_visible()
        if view.size == "phone":
            assert fits_width(page), "the login page scrolls sideways on a phone"

    shots = in_every_view(page, site.url("/login"), look)
    assert len(shots) == 4 and all(path.stat().st_size > 0 for path in shots)


def test_the_login_page_has_no_serious_accessibility_fault(page: Page, site: Site) -> None:
    page.goto(site.url("/login"))
    assert_accessible(page)


def test_an_organiser_signs_in_by_keyboard_alone(page: Page, site: Site) -> None:
    page.goto(site.url("/login?next=/docs/"))
    tab_to(page, "#email")
    type_text(page, site.admin_email)
    press(page, "Tab")
    assert focused(page).startswith("input#password")
    type_text(page, site.admin_password)
    press(page, "Enter")
    page.wait_for_url(site.url("/docs/"))
    me = page.context.request.get(site.url("/api/v1/me"))
    assert me.ok and me.json()["email"] == site.admin_email


def test_a_wrong_password_is_told_on_the_page_and_keeps_the_email(
    browse: Browse, site: Site
) -> None:
    page = browse(site)
    # The browser logs the page's 401 answer as a failed resource: that is the answer.
    browse.watch(page).allow_console(r"status of 401")
    page.goto(site.url("/login"))
    tab_to(page, "#email")
    type_text(page, site.admin_email)
    press(page, "Tab")
    type_text(page, "not the password")
    press(page, "Enter")
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert alert.inner_text() == "Wrong email or password."
    assert page.locator("#email").input_value() == site.admin_email
    shot(page, "login-wrong-password")
    assert_accessible(page)


def test_the_first_organiser_is_made_by_keyboard_on_the_setup_link(
    browse: Browse, fresh_site: Site
) -> None:
    page = browse(fresh_site)
    link = fresh_site.setup_link()
    page.goto(link)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        shot(page, f"setup-{size}")
        assert fits_width(page), f"the setup page scrolls sideways at {size} size"
    assert_accessible(page)
    tab_to(page, "#email")
    type_text(page, "first@club.at")
    press(page, "Tab")
    type_text(page, "a long password 2")
    press(page, "Enter")
    page.wait_for_url(fresh_site.url("/desk"))
    me = page.context.request.get(fresh_site.url("/api/v1/me"))
    assert me.ok and me.json()["email"] == "first@club.at"

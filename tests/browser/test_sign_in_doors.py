"""The doors of signing in, in a real browser (issue 21, trial 2 F1 and F4): a sign-in
link with a crafted ``next=`` lands on this site's desk, and a new password typed on
the desk's page signs every other browser of the account out, while the pages run under
the service's Content-Security-Policy (the harness fails on any violation)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import Browse, Site
from tests.browser.harness import assert_accessible, focused, press, tab_to, type_text

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page


def sign_in(page: Page, site: Site, path: str = "/login") -> None:
    page.goto(site.url(path))
    tab_to(page, "#email")
    type_text(page, site.admin_email)
    press(page, "Tab")
    type_text(page, site.admin_password)
    with page.expect_navigation():
        press(page, "Enter")


@pytest.mark.parametrize("next_", ["/%09/evil.invalid/", "/%5Cevil.invalid/", "/%2F/evil.invalid"])
def test_a_crafted_sign_in_link_lands_on_this_sites_desk(
    page: Page, site: Site, next_: str
) -> None:
    sign_in(page, site, f"/login?next={next_}")
    page.wait_for_url(site.url("/desk"))
    assert urlsplit(page.url).netloc == urlsplit(site.url()).netloc


def test_a_new_password_typed_on_the_desk_signs_every_other_browser_out(
    browse: Browse, site: Site
) -> None:
    laptop = browse(site)
    other = browse(site)  # the same organiser on a laptop that went missing
    sign_in(laptop, site)
    sign_in(other, site)
    laptop.goto(site.url("/desk"))
    with laptop.expect_navigation():
        laptop.get_by_role("link", name="Change the password").click()
    assert_accessible(laptop)
    tab_to(laptop, "#password")
    type_text(laptop, site.admin_password)
    press(laptop, "Tab")
    assert focused(laptop).startswith("input#new_password")
    type_text(laptop, "a brand new password")
    with laptop.expect_navigation():
        press(laptop, "Enter")
    laptop.wait_for_url(site.url("/desk"))
    assert laptop.context.request.get(site.url("/api/v1/me")).json()["email"] == site.admin_email
    assert other.context.request.get(site.url("/api/v1/me")).json()["email"] is None
    other.goto(site.url("/desk"))
    assert urlsplit(other.url).path == "/login"  # asked to sign in again

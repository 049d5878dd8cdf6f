"""The public tournament page in a real browser: readable on a phone and a laptop in
German and English, accessible (axe: nothing serious or critical), nothing fetched from
outside the club's server, and live: a result entered at the desk changes the table a
second browser shows, through the stream, without a reload (issue 11)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tests.browser.conftest import Browse, Site
from tests.browser.harness import (
    View,
    assert_accessible,
    expect_swap,
    fits_width,
    in_every_view,
    projected,
)
from tests.web.conftest import Web
from tests.web.played import NAMES, play_round, register

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page


def a_swiss(site: Site, rounds: int) -> Web:
    """An 8-player Swiss on the served app, entered through its own service (as the
    desk's routes do), ``rounds`` rounds played."""
    web = Web(site.app)
    web._tokens["admin@club.at"] = site.admin_token  # the site's admin, not a new one
    web.ok(
        "POST",
        "/api/v1/tournaments",
        {"name": "Club Cup", "id": "club", "format": "swiss", "best_of": 3, "seed": 7,
         "options": {"rounds": 3}},
        token=site.admin_token,
    )  # fmt: skip
    register(web, "club", NAMES)
    rng = random.Random(7)
    for _ in range(rounds):
        play_round(web, "club", rng)
    projected(web, "club")
    return web


def test_the_page_reads_well_in_both_languages_on_a_phone_and_a_laptop(
    page: Page, site: Site
) -> None:
    a_swiss(site, rounds=2)

    def look(view: View) -> None:
        assert page.locator("html").get_attribute("lang") == view.lang
        rows = page.locator("table.standings tbody tr")
        assert rows.count() == len(NAMES)
        for name, _ in NAMES:
            assert page.get_by_text(name).first.is_visible() or view.size == "phone"
        assert fits_width(page), f"{view.name}: the page scrolls sideways"
        assert_accessible(page)

    in_every_view(page, site.url("/t/club"), look)


def test_a_second_browser_sees_a_result_arrive_without_reloading(
    browse: Browse, site: Site
) -> None:
    web = a_swiss(site, rounds=1)
    watcher = browse(site)
    watcher.goto(site.url("/t/club?lang=en"))
    watcher.locator("#live-badge").filter(has_text="Live").wait_for(timeout=30_000)
    with expect_swap(watcher, "#standings .standings-body"):
        play_round(web, "club", random.Random(8))  # round 2 at the desk
    assert watcher.url.endswith("/t/club?lang=en")  # no reload: the table was swapped in
    # The round drawn and its results reached the stage line and the pairings too.
    watcher.locator("#stage").filter(has_text="Round 2").wait_for(timeout=30_000)
    assert "Round 2: pairings by table" in watcher.locator("#round-part").inner_text()

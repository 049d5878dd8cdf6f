"""The public pages beyond the standings in a real browser: bracket, crosstable, a
player's page, pairings, players and "find me" -- each in German and English on a phone
and a laptop (screenshots), accessible (axe: nothing serious or critical), no sideways
scrolling of the page on a phone (the bracket scrolls within itself); the as-of slider
moves by keyboard and swaps the table in; "find me" works by keyboard (issue 11)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tests.browser.conftest import Site
from tests.browser.harness import (
    View,
    assert_accessible,
    fits_width,
    in_every_view,
    press,
    projected,
    shot,
    tab_to,
    type_text,
)
from tests.browser.test_public_page import a_swiss
from tests.web.conftest import Web
from tests.web.played import NAMES, play_round, register

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page


def knockout(site: Site, tid: str, fmt: str, rounds: int, **options: int) -> None:
    """Eight players in ``fmt`` on the served app, ``rounds`` rounds played."""
    web = Web(site.app)
    web._tokens["admin@club.at"] = site.admin_token
    web.ok(
        "POST",
        "/api/v1/tournaments",
        {"name": "Herbstturnier", "id": tid, "format": fmt, "best_of": 3, "seed": 5,
         "options": options},
        token=site.admin_token,
    )  # fmt: skip
    register(web, tid, NAMES)
    rng = random.Random(5)
    for number in range(rounds):
        play_round(web, tid, rng, forfeits=number == 0)
    projected(web, tid)


def readable(page: Page) -> None:
    """What every public page must be in every view: one h1, no sideways scrolling of
    the page, nothing serious for axe."""
    assert page.locator("h1").count() == 1
    assert fits_width(page), f"{page.url}: the page scrolls sideways"
    assert_accessible(page)


def test_the_bracket_of_a_double_elimination_reads_on_a_phone(page: Page, site: Site) -> None:
    knockout(site, "double", "double_elimination", rounds=3)

    def look(view: View) -> None:
        readable(page)
        assert page.locator("li.slot").count() > 8
        if view.size == "phone":  # wider than the phone: it scrolls within itself
            wide = page.locator(".bracket").first.evaluate("el => el.scrollWidth > el.clientWidth")
            assert wide

    in_every_view(page, site.url("/t/double/bracket"), look)


def test_the_groups_and_their_knockout(page: Page, site: Site) -> None:
    knockout(site, "groups", "groups_knockout", rounds=4, groups=2, advance=2)

    def look(view: View) -> None:
        readable(page)
        assert page.locator("table.group").count() == 2 and page.locator("li.slot").count() > 0

    in_every_view(page, site.url("/t/groups/bracket"), look)


def test_the_crosstable_of_a_round_robin_and_of_a_swiss(page: Page, site: Site) -> None:
    knockout(site, "rr", "round_robin", rounds=3)
    a_swiss(site, rounds=2)

    def look(view: View) -> None:
        readable(page)
        assert page.locator("table.crosstable tbody tr").count() == len(NAMES)

    in_every_view(page, site.url("/t/rr/crosstable"), look)
    in_every_view(page, site.url("/t/club/crosstable"), look)


def test_a_player_s_page_pairings_players_and_find_me(page: Page, site: Site) -> None:
    a_swiss(site, rounds=2)

    def look(view: View) -> None:
        readable(page)

    in_every_view(page, site.url("/t/club/players/1"), look)
    in_every_view(page, site.url("/t/club/pairings"), look)
    in_every_view(page, site.url("/t/club/players"), look)
    in_every_view(page, site.url("/t/club/find?q=er"), look)  # several found: pick one


def test_the_as_of_slider_moves_by_keyboard_and_swaps_the_table_in(page: Page, site: Site) -> None:
    a_swiss(site, rounds=2)
    page.goto(site.url("/t/club?lang=en"))
    words = page.locator("#standings .as-of-words")
    assert words.inner_text() == "As it stands now."
    page.evaluate("window.stayed = true")  # gone if the page were loaded anew
    tab_to(page, "#as-of-round", presses=60)
    press(page, "ArrowLeft")
    words.filter(has_text="As it stood when round 2 was drawn.").wait_for(timeout=30_000)
    # Swapped in, not a new page; the address now says the round (a reload keeps it).
    page.wait_for_url("**/t/club?round=1")
    assert page.evaluate("window.stayed === true")
    assert page.locator("#as-of-round").input_value() == "1"
    assert_accessible(page)
    press(page, "ArrowRight")
    words.filter(has_text="As it stands now.").wait_for(timeout=30_000)
    page.wait_for_url("**/t/club")


def test_find_me_by_keyboard_lands_on_where_one_sits(page: Page, site: Site) -> None:
    a_swiss(site, rounds=2)
    page.goto(site.url("/t/club?lang=en"))
    tab_to(page, "#find-name", presses=60)
    type_text(page, "carl")
    page.locator("#find-results a").filter(has_text="Carla Gruber").wait_for(timeout=30_000)
    press(page, "Tab")
    if not page.locator("#find-results a").evaluate("el => el === document.activeElement"):
        press(page, "Tab")  # past the Find button
    press(page, "Enter")
    page.wait_for_url("**/t/club?me=3#me")
    row = page.locator("#standing-3")
    assert row.get_attribute("aria-current") == "true"
    assert page.locator("#me").is_visible()
    assert_accessible(page)


def test_on_paper_the_pages_lose_navigation_badge_and_forms(page: Page, site: Site) -> None:
    a_swiss(site, rounds=2)
    knockout(site, "double", "double_elimination", rounds=3)
    page.emulate_media(media="print")
    page.goto(site.url("/t/club?lang=de"))
    for hidden in ("nav.tabs", "#live-badge", "form.find", "#as-of", ".site-header"):
        assert not page.locator(hidden).is_visible(), hidden
    assert page.locator("table.standings").is_visible()
    page.goto(site.url("/t/double/bracket?lang=de"))
    # The bracket is laid out whole on paper, not in a scrolling strip.
    bracket = page.locator(".bracket").first
    assert bracket.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    shot(page, "t-double-bracket-print-de")

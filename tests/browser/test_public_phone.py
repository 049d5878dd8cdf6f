"""The tournament page on a 390x844 phone, in German (trial 5, P6, P7):

- "Find me" lands on where the player sits next (round, table, opponent) at the top of
  the screen, not on their row in the standings with the table number scrolled away;
- the standings fit the screen without a sideways swipe (the matches played and the later
  tie-breaks left out, a hint saying so), their column heads stay in sight while the
  table scrolls, and every link in a row is a 44 px high target."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tests.browser.conftest import Browse, Site
from tests.browser.desk_steps import phone
from tests.browser.harness import (
    PHONE,
    assert_accessible,
    fits_width,
    projected,
    shot,
    type_text,
)
from tests.web.conftest import Web
from tests.web.played import play_round, register, run, state
from tournament.domain.commands.rounds import start_round

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page

FIRST = ("Anna", "Bernd", "Carla", "Dieter", "Eva", "Franz", "Gerda", "Hannes", "Ingrid",
         "Jörg", "Karin", "Leopold")  # fmt: skip
LAST = ("Huber", "Maier-Oberleitner", "Gruber", "Wagner", "Pichler", "Schwarzenberger")


def an_evening(site: Site) -> Web:
    """24 players of a Swiss (best of 3, 5 rounds), rounds 1-2 played, round 3 drawn."""
    web = Web(site.app)
    web._tokens["admin@club.at"] = site.admin_token
    web.ok(
        "POST",
        "/api/v1/tournaments",
        {"name": "Herbstturnier", "id": "club", "format": "swiss", "best_of": 3, "seed": 7,
         "options": {"rounds": 5}},
        token=site.admin_token,
    )  # fmt: skip
    names = [(f"{FIRST[n % 12]} {LAST[(n + n // 12) % 6]}", "") for n in range(24)]
    register(web, "club", names)
    rng = random.Random(7)
    for _ in range(2):
        play_round(web, "club", rng)
    run(web, "club", lambda t: start_round(t))
    # The page is looked at once the projections hold every result: a standings update
    # arriving while a test measures the table would swap it away under the measurement.
    projected(web, "club")
    return web


def within_screen(page: Page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_find_me_on_a_phone_lands_on_where_i_sit_next(browse: Browse, site: Site) -> None:
    web = an_evening(site)
    page = phone(browse, site)
    page.goto(site.url("/t/club?lang=de"))
    page.locator("#find-name").click()
    type_text(page, "karin")
    pick = page.locator("#find-results a").first
    pick.wait_for()
    name = pick.inner_text()
    pick.click()
    page.wait_for_url("**/t/club?me=*#me")
    pid = int(page.url.split("me=")[1].split("#")[0])
    t = state(web, "club")
    match = next(m for m in t.matches.values() if m.round == 3 and pid in m.players)
    opponent = t.players[match.players[1 - match.seat_of(pid)]].name
    me = page.locator("#me")
    assert name in me.inner_text()
    assert f"Tisch {match.table}" in me.inner_text() and opponent in me.inner_text()
    assert within_screen(page, "#me"), "where I sit is on the first screen"
    shot(page, "find-me-lands-on-where-i-sit-de-phone", full_page=False)
    # My row is marked, one tap away; the column heads come along when it is far down.
    me.get_by_role("link", name="deine Zeile in der Tabelle").click()
    row = page.locator(f"#standing-{pid}")
    assert row.get_attribute("aria-current") == "true"
    page.wait_for_function(
        "() => document.querySelector('table.standings thead th').getBoundingClientRect().top >= -1"
        " && window.scrollY > 300"
    )
    assert within_screen(page, "table.standings thead th"), "the column heads stay in sight"
    assert within_screen(page, f"#standing-{pid}")
    heads = page.locator("table.standings thead th").first.bounding_box()
    mine = row.bounding_box()
    assert heads and mine and mine["y"] >= heads["y"] + heads["height"] - 1, "not under the heads"
    shot(page, "find-me-my-row-with-sticky-heads-de-phone", full_page=False)


def test_the_standings_fit_a_phone_without_a_sideways_swipe(browse: Browse, site: Site) -> None:
    an_evening(site)
    page = phone(browse, site)
    page.goto(site.url("/t/club?lang=de"))
    assert fits_width(page), "the page scrolls sideways"
    scroller = page.locator(".table-scroll:has(> table.standings)")
    inner = scroller.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert inner[0] <= inner[1], f"the standings scroll sideways inside their box: {inner}"
    table = page.locator("table.standings").bounding_box()
    assert table is not None and table["x"] + table["width"] <= PHONE["width"]
    hint = page.locator("#standings-narrow")
    assert hint.is_visible() and "Spalten" in hint.inner_text()
    heights = page.locator("table.standings tbody a").evaluate_all(
        "links => links.map(a => a.getBoundingClientRect().height)"
    )
    heights = [h for h in heights if h > 0]  # the columns left out have no links to tap
    assert heights and min(heights) >= 44, f"touch targets under 44 px: {min(heights)}"
    assert_accessible(page)
    shot(page, "standings-fit-de-phone")
    # On a laptop nothing is left out.
    page.set_viewport_size({"width": 1280, "height": 800})
    assert not hint.is_visible()
    assert page.locator("table.standings thead th").nth(3).is_visible()

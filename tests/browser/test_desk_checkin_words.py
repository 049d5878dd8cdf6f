"""Check-in at the door (O-L1): "weiss" finds Weiß (and "weiß" finds Weiss), as "muller"
finds Müller; the "N of M checked in" line moves with each keyboard check-in, without a
reload. Screenshots at 1366x768 in German and English."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Site
from tests.browser.harness import press, shot, tab_to, type_text
from tests.browser.test_desk_rounds import sign_in_by_keyboard
from tests.browser.test_public_page import a_swiss
from tests.web.played import register, state

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page

DOOR = (("Maria Weiß", "W"), ("Otto Weiss", ""), ("Paul GROẞMANN", ""))


def test_check_in_search_folds_sharp_s_and_the_counter_moves_with_each_check_in(
    page: Page, site: Site
) -> None:
    web = a_swiss(site, rounds=0)
    register(web, "club", DOOR)
    everybody = len(state(web, "club").players)
    page.set_viewport_size({"width": 1366, "height": 768})
    sign_in_by_keyboard(page, site, "/desk/t/club/players")
    counter = page.locator("#checkin-count")
    assert counter.inner_text().startswith(f"0 of {everybody} checked in")
    tab_to(page, "#player-search", presses=60)
    type_text(page, "maria weiss")
    assert page.locator("tr.player:not([hidden])").count() == 1
    press(page, "Enter")
    page.locator("tr.player.checked-in").first.wait_for()
    page.locator("#checkin-count", has_text=f"1 of {everybody} checked in").wait_for()
    page.locator("#player-search:focus").wait_for()
    type_text(page, "otto weiß")
    assert page.locator("tr.player:not([hidden])").count() == 1
    press(page, "Enter")
    page.locator("#checkin-count", has_text=f"2 of {everybody} checked in").wait_for()
    type_text(page, "grossmann")
    assert page.locator("tr.player:not([hidden])").count() == 1
    shot(page, "checkin-sharp-s-en", full_page=False)
    press(page, "Enter")
    page.locator("#checkin-count", has_text=f"3 of {everybody} checked in").wait_for()
    page.goto(site.url("/desk/t/club/players?lang=de"))
    page.locator("#checkin-count", has_text=f"3 von {everybody}").wait_for()
    shot(page, "checkin-counter-de", full_page=False)


def test_after_add_the_player_the_cursor_is_back_in_name(page: Page, site: Site) -> None:
    """O-L4: players typed one after another, with no click into Name between them."""
    web = a_swiss(site, rounds=0)
    page.set_viewport_size({"width": 1366, "height": 768})
    sign_in_by_keyboard(page, site, "/desk/t/club/players")
    tab_to(page, "#name", presses=80)
    for name in ("Quirin Auer", "Rosa Bauer"):
        type_text(page, name)
        press(page, "Enter")
        page.get_by_role("status").filter(has_text=name).wait_for()
        page.locator("#name:focus").wait_for()
    names = {p.name for p in state(web, "club").players.values()}
    assert {"Quirin Auer", "Rosa Bauer"} <= names
    shot(page, "players-added-cursor-in-name-en", full_page=False)

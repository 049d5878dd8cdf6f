"""The check-in list's keys past ten players and around a withdrawn one (issue 11
review): a start number typed in the search finds that player only ("1" is not 10-19),
so Enter checks in by number however many there are; the arrow keys step over a
withdrawn player's row (it has no button) instead of stopping there with a script error."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Site
from tests.browser.harness import press, tab_to, type_text
from tests.browser.test_desk_rounds import sign_in_by_keyboard
from tests.browser.test_public_page import a_swiss
from tests.web.played import register, run, state
from tournament.domain.commands.withdrawal import withdraw

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page

MORE = (("Ida Lang", ""), ("Josef Brunner", ""), ("Karin Eder", "W"), ("Leo Fuchs", ""))


def twelve_players_the_second_withdrawn(site: Site) -> None:
    web = a_swiss(site, rounds=0)
    register(web, "club", MORE)
    run(web, "club", lambda t: withdraw(t, 2))
    assert len(state(web, "club").players) == 12


def focused_row(page: Page) -> str:
    return str(
        page.evaluate(
            "document.activeElement.closest('tr') && document.activeElement.closest('tr').id"
        )
    )


def test_a_start_number_finds_that_player_only_and_enter_checks_them_in(
    page: Page, site: Site
) -> None:
    twelve_players_the_second_withdrawn(site)
    sign_in_by_keyboard(page, site, "/desk/t/club/players")
    tab_to(page, "#player-search", presses=60)
    type_text(page, "1")
    assert page.locator("tr.player:not([hidden])").count() == 1
    assert page.locator("#p1").is_visible() and not page.locator("#p10").is_visible()
    press(page, "Enter")
    page.locator("tr#p1.checked-in").wait_for()
    page.locator("#player-search:focus").wait_for()
    type_text(page, "12")
    press(page, "Enter")
    page.locator("tr#p12.checked-in").wait_for()
    # A name is still found by any part of it.
    type_text(page, "brunner")
    assert page.locator("tr.player:not([hidden])").count() == 1


def test_the_arrow_keys_step_over_a_withdrawn_player(page: Page, site: Site) -> None:
    twelve_players_the_second_withdrawn(site)
    sign_in_by_keyboard(page, site, "/desk/t/club/players")
    tab_to(page, "#player-search", presses=60)
    press(page, "ArrowDown")
    assert focused_row(page) == "p1"
    press(page, "ArrowDown")
    assert focused_row(page) == "p3"  # p2 has withdrawn: no button in its row
    press(page, "ArrowUp")
    assert focused_row(page) == "p1"
    press(page, "ArrowUp")
    assert page.evaluate("document.activeElement.id") == "player-search"

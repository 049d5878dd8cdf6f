"""Players report from the table in a real browser (T-code): a player reports the sheet on
a phone, the opponent confirms in a second browser and the public standings change; a
dispute reaches the organiser's queue. Every page in German and English at phone and
desktop size, axe clean, nothing fetched from outside."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Browse, Site
from tests.browser.desk_steps import phone, sign_in_by_keyboard
from tests.browser.harness import (
    PHONE,
    View,
    assert_accessible,
    fits_width,
    in_every_view,
    press,
    shot,
    tab_to,
    type_text,
)
from tests.browser.test_public_page import a_swiss
from tests.web.conftest import Web
from tests.web.played import run, state
from tournament.domain.commands.rounds import start_round
from tournament.domain.commands.tablecodes import match_codes

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page

SECRET = b"browser-test-secret"
#: The first seat wins 2:0, the opponent scoring in both Bummerl (no Schneider, R19).
SHEET = ("7 4 1 0 / 7 6", "7 5 2 0 / 7 6")


def round_one(site: Site) -> tuple[Web, str, tuple[str, str]]:
    """The Swiss with round 1 drawn; its first match and that match's two codes."""
    web = a_swiss(site, rounds=0)
    run(web, "club", lambda t: start_round(t))
    t = state(web, "club")
    mid = t.rounds[-1].matches[0]
    return web, mid, match_codes(SECRET, t, t.matches[mid])


def report_by_keyboard(page: Page, site: Site, code: str) -> None:
    page.goto(site.url(f"/r/{code}?lang=de"))
    tab_to(page, "#bummerl_1")
    type_text(page, SHEET[0])
    press(page, "Tab")
    type_text(page, SHEET[1])
    press(page, "Enter")
    page.locator(".done").wait_for()


def looks_right(page: Page) -> None:
    assert fits_width(page), "the page scrolls sideways"
    assert_accessible(page)


def test_the_code_form_and_the_report_page_read_well_everywhere(page: Page, site: Site) -> None:
    _, _, (first, _) = round_one(site)

    def look(view: View) -> None:
        assert page.locator("html").get_attribute("lang") == view.lang
        assert page.locator("h1").count() == 1
        looks_right(page)

    in_every_view(page, site.url("/r"), look)
    in_every_view(page, site.url(f"/r/{first}"), look)


def test_a_player_reports_on_a_phone_the_opponent_confirms_and_the_standings_change(
    browse: Browse, site: Site
) -> None:
    web, mid, (first, second) = round_one(site)
    watcher = browse(site)
    watcher.goto(site.url("/t/club?lang=en"))
    before = watcher.locator("table.standings tbody").inner_text()

    player = phone(browse, site)
    report_by_keyboard(player, site, first)
    assert "7 4 1 0 / 7 6" in player.locator(".sheet").inner_text()
    assert not state(web, "club").matches[mid].entries  # waits for the opponent

    opponent = phone(browse, site)

    def look(view: View) -> None:
        assert opponent.locator(".sheet").inner_text().count("/") == 2
        looks_right(opponent)

    in_every_view(opponent, site.url(f"/r/{second}"), look)
    opponent.set_viewport_size(PHONE)
    opponent.goto(site.url(f"/r/{second}?lang=en"))
    tab_to(opponent, "button:has-text('Confirm')")
    press(opponent, "Enter")
    opponent.locator(".done").wait_for()
    assert "Confirmed: the result is recorded." in opponent.locator(".done").inner_text()
    looks_right(opponent)

    match = state(web, "club").matches[mid]
    assert match.decided and match.summary.bummerl == (2, 0)
    watcher.wait_for_function(
        "before => document.querySelector('table.standings tbody').innerText !== before",
        arg=before,
        timeout=30_000,
    )


def test_a_dispute_reaches_the_organisers_queue(browse: Browse, site: Site) -> None:
    _, _, (first, second) = round_one(site)
    player = phone(browse, site)
    report_by_keyboard(player, site, first)

    opponent = phone(browse, site)
    opponent.goto(site.url(f"/r/{second}?lang=en"))
    tab_to(opponent, "#reason")
    type_text(opponent, "the second Bummerl was mine")
    press(opponent, "Tab", "Enter")
    opponent.locator(".done").wait_for()
    looks_right(opponent)

    desk = browse(site)
    sign_in_by_keyboard(desk, site, "/desk/t/club/queue")

    def look(view: View) -> None:
        assert "the second Bummerl was mine" in desk.locator(".queue").inner_text()
        assert desk.locator(".codes tbody tr").count() == 4
        looks_right(desk)

    in_every_view(desk, site.url("/desk/t/club/queue"), look)
    desk.goto(site.url("/desk/t/club/queue?lang=en"))
    desk.get_by_role("button", name="Dismiss table").first.click()
    desk.get_by_text("Taken off the queue.").wait_for()
    assert desk.locator(".queue-item").count() == 0


def test_the_opponent_may_enter_the_sheet_instead_of_confirming_on_a_german_phone(
    browse: Browse, site: Site
) -> None:
    """O-L7 (docs/players.md): once the opponent reported, the phone offers its own sheet
    beside *Confirm*; the same sheet records the result."""
    web, mid, (first, second) = round_one(site)
    report_by_keyboard(phone(browse, site), site, first)
    opponent = phone(browse, site)
    opponent.goto(site.url(f"/r/{second}?lang=de"))
    assert opponent.get_by_role("button", name="Bestätigen: das ist unser Spielbericht").count()
    opponent.get_by_text("Oder den Spielbericht selbst eingeben").click()
    opponent.locator("#bummerl_1").wait_for()
    looks_right(opponent)
    shot(opponent, "report-own-sheet-de-phone")
    opponent.locator("#bummerl_1").click()
    type_text(opponent, SHEET[0])
    press(opponent, "Tab")
    type_text(opponent, SHEET[1])
    press(opponent, "Enter")
    opponent.locator(".done").wait_for()
    match = state(web, "club").matches[mid]
    assert match.decided and match.summary.bummerl == (2, 0)

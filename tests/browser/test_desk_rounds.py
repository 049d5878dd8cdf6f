"""Rounds at the desk in a real browser (issue 11): an organiser signs in and draws round 1
of an 8-player Swiss by keyboard alone -- preview first, then the draw -- and sees the
pairings by table with who deals first (R18); every rounds page reads in German and
English on a phone and a laptop, with no serious or critical accessibility fault."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Browse, Site
from tests.browser.desk_steps import sign_in_by_keyboard
from tests.browser.harness import (
    View,
    assert_accessible,
    expect_navigation,
    fits_width,
    in_every_view,
    press,
    tab_to,
    type_text,
)
from tests.browser.test_public_page import a_swiss
from tests.web.played import NAMES, state

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page


def cells(row: str) -> list[str]:
    """A table row's inner text as its cells (tab-separated), spaces tidied."""
    return [" ".join(cell.split()) for cell in row.split("\t")]


def test_an_organiser_previews_and_draws_a_round_by_keyboard(page: Page, site: Site) -> None:
    web = a_swiss(site, rounds=0)
    sign_in_by_keyboard(page, site, "/desk/t/club/rounds")
    assert page.locator("h1").inner_text().startswith("Rounds")

    tab_to(page, "#preview-draw", presses=60)
    with expect_navigation(page, "/desk/t/club/rounds/preview"):
        press(page, "Enter")
    previewed = page.locator("table.draw-preview tbody tr").all_inner_texts()
    assert len(previewed) == 4 and state(web, "club").current_round == 0  # nothing stored

    tab_to(page, "#draw", presses=60)
    with expect_navigation(page, "/desk/t/club/rounds"):
        press(page, "Enter")
    page.get_by_text("Round 1 is drawn: 4 tables, 0 byes.").wait_for()
    assert state(web, "club").current_round == 1
    shown = page.locator("table.desk-pairings tbody tr").all_inner_texts()
    # What was previewed is what is stored and shown: same tables, same players, dealer.
    assert [cells(row)[:3] for row in shown] == [cells(row) for row in previewed]
    assert page.get_by_text("4 of 4 results missing").is_visible()
    assert all(name in " ".join(shown) for name, _ in NAMES)
    assert_accessible(page)


def test_every_rounds_page_reads_in_both_languages_and_sizes(page: Page, site: Site) -> None:
    a_swiss(site, rounds=0)
    sign_in_by_keyboard(page, site, "/desk/t/club/rounds")

    def look(view: View) -> None:
        assert page.locator("html").get_attribute("lang") == view.lang
        assert page.locator("h1").count() == 1
        assert fits_width(page), f"{view.name}: the page scrolls sideways"
        assert_accessible(page)

    in_every_view(page, site.url("/desk/t/club/rounds/preview"), look)
    in_every_view(page, site.url("/desk/t/club/rounds/manual"), look)
    page.goto(site.url("/desk/t/club/rounds/preview?lang=en"))
    with expect_navigation(page, "/desk/t/club/rounds"):
        page.locator("#draw").click()
    shots = in_every_view(page, site.url("/desk/t/club/rounds"), look)
    assert len(shots) == 4
    # A print shortcut: the pack's page, with its PDF's link once rendered.
    page.goto(site.url("/desk/t/club/rounds?lang=en"))
    page.get_by_role("button", name="Pairings list (PDF)").click()
    page.wait_for_url("**/desk/t/club/rounds/print/*")
    page.locator("#pack-pdf").wait_for(timeout=60_000)
    in_every_view(page, page.url, look)


def test_manual_pairs_are_chosen_by_keyboard_and_their_warnings_confirmed(
    browse: Browse, page: Page, site: Site
) -> None:
    # The draw without the warnings confirmed is refused as 422 (the browser logs it).
    browse.watch(page).allow_console(r"status of 422 .*/rounds/manual")
    web = a_swiss(site, rounds=0)
    sign_in_by_keyboard(page, site, "/desk/t/club/rounds/manual")
    # Three pairs; 7 and 8 are left without one: two byes where none is needed (T-override).
    tab_to(page, "#a1", presses=60)
    for first, second in ((1, 2), (3, 4), (5, 6)):
        type_text(page, str(first))  # a select jumps to the option its typed text begins
        press(page, "Tab")
        type_text(page, str(second))
        press(page, "Tab")
    assert page.locator("#a1").input_value() == "1" and page.locator("#b3").input_value() == "6"
    tab_to(page, "#manual-preview", presses=10)
    with page.expect_navigation():  # the same address: wait for the new page
        press(page, "Enter")
    warnings = page.locator("#override-warnings").inner_text()
    assert "bye_not_needed" in warnings and state(web, "club").current_round == 0
    assert_accessible(page)

    tab_to(page, "#manual-draw", presses=60)  # not confirmed: refused, nothing stored
    with page.expect_navigation():  # the same address: wait for the new page
        press(page, "Enter")
    assert page.locator("#confirm-error").is_visible() and state(web, "club").current_round == 0

    tab_to(page, "#confirm", presses=60)
    press(page, "Space")
    tab_to(page, "#manual-draw", presses=5)
    with expect_navigation(page, "/desk/t/club/rounds"):
        press(page, "Enter")
    t = state(web, "club")
    assert t.current_round == 1 and t.rounds[0].override and sorted(t.rounds[0].byes) == [7, 8]
    assert page.get_by_text("Round 1 is drawn: 3 tables, 2 byes.").is_visible()

"""The desk's setup and players pages in a real browser (issue 11): by keyboard alone an
organiser signs in, creates a tournament (tie-breaks reordered with the buttons), adds
players, imports a CSV list after its preview, and checks everyone in from the search;
every page reads in German and English at phone and desktop size, and axe finds nothing
serious or critical on any of them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Browse, Site
from tests.browser.desk_steps import (
    add_by_keyboard,
    at,
    check_in_by_search,
    follow,
    import_by_keyboard,
    reach,
    sign_in_by_keyboard,
)
from tests.browser.harness import View, assert_accessible, in_every_view, press, type_text
from tournament.app.services import services

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page

TID = "herbstturnier-2026-11-27"
CSV = "name,club,rating\nCarla Berger,SC Ried,1610\nDieter Wallner,SV Linz,1450\n"


def create_by_keyboard(page: Page) -> None:
    follow(page, "a[href='/desk/new']", "/desk/new")
    reach(page, "#name")
    type_text(page, "Herbstturnier")
    reach(page, "#date")
    press(page, "Control+a")
    type_text(page, "27.11.2026")
    reach(page, "#opt-swiss-rounds", presses=40)
    press(page, "Control+a")
    type_text(page, "3")
    # Buchholz one down, by its button: the page comes back with the focus on it.
    reach(page, "#tb-down-buchholz", presses=60)
    press(page, "Enter")
    page.wait_for_load_state()
    page.locator("#tb-down-buchholz:focus").wait_for()
    order = page.locator("input[name=tiebreak_order]").evaluate_all("els => els.map(e => e.value)")
    assert order[:2] == ["bummerl_diff", "buchholz"]
    reach(page, "button.primary", presses=80)
    press(page, "Enter")
    page.wait_for_url(at(f"/desk/t/{TID}"))


def test_an_organiser_sets_up_a_tournament_and_checks_everyone_in_by_keyboard(
    page: Page, site: Site
) -> None:
    sign_in_by_keyboard(page, site)
    create_by_keyboard(page)
    follow(page, f".desk-nav a[href='/desk/t/{TID}/players']", "/players")
    add_by_keyboard(page, "Anna Huber", "SC Ried")
    add_by_keyboard(page, "Berti Gruber", "SV Linz")
    import_by_keyboard(page, TID, CSV, rows=2)
    assert page.locator("table.players tbody tr").count() == 4
    check_in_by_search(page, "anna", 1, arrow=True)
    check_in_by_search(page, "Gruber", 2, arrow=False)
    check_in_by_search(page, "3", 3, arrow=False)
    check_in_by_search(page, "wallner", 4, arrow=True)
    assert page.locator("tr.checked-in").count() == 4
    with site.app.app_context():
        t = services().tournaments.state(TID)
        assert t.settings is not None and t.settings.options["rounds"] == 3
        assert t.settings.tiebreaks[:2] == ("bummerl_diff", "buchholz")
        assert all(p.checked_in for p in t.players.values()) and len(t.players) == 4


def test_every_desk_page_reads_in_both_languages_and_sizes_and_is_accessible(
    browse: Browse, site: Site
) -> None:
    page = browse(site)
    # The preview of a bad list answers 422, which the browser logs: that is the answer.
    browse.watch(page).allow_console(r"status of 422")
    sign_in_by_keyboard(page, site)
    create_by_keyboard(page)
    follow(page, f".desk-nav a[href='/desk/t/{TID}/players']", "/players")
    add_by_keyboard(page, "Anna Huber", "SC Ried")

    def look(view: View) -> None:
        assert page.locator("html").get_attribute("lang") == view.lang
        assert page.locator("h1").count() == 1
        assert_accessible(page)

    for path in ("/desk", "/desk/new", f"/desk/t/{TID}", f"/desk/t/{TID}/players",
                 f"/desk/t/{TID}/players/import", f"/desk/t/{TID}/players/1/edit",
                 f"/desk/t/{TID}/players/1/withdraw"):  # fmt: skip
        in_every_view(page, site.url(path), look)
    # The preview with a bad row.
    page.goto(site.url(f"/desk/t/{TID}/players/import?lang=de"))
    page.locator("#csv").fill("name,rating\nCarla,x\n")
    page.locator("button[value=preview]").click()
    page.locator(".row-error").first.wait_for()
    assert_accessible(page)

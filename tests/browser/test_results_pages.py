"""What the results part changed, in a real browser, German and English, phone and desktop
(issue 21: O-M1, O-M3, O-M4): the as-of note above a past round's table, the standings
PDF printed from the desk's print page, and a sheet typed the wrong way round swapped in
one correction -- previewed, stored, and the match never shown open."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Site
from tests.browser.harness import View, assert_accessible, fits_width, in_every_view
from tests.browser.test_desk_rounds import sign_in_by_keyboard
from tests.browser.test_public_page import a_swiss
from tests.web.played import run, state
from tournament.domain import commands as c
from tournament.domain.commands.rounds import start_round

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page

NOTE = {
    "de": "1 Ergebnis der Runden 1–2 wurde seither eingetragen oder berichtigt",
    "en": "1 result of rounds 1–2 was entered or corrected since",
}


def test_a_past_round_says_a_result_was_corrected_since(page: Page, site: Site) -> None:
    web = a_swiss(site, rounds=2)
    run(web, "club", lambda t: start_round(t))
    mid = state(web, "club").rounds[1].matches[0]
    run(web, "club", lambda t: c.correct_sheet(t, mid, None, by="desk", reason="swapped"))

    def look(view: View) -> None:
        note = page.locator("#standings-words")
        note.filter(has_text=NOTE[view.lang]).wait_for(timeout=15_000)
        assert fits_width(page), f"{view.name}: the page scrolls sideways"
        assert_accessible(page)

    in_every_view(page, site.url("/t/club?round=2"), look)


def test_the_standings_pdf_is_printed_from_the_print_page(page: Page, site: Site) -> None:
    a_swiss(site, rounds=1)
    sign_in_by_keyboard(page, site, "/desk/t/club/rounds")
    page.locator("#print-standings").click()
    page.wait_for_url("**/desk/t/club/rounds/print")
    page.get_by_role("button", name="Standings (PDF)").click()
    page.wait_for_url("**/desk/t/club/rounds/print/*")
    page.locator("#pack-pdf").wait_for(timeout=30_000)

    def look(view: View) -> None:
        page.locator("#pack-pdf").wait_for(timeout=15_000)
        assert page.locator("#print-table-kinds button").count() == 2
        assert fits_width(page), f"{view.name}: the page scrolls sideways"
        assert_accessible(page)

    in_every_view(page, page.url, look)


def test_a_sheet_typed_the_wrong_way_round_is_swapped_in_one_step(page: Page, site: Site) -> None:
    web = a_swiss(site, rounds=1)
    run(web, "club", lambda t: start_round(t))
    t = state(web, "club")
    mid = t.rounds[0].matches[0]
    before = t.matches[mid]
    loser = before.players[1 - (before.summary.winner or 0)]
    sign_in_by_keyboard(page, site, f"/desk/t/club/sheets/{mid}/correct")
    page.locator("#sheet-swap").check()
    page.locator("#sheet-why").fill("Spalten vertauscht")
    page.locator("#sheet-form button[value=preview]").click()
    preview = page.locator("section.preview")
    preview.wait_for(timeout=15_000)
    assert "open again" not in preview.inner_text()
    preview.get_by_role("button", name="Store correction").click()
    page.get_by_text("The correction is stored.").wait_for(timeout=15_000)
    after = state(web, "club").matches[mid]
    assert after.decided and after.players[after.summary.winner or 0] == loser
    flags = [m.flags for m in state(web, "club").matches.values() if m.round == 2]
    assert all(len(f) <= 1 for f in flags) and any(flags)

    def look(view: View) -> None:
        page.locator("#sheet-form").wait_for(timeout=15_000)
        assert fits_width(page), f"{view.name}: the page scrolls sideways"
        assert_accessible(page)

    in_every_view(page, page.url, look)

"""The rounds page of a paper evening (O-L9): a 12-table round is one line per pairing and
fits a 1366x768 laptop screen, in German and English; online play waits behind one
"Play a table online" disclosure; the next round's notice names the open tables with links
to their sheets, never a command of the CLI. Screenshots of both languages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Site
from tests.browser.desk_steps import sign_in_by_keyboard
from tests.browser.harness import shot
from tests.browser.test_public_page import a_swiss
from tests.web.played import register, run, state
from tournament.domain.commands.rounds import start_round

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page

#: Sixteen more players: 24 in all, twelve tables.
MORE = tuple((f"{first} {last}", "") for first, last in zip(
    ("Ida", "Josef", "Karin", "Leo", "Maria", "Norbert", "Olga", "Peter", "Rosa", "Stefan",
     "Theresia", "Urban", "Vera", "Walter", "Xaver", "Zita"),
    ("Langthaler", "Brunnbauer", "Edlinger", "Fuchsberger", "Weißenböck", "Oberhuber",
     "Pammer", "Quehenberger", "Rauscher", "Schwarzenberger", "Tschernutter", "Unterberger",
     "Vogelsang", "Wimmer", "Xandl", "Zechmeister"),
    strict=True,
))  # fmt: skip


def test_a_twelve_table_round_fits_a_laptop_screen_in_both_languages(
    page: Page, site: Site
) -> None:
    web = a_swiss(site, rounds=0)
    register(web, "club", MORE)
    run(web, "club", lambda t: start_round(t))
    assert len(state(web, "club").rounds[-1].matches) == 12
    page.set_viewport_size({"width": 1366, "height": 768})
    sign_in_by_keyboard(page, site, "/desk/t/club/rounds")
    for lang in ("en", "de"):
        page.goto(site.url(f"/desk/t/club/rounds?lang={lang}"))
        table = page.locator("table.desk-pairings")
        table.wait_for()
        rows = page.locator("table.desk-pairings tbody tr")
        assert rows.count() == 12
        heights = [rows.nth(i).bounding_box()["height"] for i in range(12)]  # type: ignore[index]
        assert max(heights) < 48, heights  # one line each, no form in a row
        box = table.bounding_box()
        assert box is not None and box["height"] <= 768 - 120, box  # with room to spare
        assert page.locator("table.desk-pairings input").count() == 0
        assert page.locator("details.online-play").count() == 1
        assert not page.locator("#move-seconds").is_visible()  # behind the disclosure
        table.scroll_into_view_if_needed()
        page.evaluate("document.getElementById('current-heading').scrollIntoView()")
        last = rows.nth(11).bounding_box()
        assert last is not None and last["y"] + last["height"] <= 768, last
        shot(page, f"rounds-12-tables-{lang}", full_page=False)
    page.locator("details.online-play summary").click()
    page.locator("#move-seconds").wait_for()
    shot(page, "rounds-12-tables-play-online-open-de", full_page=False)

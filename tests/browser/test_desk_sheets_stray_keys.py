"""Keys typed on at the scoresheet desk never act on another table (issue 21: N-H1, N-M1).

The user trial after the O-S1 fix (``probe_undo.py``, ``probe_sign2.py``): when *Table*
named no open match, Tab went on to "Undo the last entry: table 6 ..." and the tally's
first Space voided table 6's sheet; after a decided table, Tab, Tab reached "Both
players signed" and the Space signed it. Now *Table* takes only what can be a table
number and holds on anything else, the typing Tab order ends at "Store", Undo asks
first and the signature is not in the Tab order. What is checked is what the store holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Site
from tests.browser.harness import focused
from tests.browser.test_desk_sheets_typing import (
    PATIENCE,
    checked,
    cursor_in,
    evening,
    in_table,
    keys,
    signed_in_at_sheets,
)
from tests.web.conftest import Web
from tests.web.played import state

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page

SHEET = ("7 4 1 0/7 6", "7 4 2 0/7 6")  # 2:0, decided


def match_at(site: Site, table: int) -> tuple[bool, int, frozenset[str]]:
    """Round 1's match at ``table``: decided?, Bummerl recorded, who signed."""
    t = state(Web(site.app), "club")
    m = next(m for m in t.matches.values() if m.round == 1 and m.table == table)
    return m.decided, sum(m.summary.bummerl), frozenset(m.signed_by)


def store_sheet(page: Page, table: str) -> None:
    """A whole 2:0 sheet typed and stored at ``table`` (a number no other table begins with)."""
    keys(page, table, 150)
    cursor_in(page, "bummerl-1")
    keys(page, SHEET[0], 120)
    page.keyboard.press("Tab")
    keys(page, SHEET[1], 120)
    checked(page, "bummerl-2", SHEET[1])
    with page.expect_navigation(timeout=PATIENCE):
        page.keyboard.press("Enter")
    in_table(page)


def held_in_table(page: Page, value: str) -> None:
    """*Table* holds ``value``, the cursor in it, the note saying nothing was taken."""
    page.locator("#sheet-held").wait_for(state="visible", timeout=PATIENCE)
    page.wait_for_function(
        "(v) => document.readyState === 'complete' && document.activeElement"
        " && document.activeElement.id === 'sheet-table' && document.activeElement.value === v",
        arg=value,
        timeout=PATIENCE,
    )


def test_a_space_after_a_table_that_names_no_match_never_undoes_another_tables_sheet(
    page: Page, site: Site
) -> None:
    """probe_undo.py: table 6 stored; ``17`` (no such table), Tab, Space, the tally."""
    evening(site)
    signed_in_at_sheets(page, site, lang="de")
    store_sheet(page, "6")
    assert match_at(site, 6)[:2] == (True, 2)
    keys(page, "17", 200)
    page.keyboard.press("Tab")
    keys(page, " 4 1 0/7 6", 150)
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    held_in_table(page, "1")
    assert "undo" not in page.url and page.locator("#undo-confirm").count() == 0
    assert match_at(site, 6)[:2] == (True, 2)
    assert match_at(site, 1)[1] == 0


def test_an_ambiguous_table_a_pause_and_the_tally_typed_on_goes_nowhere(
    page: Page, site: Site
) -> None:
    """``1`` (10 and 11 begin with it), a pause until its match is shown, then the tally
    without Enter: the ``7`` can make no table, so nothing after the 1 is taken."""
    evening(site)
    signed_in_at_sheets(page, site)
    store_sheet(page, "6")
    keys(page, "1", 150)
    page.locator('#sheet-panel[data-typed="1"][data-match]').wait_for(timeout=PATIENCE)
    keys(page, "7 4 1 0/7 6", 150)
    page.keyboard.press("Tab")
    keys(page, "7 5 2 0/7 6 5", 150)
    page.keyboard.press("Enter")
    held_in_table(page, "1")
    assert match_at(site, 6)[:2] == (True, 2)
    assert all(match_at(site, n)[1] == 0 for n in (1, 10, 11))


def test_a_decided_table_typed_again_says_so_and_keeps_the_tally_out_of_table(
    page: Page, site: Site
) -> None:
    """Path (1): ``3``, Enter on a decided table, the next sheet typed on: *Table*
    stays ``3`` and says why; Tab, Space sign nothing and undo nothing."""
    evening(site)
    signed_in_at_sheets(page, site, lang="de")
    store_sheet(page, "3")
    page.keyboard.press("Control+a")
    keys(page, "3", 150)
    page.keyboard.press("Enter")
    keys(page, "7 4 1 0/7 6", 150)
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    held_in_table(page, "3")
    assert "Nicht übernommen" in page.locator("#sheet-held").inner_text()
    assert "entschieden" in page.locator("#sheet-panel").inner_text()
    assert match_at(site, 3) == (True, 2, frozenset())


def test_tab_tab_space_after_a_decided_unsigned_table_never_signs_it(
    page: Page, site: Site
) -> None:
    """probe_sign2.py: ``9``, Tab, Tab and the tally's first Space on a decided,
    unsigned table: no signature is recorded."""
    evening(site)
    signed_in_at_sheets(page, site, lang="de")
    store_sheet(page, "9")
    page.keyboard.press("Control+a")
    keys(page, "9", 150)
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    keys(page, " 4 1 0", 150)
    held_in_table(page, "9")
    assert match_at(site, 9) == (True, 2, frozenset())


def test_the_typing_tab_order_ends_at_store_never_on_the_signature(page: Page, site: Site) -> None:
    """Tab past the last Bummerl reaches "Store" and stays there: the tally's Space
    never ticks "Both players signed"."""
    evening(site)
    signed_in_at_sheets(page, site)
    keys(page, "8", 150)
    cursor_in(page, "bummerl-1")
    keys(page, SHEET[0], 120)
    page.keyboard.press("Tab")
    keys(page, SHEET[1], 120)
    for _ in range(3):
        page.keyboard.press("Tab")
    cursor_in(page, "sheet-store")
    assert not page.locator("input[name=signed]").is_checked()
    checked(page, "bummerl-2", SHEET[1])
    with page.expect_navigation(timeout=PATIENCE):
        page.keyboard.press("Space")  # the one button typing may reach: storing this sheet
    assert match_at(site, 8) == (True, 2, frozenset())


def test_a_stray_key_on_undo_only_asks_and_keep_undoes_nothing(page: Page, site: Site) -> None:
    evening(site)
    signed_in_at_sheets(page, site)
    store_sheet(page, "6")
    page.get_by_role("button", name="Undo the last entry: table 6", exact=False).focus()
    with page.expect_navigation(timeout=PATIENCE):
        page.keyboard.press("Space")
    cursor_in(page, "undo-keep")
    assert "Undo table 6:" in page.locator("#undo-confirm").inner_text()
    assert match_at(site, 6)[:2] == (True, 2)
    keys(page, " 4 1 0/7 6", 150)  # typed on: a Space on a link does nothing
    assert focused(page).startswith("a#undo-keep")
    page.keyboard.press("Tab")  # the next Bummerl, as the typist thinks: away from Undo
    keys(page, "7 5 2 0/7 6 5", 150)
    assert page.locator("#undo-confirm").count() == 1 and "undone=" not in page.url
    assert match_at(site, 6)[:2] == (True, 2)
    page.locator("#undo-keep").focus()
    with page.expect_navigation(timeout=PATIENCE):
        page.keyboard.press("Enter")
    in_table(page)
    assert match_at(site, 6)[:2] == (True, 2)


def test_a_space_or_slash_typed_into_table_is_not_kept(page: Page, site: Site) -> None:
    """*Table* takes digits only: a space or ``/`` there is refused and said so, and the
    digits after it are not taken either (they belong to a tally)."""
    evening(site)
    signed_in_at_sheets(page, site)
    page.keyboard.press("Control+a")
    page.keyboard.press("Backspace")
    keys(page, " /7 6", 150)
    held_in_table(page, "")
    page.keyboard.press("Escape")
    keys(page, "4", 150)
    cursor_in(page, "bummerl-1")  # table 4 is on: nothing of before is kept
    assert page.locator("#sheet-table").input_value() == "4"
    assert page.locator("#bummerl-1").input_value() == ""


def test_escape_lets_a_keyboard_user_sign_on_purpose(page: Page, site: Site) -> None:
    """The signature is out of the typing Tab order, but not out of reach: Escape, then
    Shift+Tab from "Store" reaches it, and a deliberate Space ticks it."""
    evening(site)
    signed_in_at_sheets(page, site)
    keys(page, "8", 150)
    cursor_in(page, "bummerl-1")
    keys(page, SHEET[0], 120)
    page.keyboard.press("Tab")
    keys(page, SHEET[1], 120)
    for _ in range(2):  # past Bummerl 3 (not needed) to "Store"
        page.keyboard.press("Tab")
    cursor_in(page, "sheet-store")
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+Tab")
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.name === 'signed'",
        timeout=PATIENCE,
    )
    page.keyboard.press("Space")
    assert page.locator("input[name=signed]").is_checked()
    checked(page, "bummerl-2", SHEET[1])
    with page.expect_navigation(timeout=PATIENCE):
        page.keyboard.press("Enter")
    assert match_at(site, 8)[:2] == (True, 2) and len(match_at(site, 8)[2]) == 2

"""Steps at the organiser's desk and at a player's phone, driven by keyboard alone as a
person would (Tab, Enter, typing): shared by the desk's browser tests and the evening's
end-to-end run (``test_an_evening.py``)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urljoin, urlsplit

from tests.browser.harness import PHONE, focused, press, tab_to, type_text

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page, Response

    from tests.browser.conftest import Browse, Site

#: How long a step may take on a busy machine (milliseconds).
PATIENCE = 15_000


def at(path: str) -> Callable[[str], bool]:
    """Whether a URL is at ``path`` (whatever its query and fragment)."""
    return lambda url: urlsplit(url).path.endswith(path)


def reach(page: Page, selector: str, presses: int = 80) -> None:
    """The focus on ``selector``: there already (a page's autofocus), or by Tab."""
    page.locator(selector).wait_for(state="attached", timeout=PATIENCE)
    if not page.locator(selector).evaluate("el => el === document.activeElement"):
        tab_to(page, selector, presses)


def follow(page: Page, selector: str, path: str) -> None:
    """Tab to a link and press Enter: the page at ``path`` opens."""
    tab_to(page, selector, presses=80)
    press(page, "Enter")
    page.wait_for_url(at(path), timeout=PATIENCE)


def sign_in_by_keyboard(page: Page, site: Site, then: str = "/desk") -> None:
    """Sign in at /login (the desk sends one there) and land on ``then``."""
    page.goto(site.url(f"{then}?lang=en"))
    page.wait_for_url(lambda url: "/login?next=" in url, timeout=PATIENCE)
    reach(page, "#email")
    type_text(page, site.admin_email)
    press(page, "Tab")
    type_text(page, site.admin_password)
    press(page, "Enter")
    page.wait_for_url(at(then), timeout=PATIENCE)


def add_by_keyboard(page: Page, name: str, club: str) -> None:
    """The players page's add form: name, club, Enter."""
    reach(page, "#name", presses=80)
    type_text(page, name)
    press(page, "Tab")
    type_text(page, club)
    press(page, "Enter")
    page.get_by_role("status").filter(has_text=name).wait_for(timeout=PATIENCE)


def import_by_keyboard(
    page: Page, tid: str, csv: str, rows: int, look: Callable[[Page], None] | None = None
) -> None:
    """The CSV import: paste the list, preview it (``rows`` rows; ``look`` at the
    preview), import them all."""
    follow(page, f"a[href='/desk/t/{tid}/players/import']", "/players/import")
    reach(page, "#csv", presses=40)
    type_text(page, csv)
    reach(page, "button[value=preview]")
    press(page, "Enter")
    page.locator("table.import-preview").wait_for(timeout=PATIENCE)
    assert page.locator("table.import-preview tbody tr").count() == rows
    if look is not None:
        look(page)
    reach(page, "button[value=import]", presses=60)
    press(page, "Enter")
    page.wait_for_url(at("/players"), timeout=PATIENCE)


def check_in_by_search(page: Page, typed: str, number: int, *, arrow: bool) -> None:
    """Type in the search; Enter checks in the one player left, or ArrowDown to the
    first shown and Space."""
    reach(page, "#player-search")
    type_text(page, typed)
    if arrow:
        press(page, "ArrowDown", "Space")
    else:
        press(page, "Enter")
    page.locator(f"tr#p{number}.checked-in").wait_for(timeout=PATIENCE)
    page.locator("#player-search:focus").wait_for(timeout=PATIENCE)  # back, for the next


def draw_with_preview(page: Page, tid: str, look: Callable[[Page], None] | None = None) -> None:
    """The rounds page: Preview draw (``look`` at the preview), then Draw, by keyboard."""
    tab_to(page, "#preview-draw", presses=80)
    press(page, "Enter")
    page.wait_for_url(at(f"/desk/t/{tid}/rounds/preview"), timeout=PATIENCE)
    page.locator("table.draw-preview").wait_for(timeout=PATIENCE)
    if look is not None:
        look(page)
    tab_to(page, "#draw", presses=80)
    press(page, "Enter")
    page.wait_for_url(at(f"/desk/t/{tid}/rounds"), timeout=PATIENCE)
    page.locator("table.desk-pairings").wait_for(timeout=PATIENCE)


def enter_sheet_by_keyboard(page: Page, table: int, bummerl: tuple[str, ...]) -> None:
    """On the scoresheets page (the table field focused): the table number, then one
    tally per Bummerl (R17), Tab between them, Enter stores the sheet."""
    page.locator("#sheet-table").wait_for(timeout=PATIENCE)
    page.wait_for_function(
        "document.activeElement && document.activeElement.id === 'sheet-table'",
        timeout=PATIENCE,
    )
    press(page, "Control+a")
    type_text(page, str(table))
    page.wait_for_function(
        "document.activeElement && document.activeElement.id === 'bummerl-1'", timeout=PATIENCE
    )
    *first, last = bummerl
    for index, tally in enumerate(first):
        if index:
            press(page, "Tab")
        type_text(page, tally)
    if first:
        press(page, "Tab")
    field = f"bummerl-{len(bummerl)}"
    assert focused(page).startswith(f"input#{field}"), focused(page)
    # Enter only once the check of the sheet as typed is back: a check still under way
    # would be cut off by the page leaving (htmx logs that as an error).
    with page.expect_response(
        lambda answer: _checks(answer, field.replace("-", "_"), last), timeout=PATIENCE
    ):
        type_text(page, last)
    page.wait_for_function("!document.querySelector('.htmx-request')", timeout=PATIENCE)
    page.locator(f'#sheet-check[data-inputs="{len(bummerl)}"]').wait_for(timeout=PATIENCE)
    with page.expect_navigation(timeout=PATIENCE):
        press(page, "Enter")
    done = page.locator("#sheet-done")
    assert done.inner_text().startswith(f"Table {table} stored"), done.inner_text()


def _checks(answer: Response, field: str, tally: str) -> bool:
    """Whether ``answer`` is the desk's check of a sheet with ``tally`` in ``field``."""
    if "/sheets/check" not in answer.url:
        return False
    return parse_qs(answer.request.post_data or "").get(field) == [tally]


def download(page: Page, url: str) -> bytes:
    """A file the signed-in page may fetch (its session's cookies go along)."""
    answer = page.request.get(urljoin(page.url, url), timeout=PATIENCE * 2)
    assert answer.ok, (url, answer.status, answer.text()[:300])
    return answer.body()


def pdf_text(data: bytes) -> str:
    """The text of every page of a PDF (pypdf)."""
    from pypdf import PdfReader

    assert data.startswith(b"%PDF"), data[:40]
    return "\n".join(sheet.extract_text() or "" for sheet in PdfReader(io.BytesIO(data)).pages)


def phone(browse: Browse, site: Site) -> Page:
    """A page of a new browser context the size of a phone, as a player holds it."""
    found = browse(site, is_mobile=True, has_touch=True)
    found.set_viewport_size(PHONE)
    return found

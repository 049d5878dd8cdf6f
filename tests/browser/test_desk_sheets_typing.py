"""Whole scoresheets typed at the desk at human speed land on the table typed, whole
(issue 21: O-S1, O-H1, O-L5). What is checked is what the store holds, never the page's
message: the match of each typed table has exactly the typed Bummerl, every other match
nothing.

The desk's own trial found two races: "10, Enter" put the next table's sheet on table 7
(the Enter fell into an empty Bummerl 1, the refusal selected *Table*, the tally's first
7 replaced the number), and a pause after ``7 4 1 0 /`` let the live check call the half
line a Schneider and switch Bummerl 2 off under the typist. The probes that found them
(``probe_typeahead_store.py``, ``probe_pause_then_tab.py``, ``probe_schneider_prefix.py``)
are the deterministic tests here; the slow answer of the server they raced against is
made exact by holding it back (``held``) instead of hoping for a busy machine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from tests.browser.conftest import Browse, Site
from tests.browser.harness import focused, shot
from tests.web.conftest import Web
from tests.web.played import register, run, state
from tournament.domain.commands.rounds import start_round
from tournament.domain.model.tally import tally_payload, tally_text

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page, Route

#: How long a step may take on a busy machine (milliseconds).
PATIENCE = 20_000
#: An evening of 22 players: tables 1-11, so "1" may still become 10 or 11 and needs
#: Enter, while "4" or "10" can be no other table.
PLAYERS = (
    "Anna Huber", "Bernd Maier", "Carla Gruber", "Dieter Wagner", "Eva Pichler",
    "Franz Steiner", "Gerda Moser", "Hans Hofer", "Ilse Bauer", "Josef Leitner",
    "Karin Fuchs", "Leopold Weiß", "Maria Schwarz", "Norbert Brunner", "Olga Wimmer",
    "Peter Reiter", "Rosa Eder", "Stefan Holzer", "Theresia Auer", "Udo Lehner",
    "Vera Haas", "Walter Schmid",
)  # fmt: skip
TABLES = len(PLAYERS) // 2
#: The browser logs the refused sheet's answer (422) as a failed load: expected there.
REFUSED = r"status of 422 .*/desk/t/club/sheets\)$"


def evening(site: Site) -> Web:
    """A best-of-3 Swiss of 22 on the served app, round 1 drawn (tables 1-11)."""
    web = Web(site.app)
    web._tokens["admin@club.at"] = site.admin_token
    web.ok(
        "POST",
        "/api/v1/tournaments",
        {"name": "Freitag", "id": "club", "format": "swiss", "best_of": 3, "seed": 11,
         "options": {"rounds": 3}},
        token=site.admin_token,
    )  # fmt: skip
    register(web, "club", [(name, "") for name in PLAYERS])
    run(web, "club", lambda t: start_round(t))
    return web


def stored(site: Site) -> dict[int, list[str]]:
    """Round 1 as the store holds it: each table's recorded Bummerl tallies."""
    t = state(Web(site.app), "club")
    return {
        m.table: [
            tally_text(e.payload["tally"])
            for e in m.entries
            if e.kind == "tally" and e.payload is not None
        ]
        for m in t.matches.values()
        if m.round == 1 and m.table
    }


def as_stored(tally: str) -> str:
    """A typed tally as the store spells it (``7 4 1 0/7 6`` -> ``7 4 1 0 / 7 6``)."""
    return tally_text(tally_payload(tally))


def signed_in_at_sheets(page: Page, site: Site, lang: str = "en") -> None:
    page.set_viewport_size({"width": 1366, "height": 768})  # the club's laptop
    page.goto(site.url("/login?next=/desk/t/club/sheets"))
    page.fill("#email", site.admin_email)
    page.fill("#password", site.admin_password)
    page.keyboard.press("Enter")
    page.wait_for_url(site.url("/desk/t/club/sheets") + "*", timeout=PATIENCE)
    page.goto(site.url(f"/desk/t/club/sheets?lang={lang}"))
    in_table(page)


def in_table(page: Page) -> None:
    """The page is back, the cursor in *Table* (a person sees it before typing on)."""
    page.wait_for_function(
        "document.readyState === 'complete' && document.activeElement"
        " && document.activeElement.id === 'sheet-table'",
        timeout=PATIENCE,
    )


def cursor_in(page: Page, element: str) -> None:
    page.wait_for_function(
        "(id) => document.activeElement && document.activeElement.id === id",
        arg=element,
        timeout=PATIENCE,
    )


def checked(page: Page, field: str, text: str) -> None:
    """The live check of the sheet with ``text`` in ``field`` is on the page (the check
    says which lines it read)."""
    page.wait_for_function(
        "([id, text]) => { const c = document.getElementById('sheet-check');"
        " const lines = Array.from(document.querySelectorAll('.tally-input'), i => i.value);"
        " return document.getElementById(id).value === text && c.dataset.sheet !== undefined"
        " && c.dataset.sheet === lines.join('|'); }",
        arg=[field, text],
        timeout=PATIENCE,
    )


@contextmanager
def held(page: Page, path: str) -> Iterator[list[Route]]:
    """Answers of ``path`` held back inside the block, let go at its end: the server as
    slow as the busy machine of the trial, exactly when the test wants it."""
    waiting: list[Route] = []
    released = False

    def hold(route: Route) -> None:
        if released:
            route.continue_()
        else:
            waiting.append(route)

    page.route(f"**{path}*", hold)
    try:
        yield waiting
    finally:
        released = True
        for route in waiting:
            route.continue_()


def until_held(page: Page, waiting: list[Route]) -> None:
    """Until the page has asked (its question is held)."""
    deadline = time.monotonic() + PATIENCE / 1000
    while not waiting:
        assert time.monotonic() < deadline, "the page never asked"
        page.evaluate("0")  # lets Playwright hand over the held request


def keys(page: Page, text: str, pace: int = 120) -> None:
    """Typed key by key at ``pace`` ms a key, as a person types."""
    page.keyboard.type(text, delay=pace)


# --- O-S1: "table number, Enter" --------------------------------------------------------


def test_table_number_then_enter_stores_the_sheet_on_that_table_at_any_speed(
    page: Page, site: Site
) -> None:
    """probe_typeahead_store.py: ``10``, Enter (the habit), the sheet, at 250 ms a key,
    with the jump to Bummerl 1 before the Enter; then with Enter and the whole sheet
    typed while table 10's match is still on its way."""
    evening(site)
    signed_in_at_sheets(page, site)
    keys(page, "10", 250)
    cursor_in(page, "bummerl-1")  # "10" can be no other table: on by itself
    page.keyboard.press("Enter")  # ... into an empty Bummerl 1: nothing is sent
    keys(page, "7 4 1 0/7 6", 250)
    page.keyboard.press("Tab")
    keys(page, "7 5 2 0/7 6 5", 250)
    with page.expect_navigation(timeout=PATIENCE):
        page.keyboard.press("Enter")
    assert stored(site)[10] == ["7 4 1 0 / 7 6", "7 5 2 0 / 7 6 5"]
    assert [n for n, tallies in stored(site).items() if tallies] == [10]

    in_table(page)
    with held(page, "/sheets/table") as waiting:
        keys(page, "4", 60)  # table 4: its match is held back
        until_held(page, waiting)
        page.keyboard.press("Enter")
        keys(page, "7 4 1 0/7 6", 60)  # none of it may land in "Table"
        page.keyboard.press("Tab")
        keys(page, "7 6 4 1 0/7 4", 60)
        assert page.locator("#sheet-table").input_value() == "4"
        page.keyboard.press("Enter")
        assert len(waiting) == 1  # all of it typed before table 4's match was shown
    page.wait_for_url(lambda url: "stored=1.4" in url, timeout=PATIENCE)
    assert stored(site)[4] == ["7 4 1 0 / 7 6", "7 6 4 1 0 / 7 4"]
    assert sorted(n for n, tallies in stored(site).items() if tallies) == [4, 10]


def test_enter_in_an_empty_bummerl_never_submits(page: Page, site: Site) -> None:
    evening(site)
    signed_in_at_sheets(page, site)
    page.keyboard.type("1")  # tables 10 and 11 begin with 1: Enter moves on
    page.keyboard.press("Enter")
    cursor_in(page, "bummerl-1")
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.method) if r.method == "POST" else None)
    page.keyboard.press("Enter")
    page.locator("#sheet-empty").wait_for(timeout=PATIENCE)
    assert focused(page).startswith("input#bummerl-1")
    assert page.locator("#sheet-table").input_value() == "1"
    assert requests == [] and not any(stored(site).values())


def test_a_schneider_left_by_tab_is_decided_and_the_empty_bummerl_says_where_enter_goes(
    page: Page, site: Site
) -> None:
    """``7 4 1 0/7`` (a Schneider counts 2, R19) decides only once the cursor leaves
    it; Bummerl 2 and 3 are then marked "not needed" but stay in the Tab order, and
    Enter in the empty Bummerl 2 stores nothing but says to go back."""
    evening(site)
    signed_in_at_sheets(page, site)
    keys(page, "2", 100)
    cursor_in(page, "bummerl-1")
    keys(page, "7 4 1 0/7", 100)
    page.keyboard.press("Tab")
    assert focused(page).startswith("input#bummerl-2")
    page.locator('#sheet-check[data-decided="yes"]').wait_for(timeout=PATIENCE)
    page.locator(".bummerl-row.not-needed[data-row='2']").wait_for(timeout=PATIENCE)
    assert page.locator("#bummerl-2").is_enabled() and page.locator("#bummerl-3").is_enabled()
    page.keyboard.press("Enter")
    assert "Shift+Tab" in page.locator("#sheet-empty").inner_text()
    page.keyboard.press("Shift+Tab")
    with page.expect_navigation(timeout=PATIENCE):
        page.keyboard.press("Enter")
    assert stored(site)[2] == ["7 4 1 0 / 7"]


def test_a_refused_sheet_puts_the_cursor_on_the_bummerl_at_fault(
    browse: Browse, page: Page, site: Site
) -> None:
    """O-L5: the refusal names the Bummerl, the cursor is on it (never in a selected
    *Table*), and the live check sits next to the inputs, on a 1366x768 screen."""
    browse.watch(page).allow_console(REFUSED)
    evening(site)
    signed_in_at_sheets(page, site, lang="de")
    keys(page, "3", 100)
    cursor_in(page, "bummerl-1")
    keys(page, "7 4 1 0/7 6", 100)
    page.keyboard.press("Tab")
    keys(page, "7 3 0/7 5", 100)  # a step of 4
    checked(page, "bummerl-2", "7 3 0/7 5")
    check = page.locator("#sheet-check")
    assert "R13" in check.inner_text()
    assert check.is_visible() and in_sight(page, "#sheet-check")
    assert in_sight(page, ".sheet-columns")
    shot(page, "desk-sheets-typing-check-de-1366", full_page=False)
    with page.expect_navigation(timeout=PATIENCE):
        page.keyboard.press("Enter")
    assert "R13" in page.locator("#sheet-error").inner_text()
    cursor_in(page, "bummerl-2")
    assert page.locator("#bummerl-2").input_value() == "7 3 0/7 5"
    keys(page, "9", 100)  # the next key goes to the Bummerl, not over the table number
    assert page.locator("#sheet-table").input_value() == "3"
    assert page.locator("#bummerl-2").input_value() == "7 3 0/7 59"
    assert not any(stored(site).values())
    shot(page, "desk-sheets-typing-refused-de-1366", full_page=False)


def in_sight(page: Page, selector: str) -> bool:
    """Whether the element lies wholly on the screen as it is (no scrolling)."""
    return bool(
        page.locator(selector).evaluate(
            "el => { const r = el.getBoundingClientRect();"
            " return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }"
        )
    )


def test_the_names_are_shown_large_beside_the_line_being_typed(page: Page, site: Site) -> None:
    evening(site)
    signed_in_at_sheets(page, site)
    keys(page, "7", 100)
    cursor_in(page, "bummerl-1")
    t = state(Web(site.app), "club")
    match = next(m for m in t.matches.values() if m.round == 1 and m.table == 7)
    names = page.locator(".sheet-columns").inner_text()
    assert t.label(match.players[0]) in names and t.label(match.players[1]) in names
    box, line = (
        page.locator(".sheet-columns").bounding_box(),
        page.locator("#bummerl-1").bounding_box(),
    )
    assert box and line and box["x"] > line["x"] + line["width"]  # beside, not under
    size = page.locator(".sheet-columns").evaluate(
        "el => parseFloat(getComputedStyle(el).fontSize)"
    )
    body = page.locator("body").evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 1.5 * body


# --- O-H1: a half-typed tally ------------------------------------------------------------


def test_a_column_still_being_typed_is_never_a_finished_bummerl(page: Page, site: Site) -> None:
    """probe_schneider_prefix.py: ``7 4 1 0/`` is no Schneider and ``7 4 1 0/7`` decides
    only "if it ends here"; Bummerl 2 and 3 stay on and in the Tab order throughout."""
    evening(site)
    signed_in_at_sheets(page, site)
    keys(page, "5", 100)
    cursor_in(page, "bummerl-1")
    seen = {}
    for text in ("7 4 1 0", "7 4 1 0/", "7 4 1 0/7", "7 4 1 0/7 6"):
        page.locator("#bummerl-1").press("End")
        keys(page, text[len(page.locator("#bummerl-1").input_value()) :], 100)
        checked(page, "bummerl-1", text)
        check = page.locator("#sheet-check")
        seen[text] = (check.get_attribute("data-decided"), check.inner_text().strip())
        for row in (2, 3):
            assert page.locator(f"#bummerl-{row}").is_enabled()
            assert page.locator(f"#bummerl-{row}").is_visible()
            assert "not-needed" not in (
                page.locator(f".bummerl-row[data-row='{row}']").get_attribute("class") or ""
            )
    assert seen["7 4 1 0"][0] == "no" and "being typed" in seen["7 4 1 0"][1]
    assert seen["7 4 1 0/"][0] == "no" and "being typed" in seen["7 4 1 0/"][1]
    assert seen["7 4 1 0/7"][0] == "if-it-ends-here"
    assert "If this Bummerl ends here: decided 2:0" in seen["7 4 1 0/7"][1]
    assert seen["7 4 1 0/7 6"][0] == "no" and "1:0 so far" in seen["7 4 1 0/7 6"][1]
    page.keyboard.press("Tab")
    assert focused(page).startswith("input#bummerl-2")


def test_a_pause_after_the_slash_then_tab_still_goes_to_bummerl_2(page: Page, site: Site) -> None:
    """probe_pause_then_tab.py: ``7 4 1 0/``, a pause until the check is back (eyes on
    the paper), ``7 6`` and Tab at once, Bummerl 2, Enter: the whole sheet is stored."""
    evening(site)
    signed_in_at_sheets(page, site)
    keys(page, "8", 100)
    cursor_in(page, "bummerl-1")
    keys(page, "7 4 1 0/", 100)
    checked(page, "bummerl-1", "7 4 1 0/")
    with held(page, "/sheets/check"):  # the check of "7 4 1 0/7 6" not back yet
        keys(page, "7 6", 100)
        page.keyboard.press("Tab")
        assert focused(page).startswith("input#bummerl-2"), focused(page)
        keys(page, "7 4 2 0/7 6", 100)
        assert not page.locator("input[name=signed]").is_checked()
    checked(page, "bummerl-2", "7 4 2 0/7 6")
    with page.expect_navigation(timeout=PATIENCE):
        page.keyboard.press("Enter")
    assert stored(site)[8] == ["7 4 1 0 / 7 6", "7 4 2 0 / 7 6"]


def test_enter_right_after_the_slash_stores_nothing_and_names_the_bummerl(
    browse: Browse, page: Page, site: Site
) -> None:
    browse.watch(page).allow_console(REFUSED)
    evening(site)
    signed_in_at_sheets(page, site)
    keys(page, "6", 100)
    cursor_in(page, "bummerl-1")
    keys(page, "7 4 1 0/", 100)
    with page.expect_navigation(timeout=PATIENCE):
        page.keyboard.press("Enter")
    assert "Bummerl 1 ends with '/'" in page.locator("#sheet-error").inner_text()
    cursor_in(page, "bummerl-1")
    assert not any(stored(site).values())


# --- Whole sheets at human speed, many tables --------------------------------------------


def bummerl(rng: random.Random, p_first: float) -> tuple[list[int], list[int], int]:
    """One Bummerl as the paper tallies it: each column counts down from 7 (R17)."""
    a, b = [7], [7]
    while a[-1] and b[-1]:
        points = rng.choices([1, 2, 3], [0.45, 0.35, 0.20])[0]
        column = a if rng.random() < p_first else b
        column.append(max(0, column[-1] - points))
    return a, b, 0 if a[-1] == 0 else 1


def a_sheet(rng: random.Random, decider: str) -> list[str]:
    """A best-of-3 sheet decided ``2:0``, ``2:1`` or by a ``schneider`` (R19)."""
    if decider == "schneider":
        return ["7 4 1 0/7"]
    w = rng.choice([0, 1])
    winners = [w, w] if decider == "2:0" else rng.choice([[w, 1 - w, w], [1 - w, w, w]])
    lines = []
    for winner in winners:
        while True:
            a, b, won = bummerl(rng, 0.6 if winner == 0 else 0.4)
            if won == winner and len(a) > 1 and len(b) > 1:  # a Schneider counts 2
                break
        gap = rng.choice(["/", " / ", "/ "])
        lines.append(" ".join(map(str, a)) + gap + " ".join(map(str, b)))
    return lines


class Typist:
    """A person at the desk: every key after a pause drawn per key from a seeded random
    generator, 50 to 800 ms (mostly quick, now and then a look at the paper)."""

    def __init__(self, page: Page, rng: random.Random) -> None:
        self.page, self.rng = page, rng

    def pace(self, at_least: int = 50) -> None:
        # The typing speed is what this test is about: a pause between two keys, not a
        # wait for the page (those wait on conditions).
        quick = self.rng.random() < 0.8
        ms = self.rng.randint(50, 150) if quick else self.rng.randint(150, 800)
        self.page.wait_for_timeout(max(ms, at_least))

    def press(self, key: str, *, look: bool = False) -> None:
        self.pace(600 if look else 50)
        self.page.keyboard.press("Space" if key == " " else key)

    def line(self, text: str) -> None:
        for key in text:
            self.press(key)
            if key == "/" and self.rng.random() < 0.4:
                self.pace(500)  # eyes back on the paper for the second column


def test_whole_sheets_typed_at_human_speed_land_on_the_table_typed(page: Page, site: Site) -> None:
    """Nine tables of an evening's eleven (one- and two-digit, ``1`` among 1-11 needing
    Enter), 2:0, 2:1 and a Schneider, typed at 50-800 ms a key with pauses anywhere, the table
    always followed by Enter (the habit of O-S1): 0 sheets on a wrong table, 0 half
    sheets, by what the store holds."""
    evening(site)
    signed_in_at_sheets(page, site)
    rng = random.Random(2112)
    order = [1, 10, 11, *rng.sample(range(2, 10), 6)]  # two tables left out: stay empty
    rng.shuffle(order)
    deciders = ["2:0", "2:1"] * 4 + ["schneider"]
    rng.shuffle(deciders)
    typist = Typist(page, rng)
    typed: dict[int, list[str]] = {}
    for table, decider in zip(order, deciders, strict=True):
        sheet = a_sheet(rng, decider)
        typed[table] = sheet
        in_table(page)
        for digit in str(table):
            typist.press(digit)
        typist.press("Enter", look=rng.random() < 0.3)  # the habit, whatever the page did
        for index, line in enumerate(sheet):
            if index:
                typist.press("Tab", look=rng.random() < 0.3)
            typist.line(line)
        with page.expect_navigation(timeout=PATIENCE):
            typist.press("Enter", look=rng.random() < 0.3)
        assert "stored=" in page.url, (table, sheet, focused(page), page.url)
    wrong = {n: tallies for n, tallies in stored(site).items() if tallies and n not in typed}
    half = {
        n: (stored(site)[n], sheet)
        for n, sheet in typed.items()
        if stored(site)[n] != [as_stored(line) for line in sheet]
    }
    assert not wrong and not half, (wrong, half)

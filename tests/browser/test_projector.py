"""The projector in a real browser at 1920x1080 (issue 11: "the projector rotates"): it
goes through its screens on its own, each fits the screen, nothing serious or critical
for axe, nothing fetched from outside (the ``page`` fixture fails on any such request),
and a result entered at the desk reaches it through the live stream."""

from __future__ import annotations

import itertools
import random
import time
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from tests.browser.conftest import Site
from tests.browser.harness import (
    View,
    axe_source,
    describe_violations,
    expect_swap,
    in_every_view,
    shot,
)
from tests.browser.test_public_page import a_swiss
from tests.web.conftest import Web
from tests.web.played import NAMES, play_round, register, run
from tournament.domain.commands.rounds import start_round

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page, ViewportSize

BEAMER: ViewportSize = {"width": 1920, "height": 1080}
#: The screens of a Swiss in play, in the order the projector shows them.
ROTATION = ["standings-1", "pairings-1", "seats-1"]
#: Where the page's own clock starts (hold): any fixed time will do.
CLOCK_START = datetime(2026, 11, 20, 19, 0, tzinfo=UTC)


def showing(page: Page) -> str:
    return str(page.locator("main").get_attribute("data-showing"))


def test_the_projector_rotates_through_its_screens(page: Page, site: Site) -> None:
    web = a_swiss(site, rounds=1)
    play_round(web, "club", random.Random(8))
    # round 3 drawn: pairings and seats to show
    run(web, "club", lambda t: start_round(t))
    projected(web, "club")
    # The page's clock is the test's: stopped before the page loads, a second of it
    # passes when the test says so; each screen holds still for its checks.
    hold(page)
    for lang in ("en", "de"):
        page.set_viewport_size(BEAMER)
        page.goto(site.url(f"/t/club/projector?every=1&lang={lang}"))
        page.locator("#live-badge[data-state='live']").wait_for(timeout=30_000)
        seen: list[str] = []
        for _ in range(4):
            key = showing(page)
            seen.append(key)
            assert page.locator("section.screen:visible").count() == 1
            assert not overflow(page, key), overflow(page, key)  # a projector never scrolls
            assert page.locator(".qr-code svg").is_visible()
            shot(page, f"projector-{key}-{lang}-1920", full_page=False)
            accessible_while_held(page)
            page.clock.run_for(1000)  # one screen's time
        # Each screen after the one before, round and round.
        for before, after in itertools.pairwise(seen):
            assert ROTATION[(ROTATION.index(before) + 1) % len(ROTATION)] == after, seen
        assert set(seen) == set(ROTATION)


def accessible_while_held(page: Page) -> None:
    """No serious or critical axe-core violation on the screen shown now. axe waits on
    timers, which the stopped clock holds: it gets 5 ms at a time, well under a screen's
    second, so the screen stays while axe looks (harness.assert_accessible, by hand)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source() + "\n;undefined")
    page.evaluate(
        "() => { window.__axe = null; axe.run(document, {resultTypes: ['violations']})"
        ".then(r => { window.__axe = r; }); }"
    )
    for _ in range(150):
        if page.evaluate("window.__axe !== null"):
            break
        page.clock.run_for(5)
    results = page.evaluate("window.__axe")
    assert results is not None, "axe-core did not finish"
    serious = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, f"axe-core on {page.url}:\n{describe_violations(serious)}"


def hold(page: Page) -> None:
    """Stop the page's clock before the page loads: a fixed start, paused a minute on.
    Playwright replays these on every document the page opens, so the page starts
    stopped and no screen changes but when the test runs the clock. (Reading the page's
    clock and pausing it a few milliseconds later, as this did, lost the race on a
    loaded machine: "Cannot fast-forward to the past".)"""
    page.clock.install(time=CLOCK_START)
    page.clock.pause_at(CLOCK_START + timedelta(minutes=1))


#: The shown screen's overflow, measured in the page: its box and its parts' (title,
#: head, rows, list items), the stale line's, against the window's height and width.
OVERFLOW_JS = """key => {
  const box = el => {
    const b = el.getBoundingClientRect();
    return `${el.tagName.toLowerCase()}.${el.className}: `
      + `${Math.round(b.top)}-${Math.round(b.bottom)} x ${Math.round(b.right)}`;
  };
  const section = document.querySelector(`section[data-key='${key}']`);
  if (!section) { return 'no screen ' + key; }
  if (section.hidden) { return 'screen ' + key + ' is hidden'; }
  const parts = [section, ...section.querySelectorAll('h2, thead, tbody tr, li')];
  const stale = document.querySelector('.stale');
  if (stale) { parts.push(stale); }
  const out = parts.filter(el => {
    const b = el.getBoundingClientRect();
    return b.bottom > innerHeight || b.right > innerWidth;
  });
  return out.length ? `window ${innerWidth}x${innerHeight}:\\n` + parts.map(box).join('\\n') : '';
}"""


def overflow(page: Page, key: str) -> str:
    """What of screen ``key`` reaches past the window's bottom or right edge (a projector
    never scrolls): "" when it all fits, else every part's box, to say why. A screen not
    shown says so: the old check read an empty box (a hidden screen) as a screen taller
    than the beamer's 1080 lines."""
    return str(page.evaluate(OVERFLOW_JS, key))


def projected(web: Web, tid: str) -> None:
    """Wait until the projections have every result entered, so the screens show what
    the test entered (a loaded machine's projection thread can lag a second behind the
    desk). Not for the layout: the "not up to date" line moves no screen (see
    test_every_screen_fits_whatever_the_names_the_screen_and_the_stale_line)."""
    deadline = time.monotonic() + 30  # a busy machine's projection thread may lag
    while time.monotonic() < deadline:
        body = web.ok("GET", f"/api/v1/tournaments/{tid}/standings")
        if body["projection"]["source"] == "projection" and not body["projection"]["stale"]:
            return
        time.sleep(0.05)
    raise AssertionError(f"the projection of {tid} never caught up")


def advance_to(page: Page, key: str) -> None:
    """Let the page's clock run, a second at a time, until it shows screen ``key``."""
    for _ in range(20):
        if showing(page) == key:
            return
        page.clock.run_for(1000)
    raise AssertionError(f"the projector never showed {key}")


def test_long_standings_and_a_bracket_page_within_the_screen(page: Page, site: Site) -> None:
    web = a_swiss(site, rounds=0)
    register(web, "club", [(f"Spieler {n:02d}", "") for n in range(1, 19)])  # 26 in all
    web.ok(
        "POST",
        "/api/v1/tournaments",
        {"name": "Cup", "id": "ko", "format": "single_elimination", "best_of": 3, "seed": 7},
        token=site.admin_token,
    )
    register(web, "ko", NAMES + tuple((f"Spieler {n:02d}", "") for n in range(1, 9)))
    play_round(web, "ko", random.Random(4))
    projected(web, "club")
    projected(web, "ko")
    hold(page)  # the screens change when the test says (see the first test)
    page.set_viewport_size(BEAMER)
    page.goto(site.url("/t/club/projector?every=1&lang=en"))
    for key in ("standings-1", "standings-2", "standings-3"):
        advance_to(page, key)
        assert not overflow(page, key), overflow(page, key)
        shot(page, f"projector-club-{key}-en-1920", full_page=False)
    page.goto(site.url("/t/ko/projector?every=1&lang=de"))
    keys = page.locator("section.screen").evaluate_all("els => els.map(e => e.dataset.key)")
    assert keys[0] == "standings-1" and keys[-2:] == ["bracket-1", "bracket-2"]
    for key in ("bracket-1", "bracket-2"):
        advance_to(page, key)
        assert not overflow(page, key), overflow(page, key)
        shot(page, f"projector-ko-{key}-de-1920", full_page=False)
        accessible_while_held(page)


def test_a_result_reaches_the_projector_through_the_stream(page: Page, site: Site) -> None:
    web = a_swiss(site, rounds=1)
    page.set_viewport_size(BEAMER)
    page.goto(site.url("/t/club/projector?every=600&lang=en"))
    page.locator("#live-badge[data-state='live']").wait_for(timeout=30_000)
    with expect_swap(page, "#screens .screens-body"):
        play_round(web, "club", random.Random(8))  # round 2 at the desk
    assert page.url.endswith("/t/club/projector?every=600&lang=en")  # swapped, not reloaded
    assert showing(page) == "standings-1"


#: Beamers and laptops a club may have: 16:9 at full HD, 4:3, a 720-line laptop.
SCREENS: list[ViewportSize] = [
    BEAMER,
    {"width": 1024, "height": 768},
    {"width": 1280, "height": 720},
]
#: The stale line as screens.html renders it, put in by the test: the served app's
#: projection catches up within a second, so a real one cannot be held on the page.
STALE_LINE = (
    "<p class='stale one-line'><strong>Not up to date:</strong>"
    " these standings lack the newest results.</p>"
)


def test_every_screen_fits_whatever_the_names_the_screen_and_the_stale_line(
    page: Page, site: Site
) -> None:
    """A screen's height is a sum of vh, whatever arrives: names and titles never wrap
    (they end in "…"), the stale line has its own place. So long names, a long name of
    the tournament, a 4:3 beamer or a 720-line laptop and the stale line appearing
    mid-rotation never push a row past the bottom or the QR code off to the right."""
    web = Web(site.app)
    web._tokens["admin@club.at"] = site.admin_token
    long_name = "Oberösterreichische Landesmeisterschaft im Schnapsen, Finale der besten 16"
    web.ok(
        "POST",
        "/api/v1/tournaments",
        {"name": long_name, "id": "long", "format": "swiss", "best_of": 3, "seed": 7,
         "options": {"rounds": 3}},
        token=site.admin_token,
    )  # fmt: skip
    names = [(f"Maximilian Großschädl-Unterberger von Hinterseer {n:02d}", "") for n in range(14)]
    register(web, "long", names)
    play_round(web, "long", random.Random(3))
    run(web, "long", lambda t: start_round(t))  # round 2 drawn: pairings and seats
    projected(web, "long")
    hold(page)
    keys = ["standings-1", "standings-2", "pairings-1", "seats-1"]
    for size in SCREENS:
        page.set_viewport_size(size)
        page.goto(site.url("/t/long/projector?every=1&lang=de"))
        assert (
            page.locator("section.screen").evaluate_all("els => els.map(e => e.dataset.key)")
            == keys
        )
        for key in keys:
            advance_to(page, key)
            assert not overflow(page, key), overflow(page, key)
        page.evaluate(
            "html => document.querySelector('.screens-body')"
            ".insertAdjacentHTML('afterbegin', html)",
            STALE_LINE,
        )
        for key in keys:
            advance_to(page, key)
            assert not overflow(page, key), overflow(page, key)
        shot(page, f"projector-long-names-{size['width']}x{size['height']}-de", full_page=False)


def test_the_projector_in_both_languages_on_a_phone_and_a_laptop(page: Page, site: Site) -> None:
    """Someone opens the projector's address on a phone or a laptop: the same page, in
    the smaller side's scale (vmin), its first screen within the window, axe clean."""
    web = a_swiss(site, rounds=1)
    run(web, "club", lambda t: start_round(t))
    projected(web, "club")
    hold(page)

    def look(view: View) -> None:
        assert page.locator("html").get_attribute("lang") == view.lang
        assert not overflow(page, "standings-1"), (view.name, overflow(page, "standings-1"))
        assert page.locator(".qr-code svg").is_visible()
        accessible_while_held(page)

    in_every_view(page, site.url("/t/club/projector?every=600"), look, full_page=False)

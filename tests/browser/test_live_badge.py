"""The live badge never says "Live" over standings the page lacks (trial 5, P2, P5).

- A fragment fetch that fails while the stream lives (the phone's network gone under an
  open stream, as Chromium's ``set_offline`` leaves it; the store busy, 503): the badge
  says offline or stale at once, and the page fetches again, later and later, until it
  shows the version the stream announced; then "Live" again.
- A real drop (the connection cut, the stream too): "Offline" while it lasts, never
  "Updated N s ago" over a page that cannot reach the service; "Live" once it is back.
- The projector likewise: a failed fetch of its screens says offline and is made again.

Every change of the badge is recorded in the page with the version of the table shown at
that moment, so a test sees every state the badge passed through, not only the last.
The browser and the server are real; the 503 is the server's documented answer to a
busy store, given by intercepting the app's own fragment address."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import Browse, Site
from tests.browser.harness import PHONE, shot
from tests.browser.relay import Relay
from tests.browser.test_public_page import a_swiss
from tests.web.conftest import Web
from tests.web.played import run, state
from tournament.domain.commands.results import record_tally
from tournament.domain.commands.rounds import start_round
from tournament.domain.testing import random_tally

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page, Route

#: Each change of the badge, with the standings version shown at that moment; and the
#: stream's and the swaps' events, in order.
RECORD_BADGE = """
window.__badge = [];
document.addEventListener("DOMContentLoaded", () => {
  const badge = document.getElementById("live-badge");
  const shown = () => {
    const body = document.querySelector("#standings .standings-body");
    return body ? Number(body.dataset.version) : 0;
  };
  new MutationObserver(() => window.__badge.push([badge.dataset.state, shown()]))
    .observe(badge, { attributes: true, attributeFilter: ["data-state"] });
  for (const name of ["htmx:sseOpen", "htmx:sseError", "htmx:afterSwap"]) {
    document.addEventListener(name, () => window.__events.push(name));
  }
});
window.__events = [];
"""

#: What a failed fetch logs in the console: expected here.
FAILED_LOADS = (
    r"Failed to load resource|ERR_INTERNET_DISCONNECTED|ERR_EMPTY_RESPONSE|ERR_CONNECTION|503"
    r"|htmx:(sendError|responseError|afterRequest)|EventSource|\[object Event\]"
)


def round_two(site: Site) -> Web:
    """The 8-player Swiss after round 1, round 2 drawn and nothing entered yet."""
    web = a_swiss(site, rounds=1)
    run(web, "club", lambda t: start_round(t))
    return web


def enter_one_result(web: Web) -> int:
    """One match of the open round decided, as the desk enters it; the log's version."""
    rng = random.Random(3)
    mid = next(m for m in state(web, "club").rounds[-1].matches
               if not state(web, "club").matches[m].decided)  # fmt: skip
    while not state(web, "club").matches[mid].decided:
        first, second, _ = random_tally(rng)
        run(web, "club", lambda t, x={"columns": [first, second]}: record_tally(t, mid, x))
    return state(web, "club").version


def phone(browse: Browse, site: Site | Relay, url: str) -> Page:
    page = browse(site)  # type: ignore[arg-type]  # a Relay is reached like a Site
    page.set_viewport_size(PHONE)
    page.add_init_script(RECORD_BADGE)
    browse.watch(page).allow_console(FAILED_LOADS)
    page.goto(url)
    badge_is(page, "live")
    # The stream's first message makes the page fetch the table once: that is in.
    page.wait_for_function("window.__events.includes('htmx:afterSwap')")
    return page


def badge_is(page: Page, *states: str, timeout: int = 15_000) -> None:
    page.wait_for_function(
        "states => states.includes(document.getElementById('live-badge').dataset.state)",
        arg=list(states),
        timeout=timeout,
    )


def shown_version(page: Page) -> int:
    return int(page.locator("#standings .standings-body").get_attribute("data-version") or 0)


def current_version(page: Page, site: Site | Relay) -> int:
    """The version a fresh page would show now."""
    fresh = page.context.request.get(site.url("/t/club/standings-fragment"))
    found = re.search(r'data-version="(\d+)"', fresh.text())
    assert found is not None
    return int(found.group(1))


def badge_states(page: Page) -> list[tuple[str, int]]:
    return [(state, version) for state, version in page.evaluate("window.__badge")]


def never_live_over_older(states: list[tuple[str, int]], current: int) -> None:
    """From the first failed fetch on (before it, the table shown was as current as the
    page could know), "Live" only over the current table."""
    first = next(i for i, (s, _) in enumerate(states) if s in ("offline", "stale"))
    wrong = [(s, v) for s, v in states[first:] if s == "live" and v < current]
    assert not wrong, f"'Live' over standings the page lacked: {wrong} (current {current})"


def test_a_failed_refresh_while_the_stream_lives_says_offline_and_fetches_again(
    browse: Browse, site: Site
) -> None:
    web = round_two(site)
    watcher = phone(browse, site, site.url("/t/club?lang=de"))
    failed: list[str] = []
    watcher.on("requestfailed", lambda r: failed.append(r.url) if "fragment" in r.url else None)
    watcher.context.set_offline(True)  # the open stream lives on in Chromium
    enter_one_result(web)
    badge_is(watcher, "offline", "stale")
    assert watcher.locator("#live-badge").inner_text() == "Offline"
    shot(watcher, "live-badge-offline-de-phone", full_page=False)
    # Playwright reports the failed request on its own channel, which may come after the
    # badge changed on a busy machine: wait for the report, not just the badge.
    deadline = time.monotonic() + 15
    while not failed and time.monotonic() < deadline:
        watcher.wait_for_timeout(100)
    assert failed, "the stream's events made the page fetch, and the fetches failed"
    watcher.context.set_offline(False)
    current = current_version(watcher, site)
    watcher.wait_for_function(
        "v => Number(document.querySelector('#standings .standings-body').dataset.version) >= v",
        arg=current,
        timeout=30_000,
    )
    badge_is(watcher, "live")
    never_live_over_older(badge_states(watcher), current)


def test_a_busy_store_answering_503_makes_the_page_fetch_again_until_it_is_current(
    browse: Browse, site: Site
) -> None:
    web = round_two(site)
    watcher = phone(browse, site, site.url("/t/club?lang=de"))
    refused: list[str] = []
    busy = {"on": True}

    def store_busy(route: Route) -> None:
        if busy["on"]:
            refused.append(route.request.url)
            route.fulfill(status=503, headers={"Retry-After": "1"}, body="store busy")
        else:
            route.continue_()

    watcher.route(re.compile(r".*/t/club/(standings|round)-fragment.*"), store_busy)
    enter_one_result(web)
    badge_is(watcher, "stale")
    assert (
        watcher.locator("#live-badge").inner_text() == "Veraltet: die neueste Tabelle wird geholt …"
    )
    shot(watcher, "live-badge-stale-de-phone", full_page=False)
    # It fetches again by itself, more than once, while the store stays busy. (Waiting in
    # Playwright's own loop, a condition looked at every 50 ms, lets the route answer.)
    tries = 3
    for _ in range(600):
        if len(refused) >= tries:
            break
        watcher.wait_for_timeout(50)
    assert len(refused) >= tries, f"fetched again only {len(refused)} times"
    assert watcher.locator("#live-badge").get_attribute("data-state") == "stale"
    busy["on"] = False
    current = current_version(watcher, site)
    watcher.wait_for_function(
        "v => Number(document.querySelector('#standings .standings-body').dataset.version) >= v",
        arg=current,
        timeout=30_000,
    )
    badge_is(watcher, "live")
    never_live_over_older(badge_states(watcher), current)


def test_a_table_older_than_the_stream_announced_is_fetched_again(
    browse: Browse, site: Site
) -> None:
    """A fetch that works but brings an older table (a cache on the way, a replica behind)
    is no better than a failed one: the stream said which version is current."""
    web = round_two(site)
    watcher = phone(browse, site, site.url("/t/club?lang=en"))
    old = watcher.context.request.get(site.url("/t/club/standings-fragment?lang=en")).text()
    served_old: list[str] = []
    behind = {"on": True}

    def cached(route: Route) -> None:
        if behind["on"]:
            served_old.append(route.request.url)
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=old)
        else:
            route.continue_()

    watcher.route(re.compile(r".*/t/club/standings-fragment.*"), cached)
    enter_one_result(web)
    badge_is(watcher, "stale")
    for _ in range(600):  # it asks again by itself while the table stays old
        if len(served_old) >= 2:
            break
        watcher.wait_for_timeout(50)
    assert len(served_old) >= 2, f"fetched again only {len(served_old)} times"
    behind["on"] = False
    current = current_version(watcher, site)
    watcher.wait_for_function(
        "v => Number(document.querySelector('#standings .standings-body').dataset.version) >= v",
        arg=current,
        timeout=30_000,
    )
    badge_is(watcher, "live")
    never_live_over_older(badge_states(watcher), current)


@pytest.fixture
def relay(site: Site) -> Iterator[Relay]:
    found = Relay(site.served.port)
    yield found
    found.close()


def test_a_real_drop_says_offline_while_it_lasts_and_live_when_it_is_back(
    browse: Browse, site: Site, relay: Relay
) -> None:
    web = round_two(site)
    watcher = phone(browse, relay, relay.url("/t/club?lang=de"))
    before = len(badge_states(watcher))
    tries: list[str] = []
    watcher.on("requestfailed", lambda r: tries.append(r.url) if "/live" in r.url else None)
    relay.cut()
    badge_is(watcher, "offline")
    enter_one_result(web)  # entered during the drop
    # The stream tries to come back, again and again: the badge stays "Offline".
    for _ in range(600):
        if len(tries) >= 3:
            break
        watcher.wait_for_timeout(50)
    assert len(tries) >= 3, f"the stream tried to reconnect {len(tries)} times"
    after_drop = badge_states(watcher)[before:]
    went_offline = next(i for i, (s, _) in enumerate(after_drop) if s == "offline")
    said = {s for s, _ in after_drop[went_offline:]}
    assert said == {"offline"}, f"during the drop the badge said {said}"
    assert watcher.locator("#live-badge").inner_text() == "Offline"
    shot(watcher, "live-badge-real-drop-de-phone", full_page=False)
    relay.restore()
    current = current_version(watcher, relay)
    watcher.wait_for_function(
        "v => Number(document.querySelector('#standings .standings-body').dataset.version) >= v",
        arg=current,
        timeout=30_000,
    )
    badge_is(watcher, "live", timeout=60_000)
    never_live_over_older(badge_states(watcher), current)


def test_the_projector_never_says_live_over_screens_it_could_not_fetch(
    browse: Browse, site: Site
) -> None:
    web = round_two(site)
    projector = browse(site)
    projector.set_viewport_size({"width": 1920, "height": 1080})
    browse.watch(projector).allow_console(FAILED_LOADS)
    projector.goto(site.url("/t/club/projector?every=600&lang=de"))
    badge_is(projector, "live")
    before = projector.locator("#screens .screens-body").get_attribute("data-version")
    refused: list[str] = []
    busy = {"on": True}

    def store_busy(route: Route) -> None:
        if busy["on"]:
            refused.append(route.request.url)
            route.fulfill(status=503, headers={"Retry-After": "1"}, body="store busy")
        else:
            route.continue_()

    projector.route(re.compile(r".*/t/club/projector/screens.*"), store_busy)
    enter_one_result(web)
    badge_is(projector, "offline")
    for _ in range(600):  # it asks again by itself (see the phone's test above)
        if len(refused) >= 2:
            break
        projector.wait_for_timeout(50)
    assert len(refused) >= 2, f"fetched again only {len(refused)} times"
    assert projector.locator("#live-badge").get_attribute("data-state") == "offline"
    busy["on"] = False
    projector.wait_for_function(
        "v => document.querySelector('#screens .screens-body').dataset.version !== v",
        arg=before,
        timeout=30_000,
    )
    badge_is(projector, "live")

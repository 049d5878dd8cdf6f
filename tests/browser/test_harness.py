"""The browser harness keeps its promises (issue 11): a browser test blocks every
non-local request before it leaves and fails on any, and it fails on console errors and
uncaught errors. Each test here makes the page misbehave, then checks the record."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Browse, Site
from tests.browser.harness import axe_violations, describe_violations, tab_order

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Browser, Page

OUTSIDE = """<!doctype html><html lang="en"><head><title>t</title>
<link rel="stylesheet" href="https://fonts.example.com/a.css"></head>
<body><main><img alt="x" src="http://203.0.113.9/pixel.png">
<script src="//cdn.example.org/lib.js"></script></main></body></html>"""


def test_every_request_to_another_host_is_blocked_and_recorded(browse: Browse, site: Site) -> None:
    page = browse(site)
    page.route(site.url("/outside"), lambda route: route.fulfill(body=OUTSIDE,
               content_type="text/html"))  # fmt: skip
    page.goto(site.url("/outside"))
    blocked = browse.watch(page).take_blocked()
    assert sorted(blocked) == [
        "GET http://203.0.113.9/pixel.png",
        "GET http://cdn.example.org/lib.js",  # protocol-relative: as the page, http
        "GET https://fonts.example.com/a.css",
    ]


def test_a_request_to_another_port_of_this_machine_is_not_local(browse: Browse, site: Site) -> None:
    page = browse(site)
    other = f"http://127.0.0.1:{site.served.port + 1}/x"
    page.goto(site.url("/login"))
    page.evaluate("url => fetch(url).catch(() => null)", other)
    assert browse.watch(page).take_blocked() == [f"GET {other}"]


def test_console_errors_and_uncaught_errors_are_recorded(browse: Browse, site: Site) -> None:
    page = browse(site)
    page.goto(site.url("/login"))
    page.evaluate("console.error('broken on purpose')")
    with page.expect_event("pageerror"):
        page.evaluate("setTimeout(() => { throw new Error('thrown on purpose') })")
    watch = browse.watch(page)
    assert [line.split(" (")[0] for line in watch.console_errors] == ["broken on purpose"]
    assert any("thrown on purpose" in line for line in watch.page_errors)
    watch.console_errors.clear()
    watch.page_errors.clear()


def test_axe_finds_a_field_without_a_label(page: Page, site: Site) -> None:
    page.goto(site.url("/login"))
    page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend',"
                  " '<input id=\"nameless\" type=\"text\">')")  # fmt: skip
    found = axe_violations(page, impacts=("minor", "moderate", "serious", "critical"))
    assert "label" in [violation["id"] for violation in found]
    assert "#nameless" in describe_violations(found)


def test_tab_order_names_each_stop(page: Page, site: Site) -> None:
    page.goto(site.url("/login"))
    # The skip link and the language switch of every page come first, then the form.
    assert tab_order(page) == ['a "Skip to content"', 'a "Deutsch"', 'a "English"',
                               'input#email "Email"', 'input#password "Password"',
                               'button "Sign in"']  # fmt: skip


def test_what_a_page_did_wrong_is_what_fails_the_test(chromium: Browser, site: Site) -> None:
    opened = Browse(chromium)  # as the ``browse`` fixture does, which fails on these
    page = opened(site)
    page.goto(site.url("/login"))
    page.evaluate("() => fetch('http://example.com/x').catch(() => null)")
    page.evaluate("console.error('broken on purpose')")
    problems = opened.close()
    assert problems[0] == "non-local request (blocked): GET http://example.com/x"
    assert problems[1].startswith("console error: broken on purpose")
    assert len(problems) == 2

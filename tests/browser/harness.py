"""What a browser test does with a page: watch it (every non-local request blocked and
recorded, console errors and uncaught errors collected), take screenshots, look at it in
both languages and at phone and desktop size, check it with axe-core, and drive it by
keyboard.

The fixtures that hand out such pages are in ``tests/browser/conftest.py``.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from tests.conftest import REPO

if TYPE_CHECKING:
    from playwright.sync_api import (
        BrowserContext,
        ConsoleMessage,
        Page,
        Route,
        ViewportSize,
        WebSocketRoute,
    )

#: Where axe-core comes from: the copy the pages vendor, else the tests' own copy.
AXE_SOURCES = (
    REPO / "tournament" / "web" / "static" / "vendor" / "axe.min.js",
    Path(__file__).parent / "vendor" / "axe.min.js",
)

#: The sizes every page is looked at: a phone in a club hall, and a desktop.
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
SIZES: dict[str, ViewportSize] = {"phone": PHONE, "desktop": DESKTOP}
LANGUAGES = ("de", "en")


# --- Watching a page ---------------------------------------------------------------------


@dataclass
class PageWatch:
    """What the pages of one browser context did that a test must not let pass: requests
    to any host but the served app's (each aborted before it leaves), console errors and
    uncaught errors. The ``browse`` fixture fails the test at its end when any is left."""

    origin: str  # http://127.0.0.1:<port>
    blocked: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    #: Console errors a test expects (a 401 answer to a wrong password is logged as
    #: "Failed to load resource"): regular expressions, matched with ``search``.
    allowed_console: list[re.Pattern[str]] = field(default_factory=list)

    def is_local(self, url: str) -> bool:
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob", "about"):
            return True  # never leaves the browser
        # The app's own live streams may one day be a WebSocket: same host and port.
        same_host = self.origin.replace("http://", "ws://", 1)
        return f"{parts.scheme}://{parts.netloc}" in (self.origin, same_host)

    def attach(self, context: BrowserContext) -> None:
        context.route("**/*", self._route)
        context.route_web_socket(re.compile(".*"), self._route_socket)
        context.on("page", self.watch_page)

    def watch_page(self, page: Page) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.page_errors.append(f"{page.url}: {error}"))

    def _route(self, route: Route) -> None:
        if self.is_local(route.request.url):
            route.continue_()
        else:
            self.blocked.append(f"{route.request.method} {route.request.url}")
            route.abort("blockedbyclient")

    def _route_socket(self, socket: WebSocketRoute) -> None:
        if self.is_local(socket.url):
            socket.connect_to_server()
        else:
            self.blocked.append(f"WEBSOCKET {socket.url}")
            socket.close()

    def _console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        where = message.location.get("url", "") if message.location else ""
        line = f"{message.text} ({where})" if where else message.text
        # A blocked request is reported once, as blocked, not again as a console error.
        if "ERR_BLOCKED_BY_CLIENT" in line:
            return
        if not any(pattern.search(line) for pattern in self.allowed_console):
            self.console_errors.append(line)

    def allow_console(self, pattern: str) -> None:
        """Let console errors matching ``pattern`` pass (say in the test why they come)."""
        self.allowed_console.append(re.compile(pattern))

    def take_blocked(self) -> list[str]:
        """The blocked requests so far, forgotten (for a test that expects some)."""
        found, self.blocked = self.blocked, []
        return found

    def problems(self) -> list[str]:
        return (
            [f"non-local request (blocked): {url}" for url in self.blocked]
            + [f"console error: {text}" for text in self.console_errors]
            + [f"uncaught error: {text}" for text in self.page_errors]
        )


# --- Screenshots -------------------------------------------------------------------------


def artifacts_dir() -> Path:
    """This run's folder for screenshots: ``$SCHNAPSEN_ARTIFACTS``, else
    ``artifacts/browser/<timestamp>/`` in the checkout (gitignored). The xdist workers of
    one run share one folder: the first to ask claims it under the run's id."""
    given = os.environ.get("SCHNAPSEN_ARTIFACTS")
    folder = Path(given) if given else _run_folder(REPO / "artifacts" / "browser")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


_RUN_FOLDER: Path | None = None


def _run_folder(base: Path) -> Path:
    global _RUN_FOLDER
    if _RUN_FOLDER is not None:
        return _RUN_FOLDER
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run_id:
        claims = base / ".runs"
        claims.mkdir(parents=True, exist_ok=True)
        claim = claims / run_id
        with contextlib.suppress(FileExistsError):
            descriptor = os.open(claim, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
            os.write(descriptor, stamp.encode())
            os.close(descriptor)
        # The claim may be empty for an instant after another worker made it.
        for _ in range(100):
            stamp = claim.read_text().strip()
            if stamp:
                break
            time.sleep(0.01)
    _RUN_FOLDER = base / stamp
    return _RUN_FOLDER


def shot(page: Page, name: str, *, full_page: bool = True) -> Path:
    """A PNG of ``page`` (the whole page, or what the screen shows) as
    ``<artifacts>/<name>.png`` (names are unique per test: say the page, the language and
    the size)."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")
    path = artifacts_dir() / f"{safe}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


# --- Both languages, both sizes ----------------------------------------------------------


@dataclass(frozen=True)
class View:
    """One way of looking at a page: a language and a screen size."""

    lang: str
    size: str

    @property
    def name(self) -> str:
        return f"{self.lang}-{self.size}"


def with_lang(url: str, lang: str) -> str:
    """``url`` with ``?lang=`` set (the pages keep it in a cookie: tournament.web.i18n)."""
    parts = urlsplit(url)
    query = [(key, value) for key, value in parse_qsl(parts.query) if key != "lang"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("lang", lang)])))


def in_every_view(
    page: Page,
    url: str,
    look: Callable[[View], Any] | None = None,
    *,
    full_page: bool = True,
    languages: tuple[str, ...] = LANGUAGES,
) -> list[Path]:
    """Open ``url`` in German and English (``languages``), each at phone and desktop size; call
    ``look(view)`` on each (it asserts what it sees) and take a screenshot named after the
    page and the view (``full_page=False``: the screen only, for a very long page).
    Returns the screenshots."""
    shots = []
    page_name = urlsplit(url).path.strip("/").replace("/", "-") or "home"
    for lang in languages:
        for size, viewport in SIZES.items():
            view = View(lang, size)
            page.set_viewport_size(viewport)
            answer = page.goto(with_lang(url, lang))
            assert answer is not None and answer.ok, (url, view, answer and answer.status)
            if look is not None:
                look(view)
            shots.append(shot(page, f"{page_name}-{view.name}", full_page=full_page))
    return shots


def fits_width(page: Page) -> bool:
    """Whether the page needs no sideways scrolling (a phone's first check)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


# --- Accessibility (axe-core) ------------------------------------------------------------


def axe_source() -> str:
    for path in AXE_SOURCES:
        if path.exists():
            return path.read_text()
    raise AssertionError(f"axe-core is not vendored: none of {AXE_SOURCES}")


def axe_violations(page: Page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[Any]:
    """axe-core's violations of ``impacts`` on the page as it is now. axe is put in
    through the DevTools protocol (``evaluate``), so a page's Content-Security-Policy
    cannot keep it out and the page itself loads nothing for it."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source() + "\n;undefined")
    results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [found for found in results["violations"] if found["impact"] in impacts]


def describe_violations(violations: list[Any]) -> str:
    """Violations as a reader wants them: rule, impact, help, and each element at
    fault with its selector and HTML."""
    lines = []
    for found in violations:
        lines.append(f"[{found['impact']}] {found['id']}: {found['help']} ({found['helpUrl']})")
        for node in found["nodes"]:
            lines.append(f"    at {' '.join(node['target'])}: {node['html']}")
            summary = node.get("failureSummary") or ""
            lines.extend(f"        {text}" for text in summary.splitlines())
    return "\n".join(lines)


def assert_accessible(page: Page) -> None:
    """No serious or critical axe-core violation on the page."""
    violations = axe_violations(page)
    assert not violations, f"axe-core on {page.url}:\n{describe_violations(violations)}"


# --- Keyboard ----------------------------------------------------------------------------

#: How a focused element is named in a tab order: tag, id or name, and its label text.
_DESCRIBE_FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return 'body';
  const key = el.id ? '#' + el.id : (el.name ? '[name=' + el.name + ']' : '');
  const text = (el.labels && el.labels[0] ? el.labels[0].innerText : el.innerText || '').trim();
  return el.tagName.toLowerCase() + key + (text ? ' "' + text.slice(0, 40) + '"' : '');
}"""


def focused(page: Page) -> str:
    """The focused element, described: ``input#email "Email"``, ``button "Sign in"``."""
    return str(page.evaluate(_DESCRIBE_FOCUS))


def tab_order(page: Page, stops: int = 30) -> list[str]:
    """The elements Tab visits from the top of the page, until the focus leaves the page
    (to the browser's own controls) or comes round again to the first (or ``stops``
    presses)."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    seen: list[str] = []
    for _ in range(stops):
        page.keyboard.press("Tab")
        now = focused(page)
        if now == "body" or (seen and now == seen[0]):
            break
        seen.append(now)
    return seen


def tab_to(page: Page, selector: str, presses: int = 30) -> int:
    """Press Tab until ``selector`` has the focus; the number of presses it took (fails
    if it never gets the focus)."""
    target = page.locator(selector)
    for count in range(1, presses + 1):
        page.keyboard.press("Tab")
        if target.evaluate("el => el === document.activeElement"):
            return count
    raise AssertionError(f"Tab never reached {selector}: {tab_order(page)}")


def press(page: Page, *keys: str) -> None:
    """Press ``keys`` one after another (``"Tab"``, ``"Shift+Tab"``, ``"Enter"``)."""
    for key in keys:
        page.keyboard.press(key)


def type_text(page: Page, text: str) -> None:
    """Type ``text`` into the focused element, key by key as a person would."""
    page.keyboard.type(text)


@contextlib.contextmanager
def expect_navigation(page: Page, path: str) -> Iterator[None]:
    """Wait, after the block, until the page is at ``path`` (of this site)."""
    yield
    page.wait_for_url(re.compile(re.escape(path) + r"(\?.*)?$"))


@contextlib.contextmanager
def expect_swap(page: Page, body: str, timeout: int = 30_000) -> Iterator[None]:
    """Wait, after the block, until the live stream swapped a new ``body`` (a selector)
    into the page: its ``data-version`` is no longer what it was before the block."""
    before = page.locator(body).get_attribute("data-version")
    yield
    page.wait_for_function(
        "([body, before]) => document.querySelector(body).dataset.version !== before",
        arg=[body, before],
        timeout=timeout,
    )


def projected(web: Any, tid: str, patience: float = 60.0) -> None:
    """Until the projections (which the public pages read) hold every result entered in
    ``tid``: on a busy machine the projection thread can lag seconds behind the store,
    and a page looked at before then shows a part of the tournament."""
    deadline = time.monotonic() + patience
    while True:
        body = web.ok("GET", f"/api/v1/tournaments/{tid}/standings")
        if body["projection"]["source"] == "projection" and not body["projection"]["stale"]:
            return
        assert time.monotonic() < deadline, f"the projection of {tid} never caught up"
        time.sleep(0.05)

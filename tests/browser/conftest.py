"""A real Chromium driving the real app over HTTP.

- ``chromium``: one headless Debian Chromium (``/usr/bin/chromium``) per test process,
  driven by Playwright. Without Chromium or Playwright the browser tests skip; with
  ``SCHNAPSEN_REQUIRE_SERVICES=1`` (CI) they fail instead.
- ``site``: the app (``create_app`` on a SQLite file in ``tmp_path``, projections in a
  thread as ``tournament serve`` runs them) served by waitress on 127.0.0.1, with an
  admin account (``site.admin_email`` / ``ADMIN_PASSWORD``) and its API token
  (``site.admin_token``). ``fresh_site`` has no account yet, and a setup link.
- ``browse(site)``: a page of a new browser context on ``site``. Every request to another
  host is aborted before it leaves and recorded; console errors and uncaught errors are
  collected; the test fails at its end if any of these happened
  (``browse.watch(page)`` gives the record, to allow what a test expects).
- ``page``: ``browse(site)``.

Helpers for the pages (screenshots, both languages and sizes, axe-core, keyboard) are in
``tests/browser/harness.py``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from argon2 import PasswordHasher

from tests.browser.harness import PageWatch
from tests.conftest import REQUIRE_SERVICES
from tests.live.harness import Served
from tournament.app.services import services
from tournament.web import create_app

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = os.environ.get("SCHNAPSEN_CHROMIUM", "/usr/bin/chromium")
#: A name the browser resolves to 127.0.0.1 (and no other does): the app as a club laptop
#: serves it to the hall, under a name that is not "localhost" or "127.0.0.1".
CLUB_HOST = "schnapsen.club.test"
ADMIN_EMAIL = "admin@club.at"
ADMIN_PASSWORD = "a long password 1"


def _missing(what: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(f"{what} (SCHNAPSEN_REQUIRE_SERVICES=1: CI requires it)")
    pytest.skip(what)


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    """Headless Chromium for this test process (each xdist worker has its own)."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        _missing(f"Chromium is not installed at {CHROMIUM} (Debian: apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[dev]')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            # A second fence behind the routes: no name resolves but this machine's, so a
            # request the routes never saw (the browser's own) cannot leave either.
            # CLUB_HOST names this machine as a club's server would be named on its network.
            args=[
                f"--host-resolver-rules=MAP {CLUB_HOST} 127.0.0.1, MAP * ~NOTFOUND,"
                " EXCLUDE 127.0.0.1, EXCLUDE localhost"
            ],
        )
        yield browser
        browser.close()


class Site:
    """The app served over HTTP for one test."""

    def __init__(self, instance: Path, *, with_admin: bool, **config: Any) -> None:
        app = create_app(
            {
                "DATABASE_URL": f"sqlite:///{instance / 'site.sqlite3'}",
                "SECRET_KEY": "browser-test-secret",
                "INSTANCE_PATH": str(instance),
                "SESSION_COOKIE_SECURE": False,  # plain HTTP on 127.0.0.1
                # Cheap hashes: the service keeps argon2's defaults (tests/web does so too).
                "PASSWORD_HASHER": PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1),
                **config,
            }
        )
        self.app = app
        self.admin_email = ADMIN_EMAIL
        self.admin_password = ADMIN_PASSWORD
        self.admin_token = ""
        if with_admin:
            accounts = self.accounts
            accounts.add(ADMIN_EMAIL, ADMIN_PASSWORD, admin=True)
            _, self.admin_token = accounts.create_token(ADMIN_EMAIL, "browser tests")
        self.served = Served(app)

    @property
    def accounts(self) -> Any:
        with self.app.app_context():
            return services().accounts

    def url(self, path: str = "/", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.served.port}{path}"

    def setup_link(self) -> str:
        """A new one-time link that creates the first organiser (no account yet)."""
        secret = self.accounts.setup_token()
        assert secret is not None, "there is an account already"
        return self.url(f"/setup?token={secret}")

    def close(self) -> None:
        self.served.close()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    """The app over HTTP, with an admin account and token."""
    found = Site(tmp_path, with_admin=True)
    yield found
    found.close()


@pytest.fixture
def fresh_site(tmp_path: Path) -> Iterator[Site]:
    """The app over HTTP before its first account (for ``/setup``)."""
    found = Site(tmp_path, with_admin=False)
    yield found
    found.close()


class Browse:
    """Opens watched pages; at the test's end, fails it with everything they did wrong."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.watches: dict[int, PageWatch] = {}
        self.contexts: list[Any] = []

    def __call__(self, site: Site, host: str = "127.0.0.1", **context_options: Any) -> Page:
        """A new page in a context of its own; ``host``: the name the site is reached by
        (``CLUB_HOST``: as from another machine of a club's network)."""
        context = self.browser.new_context(
            viewport={"width": 1280, "height": 800},
            service_workers="block",  # a service worker's fetches would pass the routes by
            **context_options,
        )
        watch = PageWatch(site.url("", host=host))
        watch.attach(context)
        self.contexts.append(context)
        page = context.new_page()
        self.watches[id(page)] = watch
        return page

    def watch(self, page: Page) -> PageWatch:
        return self.watches[id(page)]

    def close(self) -> list[str]:
        # What happened while the test ran; not what closing the pages does to them (a
        # live stream cut off by the close is reported by htmx as a stream error).
        problems = [problem for watch in self.watches.values() for problem in watch.problems()]
        for context in self.contexts:
            context.close()
        return problems


@pytest.fixture
def browse(chromium: Browser) -> Iterator[Browse]:
    """``browse(site)``: a watched page on ``site`` (see the module's docstring)."""
    opened = Browse(chromium)
    yield opened
    problems = opened.close()
    if problems:
        pytest.fail("the page did what no page may:\n  " + "\n  ".join(problems), pytrace=False)


@pytest.fixture
def page(browse: Browse, site: Site) -> Page:
    """A watched page on ``site``."""
    return browse(site)

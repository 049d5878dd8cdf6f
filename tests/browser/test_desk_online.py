"""The desk's online tables in a real browser (issue 12): a time-up (T-clock) appears on
the page by itself, without a reload, because the overview refreshes every few seconds;
the page has no serious accessibility fault. The clock is the PlayService's own ``now``,
set ahead on the served app's service (the service itself is the real one)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from tests.browser.conftest import Site
from tests.browser.desk_steps import PATIENCE, sign_in_by_keyboard
from tests.browser.harness import assert_accessible
from tests.browser.test_public_page import a_swiss
from tests.web.played import run
from tournament.domain.commands.rounds import start_round
from tournament.web.live import play_service

if TYPE_CHECKING:  # playwright may be missing: the fixtures skip then
    from playwright.sync_api import Page


def test_a_time_up_appears_on_the_online_page_by_itself(page: Page, site: Site) -> None:
    web = a_swiss(site, rounds=2)
    run(web, "club", lambda t: start_round(t))
    with site.app.app_context():
        service = play_service()
        service.start("club", "3.1", move_seconds=30)
        for seat in (0, 1):  # both players opened their seats (T-online): the clock runs
            service.join("club", "3.1", seat, None)
    sign_in_by_keyboard(page, site, "/desk/t/club/online")
    row = page.locator('[id="status-3.1"]')
    assert "s left" in row.inner_text() and "time is up" not in row.inner_text()
    assert_accessible(page)
    service.now = lambda: datetime.now(UTC) + timedelta(seconds=31)
    page.locator('[id="status-3.1"].time-up').wait_for(timeout=PATIENCE)  # no reload
    assert "time is up (since" in row.inner_text()
    # restart, abandon, stop, and release each of the two seats (T-online)
    assert page.locator('[id="table-3.1"] form').count() == 5

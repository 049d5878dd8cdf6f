"""An online table's streams under waitress (T-online): a screen that leaves frees its
thread and its place under the cap within a second or two, not at the next keep-alive
(15 s), so a room of phones reloading their pages cannot fill the cap."""

from __future__ import annotations

import time

from tests.databases import Database
from tests.live.conftest import create_swiss, draw
from tests.live.harness import SseStream, wait_until
from tests.live.test_embedded import Embedded, start_embedded  # noqa: F401 - the fixture
from tournament.web.live import KEY as LIVE


def test_a_screen_that_leaves_an_online_table_frees_its_place_at_once(
    start_embedded: Embedded,  # noqa: F811 - the fixture
    sqlite_db: Database,
) -> None:
    served, http = start_embedded(sqlite_db, LIVE_MAX_STREAMS=2)  # keep-alive every 15 s
    create_swiss(http, "cup", players=4, rounds=2)
    match_id = draw(http, "cup")[0][0]
    base = f"/api/v1/tournaments/cup/matches/{match_id}"
    http.ok("POST", f"{base}/online", {"move_seconds": None})
    hub = served.app.extensions[LIVE].hub

    watchers = [SseStream(served.port, f"{base}/table/live", None).open() for _ in range(2)]
    assert [one.status for one in watchers] == [200, 200]
    assert hub.streams == 2  # each holds a place under the cap
    for one in watchers:
        one.close()
    left = time.monotonic()
    wait_until(lambda: hub.streams == 0 or None, 10, "both places free again", every=0.1)
    assert time.monotonic() - left < 5.0  # the next keep-alive would come only at 15 s

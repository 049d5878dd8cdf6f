"""One laptop, no Redis (issue 10: "the same projection code in-process (after each commit
and on a timer) and an in-process broker for live updates"): the web app over real HTTP
with ``PROJECTIONS="thread"``, as ``./dev serve`` runs it.

On a SQLite file (the laptop's store) and on PostgreSQL where the test says ``db``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.databases import Database
from tests.live.conftest import (
    WON_BY_FIRST,
    admin_token,
    create_swiss,
    draw,
    points,
    post_result,
    result_of,
    standings,
    web_config,
)
from tests.live.harness import Http, Served, SseStream, wait_until
from tournament.app.service import TournamentService
from tournament.domain.commands.results import record_tallies
from tournament.eventstore import SQLEventStore
from tournament.web.live import KEY as LIVE

Embedded = Callable[..., tuple[Served, Http]]


@pytest.fixture
def start_embedded(tmp_path: Path) -> Iterator[Callable[..., tuple[Served, Http]]]:
    """``start(db, **config)``: the app on ``db`` with its projections in a thread."""
    from tournament.web import create_app

    made: list[Served] = []

    def start(db: Database, **config: Any) -> tuple[Served, Http]:
        app = create_app(web_config(db, tmp_path, REDIS_URL=None, PROJECTIONS="thread", **config))
        token = admin_token(app)
        served = Served(app)
        made.append(served)
        return served, Http(served.port, token)

    yield start
    for served in made:
        served.close()


def test_a_result_posted_reaches_a_live_client_within_1s_and_the_projected_standings(
    start_embedded: Embedded, db: Database
) -> None:
    served, http = start_embedded(db)
    create_swiss(http, "cup", players=4, rounds=2)
    matches = draw(http, "cup")
    stream = served.stream("cup")
    stream.wait_for(lambda e: e.kind == "standings", 5, "the first snapshot")
    for decided, (match_id, winner) in enumerate(matches, 1):
        reply = post_result(http, "cup", match_id)
        assert reply.status == 201, reply.text
        event = stream.wait_for(result_of(match_id), 5, f"the result of {match_id}")
        assert event.at - reply.at < 1.0
        body = standings(http, "cup")
        assert body["projection"]["source"] == "projection"
        assert body["projection"]["stale"] is False
        assert points(body)[winner] == 1
        assert sum(points(body).values()) == decided
    stream.close()


def test_the_sweep_projects_a_result_the_command_line_stored_behind_the_services_back(
    start_embedded: Embedded, db: Database
) -> None:
    served, http = start_embedded(db)
    create_swiss(http, "cup", players=4, rounds=2)
    (match_id, winner), _ = draw(http, "cup")
    stream = served.stream("cup")
    stream.wait_for(lambda e: e.kind == "standings", 5, "the first snapshot")

    # `tournament results enter` in another process: its own store on the same database,
    # no nudge to the web process.
    cli = SQLEventStore(db.engine())
    TournamentService(cli).execute("cup", lambda t: record_tallies(t, match_id, [WON_BY_FIRST]))
    cli.close()
    stored = time.monotonic()

    event = stream.wait_for(result_of(match_id), 5, "the swept result")
    assert event.at - stored < 3.0  # the sweep runs every 2 s
    body = standings(http, "cup")
    assert body["projection"]["stale"] is False
    assert points(body)[winner] == 1
    stream.close()


def test_over_the_cap_of_live_streams_a_client_gets_503_with_retry_after(
    start_embedded: Embedded, sqlite_db: Database
) -> None:
    served, http = start_embedded(sqlite_db, LIVE_MAX_STREAMS=2, LIVE_KEEPALIVE=0.5)
    create_swiss(http, "cup", players=4, rounds=2)
    first, second = served.stream("cup"), served.stream("cup")
    assert (first.status, second.status) == (200, 200)

    third = served.stream("cup")
    assert third.status == 503
    assert int(third.headers["Retry-After"]) > 0
    assert third.headers["Content-Type"].startswith("application/problem+json")
    assert "live streams" in third.body

    first.close()  # its stream ends at its next write (a keep-alive): the place is free

    def admitted() -> SseStream | None:
        found = served.stream("cup")
        return found if found.status == 200 else None

    again = wait_until(admitted, 5, "a place for a new client after one left")
    for client in (second, again):
        client.close()


def test_a_client_that_leaves_frees_its_place_at_once_not_at_the_next_keep_alive(
    start_embedded: Embedded, sqlite_db: Database
) -> None:
    # A room of phones reloading the page: each reload leaves a stream behind. Under
    # waitress the stream sees its client go within a second, long before the next
    # keep-alive (15 s) would fail to write.
    served, http = start_embedded(sqlite_db, LIVE_MAX_STREAMS=2)
    create_swiss(http, "cup", players=4, rounds=2)
    first, second = served.stream("cup"), served.stream("cup")
    assert (first.status, second.status) == (200, 200)
    first.close()
    second.close()
    left = time.monotonic()
    hub = served.app.extensions[LIVE].hub

    # Asked of the hub, not by opening streams: each probe would hold a place itself.
    wait_until(lambda: hub.streams == 0 or None, 10, "both places free again", every=0.1)
    assert time.monotonic() - left < 10.0  # the next keep-alive would come only at 15 s
    again = [served.stream("cup"), served.stream("cup")]
    assert [one.status for one in again] == [200, 200]
    for client in again:
        client.close()


def test_a_quiet_stream_gets_a_keep_alive_comment_every_few_seconds(
    start_embedded: Embedded, sqlite_db: Database
) -> None:
    served, http = start_embedded(sqlite_db, LIVE_KEEPALIVE=0.5)
    create_swiss(http, "cup", players=4, rounds=2)
    stream = served.stream("cup")
    stream.wait_for(lambda e: e.kind == "standings", 5, "the first snapshot")
    one = stream.wait_for(lambda e: e.kind == "comment", 2, "a keep-alive")
    two = stream.wait_for(lambda e: e.kind == "comment", 2, "another keep-alive")
    assert one.text == two.text == ": keep-alive"
    assert 0.3 < two.at - one.at < 1.5
    stream.close()


def test_stopping_the_service_ends_its_live_streams_at_once(
    start_embedded: Embedded, sqlite_db: Database
) -> None:
    served, http = start_embedded(sqlite_db)  # keep-alive every 15 s: no write to fail
    create_swiss(http, "cup", players=4, rounds=2)
    stream = served.stream("cup")
    stream.wait_for(lambda e: e.kind == "standings", 5, "the first snapshot")
    served.app.extensions[LIVE].stop()  # what a server's shutdown calls
    assert stream.ended.wait(2), "the stream still holds its thread"
    assert served.app.extensions[LIVE].hub.streams == 0

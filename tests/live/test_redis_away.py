"""Redis goes away on a club server (issue 10: "With Redis down, results are still
accepted and stored; the nudge fails soft; pages and the API say the standings are stale
(since when); within 5 s of Redis returning they catch up").

The Redis here is the test's own redis-server, stopped with SIGTERM as an operator
would stop it and started again on the same port (empty: it keeps nothing on disk).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.live.conftest import create_swiss, draw, points, post_result, standings
from tests.live.harness import RedisServer, log_version, projected_version, wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

#: From Redis's return to fresh standings (issue 10).
CATCH_UP = 5.0


def test_results_are_stored_while_redis_is_away_the_standings_say_stale_and_catch_up(
    start_workers_mode: Any, own_redis: RedisServer
) -> None:
    # Login attempts are counted in Redis on a server (tournament/web/settings.py).
    mode = start_workers_mode(RATELIMIT_STORAGE_URI=own_redis.url)
    http = mode.http
    create_swiss(http, "cup", players=8, rounds=3)
    matches = draw(http, "cup")
    stream = mode.served.stream("cup")
    stream.wait_for(lambda e: e.kind == "standings", 5, "the first snapshot")
    wait_until(mode.subscribed, 5, "the web process's Redis subscription")
    assert post_result(http, "cup", matches[0][0]).status == 201
    stream.wait_for(lambda e: e.kind == "result", 5, "the first result, Redis up")

    mode.redis.stop()
    stopped = datetime.now(UTC)
    wait_until(lambda: not mode.subscribed(), 5, "the web process notices Redis is away")
    before = log_version(mode.engine, "cup")
    for match_id, _ in matches[1:3]:
        reply = post_result(http, "cup", match_id)
        assert reply.status == 201, reply.text  # accepted and stored
    assert log_version(mode.engine, "cup") > before
    assert projected_version(mode.engine, "cup") == before  # nothing projects them

    body = standings(http, "cup")
    freshness = body["projection"]
    assert freshness["stale"] is True
    assert freshness["log_version"] > freshness["version"] == before
    since = datetime.fromisoformat(freshness["stale_since"].replace("Z", "+00:00"))
    assert stopped - timedelta(seconds=1) <= since <= datetime.now(UTC)
    assert sum(points(body).values()) == 1  # the table shows what was projected

    page = http.call("GET", "/t/cup", Accept="text/html", Accept_Language="en")  # the page too
    assert page.status == 200 and "Not up to date:" in page.text
    ready = http.call("GET", "/readyz")  # still served (operator F4): degraded
    assert ready.status == 200
    body = ready.json()
    assert (body["status"], body["checks"]["database"]) == ("degraded", "ok")
    assert body["checks"]["redis"] != "ok"

    mode.redis.start()  # the same port, empty
    back = time.monotonic()
    wait_until(
        lambda: not standings(http, "cup")["projection"]["stale"],
        CATCH_UP, "fresh standings after Redis returned", every=0.1,
    )  # fmt: skip
    caught_up = log_version(mode.engine, "cup")
    assert sum(points(standings(http, "cup")).values()) == 3
    seen = stream.wait_for(
        lambda e: e.id is not None and e.id >= caught_up,
        max(0.1, back + CATCH_UP - time.monotonic()), "the live client told of the catch-up",
    )  # fmt: skip
    assert seen.data is not None and seen.data["stale"] is False
    assert http.call("GET", "/readyz").json()["status"] == "ready"

    # A client that connects now, behind, gets a snapshot at the caught-up version; and
    # results flow live again.
    late = mode.served.stream("cup", last_event_id=before)
    snapshot = late.wait_for(lambda e: e.kind != "retry", 5, "the snapshot")
    assert (snapshot.kind, snapshot.id) == ("standings", caught_up)
    wait_until(mode.subscribed, 5, "the web process's subscription is back")
    reply = post_result(http, "cup", matches[3][0])
    for client in (stream, late):
        got = client.wait_for(lambda e: e.kind == "result", 5, "a result, Redis back")
        assert got.at - reply.at < 1.0
        client.close()

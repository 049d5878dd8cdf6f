"""A club server's evening: results posted over HTTP are projected by a real Celery worker
and pushed to the live stream within a second (issue 10: Projections, Live push)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.live.conftest import create_swiss, draw, points, post_result, result_of, standings
from tests.live.harness import Event, Http, wait_until
from tests.live.paused_projections import paused_worker

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

#: From a result's answer to its ``result`` event on a live client (issue 10).
WITHIN = 1.0


def test_each_result_posted_is_in_the_projected_standings_and_on_the_live_stream_within_1s(
    start_workers_mode: Any,
) -> None:
    mode = start_workers_mode()
    http = mode.http
    create_swiss(http, "cup", players=8, rounds=3)
    matches = draw(http, "cup")
    stream = mode.served.stream("cup")
    assert stream.status == 200
    assert stream.headers["Content-Type"].startswith("text/event-stream")
    stream.wait_for(lambda e: e.kind == "standings", 5, "the first snapshot")
    wait_until(mode.subscribed, 5, "the web process's Redis subscription")
    for decided, (match_id, winner) in enumerate(matches, 1):
        reply = post_result(http, "cup", match_id)
        assert reply.status == 201, reply.text
        event = stream.wait_for(result_of(match_id), 5, f"the result of {match_id}")
        assert event.at - reply.at < WITHIN, f"{match_id}: {event.at - reply.at:.3f} s"
        body = standings(http, "cup")
        assert body["projection"]["source"] == "projection"
        assert body["projection"]["stale"] is False
        assert body["projection"]["version"] == body["projection"]["log_version"]
        assert event.id is not None and event.id <= body["projection"]["version"]
        assert points(body)[winner] == 1
        assert sum(points(body).values()) == decided  # one match point per result
    stream.close()


def test_a_client_reconnecting_at_the_current_version_resumes_and_one_behind_gets_a_snapshot(
    start_workers_mode: Any,
) -> None:
    mode = start_workers_mode(LIVE_KEEPALIVE=0.3)
    http = mode.http
    create_swiss(http, "cup", players=4, rounds=2)
    matches = draw(http, "cup")
    assert post_result(http, "cup", matches[0][0]).status == 201
    version = wait_until(lambda: fresh_version(http), 5, "the result projected")

    resumed = mode.served.stream("cup", last_event_id=version)
    assert resumed.next(5) is not None and resumed.seen[-1].kind == "retry"
    quiet = resumed.next(5)
    assert quiet is not None and quiet.kind == "comment", resumed.kinds()  # no snapshot
    wait_until(mode.subscribed, 5, "the web process's Redis subscription")

    behind = mode.served.stream("cup", last_event_id=version - 3)
    snapshot = behind.wait_for(lambda e: e.kind != "retry", 5, "the snapshot")
    assert (snapshot.kind, snapshot.id) == ("standings", version)
    assert snapshot.data is not None and snapshot.data["stale"] is False

    reply = post_result(http, "cup", matches[1][0])
    assert reply.status == 201
    for client in (resumed, behind):
        got: Event = client.wait_for(result_of(matches[1][0]), 5, "the next result")
        assert got.id is not None and got.id > version
        assert got.at - reply.at < WITHIN
        client.close()


def fresh_version(http: Http) -> int | None:
    freshness = standings(http, "cup")["projection"]
    return None if freshness["stale"] else int(freshness["version"])


def test_a_client_reading_the_standings_right_after_its_post_sees_its_result(
    start_workers_mode: Any, tmp_path: Path
) -> None:
    # The worker's next projection run takes 0.4 s longer (the test-only hook of
    # tests/live/paused_projections.py), and no live client has connected to this web
    # process yet.
    mark = tmp_path / "projection.mark"
    mark.write_text("setting up")
    mode = start_workers_mode(**paused_worker(0.4, mark))
    http = mode.http
    create_swiss(http, "cup", players=4, rounds=2)
    (match_id, winner), _ = draw(http, "cup")
    wait_until(lambda: fresh_version(http), 5, "the draw projected")
    mark.unlink()

    assert post_result(http, "cup", match_id).status == 201
    body = standings(http, "cup")  # waits (PROJECTION_WAIT, 1 s) for the slow run
    assert body["projection"]["stale"] is False
    assert mark.exists()  # the run did take its time
    assert points(body)[winner] == 1

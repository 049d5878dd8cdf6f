"""The figures an operator alerts on (operator F5): the live bus's state told truthfully
(a process that has not needed its subscription yet is no alarm), Redis reachable or not
and the Celery queue's depth read at the scrape (failing soft), and the projections' lag
in seconds."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import sqlalchemy as sa

from tests.deploy.processes import free_port, samples, wait_for
from tests.web.conftest import Web, make_web
from tournament.app.services import services
from tournament.eventstore.schema import checkpoints, events
from tournament.projections.lag import projection_lag
from tournament.web.live import live


def figures(web: Web) -> dict[str, float]:
    """The unlabelled samples of /metrics by name (one process: no pid label)."""
    text = web.get("/metrics", token=None).get_data(as_text=True)
    found = {}
    for name in (
        "schnapsen_live_bus_connected",
        "schnapsen_live_bus_subscribed",
        "schnapsen_live_streams",
        "schnapsen_redis_up",
        "schnapsen_celery_queue_length",
        "schnapsen_projection_lag_seconds",
    ):
        for value in samples(text, name).values():
            found[name] = value
    return found


def listen(web: Web) -> None:
    with web.app.app_context():
        live().listen()  # as a process's first stream does


def test_a_process_that_has_not_served_a_stream_is_no_bus_alarm_operator_f5(
    tmp_path: Path, redis_url: str
) -> None:
    web = make_web(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path, REDIS_URL=redis_url)
    try:
        before = figures(web)
        assert before["schnapsen_live_bus_connected"] == 1  # nothing missed: not needed yet
        assert before["schnapsen_live_bus_subscribed"] == 0  # the truth: not subscribed
        assert before["schnapsen_redis_up"] == 1
        assert before["schnapsen_celery_queue_length"] >= 0
        assert before["schnapsen_live_streams"] == 0
        listen(web)
        wait_for("the subscription", lambda: figures(web)["schnapsen_live_bus_subscribed"] == 1)
        assert figures(web)["schnapsen_live_bus_connected"] == 1
        with web.app.app_context():
            hub = live().hub
        slot = hub.subscribe("club")  # a stream opens: the gauge follows (written on change)
        assert figures(web)["schnapsen_live_streams"] == 1
        slot.close()
        assert figures(web)["schnapsen_live_streams"] == 0
    finally:
        live_state = web.app.extensions["schnapsen_live"]
        live_state.stop()


def test_redis_away_reads_0_where_it_matters_and_the_scrape_still_answers_operator_f5(
    tmp_path: Path,
) -> None:
    nowhere = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    web = make_web(
        f"sqlite:///{tmp_path / 'web.sqlite3'}",
        tmp_path,
        REDIS_URL=nowhere,
        RATELIMIT_STORAGE_URI="memory://",
    )
    try:
        before = figures(web)
        assert before["schnapsen_redis_up"] == 0
        assert "schnapsen_celery_queue_length" not in before  # unknown, not 0
        assert before["schnapsen_live_bus_connected"] == 1  # no stream needed it yet
        listen(web)
        wait_for("the cut-off", lambda: figures(web)["schnapsen_live_bus_connected"] == 0)
        assert figures(web)["schnapsen_live_bus_subscribed"] == 0
        assert figures(web)["schnapsen_projection_lag_seconds"] == 0
    finally:
        web.app.extensions["schnapsen_live"].stop()


def test_the_projection_lag_is_the_age_of_the_oldest_unprojected_event_operator_f5(
    web: Web,
) -> None:
    tid = web.tournament("club")
    with web.app.app_context():
        engine = services().store.engine
    assert projection_lag(engine) == (0, 0.0)  # projected at once (inline)
    with engine.begin() as conn:  # as if no worker had run since the tournament began
        conn.execute(sa.delete(checkpoints).where(checkpoints.c.name == f"projection:{tid}"))
        first = conn.execute(
            sa.select(sa.func.min(events.c.recorded_at)).where(events.c.stream_id.like(f"%{tid}"))
        ).scalar()
    assert first is not None
    lagging, seconds = projection_lag(engine, now=first + timedelta(seconds=42))
    assert lagging == 1
    assert seconds == 42.0
    assert figures(web)["schnapsen_projection_lag_seconds"] > 0

"""Opening a link never changes anything (AE-1): every GET route of the players' pages
(``/play``, ``/r``), the room's table pages and the play API writes no event, whoever
asks (a chat app's link preview, a prefetch, the seat's own phone), even at a table a
crash left with a hand over and unrecorded: that is made good by the table's next write
or by the background sweep, never by a reader. Checked on SQLite and PostgreSQL."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import Kind
from engine.randomplay import choose_action
from tests.web.conftest import Web, make_web
from tests.web.played import state
from tests.web.test_play_api import Table
from tournament.app.services import services
from tournament.domain.model.hands import action_event
from tournament.web import close_app
from tournament.web.live import play_service

#: The blueprints whose GET routes a player's link or a spectator may open.
BLUEPRINTS = ("play", "report", "play_api", "public_play")


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Web]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    else:
        url = request.getfixturevalue("pg_db").schema_url
    # The tests sweep by hand: the background sweep (every 3 s) must not repair the
    # interrupted hand first while a slow machine is still opening the links.
    found = make_web(url, tmp_path, LIVE_KEEPALIVE=0.2, ONLINE_SWEEP_SECONDS=3600)
    yield found
    close_app(found.app)


def get_routes(web: Web) -> list[tuple[str, str]]:
    """(endpoint, rule) of every GET route of :data:`BLUEPRINTS`."""
    return sorted(
        (rule.endpoint, rule.rule)
        for rule in web.app.url_map.iter_rules()
        if "GET" in (rule.methods or ()) and rule.endpoint.split(".")[0] in BLUEPRINTS
    )


def paths(web: Web, table: Table) -> Iterator[tuple[str, str]]:
    """(endpoint, path) of each GET route, with each seat's code where it takes one."""
    values = {"tid": table.tid, "mid": table.mid, "number": "1"}
    for endpoint, rule in get_routes(web):
        codes = table.codes if "<code>" in rule else ("",)
        for code in codes:
            path = rule
            for name, value in {**values, "code": code}.items():
                path = re.sub(rf"<(?:\w+:)?{name}>", value, path)
            yield endpoint, path


def events(web: Web) -> int:
    with web.app.app_context():
        return len(services().store.read_all())


def opened(client: Any, path: str, headers: dict[str, str]) -> int:
    """GET ``path`` as a browser or a link preview does; a stream is read to its first
    message and closed."""
    reply = client.get(path, headers=headers, buffered=False)
    try:
        if reply.mimetype == "text/event-stream":
            next(iter(reply.response))
        else:
            reply.get_data()
    finally:
        reply.close()
    return int(reply.status_code)


def open_every_link(web: Web, table: Table, who: dict[str, Any]) -> list[str]:
    """Every GET route opened by each of ``who`` (name -> (client, headers)); the ones
    that changed the event count."""
    seen: set[str] = set()
    wrote = []
    for endpoint, path in paths(web, table):
        seen.add(endpoint)
        for name, (client, headers) in who.items():
            before = events(web)
            status = opened(client, path, headers)
            assert status < 500, (name, path, status)
            if events(web) != before:
                wrote.append(f"{name} GET {path}")
    assert {e for e, _ in get_routes(web)} == seen
    return wrote


def interrupt_a_hand(web: Web, table: Table) -> None:
    """Play the first hand until a seat may claim, and store the claim (which ends the
    hand, R12a) without its result, as a crash between the two would leave it."""
    with web.app.app_context():
        play = play_service()
        rng = random.Random(5)
        now = play.moment(table.tid, table.mid)
        while True:
            assert now.state is not None and now.stream is not None
            claims = [a for a in now.state.legal_actions() if a.kind == Kind.CLAIM]
            if claims:
                action = claims[0]
                break
            action = choose_action(now.state, rng)
            now = play.act(table.tid, table.mid, action.seat, action.to_json(), now.version)
        services().store.append(now.stream, [action_event(action)], now.version)


def test_no_get_of_a_table_link_writes_an_event(app: Web) -> None:
    table = Table(app, join=False)
    preview = app.app.test_client()  # a chat app's link preview: no cookie, no script
    assert open_every_link(app, table, {"preview": (preview, {})}) == []
    assert not state(app, table.tid).online[table.mid].devices, "no seat was taken"
    table.tokens = [table.join(0), table.join(1)]
    phone = app.app.test_client()  # seat 0's phone: its device cookie is its token
    phone.set_cookie("device", table.tokens[0])
    who = {
        "preview": (preview, {}),
        "phone": (phone, {}),
        "client": (app.client, table.device(1)),
        "organiser": (app.client, {"Authorization": f"Bearer {app.admin()}"}),
    }
    interrupt_a_hand(app, table)
    assert open_every_link(app, table, who) == []
    t = state(app, table.tid)
    assert len(t.online[table.mid].hands) == 1 and not t.live_results, "nothing settled"
    with app.app.app_context():
        assert play_service().sweep() == [f"{table.tid}/{table.mid}"]  # the sweep does
    t = state(app, table.tid)
    assert len(t.live_results) == 1 and len(t.online[table.mid].hands) == 2

"""The short way for a plain standings GET (tournament.web.standings_shortcut, trial 9
P1) answers exactly what the long way through Flask answers: status, every header in
order, the body, the access log line and the metrics; and leaves every other request,
and every answer it cannot give from what it holds, to the long way."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from werkzeug.test import Client

from tests.web import played
from tests.web.conftest import Web
from tests.web.helpers import execute
from tournament.domain import commands as c
from tournament.web import metrics
from tournament.web.standings_shortcut import ROUTE, StandingsShortcut

STANDINGS = "/api/v1/tournaments/{}/standings"
SAME_ID = "compare-0123456789"


class Ways:
    """The app's long way (Flask's own wsgi_app) and a shortcut in front of it that
    counts what it passes on."""

    def __init__(self, web: Web) -> None:
        shortcut = web.app.wsgi_app
        assert isinstance(shortcut, StandingsShortcut)  # create_app installs it
        self.long_way: Callable[..., Iterable[bytes]] = shortcut.inner
        self.passed_on = 0

        def counting(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
            self.passed_on += 1
            return self.long_way(environ, start_response)

        self.short = Client(StandingsShortcut(web.app, counting), use_cookies=False)
        self.long = Client(self.long_way, use_cookies=False)


def answer(client: Client, path: str, **headers: str) -> tuple[str, list[tuple[str, str]], bytes]:
    reply = client.get(path, headers=headers)
    return reply.status, list(reply.headers.items()), reply.get_data()


def log_lines(err: str) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    for line in lines:
        line.pop("timestamp", None)
        line.pop("ms", None)
    return [line for line in lines if line.get("event") == "request"]


def counted(web: Web, status: int) -> float:
    found = metrics.of(web.app)
    assert found is not None
    return found.requests.labels("GET", ROUTE, str(status))._value.get()  # type: ignore[attr-defined]


@pytest.mark.parametrize("store", ["web", "web_pg"])
def test_the_short_way_answers_header_for_header_as_flask_does(
    store: str, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    web: Web = request.getfixturevalue(store)
    tid = played.swiss(web, rounds=2)
    path = STANDINGS.format(tid)
    ways = Ways(web)
    first = answer(ways.long, path)  # the long way makes the body for this version
    assert first[0] == "200 OK"
    tag = dict(first[1])["ETag"]
    for sent in ({}, {"If-None-Match": tag}, {"Accept": "application/json"}):
        capsys.readouterr()
        before = {status: counted(web, status) for status in (200, 304)}
        short = answer(ways.short, path, **sent, **{"X-Request-ID": SAME_ID})
        assert ways.passed_on == 0, f"{sent}: the short way passed it on"
        short_log = log_lines(capsys.readouterr().err)
        long = answer(ways.long, path, **sent, **{"X-Request-ID": SAME_ID})
        long_log = log_lines(capsys.readouterr().err)
        assert short == long, sent
        assert short_log == long_log and len(short_log) == 1, (short_log, long_log)
        assert short_log[0]["request_id"] == SAME_ID
        status = 304 if "If-None-Match" in sent else 200
        assert counted(web, status) == before[status] + 2  # one each way
    # Without an id of its own, each gets a new one, as from the long way.
    assert len(dict(answer(ways.short, path)[1])["X-Request-ID"]) == 32
    assert ways.passed_on == 0


def test_what_the_short_way_cannot_answer_goes_the_long_way_alike(web: Web) -> None:
    tid = played.swiss(web, rounds=2)
    path = STANDINGS.format(tid)
    ways = Ways(web)
    cases: list[tuple[str, dict[str, str]]] = [
        (path, {}),  # the first request of a version: its body is made the long way
        (path + "?round=1", {}),
        (path + "?bogus=1", {}),  # 422, a problem
        (path, {"Accept": "text/csv"}),
        (path, {"Accept": "image/png"}),  # 406
        (path, {"Authorization": "Bearer nonsense"}),  # 401
        (path, {"Cookie": "session=forged"}),
        (STANDINGS.format("no-such-tournament"), {}),  # 404
        (STANDINGS.format("bad.id"), {}),  # 422: not an id
        (path + "/", {}),
    ]
    for asked, sent in cases:
        passed = ways.passed_on
        short = answer(ways.short, asked, **sent, **{"X-Request-ID": SAME_ID})
        assert ways.passed_on == passed + 1, (asked, sent)
        assert short == answer(ways.long, asked, **sent, **{"X-Request-ID": SAME_ID})
    old_tag = dict(answer(ways.short, path)[1])["ETag"]
    # A result moves the log on: the projection (inline here) too, and the next plain GET
    # is the long way's (a new version's body), then the short way's with the new table.
    execute(web, tid, lambda t: c.start_round(t))
    before = ways.passed_on
    new = answer(ways.short, path)
    assert ways.passed_on == before + 1 and new[0] == "200 OK"
    again = answer(ways.short, path)
    assert ways.passed_on == before + 1 and again[2] == new[2]
    assert dict(again[1])["ETag"] == dict(new[1])["ETag"] != old_tag

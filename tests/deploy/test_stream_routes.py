"""Operator F1: every Server-Sent Events route of the app reaches the gevent stream
processes through the deploy's proxy, and no other route does.

The app says which of its views are streams (``tournament.web.streaming.event_stream``);
this reads its URL map, makes a path for each rule, and asks which location nginx
picks for it (nginx's own order: exact, longest prefix with ``^~``, regexes in order,
longest prefix), in deploy/nginx.conf and in every nginx example of docs/deploy.md.
"""

from __future__ import annotations

import re
import runpy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.deploy.files import DEPLOY, REPO, Block, command, nginx, services, unit
from tests.web.conftest import make_web
from tournament.web.docs_ui import api_document
from tournament.web.streaming import EVENT_STREAM, is_event_stream

LIVE = "http://schnapsen_live"
WEB = "http://schnapsen_web"
DOCS = REPO / "docs" / "deploy.md"

#: Values for a rule's variables, by name; several, so that a regex too narrow for one
#: of them (a dotted match id, a tid with digits) shows.
SAMPLES: dict[str, tuple[str, ...]] = {
    "tid": ("freitag-2026", "cup"),
    "mid": ("2.1", "qf-3"),
    "code": ("RAJXXV", "K7M2QP"),
}
DEFAULT_SAMPLES = ("x1", "some-thing")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    where = tmp_path_factory.mktemp("routes")
    return make_web(f"sqlite:///{where / 'routes.sqlite3'}", where).app


def paths(rule: Any) -> Iterator[str]:
    """Paths the rule answers, one per sample of each of its variables."""
    names = re.findall(r"<(?:[^:>]+:)?([^>]+)>", rule.rule)
    for n in range(2):
        path = rule.rule
        for name in names:
            sample = SAMPLES.get(name, DEFAULT_SAMPLES)[n]
            path = re.sub(r"<(?:[^:>]+:)?" + re.escape(name) + ">", sample, path, count=1)
        yield path


def routes(app: Any) -> Iterator[tuple[str, bool]]:
    """Each GET rule's paths, and whether the rule's view answers a stream."""
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()):
            continue
        stream = is_event_stream(app.view_functions[rule.endpoint])
        for path in paths(rule):
            yield path, stream


def pick(server: Block, path: str) -> Block | None:
    """The location nginx picks for ``path`` in ``server`` (nginx's documented order)."""
    locations = server.children("location")
    for block in locations:
        if block.args[0] == "=" and block.args[1] == path:
            return block
    prefixes = [
        b
        for b in locations
        if (len(b.args) == 1 or b.args[0] == "^~") and path.startswith(b.args[-1])
    ]
    longest = max(prefixes, key=lambda b: len(b.args[-1]), default=None)
    if longest is not None and longest.args[0] == "^~":
        return longest
    for block in locations:
        if block.args[0] in ("~", "~*"):
            flags = re.IGNORECASE if block.args[0] == "~*" else 0
            if re.search(block.args[1], path, flags):
                return block
    return longest


def upstream_of(server: Block, path: str) -> str | None:
    found = pick(server, path)
    proxy = found.first("proxy_pass") if found is not None else None
    return proxy[0] if proxy else None


def proxy_servers() -> Iterator[tuple[str, Block]]:
    """Every server block that proxies to the app: deploy/nginx.conf's, and those of each
    nginx example in docs/deploy.md."""
    for server in nginx().children("http")[0].children("server"):
        if server.first("ssl_certificate"):
            yield "deploy/nginx.conf", server
    text = DOCS.read_text()
    for n, block in enumerate(re.findall(r"```nginx\n(.*?)```", text, flags=re.DOTALL)):
        if "schnapsen_live" not in block:
            continue
        snippet = Path(__file__).parent / f".docs-nginx-{n}.conf"
        try:
            snippet.write_text(block)
            root = nginx(snippet)
        finally:
            snippet.unlink(missing_ok=True)
        servers = [s for top in (root, *root.children("http")) for s in top.children("server")]
        for server in servers or [root]:
            yield f"docs/deploy.md, nginx example {n + 1}", server


def test_the_app_marks_its_streams_and_has_the_five_of_the_finding(app: Any) -> None:
    marked = {
        rule.rule
        for rule in app.url_map.iter_rules()
        if is_event_stream(app.view_functions[rule.endpoint])
    }
    assert marked >= {
        "/api/v1/tournaments/<tid>/live",
        "/api/v1/play/<code>/live",
        "/api/v1/tournaments/<tid>/matches/<mid>/table/live",
        "/play/<code>/events",
        "/t/<tid>/matches/<mid>/table/events",
    }
    assert "/api/v1/tournaments/<tid>/events" not in marked  # paginated JSON


def test_every_api_operation_documented_as_a_stream_is_marked(app: Any) -> None:
    """The OpenAPI document says which operations answer text/event-stream: each of them
    carries the mark the routing is checked by (a stream route cannot hide from it)."""
    doc = api_document(app)
    documented = {
        re.sub(r"\{([^}]+)\}", r"<\1>", path)
        for path, operations in doc["paths"].items()
        for operation in operations.values()
        if EVENT_STREAM in operation.get("responses", {}).get("200", {}).get("content", {})
    }
    marked = {
        rule.rule
        for rule in app.url_map.iter_rules()
        if is_event_stream(app.view_functions[rule.endpoint])
    }
    assert documented and documented <= marked


def test_every_stream_route_goes_to_the_stream_processes_and_nothing_else_does(
    app: Any,
) -> None:
    checked = 0
    for where, server in proxy_servers():
        wrong = []
        for path, stream in routes(app):
            expected = LIVE if stream else WEB
            found = upstream_of(server, path)
            if found != expected:
                wrong.append(f"{path} -> {found} (a {'stream' if stream else 'plain route'})")
        assert not wrong, f"{where} routes these wrongly:\n" + "\n".join(wrong)
        checked += 1
    assert checked >= 1


def test_the_paginated_log_and_other_look_alikes_stay_with_the_web_processes() -> None:
    (server,) = [s for where, s in proxy_servers() if where == "deploy/nginx.conf"]
    for path in (
        "/api/v1/tournaments/cup/events",
        "/api/v1/tournaments/cup/matches/2.1/table",
        "/api/v1/tournaments/cup/live/extra",
        "/t/cup/matches/2.1/table",
        "/play/RAJXXV",
    ):
        assert upstream_of(server, path) == WEB, path


def test_the_stream_processes_are_the_gevent_ones_in_compose_and_systemd() -> None:
    live = runpy.run_path(str(DEPLOY / "gunicorn" / "live.py"))
    web = runpy.run_path(str(DEPLOY / "gunicorn" / "web.py"))
    assert live["worker_class"] == "gevent" and web["worker_class"] == "gthread"
    assert command(services()["live"])[:3] == ["gunicorn", "-c", "deploy/gunicorn/live.py"]
    assert command(services()["web"])[:3] == ["gunicorn", "-c", "deploy/gunicorn/web.py"]
    assert "deploy/gunicorn/live.py" in unit("schnapsen-live.service").words("ExecStart")
    assert "deploy/gunicorn/web.py" in unit("schnapsen-web.service").words("ExecStart")
    # nginx's two upstreams are the ports the two configurations bind.
    upstreams = {
        u.args[0]: u.first("server") for u in nginx().children("http")[0].children("upstream")
    }
    assert upstreams["schnapsen_live"][0].split(":")[1] == live["bind"][0].split(":")[1]  # type: ignore[index]
    assert upstreams["schnapsen_web"][0].split(":")[1] == web["bind"][0].split(":")[1]  # type: ignore[index]


def test_a_room_reconnecting_at_once_fits_the_stream_processes_listen_queue() -> None:
    """Trial 9, P6: a stream process that restarts sends its thousands of clients back at
    once; its listening socket queues as many as it holds, so none waits for a SYN's
    retransmission (1 s, 3 s, 7 s ...) to get in."""
    live = runpy.run_path(str(DEPLOY / "gunicorn" / "live.py"))
    assert live["backlog"] >= live["worker_connections"] > live["streams"]

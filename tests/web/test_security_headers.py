"""Browser security headers on every page and API answer, and ``/metrics`` kept to the
laptop on the club's network (issue 21, trial 2 F13)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.web.conftest import Web, make_web

TEMPLATES = Path(__file__).resolve().parents[2] / "tournament" / "web" / "templates"


def directives(policy: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            found[words[0]] = words[1:]
    return found


@pytest.mark.parametrize(
    "path",
    [
        "/login",
        "/desk",
        "/t/club",
        "/t/club/standings",
        "/api/v1/tournaments/club/standings",
        "/api/v1/tournaments/nowhere",  # a problem+json answer
        "/nowhere",  # a 404 page
        "/static/app.css",
        "/healthz",
    ],
)
def test_every_answer_carries_the_security_headers(web: Web, path: str) -> None:
    web.tournament("club")
    reply = web.client.get(path)
    policy = directives(reply.headers["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]  # no inline script, nothing from elsewhere
    assert policy["style-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["object-src"] == ["'none'"]
    assert reply.headers["X-Frame-Options"] == "DENY"
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert reply.headers["Referrer-Policy"] == "same-origin"


def test_the_api_docs_page_has_its_own_policy_and_still_may_not_be_framed(web: Web) -> None:
    policy = directives(web.client.get("/docs/").headers["Content-Security-Policy"])
    assert "'unsafe-inline'" in policy["script-src"]  # Swagger UI's start script
    assert policy["frame-ancestors"] == ["'none'"]


def test_no_page_template_holds_an_inline_script_or_handler() -> None:
    inline = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>")
    handler = re.compile(r"\son[a-z]+\s*=|hx-on|javascript:", re.I)
    found = [
        f"{path.relative_to(TEMPLATES)}: {match.group(0)}"
        for path in TEMPLATES.rglob("*.html")
        for pattern in (inline, handler)
        for match in pattern.finditer(path.read_text())
    ]
    assert found == []


def test_metrics_answer_only_the_laptop_itself_when_it_listens_on_the_lan(tmp_path: Path) -> None:
    web = make_web(f"sqlite:///{tmp_path / 'w.sqlite3'}", tmp_path, METRICS_LOOPBACK_ONLY=True)
    assert web.client.get("/metrics").status_code == 200  # from 127.0.0.1
    phone = web.client.get("/metrics", environ_base={"REMOTE_ADDR": "192.168.1.23"})
    assert phone.status_code == 403
    assert phone.mimetype == "application/problem+json"
    assert b"schnapsen_http_requests" not in phone.data


def test_metrics_answer_another_machine_that_sends_the_metrics_token(tmp_path: Path) -> None:
    web = make_web(
        f"sqlite:///{tmp_path / 'w.sqlite3'}",
        tmp_path,
        METRICS_LOOPBACK_ONLY=True,
        METRICS_TOKEN="scrape-me-please",
    )
    elsewhere = {"REMOTE_ADDR": "192.168.1.5"}
    good = {"Authorization": "Bearer scrape-me-please"}
    bad = {"Authorization": "Bearer guessed"}
    assert web.client.get("/metrics", environ_base=elsewhere, headers=good).status_code == 200
    assert web.client.get("/metrics", environ_base=elsewhere, headers=bad).status_code == 403
    assert web.client.get("/metrics", environ_base=elsewhere).status_code == 403


def test_metrics_of_a_server_behind_its_proxy_answer_as_before(tmp_path: Path) -> None:
    # Without --lan and without a token the proxy keeps /metrics to the monitoring
    # network (deploy/nginx.conf): the service answers what reaches it.
    web = make_web(f"sqlite:///{tmp_path / 'w.sqlite3'}", tmp_path)
    reply = web.client.get("/metrics", environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert reply.status_code == 200


def test_serve_lan_keeps_metrics_to_the_laptop_and_caps_bodies_on_waitress(
    tmp_path: Path,
) -> None:
    import http.client
    import signal
    import urllib.parse

    from tests.web.test_serve import Served, browser, fetch
    from tournament.web.server import lan_address

    address = lan_address()
    if address is None:
        pytest.skip("this machine has no network but loopback")
    served = Served(tmp_path, "--lan", "--port", "0")
    try:
        club = served.wait_for(r"On the club network: (http://\S+)")
        assert fetch(browser(), served.url + "metrics")[0] == 200  # the laptop itself
        status, _body, headers = fetch(browser(), club + "metrics")  # a phone in the hall
        assert status == 403
        assert headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        # A body sent chunked, without a length, is cut at the cap by the app itself.
        port = urllib.parse.urlsplit(served.url).port
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        chunks = (b" " * 65536 for _ in range(40))  # 2.5 MB
        connection.request(
            "POST", "/api/v1/tokens", body=chunks, encode_chunked=True,
            headers={"Content-Type": "application/json"},
        )  # fmt: skip
        assert connection.getresponse().status == 413
        assert served.stop(signal.SIGTERM) == 0
    finally:
        if served.process.poll() is None:
            served.process.kill()
            served.process.wait(10)

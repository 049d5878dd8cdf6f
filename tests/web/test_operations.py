"""What an operator watches: /healthz, /readyz, /metrics, the request id and one JSON
log line per request (tournament/web/ops.py, docs/operations.md)."""

from __future__ import annotations

import json
import shutil
import socket
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import REQUIRE_SERVICES
from tests.web.conftest import Web, make_web
from tournament.version import describe

PROBLEM_JSON = "application/problem+json"


def log_lines(captured: str) -> list[dict[str, Any]]:
    """The JSON lines of captured stderr (anything else there fails the test)."""
    return [json.loads(line) for line in captured.splitlines() if line.strip()]


def requests_counted(web: Web) -> dict[tuple[str, str, str], float]:
    """/metrics' request counter: (method, route, status) -> count."""
    text = web.get("/metrics", token=None).get_data(as_text=True)
    counted = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "schnapsen_http_requests_total":
                key = (sample.labels["method"], sample.labels["route"], sample.labels["status"])
                counted[key] = sample.value
    return counted


# -- health and readiness -------------------------------------------------------------


def test_healthz_answers_while_the_process_runs(web: Web) -> None:
    reply = web.get("/healthz", token=None)
    assert reply.status_code == 200
    assert reply.get_json() == {"status": "ok", "version": describe()}


def test_readyz_is_200_on_a_migrated_store_without_redis(web: Web) -> None:
    reply = web.get("/readyz", token=None)
    assert reply.status_code == 200
    assert reply.get_json() == {
        "status": "ready",
        "checks": {"database": "ok", "seal key": "ok"},
        "version": describe(),
    }


def test_readyz_is_503_naming_the_database_file_removed_after_the_start(
    web: Web, tmp_path: Path
) -> None:
    for leftover in tmp_path.glob("web.sqlite3*"):
        leftover.unlink()
    reply = web.get("/readyz", token=None)
    assert reply.status_code == 503
    assert reply.mimetype == PROBLEM_JSON
    problem = reply.get_json()
    assert problem["title"] == "Not ready"
    assert problem["detail"].startswith("database: ")
    assert f"there is no tournament store at {tmp_path / 'web.sqlite3'}" in problem["detail"]
    assert problem["request_id"] == reply.headers["X-Request-ID"]
    # A probe only looks: it made no new empty store where the old one was.
    assert not (tmp_path / "web.sqlite3").exists()
    assert web.get("/healthz", token=None).status_code == 200  # the process is still up


def test_readyz_is_503_when_the_database_is_not_migrated(web: Web, tmp_path: Path) -> None:
    for leftover in tmp_path.glob("web.sqlite3*"):
        leftover.unlink()
    sqlite3.connect(tmp_path / "web.sqlite3").close()  # an empty database in its place
    reply = web.get("/readyz", token=None)
    assert reply.status_code == 503
    assert "the database is not migrated yet" in reply.get_json()["checks"]["database"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A redis-server of this test's own on a free port (never the shared one on 6379,
    which other tests use): its URL and its process, which the test may stop."""
    binary = shutil.which("redis-server")
    if binary is None:
        message = "redis-server is not installed"
        if REQUIRE_SERVICES:
            pytest.fail(message + " (SCHNAPSEN_REQUIRE_SERVICES=1)")
        pytest.skip(message)
    port = free_port()
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp_path)]
    process = subprocess.Popen(
        [*command, "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
    try:
        yield f"redis://127.0.0.1:{port}/0", process
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(10)


def test_readyz_stays_ready_but_degraded_naming_redis_while_it_is_down(
    tmp_path: Path, own_redis: tuple[str, subprocess.Popen[bytes]]
) -> None:
    """Operator F4: results are stored without Redis, so a load balancer must keep
    sending requests; /readyz says what is missing in its body."""
    url, redis_server = own_redis
    web = make_web(
        f"sqlite:///{tmp_path / 'web.sqlite3'}",
        tmp_path,
        REDIS_URL=url,
        RATELIMIT_STORAGE_URI=url,
    )
    ready = web.get("/readyz", token=None)
    assert ready.status_code == 200
    assert ready.get_json() == {
        "status": "ready",
        "checks": {"database": "ok", "redis": "ok", "seal key": "ok"},
        "version": describe(),
    }

    redis_server.terminate()
    redis_server.wait(10)
    down = web.get("/readyz", token=None)
    assert down.status_code == 200
    body = down.get_json()
    assert body["status"] == "degraded"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["redis"].startswith("ConnectionError: ")
    assert f"127.0.0.1:{urlparse(url).port}" in body["checks"]["redis"]
    assert body["degraded"] == [f"redis: {body['checks']['redis']}"]
    assert web.get("/healthz", token=None).get_json()["status"] == "ok"  # unchanged


# -- metrics --------------------------------------------------------------------------


def test_metrics_count_requests_by_route_not_by_path(web: Web) -> None:
    tid = web.tournament("club")
    web.get(f"/api/v1/tournaments/{tid}", token=None)
    web.get("/api/v1/tournaments/nowhere", token=None)
    web.get("/api/v1/tournaments/elsewhere", token=None)
    web.get("/wp-login.php", token=None)
    counted = requests_counted(web)
    assert counted[("GET", "/api/v1/tournaments/<tid>", "200")] == 1
    assert counted[("GET", "/api/v1/tournaments/<tid>", "404")] == 2
    assert counted[("POST", "/api/v1/tournaments", "201")] == 1
    assert counted[("GET", "<unmatched>", "404")] == 1
    routes = {route for _, route, _ in counted}
    assert not {"/api/v1/tournaments/nowhere", "/wp-login.php", "/api/v1/tournaments/club"} & routes


def test_each_app_counts_its_own_requests(tmp_path: Path) -> None:
    """Two apps in one process (the test suite, a script) do not share or lose counts."""
    first = make_web(f"sqlite:///{tmp_path / 'one.sqlite3'}", tmp_path / "one")
    second = make_web(f"sqlite:///{tmp_path / 'two.sqlite3'}", tmp_path / "two")
    for _ in range(3):
        first.get("/healthz", token=None)
    second.get("/healthz", token=None)
    assert requests_counted(first)[("GET", "/healthz", "200")] == 3
    assert requests_counted(second)[("GET", "/healthz", "200")] == 1


# -- request ids and logs -------------------------------------------------------------


def test_every_response_has_a_request_id_and_a_sane_incoming_one_is_kept(web: Web) -> None:
    answers = [
        web.get("/healthz", token=None),
        web.get("/openapi.json", token=None),
        web.get("/docs/", token=None),
        web.get("/api/v1/tournaments/none", token=None),  # 404
        web.call("DELETE", "/healthz", token=None),  # 405
        web.post("/api/v1/tournaments", {"name": "x"}, token=None),  # 401
        web.get("/api/v1/me", token="not-a-token"),  # 401, bad token
    ]
    ids = [reply.headers.get("X-Request-ID", "") for reply in answers]
    assert all(len(found) == 32 for found in ids), ids
    assert len(set(ids)) == len(ids)
    for reply in answers:
        if reply.mimetype == PROBLEM_JSON:
            assert reply.get_json()["request_id"] == reply.headers["X-Request-ID"]

    kept = web.get("/healthz", token=None, headers={"X-Request-ID": "proxy-4f1c.22_a"})
    assert kept.headers["X-Request-ID"] == "proxy-4f1c.22_a"
    for insane in ("short", "x" * 65, "has space in it", "semi;colon;id", "ünïcødé-id"):
        replaced = web.get("/healthz", token=None, headers={"X-Request-ID": insane})
        assert replaced.headers["X-Request-ID"] != insane
        assert len(replaced.headers["X-Request-ID"]) == 32


def test_each_request_logs_one_json_line_with_its_id_method_path_and_status(
    web: Web, capsys: pytest.CaptureFixture[str]
) -> None:
    tid = web.tournament("club")
    capsys.readouterr()
    web.get(f"/api/v1/tournaments/{tid}", token=None, headers={"X-Request-ID": "read-0001"})
    web.post("/api/v1/tournaments", {"name": ""}, headers={"X-Request-ID": "write-0002"})
    lines = log_lines(capsys.readouterr().err)
    assert [line["request_id"] for line in lines] == ["read-0001", "write-0002"]
    read, write = lines
    assert read["event"] == "request" and read["level"] == "info"
    assert (read["method"], read["path"], read["status"]) == (
        "GET",
        "/api/v1/tournaments/club",
        200,
    )
    assert (write["method"], write["path"], write["status"]) == ("POST", "/api/v1/tournaments", 422)
    assert write["account"] == "admin@club.at"
    assert isinstance(read["ms"], float) and read["timestamp"].endswith("Z")


def test_a_500_is_problem_json_with_the_request_id_and_logs_its_traceback_once(
    web: Web, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken() -> str:
        return str(1 // len(""))  # ZeroDivisionError: a bug, not bad input

    web.app.add_url_rule("/test-only/broken", "test_only_broken", broken)
    capsys.readouterr()
    reply = web.get("/test-only/broken", token=None, headers={"X-Request-ID": "bug-report-7"})

    assert reply.status_code == 500
    assert reply.mimetype == PROBLEM_JSON
    problem = reply.get_json()
    assert problem["status"] == 500 and problem["title"] == "Server error"
    assert problem["request_id"] == "bug-report-7" == reply.headers["X-Request-ID"]
    assert "Traceback" not in json.dumps(problem) and "ZeroDivisionError" not in json.dumps(problem)

    err = capsys.readouterr().err
    assert err.count("Traceback") == 1
    lines = log_lines(err)
    failed = [line for line in lines if line["event"] == "unexpected error"]
    assert len(failed) == 1
    assert failed[0]["request_id"] == "bug-report-7"
    assert failed[0]["level"] == "error"
    assert failed[0]["exception"].startswith("Traceback (most recent call last):")
    assert "ZeroDivisionError: integer division or modulo by zero" in failed[0]["exception"]
    logged = [line for line in lines if line["event"] == "request"]
    assert [(line["request_id"], line["status"]) for line in logged] == [("bug-report-7", 500)]


def test_behind_a_proxy_the_client_address_is_the_forwarded_one(tmp_path: Path) -> None:
    from flask import request

    for hops, expected in ((1, "203.0.113.7"), (0, "127.0.0.1")):
        web = make_web(f"sqlite:///{tmp_path / f'p{hops}.sqlite3'}", tmp_path, PROXY_HOPS=hops)
        web.app.add_url_rule("/whoami", "whoami", lambda: request.remote_addr or "")
        reply = web.client.get(
            "/whoami",
            headers={"X-Forwarded-For": "203.0.113.7"},
            environ_base={"REMOTE_ADDR": "127.0.0.1"},
        )
        assert reply.get_data(as_text=True) == expected

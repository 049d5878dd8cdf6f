"""A table code is a seat's credential until a device takes it (docs/api.md, "The code is
the credential"): no log line carries one (operator F14). The app's request line writes
the path with ``<code>`` in its place; gunicorn's access line and any other line written
through :class:`tournament.json_logs.JsonFormatter` lose it too."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest

from tests.web.conftest import Web
from tournament.json_logs import JsonFormatter, redact_path

CODE = "RAJXXV"

#: Every route that takes a table code, with one that no route takes.
SEAT_PATHS = (
    f"/api/v1/play/{CODE}",
    f"/api/v1/play/{CODE}/live",
    f"/api/v1/play/{CODE}/seat",
    f"/play/{CODE}",
    f"/play/{CODE}/events",
    f"/r/{CODE}",
    f"/play/{CODE}/no/such/page",
)


def test_a_request_to_a_seat_route_logs_no_table_code_operator_f14(
    web: Web, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    for path in SEAT_PATHS:
        web.get(path, token=None, headers={"X-Request-ID": "seat-route-1"})
    web.post(f"/api/v1/play/{CODE}/seat", {}, token=None)
    err = capsys.readouterr().err
    assert CODE not in err
    lines = [json.loads(line) for line in err.splitlines() if line.strip()]
    logged = {line["path"] for line in lines if line["event"] == "request"}
    # The keys every process's lines have (gunicorn's and Celery's too: tournament.json_logs).
    assert all({"event", "level", "timestamp", "logger"} <= set(line) for line in lines)
    assert {line["logger"] for line in lines if line["event"] == "request"} == {"schnapsen.request"}
    assert logged == {
        "/api/v1/play/<code>",
        "/api/v1/play/<code>/live",
        "/api/v1/play/<code>/seat",
        "/play/<code>",
        "/play/<code>/events",
        "/r/<code>",
        "/play/<code>/no/such/page",
    }


def test_other_paths_are_logged_as_they_are(web: Web, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    web.get("/api/v1/tournaments/players", token=None)
    web.get("/t/play/matches", token=None)
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert [line["path"] for line in lines] == ["/api/v1/tournaments/players", "/t/play/matches"]


def test_gunicorns_access_line_loses_the_code_and_is_json_like_the_apps() -> None:
    record = logging.LogRecord(
        "gunicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - - "GET %s HTTP/1.1" 200',
        ("127.0.0.1", f"/api/v1/play/{CODE}/live?x=1"),
        None,
    )
    line = json.loads(JsonFormatter().format(record))
    assert list(line) == ["event", "level", "timestamp", "logger"]
    assert line["event"] == '127.0.0.1 - - "GET /api/v1/play/<code>/live?x=1 HTTP/1.1" 200'
    assert (line["level"], line["logger"]) == ("info", "gunicorn.access")
    assert line["timestamp"].endswith("Z")


def test_redaction_leaves_look_alike_paths_alone() -> None:
    assert redact_path("/api/v1/tournaments/club/play") == "/api/v1/tournaments/club/play"
    assert redact_path("/static/play.js") == "/static/play.js"
    assert redact_path("GET /r/ABCDEF and /play/QWERTZ") == "GET /r/<code> and /play/<code>"
    assert redact_path("/t/play/matches") == "/t/play/matches"
    assert (
        redact_path("card: https://club.at:8443/r/FNUHUY") == "card: https://club.at:8443/r/<code>"
    )


def test_the_proxys_access_log_leaves_out_codes_and_query_strings() -> None:
    """deploy/nginx.conf logs its own ``$schnapsen_log_path``, never ``$request``: the map's
    pattern (PCRE, read here as Python's) replaces the code as the app does."""
    conf = (Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf").read_text()
    log_format = conf[
        conf.index("log_format schnapsen") : conf.index(";", conf.index("log_format"))
    ]
    assert "$schnapsen_log_path" in log_format
    assert not re.search(r"\$request\b|\$request_uri|\$args|\$query_string", log_format)
    rule = re.search(r'"~(\^.*?)" "(.*?)";', conf[conf.index("map $uri $schnapsen_log_path") :])
    assert rule is not None
    pattern = re.compile(rule.group(1).replace("(?<", "(?P<"))

    def logged(path: str) -> str:
        found = pattern.match(path)
        if found is None:
            return path
        return re.sub(r"\$\{(\w+)\}", lambda name: found.group(name.group(1)), rule.group(2))

    assert logged(f"/api/v1/play/{CODE}/live") == "/api/v1/play/<code>/live"
    assert logged(f"/play/{CODE}") == "/play/<code>"
    assert logged(f"/r/{CODE}") == "/r/<code>"
    assert logged("/t/play/matches") == "/t/play/matches"

"""deploy/nginx.conf: the streams go to the gevent processes unbuffered and outlive the
app's keep-alive; everything else goes to the gthread processes; /metrics stays inside."""

from __future__ import annotations

import ipaddress
import re
import runpy

from tests.deploy.files import DEPLOY, Block, nginx, seconds
from tournament.web.settings import from_environment

KEEP_ALIVE_SECONDS = from_environment({})["LIVE_KEEPALIVE"]  # between comments on a quiet stream
STREAM = "/api/v1/tournaments/freitag-2026/live"
FORWARDED = {"X-Forwarded-For", "X-Forwarded-Proto", "X-Request-ID", "Host"}


def server() -> Block:
    servers = nginx().children("http")[0].children("server")
    (tls,) = [s for s in servers if s.first("ssl_certificate")]
    return tls


def location_for(path: str) -> Block:
    """The location nginx picks for ``path``: an exact match, else the first regex that
    matches, else the longest prefix (nginx's order; the file uses no ^~)."""
    locations = server().children("location")
    for block in locations:
        if block.args[0] == "=" and block.args[1] == path:
            return block
    for block in locations:
        if block.args[0] == "~" and re.search(block.args[1], path):
            return block
    prefixes = [b for b in locations if len(b.args) == 1 and path.startswith(b.args[0])]
    return max(prefixes, key=lambda b: len(b.args[0]))


def upstream(name: str) -> list[str]:
    (block,) = [u for u in nginx().children("http")[0].children("upstream") if u.args == [name]]
    return [args[0] for args in block.all("server")]


def headers(block: Block) -> set[str]:
    return {args[0] for args in block.all("proxy_set_header")}


def test_streams_go_to_the_live_processes_and_the_rest_to_the_web_processes() -> None:
    assert location_for(STREAM).first("proxy_pass") == ["http://schnapsen_live"]
    for path in (
        "/api/v1/tournaments/freitag-2026/standings",
        "/api/v1/tournaments/freitag-2026/live/extra",
        "/api/v1/tournaments",
        "/login",
        "/",
    ):
        assert location_for(path).first("proxy_pass") == ["http://schnapsen_web"], path


def test_the_upstreams_are_compose_services_on_the_ports_gunicorn_binds() -> None:
    assert upstream("schnapsen_web") == ["web:8000"]
    assert upstream("schnapsen_live") == ["live:8001"]
    assert runpy.run_path(str(DEPLOY / "gunicorn" / "web.py"))["bind"] == ["127.0.0.1:8000"]
    assert runpy.run_path(str(DEPLOY / "gunicorn" / "live.py"))["bind"] == ["127.0.0.1:8001"]


def test_a_stream_is_passed_on_unbuffered_over_http_1_1_without_connection_close() -> None:
    live = location_for(STREAM)
    assert live.first("proxy_buffering") == ["off"]
    assert live.first("proxy_cache") == ["off"]
    assert live.first("gzip") == ["off"]
    assert live.first("proxy_http_version") == ["1.1"]
    assert ["Connection", ""] in live.all("proxy_set_header")


def test_a_healthy_stream_outlives_the_read_timeout_between_keep_alives() -> None:
    live = location_for(STREAM)
    assert seconds(live.first("proxy_read_timeout")[0]) > 2 * KEEP_ALIVE_SECONDS  # type: ignore[index]


def test_every_request_carries_forwarded_headers_and_its_request_id() -> None:
    assert headers(server()) >= FORWARDED
    # A location that sets any header replaces all of the server's.
    assert headers(location_for(STREAM)) >= FORWARDED
    for path in ("/metrics", "/"):
        assert not headers(location_for(path)), path


def test_metrics_are_answered_to_internal_networks_only() -> None:
    metrics = location_for("/metrics")
    assert metrics.args == ["=", "/metrics"]
    assert metrics.directives[-2:-1] == [("deny", ["all"])]
    for (network,) in metrics.all("allow"):
        assert ipaddress.ip_network(network).is_private, network


def test_tls_with_certificate_placeholders_and_plain_http_only_redirects() -> None:
    tls = server()
    assert tls.first("ssl_certificate") == ["/etc/nginx/tls/fullchain.pem"]
    assert tls.first("ssl_certificate_key") == ["/etc/nginx/tls/privkey.pem"]
    servers = nginx().children("http")[0].children("server")
    (plain,) = [s for s in servers if not s.first("ssl_certificate")]
    (everything,) = [b for b in plain.children("location") if b.args == ["/"]]
    assert everything.first("return") == ["301", "https://$host$request_uri"]


def test_uploads_up_to_the_apps_own_limit_pass() -> None:
    limit = nginx().children("http")[0].first("client_max_body_size")
    assert limit is not None and limit[0].endswith("m")
    assert int(limit[0][:-1]) * 1024 * 1024 >= from_environment({})["MAX_CONTENT_LENGTH"]


def test_enough_connections_for_thousands_of_streams() -> None:
    (events,) = nginx().children("events")
    streams = runpy.run_path(str(DEPLOY / "gunicorn" / "live.py"))["streams"]
    # Each stream holds two connections in nginx: the client's and the upstream's.
    assert int(events.first("worker_connections")[0]) >= 2 * streams  # type: ignore[index]


def test_the_guides_sed_rewrites_the_upstreams_and_nothing_else_operator_f14() -> None:
    import subprocess

    from tests.deploy.files import REPO

    guide = (REPO / "docs" / "deploy.md").read_text()
    (block,) = re.findall(r"```sh\n(sed -e .*?nginx\.conf)\n", guide, re.S)
    command = block.replace("/opt/schnapsen/deploy/nginx.conf", str(DEPLOY / "nginx.conf"))
    command = command.split(" > ")[0]
    written = subprocess.run(
        ["sh", "-c", command], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    before = (DEPLOY / "nginx.conf").read_text().splitlines()
    changed = [(a.strip(), b.strip()) for a, b in zip(before, written, strict=True) if a != b]
    assert changed == [
        ("server web:8000;", "server 127.0.0.1:8000;"),
        ("server live:8001;", "server 127.0.0.1:8001;"),
    ]


def test_compressed_answers_say_vary_accept_encoding_opfix_7() -> None:
    """Operator trial of main, 7: nginx gzipped the API and pages but sent no `Vary:
    Accept-Encoding`, so a shared cache could hand a gzipped body to a client that did
    not ask for one."""
    http = nginx().children("http")[0]
    assert http.first("gzip") == ["on"]
    assert http.first("gzip_vary") == ["on"]

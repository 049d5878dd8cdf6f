"""Operator F1: a stream whose client left frees its place under the process's cap at
once, not at its next keep-alive (15 s), so a page refused over the cap gets a place
again soon. Under the deploy's gunicorn configurations: the gevent stream processes
(a greenlet waits for the connection's end and wakes the stream) and the gthread page
processes (the stream looks every second)."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.live.harness import free_port, wait_until

DEPLOY = REPO / "deploy" / "gunicorn"
STREAM = "/api/v1/tournaments/cup/live"
KEEPALIVE = 15  # the default: the old notice came with the next one


def serve(tmp_path: Path, config: str) -> Iterator[int]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'gone.sqlite3'}",
        "SCHNAPSEN_INSTANCE": str(tmp_path),
        "SCHNAPSEN_LIVE_MAX_STREAMS": "1",
        "SCHNAPSEN_LIVE_KEEPALIVE": str(KEEPALIVE),
        "LIVE_BIND": f"127.0.0.1:{port}", "LIVE_CONCURRENCY": "1",
        "WEB_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1", "WEB_THREADS": "2",
    }  # fmt: skip
    env.pop("REDIS_URL", None)
    subprocess.run(
        [str(Path(sys.executable).with_name("tournament")), "create", "Cup", "--id", "cup",
         "--date", "2026-12-07", "--format", "swiss", "--best-of", "3"],
        cwd=REPO, env=env, check=True, capture_output=True,
    )  # fmt: skip
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / config), "tournament.web.wsgi:app"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        wait_until(lambda: answers(port), 60, f"gunicorn ({config}) answering")
        yield port
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def answers(port: int) -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except OSError:
        return False


def projected(port: int) -> bool:
    """No tournament's projection behind its log (the process's own metric)."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
    except OSError:
        return False
    return "\nschnapsen_projections_behind 0.0" in text


def open_stream(port: int) -> tuple[int, socket.socket]:
    """A stream's status, and its connection (left open for a 200)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET {STREAM} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(1024)
        assert chunk, "the server closed the connection without an answer"
        head += chunk
    return int(head.split(b" ", 2)[1]), sock


@pytest.fixture(params=["live.py", "web.py"])
def gunicorn_port(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[int]:
    yield from serve(tmp_path, request.param)


def test_operator_f1_a_gone_clients_place_is_free_long_before_its_keep_alive(
    gunicorn_port: int,
) -> None:
    status, first = open_stream(gunicorn_port)
    assert status == 200
    # The first stream starts the projections (embedded: no Redis); projected now, no
    # announcement comes later whose write would end a gone client's stream anyway.
    wait_until(lambda: projected(gunicorn_port), 60, "the tournament projected")
    refused, second = open_stream(gunicorn_port)
    second.close()
    assert refused == 503  # the cap of one is taken
    first.close()  # the tab closed
    gone_at = time.monotonic()

    def accepted() -> socket.socket | None:
        status, sock = open_stream(gunicorn_port)
        if status == 200:
            return sock
        sock.close()
        return None

    again = wait_until(accepted, KEEPALIVE - 5, "a place under the cap again", every=0.1)
    took = time.monotonic() - gone_at
    again.close()
    assert took < 3, f"the place came free after {took:.1f} s"


def test_a_client_gone_from_a_high_descriptor_number_is_seen_gone() -> None:
    """A stream process holding thousands of streams has descriptors past 1024, where
    ``select()`` refuses to look: the check must still see the peer's end."""
    from tournament.live.departure import closed

    ours, theirs = socket.socketpair()
    high = os.dup2(ours.fileno(), 1500)
    try:
        with socket.socket(fileno=os.dup(high)) as watched:
            assert not closed(watched)
            theirs.close()
            assert closed(watched)
    finally:
        os.close(high)
        ours.close()


def test_streams_of_unknown_tournaments_leave_no_lock_behind_without_bound() -> None:
    from tournament.web.api import live

    for n in range(10_050):
        with live._lock_for(f"nobody-{n}"):
            pass
    assert len(live._shared_locks) <= 10_001

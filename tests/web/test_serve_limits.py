"""``tournament serve --lan`` survives slow clients (attack F8): one address holds at
most ``--max-per-address`` sockets, a request head must arrive within ``--head-timeout``
of its first byte, and a live stream is not cut by that deadline -- on a real server."""

from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.test_serve import REPO, Served, clean_environment
from tournament.web.serve_limits import GrowingDispatcher

SLOW = 300
SWISS = ("--format", "swiss", "--best-of", "3", "--option", "rounds=5")
HEAD_TIMEOUT = 8.0


def create_tournament(instance: Path) -> str:
    env = {**clean_environment(), "SCHNAPSEN_INSTANCE": str(instance)}
    done = subprocess.run(
        [sys.executable, "-m", "tournament", "create", "Hall", "--date", "2026-12-07", *SWISS],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[2]  # "created tournament <tid> (...)"


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[tuple[Served, str]]:
    tid = create_tournament(tmp_path / "serve" / "instance")
    server = Served(tmp_path / "serve", "--lan", "--port", "0", "--head-timeout", str(HEAD_TIMEOUT))
    yield server, tid
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait(10)


class SlowClient:
    """A socket from 127.0.0.1 that begins a request and then sends a header line every
    second, never finishing it (slowloris); ``ended`` when the server closed it."""

    def __init__(self, port: int) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        self.answer = b""
        self.ended_at: float | None = None
        try:
            self.sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: hall\r\n")
        except OSError:
            self.ended_at = time.monotonic()
        self.sock.setblocking(False)

    def poke(self) -> None:
        """Send one more header line, and see whether the server has answered or closed."""
        if self.ended_at is not None:
            return
        try:
            while True:
                data = self.sock.recv(4096)
                if not data:
                    self.ended_at = time.monotonic()
                    return
                self.answer += data
        except BlockingIOError:
            pass
        except OSError:
            self.ended_at = time.monotonic()
            return
        try:
            self.sock.send(b"X-Slow: still typing\r\n")
        except BlockingIOError:
            pass
        except OSError:
            self.ended_at = time.monotonic()


def test_slow_connections_from_one_address_do_not_take_the_lan_server_off_the_air(
    hall: tuple[Served, str],
) -> None:
    """Attack F8: 300 slowloris sockets from one device; another device's standings GET
    is answered all along, the device gets at most 32 sockets (the rest a 503 at once),
    and those it holds are closed with a 408 by the head deadline, though they never
    stop sending."""
    served, tid = hall
    port = int(served.url.rsplit(":", 1)[1].strip("/"))
    started = time.monotonic()
    slow = [SlowClient(port) for _ in range(SLOW)]
    stop = threading.Event()

    def keep_typing() -> None:
        while not stop.is_set():
            for one in slow:
                one.poke()
            stop.wait(1.0)

    typist = threading.Thread(target=keep_typing, daemon=True)
    typist.start()
    standings = f"/api/v1/tournaments/{tid}/standings"
    answered: list[float] = []
    try:
        # Within the deadline the slow sockets are all still open: the other device is
        # answered, promptly, while they are.
        while time.monotonic() - started < HEAD_TIMEOUT - 2 and len(answered) < 5:
            asked = time.monotonic()
            status, _ = fetch_quickly(port, standings)
            assert status == 200
            answered.append(time.monotonic() - asked)
        assert answered, "the machine is too slow to ask before the deadline"
        deadline = time.monotonic() + HEAD_TIMEOUT + 20
        while any(one.ended_at is None for one in slow) and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        stop.set()
        typist.join(10)
        for one in slow:
            one.sock.close()
    refused = [one for one in slow if b" 503 " in one.answer]
    timed_out = [one for one in slow if b" 408 " in one.answer]
    assert all(one.ended_at is not None for one in slow), "a slow socket stayed open"
    assert 0 < len(timed_out) <= 32
    assert len(refused) + len(timed_out) >= SLOW - 5  # a few may be cut before the answer
    for one in timed_out:
        assert one.ended_at is not None and one.ended_at - started < HEAD_TIMEOUT + 10
    assert fetch_quickly(port, standings)[0] == 200
    assert served.stop() == 0
    assert "holds 32 connections, the most one address may" in served.err


def fetch_quickly(port: int, path: str) -> tuple[int, str]:
    """A GET from another device (127.0.0.2) that must be answered in 5 s (the finding's
    phones waited 20 s in vain)."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=5, source_address=("127.0.0.2", 0)
    )
    try:
        connection.request("GET", path)
        reply = connection.getresponse()
        return reply.status, reply.read().decode()
    finally:
        connection.close()


def test_a_live_stream_outlasts_the_head_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The head deadline (attack F8) times request heads only: a live stream open five
    times as long still gets its keep-alive comments."""
    monkeypatch.setenv("SCHNAPSEN_LIVE_KEEPALIVE", "0.5")
    tid = create_tournament(tmp_path / "instance")
    served = Served(tmp_path, "--port", "0", "--head-timeout", "1")
    try:
        port = int(served.url.rsplit(":", 1)[1].strip("/"))
        with socket.create_connection(("127.0.0.1", port), 10) as sock:
            sock.sendall(f"GET /api/v1/tournaments/{tid}/live HTTP/1.1\r\nHost: h\r\n\r\n".encode())
            sock.settimeout(10)
            received = b""
            begun = time.monotonic()
            while time.monotonic() - begun < 5:
                data = sock.recv(4096)
                assert data, "the stream was closed"
                received += data
            assert b"200 OK" in received and b"event: standings" in received
            assert received.count(b": keep-alive") >= 3
    finally:
        served.stop()
        if served.process.poll() is None:
            served.process.kill()


def test_behind_a_proxy_the_hall_is_not_capped_as_one_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Behind a proxy (SCHNAPSEN_PROXY_HOPS, docs/organisers.md) every connection comes
    from the proxy's address: the per-address cap would cap the whole hall, so it is off
    there. Here 6 keep-alive connections from one address, against a cap of 2, are all
    answered."""
    monkeypatch.setenv("SCHNAPSEN_PROXY_HOPS", "1")
    served = Served(tmp_path, "--port", "0", "--max-per-address", "2")
    connections: list[http.client.HTTPConnection] = []
    try:
        port = int(served.url.rsplit(":", 1)[1].strip("/"))
        for _ in range(6):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/healthz")  # kept open: each holds a socket
            reply = connection.getresponse()
            reply.read()
            assert reply.status == 200
            connections.append(connection)
    finally:
        for connection in connections:
            connection.close()
        served.stop()
        if served.process.poll() is None:
            served.process.kill()
    assert "the most one address may" not in served.err


def test_stream_threads_start_only_when_streams_need_them() -> None:
    """The stream budget (speed P12): waitress's threads grow from the request workers
    up to the streams' cap as tasks find none idle, and no further."""
    dispatcher = GrowingDispatcher(most=6)
    dispatcher.set_thread_count(2)
    release = threading.Event()
    running = threading.Semaphore(0)

    class Task:
        def service(self) -> None:
            running.release()
            release.wait(10)

        def cancel(self) -> None:
            pass

    try:
        assert len(dispatcher.threads) == 2
        for _ in range(5):
            dispatcher.add_task(Task())
        for _ in range(5):
            assert running.acquire(timeout=10)
        assert len(dispatcher.threads) == 5
        for _ in range(3):
            dispatcher.add_task(Task())
        assert len(dispatcher.threads) == 6  # the cap: the others wait in the queue
        assert running.acquire(timeout=10)
        assert not running.acquire(timeout=0.2)
    finally:
        release.set()
        dispatcher.shutdown(timeout=10)


def test_the_epoll_loop_asks_what_waitress_asks_of_a_connection() -> None:
    """Speed P5: the I/O loop reads a connection's interest from its fields; it must be
    what waitress's readable() and writable() say, in every state a connection has."""
    from tournament.web.serve_limits import create_server
    from tournament.web.serve_loop import READ, WRITE, interest

    server = create_server(
        lambda environ, start: [],
        per_address=4,
        head_seconds=5.0,
        host="127.0.0.1",
        port=0,
        channel_request_lookahead=1,  # as serve has it
    )
    client = socket.create_connection(("127.0.0.1", int(server.effective_port)))
    try:
        server.handle_accept()
        (channel,) = server.active_channels.values()
        lookahead = server.adj.channel_request_lookahead

        def waitress_says() -> int:
            flags = READ if channel.readable() else 0
            return flags | (WRITE if channel.writable() else 0)

        states = []
        for requests, pending, closing in (
            ([], 0, False), ([object()], 0, False), ([object()] * (lookahead + 2), 0, False),
            ([object()], 10, False), ([], 0, True),
        ):  # fmt: skip
            channel.requests, channel.total_outbufs_len = requests, pending
            channel.will_close = closing
            states.append(interest(channel, lookahead))
            assert states[-1] == waitress_says(), (requests, pending, closing)
        assert states == [READ, READ, 0, WRITE, WRITE]
        assert interest(server, lookahead) == READ  # the listener: new connections
    finally:
        client.close()
        server.close()
        server.task_dispatcher.shutdown(timeout=5)

"""The real pieces the live tests run: a redis-server of the test's own, a Celery worker
process, the web app over real HTTP, and a Server-Sent Events client.

Every process here is started by the test and stopped by its id (a worker by its
process group: the main process and its pool child). The shared Redis on 6379 is never
touched: each test has a redis-server of its own on a free port, which it may stop.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
import sqlalchemy as sa

from tests.conftest import REPO, REQUIRE_SERVICES

T = TypeVar("T")


def wait_until(check: Callable[[], T | None], timeout: float, what: str, every: float = 0.02) -> T:
    """The first true answer of ``check`` within ``timeout`` seconds (fails naming
    ``what`` otherwise)."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(every)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def need_program(name: str) -> str:
    found = shutil.which(name)
    if found is not None:
        return found
    message = f"{name} is not installed"
    if REQUIRE_SERVICES:
        pytest.fail(message + " (SCHNAPSEN_REQUIRE_SERVICES=1: CI requires it)")
    pytest.skip(message)


class RedisServer:
    """A redis-server of one test's own (no persistence), on a port of its own."""

    def __init__(self, folder: Path) -> None:
        self.program = need_program("redis-server")
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        log = open(self.folder / "redis.log", "ab")  # noqa: SIM115  (the process keeps it)
        self.process = subprocess.Popen(
            [self.program, "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--daemonize", "no",
             "--dir", str(self.folder)],
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        log.close()
        wait_until(self.answers, 5, f"redis-server on port {self.port} answers")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), 0.2) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """SIGTERM, as an operator's ``systemctl stop redis`` would."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None


class CeleryWorker:
    """``celery -A workers worker --pool prefork --concurrency 1`` in a session of its
    own, so that the test's end kills it with every process it started. ``concurrency``
    and ``include`` (further task modules, ``--include``) for the tests that need them."""

    def __init__(
        self,
        folder: Path,
        environ: Mapping[str, str],
        concurrency: int = 1,
        include: Sequence[str] = (),
    ) -> None:
        self.folder = folder
        self.environ = dict(environ)
        self.concurrency = concurrency
        self.include = list(include)
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = folder / "worker.log"
        self.started = 0

    def start(self) -> None:
        self.started += 1
        self.folder.mkdir(parents=True, exist_ok=True)
        mark = f"--- worker {self.started} ---\n"
        with open(self.log_path, "a") as text:
            text.write(mark)
        log = open(self.log_path, "ab")  # noqa: SIM115  (the process keeps it)
        self.process = subprocess.Popen(
            [str(Path(sys.executable).parent / "celery"), "-A", "workers", "worker",
             "--pool", "prefork", "--concurrency", str(self.concurrency), "--loglevel", "INFO",
             "--hostname", f"live-{os.getpid()}-{id(self)}@%h",
             *(["--include", ",".join(self.include)] if self.include else [])],
            cwd=REPO, env=self.environ, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        log.close()
        wait_until(lambda: self._ready(mark), 60, f"the Celery worker is ready ({self.log_path})")

    def _ready(self, mark: str) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise AssertionError(f"the worker exited: {self.log()[-3000:]}")
        return " ready." in self.log().rpartition(mark)[2]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill_main(self) -> None:
        """SIGKILL the worker's main process only (its pool children get SIGKILL from
        the kernel then: Celery sets their parent-death signal)."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def kill(self) -> None:
        """SIGKILL the worker's main process and its pool child at once (its session)."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self.process = None


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    text: str
    at: float  # time.monotonic() when the answer was read

    def json(self) -> Any:
        return json.loads(self.text)


class Http:
    """The web app over real HTTP (one connection per request), as a script sends it."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.token = token

    def call(self, method: str, path: str, body: Any = None, **headers: str) -> Reply:
        sent = {k.replace("_", "-"): v for k, v in headers.items()}
        if self.token:
            sent.setdefault("Authorization", f"Bearer {self.token}")
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=data, headers=sent)
            answer = conn.getresponse()
            text = answer.read().decode()
            return Reply(answer.status, dict(answer.getheaders()), text, time.monotonic())
        finally:
            conn.close()

    def ok(self, method: str, path: str, body: Any = None, **headers: str) -> Any:
        reply = self.call(method, path, body, **headers)
        assert 200 <= reply.status < 300, (method, path, reply.status, reply.text)
        return reply.json()


@dataclass
class Event:
    kind: str  # the event's type; "comment" for a keep-alive, "retry" for the retry line
    id: int | None
    data: dict[str, Any] | None
    at: float  # time.monotonic() when its last line was read
    text: str = ""


@dataclass
class SseStream:
    """One client of ``GET .../live``: a thread reads events into a queue."""

    port: int
    path: str
    last_event_id: int | None = None
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    events: queue.Queue[Event] = field(default_factory=queue.Queue)
    seen: list[Event] = field(default_factory=list)
    ended: threading.Event = field(default_factory=threading.Event)  # the server closed it

    def open(self) -> SseStream:
        self._conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Accept": "text/event-stream"}
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = str(self.last_event_id)
        self._conn.request("GET", self.path, headers=headers)
        self._sock = self._conn.sock  # the connection forgets it when the answer says close
        self._answer = self._conn.getresponse()
        self.status = self._answer.status
        self.headers = dict(self._answer.getheaders())
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True, name="sse-client").start()
        else:
            self.body = self._answer.read().decode()
        return self

    def _read(self) -> None:
        kind, ident, data = "message", None, None
        try:
            while True:
                raw = self._answer.readline()
                if not raw:
                    self.ended.set()
                    return
                line = raw.decode().rstrip("\r\n")
                now = time.monotonic()
                if line.startswith(":"):
                    self.events.put(Event("comment", None, None, now, line))
                elif line.startswith("retry:"):
                    self.events.put(Event("retry", None, None, now, line))
                elif line.startswith("id:"):
                    ident = int(line[3:].strip())
                elif line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:"):
                    data = json.loads(line[5:].strip())
                elif line == "" and data is not None:
                    self.events.put(Event(kind, ident, data, now))
                    kind, ident, data = "message", None, None
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            return  # closed by the test

    def next(self, timeout: float) -> Event | None:
        try:
            found = self.events.get(timeout=timeout)
        except queue.Empty:
            return None
        self.seen.append(found)
        return found

    def wait_for(self, wanted: Callable[[Event], bool], timeout: float, what: str) -> Event:
        deadline = time.monotonic() + timeout
        while True:
            found = self.next(max(0.0, deadline - time.monotonic()))
            if found is not None and wanted(found):
                return found
            if found is None and time.monotonic() >= deadline:
                raise AssertionError(f"no {what} within {timeout} s; seen {self.kinds()}")

    def kinds(self) -> list[str]:
        return [e.kind for e in self.seen]

    def close(self) -> None:
        """Close the connection, as a browser closing the page does (the reader's file
        holds the socket too: closed with it, or the server would see only half)."""
        conn, sock = getattr(self, "_conn", None), getattr(self, "_sock", None)
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # the reader's wait ends at once
        answer = getattr(self, "_answer", None)
        if answer is not None:
            with contextlib.suppress(OSError, ValueError):
                answer.close()
        if conn is not None:
            conn.close()


class Served:
    """The web app served by waitress on 127.0.0.1 in a thread of the test process."""

    def __init__(self, app: Any, threads: int = 8) -> None:
        import waitress

        self.app = app
        # As `tournament serve` does: read ahead, so a stream sees its client go away.
        self.server = waitress.create_server(
            app, host="127.0.0.1", port=0, threads=threads, channel_request_lookahead=1
        )
        self.port = int(self.server.effective_port)
        self.closing = False
        self.thread = threading.Thread(target=self._run, daemon=True, name="waitress")
        self.thread.start()

    def _run(self) -> None:
        try:
            self.server.run()
        except OSError:  # the loop's sockets closed under it by close()
            if not self.closing:
                raise

    def stream(self, tid: str, last_event_id: int | None = None) -> SseStream:
        return SseStream(self.port, f"/api/v1/tournaments/{tid}/live", last_event_id).open()

    def close(self) -> None:
        from tournament.app.services import KEY as SERVICES
        from tournament.web.live import KEY as LIVE

        self.closing = True
        self.app.extensions[LIVE].stop()  # the live streams end first
        self.server.task_dispatcher.shutdown(timeout=5)
        self.server.close()
        found = self.app.extensions[SERVICES]
        found.store.close()
        found.accounts.close()


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie nobody reaped yet counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] == "Z"
    except FileNotFoundError:
        return True


def count(engine: sa.Engine, query: str, **params: Any) -> Any:
    with engine.connect() as conn:
        return conn.execute(sa.text(query), params).scalar()


def projected_version(engine: sa.Engine, tid: str) -> int:
    found = count(engine, "SELECT version FROM proj_tournaments WHERE tournament_id = :t", t=tid)
    return int(found or 0)


def log_version(engine: sa.Engine, tid: str) -> int:
    from tournament.domain.model import events as ev

    found = count(engine, "SELECT max(version) FROM es_events WHERE stream_id = :s",
                  s=ev.stream_id(tid))  # fmt: skip
    return int(found or 0)

"""bench/api.py's load: GETs with wrk (or, without it, a pool of Python threads on
keep-alive connections), and result POSTs by client threads, each on its own keep-alive
connection, a few of them sent twice with the same Idempotency-Key."""

from __future__ import annotations

import dataclasses
import http.client
import json
import queue
import re
import shutil
import subprocess
import threading
import time
import uuid
from collections import Counter
from collections.abc import Mapping
from typing import Any

from timing import percentile

WRK = "/usr/bin/wrk"
_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


@dataclasses.dataclass
class Figures:
    """One stretch of GETs: how many, how fast, and how many were not what was wanted."""

    requests: int
    requests_per_s: float
    p50_ms: float
    p99_ms: float
    errors: int  # wrk: non-2xx/3xx and socket errors; Python: status other than wanted


def wrk_path() -> str | None:
    return WRK if shutil.which(WRK) else shutil.which("wrk")


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(number) * _UNITS[unit]


def parse_wrk(output: str) -> Figures:
    """The figures of ``wrk --latency``'s report."""
    latency = dict(re.findall(r"^\s+(50|99)%\s+([\d.]+(?:us|ms|s|m))\s*$", output, re.M))
    done = re.search(r"^\s+(\d+) requests in", output, re.M)
    rate = re.search(r"^Requests/sec:\s+([\d.]+)", output, re.M)
    if not (done and rate and "50" in latency and "99" in latency):
        raise RuntimeError(f"wrk's report was not understood:\n{output}")
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)",
                        output)  # fmt: skip
    errors = int(bad[1]) if bad else 0
    errors += sum(map(int, sockets.groups())) if sockets else 0
    return Figures(int(done[1]), float(rate[1]), _ms(latency["50"]), _ms(latency["99"]), errors)


def wrk(
    url: str, connections: int, seconds: float, headers: Mapping[str, str], threads: int
) -> Figures:
    command = [wrk_path() or WRK, "-t", str(threads), "-c", str(connections),
               "-d", f"{seconds:g}s", "--latency", "--timeout", "5s"]  # fmt: skip
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    run = subprocess.run([*command, url], capture_output=True, text=True, check=True)
    return parse_wrk(run.stdout)


def python_gets(
    host: str,
    port: int,
    path: str,
    connections: int,
    seconds: float,
    headers: Mapping[str, str],
    wanted: int,
) -> Figures:
    """What wrk measures, with a thread per connection (the GIL makes this client the
    slower side: its figures are a floor for the server's)."""
    latencies: list[list[float]] = [[] for _ in range(connections)]
    errors = [0] * connections
    start = threading.Barrier(connections + 1)
    deadline = [0.0]

    def client(i: int) -> None:
        conn = http.client.HTTPConnection(host, port, timeout=10)
        start.wait()
        while (began := time.perf_counter()) < deadline[0]:
            try:
                conn.request("GET", path, headers=dict(headers))
                reply = conn.getresponse()
                reply.read()
                ok = reply.status == wanted
            except (OSError, http.client.HTTPException):
                conn.close()
                ok = False
            latencies[i].append(time.perf_counter() - began)
            errors[i] += not ok
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(connections)]
    for t in threads:
        t.start()
    deadline[0] = time.perf_counter() + seconds
    began = time.perf_counter()
    start.wait()
    for t in threads:
        t.join()
    wall = time.perf_counter() - began
    every = [x for per in latencies for x in per]
    return Figures(len(every), len(every) / wall, 1000 * percentile(every, 0.5),
                   1000 * percentile(every, 0.99), sum(errors))  # fmt: skip


@dataclasses.dataclass
class Posted:
    """One match's sheet as the client sent it, and what it was answered."""

    mid: str
    key: str
    retry: bool
    status: int = 0
    seconds: float = 0.0
    body: bytes = b""
    replay_status: int = 0
    replay_seconds: float = 0.0
    replay_header: str | None = None
    replay_body: bytes = b""

    def text(self) -> str:
        """The first answer's body, shortened, to print."""
        return self.body[:300].decode(errors="replace")

    @property
    def retry_ok(self) -> bool:
        """The retry got the first answer again, marked as replayed."""
        return (
            self.replay_status == self.status
            and self.replay_header == "true"
            and _same_json(self.replay_body, self.body)
        )


def _same_json(a: bytes, b: bytes) -> bool:
    try:
        return bool(json.loads(a) == json.loads(b))
    except ValueError:
        return a == b


class Client:
    """One keep-alive connection that reconnects (once per request) when the server
    closed it."""

    def __init__(self, host: str, port: int, headers: Mapping[str, str]) -> None:
        self.host, self.port, self.headers = host, port, dict(headers)
        self.conn = http.client.HTTPConnection(host, port, timeout=60)
        self.reconnects = 0

    def post(self, path: str, body: bytes, key: str) -> tuple[int, bytes, str | None, float]:
        headers = {**self.headers, "Idempotency-Key": key}
        for attempt in range(2):
            began = time.perf_counter()
            try:
                self.conn.request("POST", path, body=body, headers=headers)
                reply = self.conn.getresponse()
                data = reply.read()
                took = time.perf_counter() - began
                return reply.status, data, reply.getheader("Idempotent-Replayed"), took
            except (ConnectionError, http.client.RemoteDisconnected, http.client.BadStatusLine):
                # The same key again: if the first attempt was stored, this is a replay.
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
                self.reconnects += 1
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


def post_results(
    host: str,
    port: int,
    path_of: str,
    sheets: list[Posted],
    body: bytes,
    clients: int,
    token: str,
) -> tuple[float, int]:
    """Post every sheet (``path_of`` with ``{mid}``) from ``clients`` threads at once;
    a ``retry`` sheet is sent again with its key as soon as its answer came. Fills in
    the answers; returns the wall-clock seconds from the first request to the last, and
    how often a client found its connection closed and sent again."""
    todo: queue.SimpleQueue[Posted] = queue.SimpleQueue()
    for sheet in sheets:
        todo.put(sheet)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    start = threading.Barrier(clients + 1)
    failures: list[BaseException] = []
    reconnects: list[int] = []

    def work() -> None:
        client = Client(host, port, headers)
        start.wait()
        try:
            while True:
                try:
                    sheet = todo.get_nowait()
                except queue.Empty:
                    return
                path = path_of.format(mid=sheet.mid)
                sheet.status, sheet.body, _, sheet.seconds = client.post(path, body, sheet.key)
                if sheet.retry:
                    answer = client.post(path, body, sheet.key)
                    (sheet.replay_status, sheet.replay_body, sheet.replay_header,
                     sheet.replay_seconds) = answer  # fmt: skip
        except BaseException as error:  # reported after the run, not lost in a thread
            failures.append(error)
        finally:
            reconnects.append(client.reconnects)
            client.close()

    threads = [threading.Thread(target=work) for _ in range(clients)]
    for t in threads:
        t.start()
    began = time.perf_counter()
    start.wait()
    for t in threads:
        t.join()
    wall = time.perf_counter() - began
    if failures:
        raise RuntimeError(f"{len(failures)} client(s) failed: {failures[0]!r}")
    return wall, sum(reconnects)


def sheets_for(matches: list[str], retry_share: float, seed: int) -> list[Posted]:
    """A sheet per match in a shuffled order, each with a new key; ``retry_share`` of them
    (at least one) to be sent twice."""
    import random

    rng = random.Random(seed)
    order = list(matches)
    rng.shuffle(order)
    retried = set(rng.sample(order, max(1, round(retry_share * len(order)))))
    return [Posted(mid, uuid.uuid4().hex, mid in retried) for mid in order]


def write_figures(sheets: list[Posted], wall: float) -> dict[str, Any]:
    """Writes/s, latencies and what was answered, of one run of :func:`post_results`."""
    stored = [s for s in sheets if 200 <= s.status < 300]
    latencies = [s.seconds for s in sheets]
    retries = [s for s in sheets if s.retry]
    statuses = Counter(str(s.status) for s in sheets)
    return {
        "posted": len(sheets),
        "accepted": len(stored),
        "failed": len(sheets) - len(stored),
        "statuses": dict(statuses),
        "wall_s": round(wall, 3),
        "writes_per_s": len(stored) / wall,
        "requests_per_s": (len(sheets) + len(retries)) / wall,
        "p50_ms": 1000 * percentile(latencies, 0.5),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "retries": len(retries),
        "retries_replayed": sum(s.retry_ok for s in retries),
        "retry_p50_ms": 1000 * percentile([s.replay_seconds for s in retries], 0.5),
    }

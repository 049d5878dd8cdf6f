"""bench/live.py, part 1: from a result posted to the ``result`` event that names its match
on a live stream.

One Server-Sent Events client (a thread, :class:`EventReader`) follows the tournament
while the desk posts every sheet of a round, one at a time, over a keep-alive
connection, then draws the next round, round after round. Each sheet's latency runs from
just before its POST is sent to the moment the ``result`` event carrying its match id
was read off the stream; the next sheet is posted only after that (or after a timeout,
counted as missed), so every figure is one result's path alone: commit, nudge,
projection run, announcement, stream.
"""

from __future__ import annotations

import contextlib
import dataclasses
import http.client
import json
import socket
import threading
import time
from typing import Any

from live_services import HOST
from timing import percentile

TALLIES = ["7 4 1 0 / 7 5", "7 4 1 0 / 7 5"]  # best of 3 won 2:0 (bench/api_stage.py)


@dataclasses.dataclass(frozen=True)
class Seen:
    """An event read off the stream: when (perf_counter), its type and its data."""

    at: float
    kind: str
    data: dict[str, Any]


class EventReader(threading.Thread):
    """One SSE client on ``path``: reads events as they come and notes when each came."""

    def __init__(self, port: int, path: str) -> None:
        super().__init__(name="sse-reader", daemon=True)
        self.conn = http.client.HTTPConnection(HOST, port, timeout=None)
        self.path = path
        self.status = 0
        self.seen: list[Seen] = []
        self.failure: BaseException | None = None
        self._changed = threading.Condition()
        self._answered = threading.Event()

    def run(self) -> None:
        try:
            self.conn.request("GET", self.path, headers={"Accept": "text/event-stream"})
            reply = self.conn.getresponse()
            self.status = reply.status
            self._answered.set()
            kind, data = "", ""
            while line := reply.readline():
                text = line.decode().rstrip("\r\n")
                if text.startswith("event: "):
                    kind = text[len("event: ") :]
                elif text.startswith("data: "):
                    data = text[len("data: ") :]
                elif not text and kind:
                    seen = Seen(time.perf_counter(), kind, json.loads(data))
                    with self._changed:
                        self.seen.append(seen)
                        self._changed.notify_all()
                    kind, data = "", ""
        except (OSError, http.client.HTTPException, ValueError) as error:
            self.failure = error
        finally:
            self._answered.set()
            with self._changed:
                self._changed.notify_all()

    def connected(self, timeout: float = 30.0) -> None:
        self._answered.wait(timeout)
        if self.status != 200:
            raise RuntimeError(f"live stream answered {self.status or self.failure!r}")

    def mark(self) -> int:
        with self._changed:
            return len(self.seen)

    def wait_for(self, kind: str, since: int, timeout: float, match: str | None = None
                 ) -> Seen | None:  # fmt: skip
        """The first ``kind`` event from the ``since``-th on (naming ``match``, if given),
        waiting up to ``timeout`` seconds for it."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for seen in self.seen[since:]:
                    if seen.kind == kind and (match is None or match in seen.data["matches"]):
                        return seen
                since = len(self.seen)
                left = deadline - time.monotonic()
                if left <= 0 or not self.is_alive():
                    return None
                self._changed.wait(left)

    def close(self) -> None:
        sock = self.conn.sock
        if sock is not None:
            with contextlib.suppress(OSError):  # gone already
                sock.shutdown(socket.SHUT_RDWR)
        self.join(5)
        self.conn.close()


class Desk:
    """The organiser's desk: one keep-alive connection with a token."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.conn = http.client.HTTPConnection(HOST, port, timeout=60)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=data, headers=self.headers)
                reply = self.conn.getresponse()
                text = reply.read()
                return reply.status, json.loads(text) if text else None
            except (ConnectionError, http.client.RemoteDisconnected):
                self.conn.close()
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


def result_latency(post_port: int, live_port: int, tid: str, token: str, rounds: int,
                   timeout: float = 10.0) -> dict[str, Any]:  # fmt: skip
    """Post every sheet of ``rounds`` rounds (round 1 is drawn already; the desk draws
    the others) with a live stream following; the latencies and what went wrong."""
    base = f"/api/v1/tournaments/{tid}"
    reader = EventReader(live_port, f"{base}/live")
    reader.start()
    desk = Desk(post_port, token)
    results: list[dict[str, Any]] = []
    draws: list[float | None] = []
    refused: list[str] = []
    try:
        reader.connected()
        if reader.wait_for("standings", 0, timeout) is None:  # the snapshot: it follows
            raise RuntimeError(f"no snapshot on the live stream ({reader.failure!r})")
        for number in range(1, rounds + 1):
            if number > 1:
                since, began = reader.mark(), time.perf_counter()
                status, body = desk.call("POST", f"{base}/rounds", {})
                if status != 201:
                    refused.append(f"round {number}: {status} {str(body)[:300]}")
                    break
                seen = reader.wait_for("round", since, timeout)
                draws.append(None if seen is None else seen.at - began)
            status, body = desk.call("GET", f"{base}/matches?status=open&round={number}")
            for mid in [m["match_id"] for m in (body or {}).get("matches", [])]:
                since, began = reader.mark(), time.perf_counter()
                status, body = desk.call("POST", f"{base}/matches/{mid}/results",
                                         {"tallies": TALLIES, "signed": True})  # fmt: skip
                answered = time.perf_counter()
                if status != 201:
                    refused.append(f"{mid}: {status} {str(body)[:300]}")
                    continue
                seen = reader.wait_for("result", since, timeout, match=mid)
                results.append({
                    "match": mid,
                    "post_s": answered - began,
                    "event_s": None if seen is None else seen.at - began,
                })  # fmt: skip
    finally:
        desk.close()
        reader.close()
    return figures(results, draws, refused)


def figures(results: list[dict[str, Any]], draws: list[float | None], refused: list[str]
            ) -> dict[str, Any]:  # fmt: skip
    seen = [r["event_s"] for r in results if r["event_s"] is not None]
    posts = [r["post_s"] for r in results]
    drawn = [d for d in draws if d is not None]

    def ms(values: list[float], fraction: float) -> float | None:
        return round(1000 * percentile(values, fraction), 2) if values else None

    return {
        "results": len(results),
        "seen": len(seen),
        "missed": len(results) - len(seen),
        "refused": len(refused),
        "first_refusal": refused[0] if refused else None,
        "p50_ms": ms(seen, 0.5),
        "p95_ms": ms(seen, 0.95),
        "max_ms": ms(seen, 1.0),
        "post_p50_ms": ms(posts, 0.5),
        "post_p95_ms": ms(posts, 0.95),
        "rounds_drawn": len(draws),
        "draw_event_p50_ms": ms(drawn, 0.5),
    }

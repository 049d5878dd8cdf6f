"""bench/live.py, part 3's clients: many Server-Sent Events streams held open from one
asyncio process, then one announcement published on Redis and the time until each
stream has it. Run by bench/live.py as a process of its own (its own CPU, its own file
descriptors); prints one JSON line:

    python bench/live_clients.py --port 8001 --tid fanout --version 9 --clients 2000 \\
        --redis redis://127.0.0.1:6390/0

Each client is a raw socket (an :class:`asyncio.Protocol`) that sends ``GET
.../live`` with ``Last-Event-ID`` at the tournament's version (no snapshot: the stream
starts quiet) and counts as held once the answer's ``retry:`` line came (the server has
subscribed it to its hub by then). When every client is held, one
:class:`~tournament.live.change.Change` one version ahead is published with
:class:`~tournament.live.bus.RedisBus`, as a worker publishes after a projection run;
each client notes when the change's first event (``result``) and its last
(``standings``) arrived. The clock is this process's ``perf_counter`` throughout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from live_services import cpu_seconds, rss_mb
from timing import percentile

from tournament.live.bus import RedisBus
from tournament.live.change import Change

FIRST, LAST = b"event: result\n", b"event: standings\n"


class Stream(asyncio.Protocol):
    """One live stream: held once its first line came; then waits for the change."""

    def __init__(self, request: bytes, held: asyncio.Future[int | str],
                 arrived: Any) -> None:  # fmt: skip
        self.request = request
        self.held = held
        self.arrived = arrived  # called once the change's last event is here
        self.buffer = bytearray()
        self.transport: asyncio.Transport | None = None
        self.armed = False
        self.first: float | None = None
        self.last: float | None = None
        self.lost = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.buffer += data
        if not self.held.done():
            head, found, _ = bytes(self.buffer).partition(b"\r\n\r\n")
            if found:
                status = head.split(b" ", 2)[1].decode()
                if status != "200":
                    self.held.set_result(f"status {status}")
                elif b"retry:" in self.buffer:
                    self.held.set_result(200)
                    self.buffer.clear()
            return
        if not self.armed:
            self.buffer.clear()  # keep-alive comments: nothing to look for yet
            return
        if self.first is None and FIRST in self.buffer:
            self.first = now
        if self.last is None and LAST in self.buffer:
            self.last = now
            self.arrived()
        if len(self.buffer) > 4096:
            del self.buffer[:-64]

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        if not self.held.done():
            self.held.set_result(f"closed: {exc!r}")


async def hold(args: argparse.Namespace) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    request = (
        f"GET /api/v1/tournaments/{args.tid}/live HTTP/1.1\r\nHost: {args.host}:{args.port}\r\n"
        f"Accept: text/event-stream\r\nLast-Event-ID: {args.version}\r\n\r\n"
    ).encode()
    streams: list[Stream] = []
    outcomes: dict[str, int] = {}
    connect_s: list[float] = []
    waiting = {"left": 0}
    everyone = loop.create_future()

    def arrived() -> None:
        waiting["left"] -= 1
        if waiting["left"] == 0 and not everyone.done():
            everyone.set_result(None)

    gate = asyncio.Semaphore(args.parallel)

    async def open_one() -> None:
        async with gate:
            began = time.perf_counter()
            held: asyncio.Future[int | str] = loop.create_future()
            stream = Stream(request, held, arrived)
            try:
                await loop.create_connection(lambda: stream, args.host, args.port)
                outcome = await asyncio.wait_for(held, args.timeout)
            except (OSError, TimeoutError) as error:
                outcome = type(error).__name__
            if outcome == 200:
                connect_s.append(time.perf_counter() - began)
                streams.append(stream)
            elif stream.transport is not None:
                stream.transport.close()
            key = str(outcome)
            outcomes[key] = outcomes.get(key, 0) + 1

    cpu_before = cpu_seconds(args.watch)
    began = time.perf_counter()
    await asyncio.gather(*(open_one() for _ in range(args.clients)))
    connect_wall = time.perf_counter() - began
    await asyncio.sleep(args.settle)  # the connects' work done on the server's side
    cpu_held = cpu_seconds(args.watch)
    held = [s for s in streams if not s.lost]
    for stream in held:
        stream.armed = True
    waiting["left"] = len(held)
    bus = RedisBus(args.redis)
    change = Change(args.tid, args.version + 1, ("result", "standings"), ("1.1",))
    published = time.perf_counter()
    bus.publish(change)
    publish_s = time.perf_counter() - published
    if held:
        with contextlib.suppress(TimeoutError):  # the ones that missed it are counted
            await asyncio.wait_for(everyone, args.timeout)
    cpu_after = cpu_seconds(args.watch)
    memory = rss_mb(args.watch)
    last = sorted(s.last - published for s in held if s.last is not None)
    first = sorted(s.first - published for s in held if s.first is not None)
    for stream in streams:
        if stream.transport is not None:
            stream.transport.close()
    return {
        "clients": args.clients,
        "held": len(held),
        "outcomes": outcomes,
        "connect_wall_s": round(connect_wall, 3),
        "connect_p50_ms": _ms(sorted(connect_s), 0.5),
        "connect_p95_ms": _ms(sorted(connect_s), 0.95),
        "connect_cpu_ms": _per(cpu_before, cpu_held, len(streams)),
        "server_rss_mb": memory,
        "publish_ms": round(1000 * publish_s, 3),
        "received": len(last),
        "missed": len(held) - len(last),
        "first_event": {
            "p50_ms": _ms(first, 0.5),
            "p95_ms": _ms(first, 0.95),
            "max_ms": _ms(first, 1.0),
        },
        "p50_ms": _ms(last, 0.5),
        "p95_ms": _ms(last, 0.95),
        "max_ms": _ms(last, 1.0),  # the fan-out: publish to the last client's last event
        "fanout_cpu_ms": _per(cpu_held, cpu_after, 1),
    }


def _ms(values: list[float], fraction: float) -> float | None:
    return round(1000 * percentile(values, fraction), 2) if values else None


def _per(before: float | None, after: float | None, count: int) -> float | None:
    """CPU milliseconds between two readings, per one of ``count`` (None: unknown)."""
    if before is None or after is None or not count:
        return None
    return round(1000 * (after - before) / count, 3)


def raise_file_limit(wanted: int) -> int:
    """As many descriptors as the hard limit allows, up to ``wanted``: the soft one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tid", required=True)
    parser.add_argument("--version", type=int, required=True, help="the projection's, now")
    parser.add_argument("--redis", required=True)
    parser.add_argument("--clients", type=int, default=2000)
    parser.add_argument("--parallel", type=int, default=200, help="connects at once")
    parser.add_argument("--settle", type=float, default=1.0, help="seconds before publishing")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--watch", type=int, help="the server's pid: its CPU and memory")
    args = parser.parse_args()
    limit = raise_file_limit(args.clients + 256)
    figures = asyncio.run(hold(args))
    print(json.dumps({**figures, "file_limit": limit}))


if __name__ == "__main__":
    main()

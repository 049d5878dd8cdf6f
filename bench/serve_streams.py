"""Benchmark: the laptop's default (``tournament serve``, no option) holds the live
streams of a Preisschnapsen -- 100 players with phones, a projector, the online tables --
and one result reaches them all while the other requests are still answered.

    .venv/bin/python bench/serve_streams.py             # 520 streams, about a minute
    .venv/bin/python bench/serve_streams.py --quick     # tiny: the suite's smoke test

A Swiss of 100 players (round 1 drawn) on SQLite in a temporary folder, served by
``tournament serve`` exactly as ``./dev serve`` starts it (its default 16 request threads
and 512 live streams). Then:

1. idle: the server's RSS, and the standings GET (``/api/v1/tournaments/<tid>/standings``)
   answered one at a time from another address: the median (the baseline);
2. ``--clients`` (520) live streams ``GET .../live`` from ``--per-address`` (10) streams
   per loopback address (127.0.1.x: phones, each under the per-address cap), one asyncio
   process: held (a 200 and the snapshot), refused (503 past the cap of 512), RSS and its
   growth per held stream;
3. while they are held: the same standings GETs (median, and its ratio to the idle one),
   and ``/healthz``;
4. one result POSTed by the desk: per held stream the time from the POST to its
   ``result`` event (p50, p95, max), and how many never got it.

Targets: >= 500 held, none missed, other requests answered (ratio printed). The last line
is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import api_stage as stage  # noqa: E402
import live_services as services  # noqa: E402
from live_clients import raise_file_limit  # noqa: E402
from live_latency import TALLIES, Desk  # noqa: E402
from timing import percentile  # noqa: E402

from tournament.app.service import TournamentService  # noqa: E402
from tournament.eventstore import SQLEventStore  # noqa: E402

TID = "preisschnapsen"
HELD_TARGET = 500


class Stream(asyncio.Protocol):
    """One phone's live stream: held once the snapshot came; notes its ``result``."""

    def __init__(self, request: bytes) -> None:
        self.request = request
        self.status: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.buffer = bytearray()
        self.result_at: float | None = None
        self.lost = False
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.buffer += data
        if not self.status.done():
            head, found, _ = bytes(self.buffer).partition(b"\r\n\r\n")
            if found:
                code = head.split(b" ", 2)[1].decode()
                if code != "200" or b"event: standings" in self.buffer:
                    self.status.set_result(code)
            return
        if self.result_at is None and b"event: result" in self.buffer:
            self.result_at = now
        if len(self.buffer) > 8192:
            del self.buffer[:-64]

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        if not self.status.done():
            self.status.set_result(f"closed ({exc!r})")


def timed_gets(port: int, path: str, count: int) -> list[float]:
    """``count`` GETs of ``path`` one after the other on one keep-alive connection from
    127.0.0.2 (another device than the streams'): seconds each."""
    conn = http.client.HTTPConnection(
        services.HOST, port, timeout=30, source_address=("127.0.0.2", 0)
    )
    took = []
    try:
        for _ in range(count):
            began = time.perf_counter()
            conn.request("GET", path)
            reply = conn.getresponse()
            reply.read()
            if reply.status != 200:
                raise RuntimeError(f"GET {path}: {reply.status}")
            took.append(time.perf_counter() - began)
    finally:
        conn.close()
    return took


def ms(values: list[float], fraction: float) -> float | None:
    return round(1000 * percentile(sorted(values), fraction), 2) if values else None


async def run(args: argparse.Namespace, served: services.Served, token: str) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    base = f"/api/v1/tournaments/{TID}"
    standings = f"{base}/standings"
    await asyncio.to_thread(timed_gets, served.port, standings, 3)  # warm
    idle_gets = await asyncio.to_thread(timed_gets, served.port, standings, args.gets)
    rss_idle = services.rss_mb(served.pid)

    request = f"GET {base}/live HTTP/1.1\r\nHost: laptop\r\nAccept: text/event-stream\r\n\r\n"
    streams: list[Stream] = []
    outcomes: dict[str, int] = {}
    gate = asyncio.Semaphore(args.parallel)

    async def open_one(number: int) -> None:
        phone = f"127.0.1.{2 + number // args.per_address}"
        async with gate:
            stream = Stream(request.encode())
            try:
                await loop.create_connection(
                    lambda: stream, services.HOST, served.port, local_addr=(phone, 0)
                )
                outcome = await asyncio.wait_for(stream.status, args.timeout)
            except (OSError, TimeoutError) as error:
                outcome = type(error).__name__
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
            if outcome == "200":
                streams.append(stream)
            elif stream.transport is not None:
                stream.transport.close()

    began = time.perf_counter()
    await asyncio.gather(*(open_one(n) for n in range(args.clients)))
    connect_s = time.perf_counter() - began
    held = [s for s in streams if not s.lost]
    rss_held = services.rss_mb(served.pid)

    held_gets = await asyncio.to_thread(timed_gets, served.port, standings, args.gets)
    health = await asyncio.to_thread(timed_gets, served.port, "/healthz", args.gets)

    desk = Desk(served.port, token)
    try:
        status, body = await asyncio.to_thread(desk.call, "GET", f"{base}/matches?status=open")
        match = body["matches"][0]["match_id"]
        posted = time.perf_counter()
        status, body = await asyncio.to_thread(
            desk.call,
            "POST",
            f"{base}/matches/{match}/results",
            {"tallies": TALLIES, "signed": True},
        )
        post_s = time.perf_counter() - posted
        if status != 201:
            raise RuntimeError(f"the result was refused: {status} {body}")
        deadline = time.perf_counter() + args.timeout
        while any(s.result_at is None and not s.lost for s in held):
            if time.perf_counter() > deadline:
                break
            await asyncio.sleep(0.01)
    finally:
        desk.close()
    reached = [s.result_at - posted for s in held if s.result_at is not None]
    for stream in streams:
        if stream.transport is not None:
            stream.transport.close()
    idle_ms = statistics.median(idle_gets) * 1000
    held_ms = statistics.median(held_gets) * 1000
    grown = None if rss_idle is None or rss_held is None else rss_held - rss_idle
    return {
        "clients": args.clients,
        "held": len(held),
        "outcomes": outcomes,
        "connect_wall_s": round(connect_s, 2),
        "rss_idle_mb": rss_idle,
        "rss_held_mb": rss_held,
        "rss_per_stream_kb": None if grown is None or not held else round(1024 * grown / len(held)),
        "standings_get_idle_p50_ms": round(idle_ms, 2),
        "standings_get_held_p50_ms": round(held_ms, 2),
        "standings_get_held_p95_ms": ms(held_gets, 0.95),
        "held_over_idle": round(held_ms / idle_ms, 2),
        "healthz_held_p50_ms": ms(health, 0.5),
        "post_ms": round(1000 * post_s, 1),
        "result_reached": len(reached),
        "result_missed": len(held) - len(reached),
        "result_p50_ms": ms(reached, 0.5),
        "result_p95_ms": ms(reached, 0.95),
        "result_max_ms": ms(reached, 1.0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes (smoke test)")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--clients", type=int, default=520)
    parser.add_argument("--per-address", type=int, default=10)
    parser.add_argument("--parallel", type=int, default=100, help="connects at once")
    parser.add_argument("--gets", type=int, default=30)
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    if args.quick:
        args.players, args.clients, args.gets = 8, 12, 5
    raise_file_limit(args.clients + 256)
    with tempfile.TemporaryDirectory(prefix="bench-serve-streams-") as folder:
        url = services.sqlite_store(folder)
        store = SQLEventStore(url)
        stage.tournament(TournamentService(store), TID, args.players, played=0, seed=1)
        store.close()
        token = services.desk_token(url, [TID])
        with services.waitress_serve(url, folder) as served:
            figures = asyncio.run(run(args, served, token))
    target_held = min(HELD_TARGET, args.clients)
    ok = figures["held"] >= target_held and figures["result_missed"] == 0
    print(f"tournament serve, defaults; {args.players} players, {args.clients} streams asked "
          f"({args.per_address} per address)")  # fmt: skip
    print(f"  held {figures['held']} (outcomes {figures['outcomes']}), connected in "
          f"{figures['connect_wall_s']} s")  # fmt: skip
    print(f"  RSS idle {figures['rss_idle_mb']} MB, holding {figures['rss_held_mb']} MB "
          f"({figures['rss_per_stream_kb']} KB per stream)")  # fmt: skip
    print(f"  standings GET p50 idle {figures['standings_get_idle_p50_ms']} ms, with the streams "
          f"held {figures['standings_get_held_p50_ms']} ms (x{figures['held_over_idle']}); "
          f"/healthz {figures['healthz_held_p50_ms']} ms")  # fmt: skip
    print(f"  one result (POST {figures['post_ms']} ms) reached {figures['result_reached']} "
          f"streams, missed {figures['result_missed']}: p50 {figures['result_p50_ms']} ms, "
          f"p95 {figures['result_p95_ms']} ms, max {figures['result_max_ms']} ms")  # fmt: skip
    print(f"  target: >= {target_held} held, none missed: {'met' if ok else 'MISSED'}")
    print(json.dumps({"bench": "serve_streams", "ok": ok, **figures}))


if __name__ == "__main__":
    main()

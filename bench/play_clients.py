"""bench/play.py's players: both seats of many online tables from one asyncio process.

Run by bench/play.py as a process of its own (its own CPU, its own descriptors); reads
the tables' codes from a JSON file (``[[seat 0's code, seat 1's code], ...]``) and prints
one JSON line:

    python bench/play_clients.py --port 8080 --tables tables.json --active 200 \\
        --interval 2 --duration 60 --watch 1234

Each seat first takes its seat as a phone does (``POST /api/v1/play/{code}/seat``: the answer's
``device_token`` goes as header ``Seat-Token`` on every later call, T-online), then holds
its Server-Sent Events stream (``GET /api/v1/play/{code}/live``, over
HTTP/1.0 so the events come unchunked until the server closes) and posts its moves over
a keep-alive connection of its own (``POST /api/v1/play/{code}/actions``, or
``.../no-claim`` after the last trick, R16), as two phones would. A seat counts as held
once its stream's first ``table`` event (its view) came.

At each of ``--active`` tables, the seat whose view says ``turn`` (or ``claim``) posts a
random legal move (``view.legal_actions``, with the view's ``version``) ``--interval``
seconds after the table's previous move was sent (the first at a random moment of the
first interval, so the tables do not move in step); with ``--interval 0`` as soon as both
screens showed the previous one. A move's latency runs from just before its POST is
written to the arrival of the opponent's next ``table`` event; the mover's own stream
echo is noted too. The next move waits for both (or ``--timeout``: then it is counted as
missed). A table whose match is decided stops; with ``--moves`` the next table of the
file takes its place, until that many moves were made. The clock is this process's
``perf_counter`` throughout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from live_clients import raise_file_limit
from live_services import cpu_seconds, rss_mb
from timing import percentile

ACTING = ("turn", "claim")
ENDED = ("over", "stopped", "time")


class Seat:
    """One player's phone: its live stream and its connection for moves."""

    def __init__(self, host: str, port: int, code: str, phone: str | None = None) -> None:
        self.host, self.port, self.code = host, port, code
        #: The phone's own address (127.0.x.y): the server caps connections per address.
        self.local = None if phone is None else (phone, 0)
        self.view: dict[str, Any] | None = None
        self.count = 0  # table events seen
        self.at = 0.0  # when the last one came
        self.waiters: list[tuple[int, asyncio.Future[float]]] = []
        self.held: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.lost = False
        self.reader: asyncio.Task[None] | None = None
        self.stream_writer: asyncio.StreamWriter | None = None
        self.conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.token = ""  # the device token taking the seat gave (T-online)

    async def join(self) -> str:
        """Take the seat as its phone does: the POST takes it and gives the device's
        token, which every later call sends as ``Seat-Token``. The outcome ("200", ...)."""
        status, found, _, _ = await self.call("POST", f"/api/v1/play/{self.code}/seat", {})
        if status != 200 or not isinstance(found, dict) or "device_token" not in found:
            return f"join {status}"
        self.token = found["device_token"]
        return "200"

    # --- the live stream ------------------------------------------------------------
    def open_stream(self) -> None:
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            reader, writer = await asyncio.open_connection(
                self.host, self.port, limit=1 << 20, local_addr=self.local
            )
            self.stream_writer = writer
            writer.write(
                f"GET /api/v1/play/{self.code}/live HTTP/1.0\r\nHost: {self.host}\r\n"
                f"Seat-Token: {self.token}\r\nAccept: text/event-stream\r\n\r\n".encode()
            )
            status = (await reader.readline()).split(b" ", 2)
            while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                pass
            if len(status) < 2 or status[1] != b"200":
                self._hold(f"status {status[1].decode() if len(status) > 1 else '?'}")
                return
            kind, data = "", []
            while line := await reader.readline():
                text = line.decode().rstrip("\r\n")
                if text.startswith("event:"):
                    kind = text[6:].strip()
                elif text.startswith("data:"):
                    data.append(text[5:].removeprefix(" "))
                elif not text:
                    if kind == "table" and data:
                        self._seen(json.loads("\n".join(data)))
                    elif kind:
                        self._hold(f"event {kind}")
                    kind, data = "", []
        except (OSError, ValueError) as error:
            self._hold(type(error).__name__)
        finally:
            self.lost = True
            self._hold("closed")
            for _, future in self.waiters:
                if not future.done():
                    future.set_result(-1.0)
            self.waiters.clear()

    def _hold(self, outcome: str) -> None:
        if not self.held.done():
            self.held.set_result(outcome)

    def _seen(self, view: dict[str, Any]) -> None:
        self.at = time.perf_counter()
        self.view = view
        self.count += 1
        self._hold("200")
        keep = []
        for mark, future in self.waiters:
            if self.count > mark:
                if not future.done():
                    future.set_result(self.at)
            else:
                keep.append((mark, future))
        self.waiters = keep

    async def event_after(self, mark: int, timeout: float) -> float | None:
        """When the first event after the ``mark``-th came (None: not within ``timeout``)."""
        if self.count > mark:
            return self.at
        if self.lost:
            return None
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiters.append((mark, future))
        try:
            at = await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return None
        return None if at < 0 else at

    # --- moves ----------------------------------------------------------------------------
    async def post(self, path: str, body: Any) -> tuple[int, Any, float, float]:
        """POST ``body`` as JSON on the keep-alive connection: status, JSON, sent, answered."""
        return await self.call("POST", path, body)

    async def call(self, method: str, path: str, body: Any) -> tuple[int, Any, float, float]:
        """``method`` with ``body`` (None: none) as JSON on the keep-alive connection, with
        the seat's ``Seat-Token``: status, JSON, sent, answered."""
        data = b"" if body is None else json.dumps(body).encode()
        token = f"Seat-Token: {self.token}\r\n" if self.token else ""
        request = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
            f"{token}Content-Length: {len(data)}\r\n\r\n"
        ).encode() + data
        for attempt in range(2):
            try:
                if self.conn is None:
                    self.conn = await asyncio.open_connection(
                        self.host, self.port, local_addr=self.local
                    )
                reader, writer = self.conn
                sent = time.perf_counter()
                writer.write(request)
                status_line = await reader.readline()
                if not status_line:
                    raise ConnectionResetError("closed by the server")
                status = int(status_line.split(b" ", 2)[1])
                length, close = 0, False
                while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
                    name, _, value = line.decode().partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value)
                    elif name.strip().lower() == "connection" and "close" in value.lower():
                        close = True
                text = await reader.readexactly(length) if length else b""
                answered = time.perf_counter()
                if close:
                    self.close_conn()
                try:
                    found = json.loads(text) if text else None
                except ValueError:
                    found = text[:300].decode(errors="replace")
                return status, found, sent, answered
            except (OSError, asyncio.IncompleteReadError, IndexError, ValueError):
                self.close_conn()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close_conn(self) -> None:
        if self.conn is not None:
            self.conn[1].close()
            self.conn = None

    def close(self) -> None:
        self.close_conn()
        if self.stream_writer is not None:
            self.stream_writer.close()
        if self.reader is not None:
            self.reader.cancel()


class Tally:
    """What the moves measured."""

    def __init__(self) -> None:
        self.latency: list[float] = []  # send -> the opponent's next event
        self.sent: list[float] = []  # when each measured move was sent (perf_counter)
        self.echo: list[float] = []  # send -> the mover's own next event
        self.answer: list[float] = []  # send -> the POST's answer
        self.late: list[float] = []  # how late a move was sent against its schedule
        self.moves = 0
        self.missed = 0
        self.refused: dict[str, int] = {}
        self.first_refusal: str | None = None
        self.tables_ended = 0

    def refuse(self, key: str, detail: str) -> None:
        self.refused[key] = self.refused.get(key, 0) + 1
        if self.first_refusal is None:
            self.first_refusal = detail[:400]


def choose(view: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A random legal move of a seat's view: the path's tail and the body."""
    version = view["version"]
    legal = (view.get("view") or {}).get("legal_actions") or []
    if view["status"] == "claim" and (not legal or rng.random() < 0.5):
        return "no-claim", {"version": version}
    return "actions", {"action": rng.choice(legal), "version": version}


async def play_table(seats: tuple[Seat, Seat], args: argparse.Namespace, tally: Tally,
                     rng: random.Random, start: float, stop: float) -> bool:  # fmt: skip
    """Moves at one table from ``start`` until ``stop`` (perf_counter) or its end; True
    when the match ended (decided, stopped or out of time)."""
    due = start
    while True:
        if args.moves and tally.moves >= args.moves:
            return False
        views = [s.view for s in seats]
        if any(v is None for v in views) or any(s.lost for s in seats):
            tally.refuse("stream lost", "a seat's stream closed")
            return False
        if any(v["status"] in ENDED for v in views):  # type: ignore[index]
            return True
        actors = [s for s in seats if s.view["status"] in ACTING]  # type: ignore[index]
        if not actors:  # both wait (a deal on its way): for the next event
            marks = [s.count for s in seats]
            waits = [s.event_after(m, args.timeout) for s, m in zip(seats, marks, strict=True)]
            _, pending = await asyncio.wait(
                [asyncio.ensure_future(w) for w in waits], return_when=asyncio.FIRST_COMPLETED
            )
            for task in pending:
                task.cancel()
            if all(s.count == m for s, m in zip(seats, marks, strict=True)):
                tally.refuse("stuck", f"no seat to act: {[s.view['status'] for s in seats]}")  # type: ignore[index]
                return False
            continue
        actor = actors[0]
        other = seats[1] if actor is seats[0] else seats[0]
        wait = due - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        now = time.perf_counter()
        if now >= stop:
            return False
        tally.late.append(max(0.0, now - due))
        tail, body = choose(actor.view, rng)  # type: ignore[arg-type]
        marks = (other.count, actor.count)
        try:
            status, answer, sent, answered = await asyncio.wait_for(
                actor.post(f"/api/v1/play/{actor.code}/{tail}", body), args.timeout
            )
        except TimeoutError:  # (an OSError too): no answer in time; the screens tell
            actor.close_conn()
            tally.missed += 1
            tally.refuse("no answer", f"no answer to a move within {args.timeout:g} s")
            await actor.event_after(marks[1], args.timeout)  # taken late, or not at all
            due = time.perf_counter()
            continue
        except (OSError, asyncio.IncompleteReadError, IndexError, ValueError) as error:
            tally.refuse("connection", repr(error))
            return False
        due = sent + args.interval
        if status != 200:
            tally.refuse(str(status), f"{status} {tail} {json.dumps(body)}: {str(answer)[:300]}")
            # A stale view (409) or a refusal: look again once the streams caught up.
            await asyncio.sleep(0.2)
            continue
        tally.moves += 1
        tally.answer.append(answered - sent)
        seen, echo = await asyncio.gather(
            other.event_after(marks[0], args.timeout), actor.event_after(marks[1], args.timeout)
        )
        if seen is None:
            tally.missed += 1
        else:
            tally.latency.append(seen - sent)
            tally.sent.append(sent)
        if echo is not None:
            tally.echo.append(echo - sent)


def phone(number: int) -> str | None:
    """Seat ``number``'s own loopback address (Linux answers on all of 127/8), as each
    player's phone has its own on the hall's network; None where loopback is one address."""
    if not sys.platform.startswith("linux"):
        return None
    return f"127.0.{2 + number // 250}.{1 + number % 250}"


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tables: list[list[str]] = json.loads(Path(args.tables).read_text())
    rng = random.Random(args.seed)
    seats = [
        (Seat(args.host, args.port, a, phone(2 * n)),
         Seat(args.host, args.port, b, phone(2 * n + 1)))
        for n, (a, b) in enumerate(tables)
    ]  # fmt: skip
    outcomes: dict[str, int] = {}
    began = time.perf_counter()
    gate = asyncio.Semaphore(args.parallel)

    async def hold(seat: Seat) -> None:
        async with gate:
            try:
                joined = await asyncio.wait_for(seat.join(), args.timeout)
            except (TimeoutError, OSError, asyncio.IncompleteReadError) as error:
                joined = f"join {type(error).__name__}"
            if joined != "200":
                outcomes[joined] = outcomes.get(joined, 0) + 1
                return
            seat.open_stream()
            try:
                outcome = await asyncio.wait_for(asyncio.shield(seat.held), args.timeout)
            except TimeoutError:
                outcome = "timeout"
            outcomes[outcome] = outcomes.get(outcome, 0) + 1

    await asyncio.gather(*(hold(s) for pair in seats for s in pair))
    connect_s = time.perf_counter() - began
    held = sum(1 for pair in seats for s in pair if s.view is not None and not s.lost)
    tally = Tally()
    load_before = os.getloadavg()
    cpu_before, own_before = cpu_seconds(args.watch), time.process_time()
    threads_before = thread_cpu(args.watch)
    start = time.perf_counter()
    stop = start + args.duration
    if args.moves:  # one table at a time, the next when one ends, until --moves
        pool = list(seats)
        while pool and tally.moves < args.moves and time.perf_counter() < stop:
            if await play_table(pool.pop(0), args, tally, rng, time.perf_counter(), stop):
                tally.tables_ended += 1
            elif not (args.moves and tally.moves >= args.moves):
                break
    else:
        active = seats[: args.active]
        offsets = [start + rng.random() * args.interval for _ in active]
        ended = await asyncio.gather(*(
            play_table(pair, args, tally, random.Random(rng.random()), at, stop)
            for pair, at in zip(active, offsets, strict=True)
        ))  # fmt: skip
        tally.tables_ended = sum(ended)
    wall = time.perf_counter() - start
    windows: dict[int, list[float]] = {}
    for sent, latency in zip(tally.sent, tally.latency, strict=True):
        windows.setdefault(int((sent - start) // args.window), []).append(latency)
    cpu_after, own_after = cpu_seconds(args.watch), time.process_time()
    threads_after = thread_cpu(args.watch)
    load_after = os.getloadavg()
    memory = rss_mb(args.watch)
    for pair in seats:
        for seat in pair:
            seat.close()
    server_cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    per_move = None if server_cpu is None or not tally.moves else server_cpu / tally.moves
    return {
        "tables": len(seats),
        "active": min(args.active, len(seats)) if not args.moves else 1,
        "interval_s": args.interval,
        "streams": 2 * len(seats),
        "held": held,
        "outcomes": outcomes,
        "connect_wall_s": round(connect_s, 3),
        "wall_s": round(wall, 3),
        "moves": tally.moves,
        "moves_per_s": round(tally.moves / wall, 2) if wall else None,
        "measured": len(tally.latency),
        "missed": tally.missed,
        "refused": tally.refused,
        "first_refusal": tally.first_refusal,
        "tables_ended": tally.tables_ended,
        "p50_ms": _ms(tally.latency, 0.5),
        "p95_ms": _ms(tally.latency, 0.95),
        "p99_ms": _ms(tally.latency, 0.99),
        "max_ms": _ms(tally.latency, 1.0),
        "p95_ms_by_window": {
            f"{args.window * k:g}s": _ms(v, 0.95) for k, v in sorted(windows.items())
        },
        "echo_p50_ms": _ms(tally.echo, 0.5),
        "echo_p95_ms": _ms(tally.echo, 0.95),
        "post_p50_ms": _ms(tally.answer, 0.5),
        "post_p95_ms": _ms(tally.answer, 0.95),
        "sent_late_p95_ms": _ms(tally.late, 0.95),
        "server_cpu_s": None if server_cpu is None else round(server_cpu, 2),
        "server_cpu_share": None if server_cpu is None or not wall else round(server_cpu / wall, 3),
        "server_cpu_ms_per_move": None if per_move is None else round(1000 * per_move, 2),
        "server_threads": threads_used(args.watch, threads_before, threads_after),
        "server_rss_mb": memory,
        "clients_cpu_s": round(own_after - own_before, 2),
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in load_after],
    }


def thread_cpu(pid: int | None) -> dict[int, float]:
    """CPU seconds of each thread of ``pid`` (Linux; empty elsewhere)."""
    found: dict[int, float] = {}
    if pid is None:
        return found
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path(f"/proc/{pid}/task").glob("*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
            found[int(stat.parent.name)] = (int(fields[11]) + int(fields[12])) / tick
        except (OSError, ValueError):
            continue
    return found


def threads_used(pid: int | None, before: dict[int, float], after: dict[int, float]
                 ) -> dict[str, Any]:  # fmt: skip
    """Where the server's CPU went, by thread: the main one (waitress's I/O loop), the
    busiest others (one far above the rest: the projections' thread), and all the rest."""
    used = {tid: after[tid] - before.get(tid, 0.0) for tid in after}
    main = used.pop(pid, None) if pid is not None else None
    busiest = sorted(used.values(), reverse=True)
    return {
        "io_loop_cpu_s": None if main is None else round(main, 2),
        "busiest_other_threads_cpu_s": [round(x, 2) for x in busiest[:3]],
        "other_threads_cpu_s": round(sum(busiest), 2),
        "threads_busy": sum(1 for x in busiest if x > 0),
    }


def _ms(values: list[float], fraction: float) -> float | None:
    return round(1000 * percentile(values, fraction), 2) if values else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tables", required=True, help="JSON file: [[code0, code1], ...]")
    parser.add_argument("--active", type=int, default=200, help="tables playing at once")
    parser.add_argument("--interval", type=float, default=2.0, help="s between a table's moves")
    parser.add_argument("--duration", type=float, default=60.0, help="s of moves")
    parser.add_argument("--moves", type=int, default=0, help="one table at a time, this many")
    parser.add_argument("--parallel", type=int, default=50, help="stream connects at once")
    parser.add_argument("--timeout", type=float, default=15.0)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--window", type=float, default=10.0, help="s per p95 of a stretch")
    parser.add_argument("--watch", type=int, help="the server's pid: its CPU and memory")
    args = parser.parse_args()
    limit = raise_file_limit(4 * len(json.loads(Path(args.tables).read_text())) + 256)
    figures = asyncio.run(run(args))
    print(json.dumps({**figures, "file_limit": limit}))


if __name__ == "__main__":
    main()

"""Benchmark: online tables (issue 12) -- a move's way to the opponent's screen, and how
many live tables one ``tournament serve`` process holds.

    .venv/bin/python bench/play.py            # about two minutes
    .venv/bin/python bench/play.py --quick    # tiny sizes: the suite's smoke test runs it

Both parts run the laptop's service, ``tournament serve`` (waitress, SQLite in a
temporary folder, no Redis, projections in a thread of the web process), started by
bench/play_serve.py, with the players in a process of their own (bench/play_clients.py:
asyncio, raw sockets; each seat first takes its seat with ``POST /api/v1/play/{code}/seat``,
which gives its device token (T-online), then holds its ``GET /api/v1/play/{code}/live``
stream, the token in header ``Seat-Token`` on every call, and
posts its moves on a keep-alive connection of its own). The clock of a move runs from
just before its ``POST /api/v1/play/{code}/actions`` is written to the arrival of the
opponent's next ``table`` event.

1. One table, a few hundred moves (``--moves``), each posted as soon as both screens
   showed the one before; when a match is decided the next table of a small Swiss
   (8 players) takes over. Stock ``tournament serve``. Target: p95 < 200 ms.
2. Many tables at once: a Swiss of ``--players`` (400: 200 tables) drawn, every match
   of round 1 started online (``move_seconds`` null), both seats' streams held (400),
   and at each table a random legal move 2 s after its previous one, for ``--duration``
   (60 s). Stock ``tournament serve`` too: 16 request threads and 512 live streams, and
   waitress holds ``tournament.web.server.connection_limit(16 + 512)`` = 1,056 sockets,
   enough for 400 streams and their seats' connections. Each seat connects from its own
   loopback address (127.0.x.y: a phone of its own, under serve's cap per address).
   Targets: >= 200 tables held, p95 < 300 ms. ``--threads N`` and ``--connection-limit
   N`` run a variant (0: as served).

The machine is shared: its load is recorded before and after each part, with the
server's CPU seconds over the moves (hardly changed by the neighbours). The tables are
started by the organiser's ``POST .../matches/{mid}/online`` when the service has it,
else through :class:`~tournament.app.play.PlayService` on the same SQLite file (the
figures say which); the codes are worked out with the server's ``SECRET_KEY``
(:func:`tournament.domain.commands.tablecodes.match_codes`). ``--profile`` writes the server's
requests' CPU profile (cProfile per worker thread, written on SIGUSR1 once the moves
are done) and waitress's I/O loop's, and prints their top functions (the profiler
roughly doubles the server's CPU per move: read its shares, not its times).
``--project-every S`` runs part 2 on a variant whose projection runs at most every S s
(what a hand's end costs when it rewrites the standings each time); ``--keep DIR``
keeps the servers' logs and profiles. The last line is JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import marshal
import os
import pstats
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import api_stage as stage  # noqa: E402
import live_services as services  # noqa: E402

from tournament.app.play import PlayService  # noqa: E402
from tournament.app.service import TournamentService  # noqa: E402
from tournament.domain.commands.tablecodes import match_codes  # noqa: E402
from tournament.eventstore import SQLEventStore  # noqa: E402

ONE_P95_MS, MANY_TABLES, MANY_P95_MS = 200.0, 200, 300.0
ONE_TID, MANY_TID = "bench-play-one", "bench-play-many"
SECRET = "bench-play-secret-key-0123456789abcdef"  # the served app's SECRET_KEY
SERVE = ROOT / "bench" / "play_serve.py"
CLIENTS = ROOT / "bench" / "play_clients.py"
STARTED = time.monotonic()


def say(text: str) -> None:
    print(f"[{time.monotonic() - STARTED:6.1f} s] {text}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def serve(url: str, folder: str, name: str, threads: int, connection_limit: int,
          profile: str | None, project_every: float = 0.0
          ) -> Iterator[services.Served]:  # fmt: skip
    """``tournament serve`` on ``url`` (bench/play_serve.py), ``--threads N`` unless 0."""
    port = services.free_port()
    settings = {"DATABASE_URL": url, "SECRET_KEY": SECRET}
    if connection_limit:
        settings["BENCH_CONNECTION_LIMIT"] = str(connection_limit)
    if profile:
        settings["BENCH_PROFILE"] = profile
    if project_every:
        settings["BENCH_PROJECT_EVERY"] = str(project_every)
    env = services.environment(folder, **settings)
    env.pop("REDIS_URL", None)
    env.pop("SCHNAPSEN_PROJECTIONS", None)
    env.pop("SCHNAPSEN_LIVE_MAX_STREAMS", None)  # serve's own: 512
    command = [sys.executable, str(SERVE), "--port", str(port)]
    if threads:
        command += ["--threads", str(threads)]
    # A stream's thread stays until its next keep-alive finds the client gone (15 s): a
    # short grace, then SIGKILL (the profile is written at SIGTERM, before the threads).
    with services.process(name, command, env, folder, grace=5.0) as child:
        services.wait_until(lambda: services.answers(port), "answering", child, folder, name)
        yield services.Served(port, child.pid)


def start_tables(port: int, url: str, token: str, tid: str) -> tuple[list[list[str]], str]:
    """Every open match of ``tid`` started online (``move_seconds`` null): by the
    organiser's route if the service has it, else by the PlayService on the store; the
    tables' codes (seat 0, seat 1) and how they were started."""
    store = SQLEventStore(url)
    try:
        service = TournamentService(store)
        mids = stage.open_matches(service, tid)
        conn = http.client.HTTPConnection(services.HOST, port, timeout=60)
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        conn.request("POST", f"/api/v1/tournaments/{tid}/matches/{mids[0]}/online",
                     body=json.dumps({"move_seconds": None}), headers=headers)  # fmt: skip
        reply = conn.getresponse()
        text = reply.read()
        if reply.status in (200, 201):
            how = "api"
            for mid in mids[1:]:
                conn.request("POST", f"/api/v1/tournaments/{tid}/matches/{mid}/online",
                             body=json.dumps({"move_seconds": None}), headers=headers)  # fmt: skip
                reply = conn.getresponse()
                body = reply.read()
                if reply.status not in (200, 201):
                    raise RuntimeError(f"start {mid}: {reply.status} {body[:300]!r}")
        else:
            how = f"PlayService on the store (the route answered {reply.status})"
            say(f"  no organiser route yet ({reply.status} {text[:120]!r}): {how}")
            play = PlayService(service)
            for mid in mids:
                play.start(tid, mid, move_seconds=None, actor="bench")
        conn.close()
        t = TournamentService(store).state(tid)  # afresh: what the server reads
        codes = [list(match_codes(SECRET.encode(), t, t.matches[mid])) for mid in mids]
        return codes, how
    finally:
        store.close()


def clients(port: int, pid: int, folder: str, name: str, codes: list[list[str]],
            *options: str) -> dict[str, Any]:  # fmt: skip
    path = Path(folder) / f"{name}-tables.json"
    path.write_text(json.dumps(codes))
    command = [sys.executable, str(CLIENTS), "--port", str(port), "--tables", str(path),
               "--watch", str(pid), *options]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"play_clients.py failed:\n{run.stderr[-3000:]}")
    found: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return found


def one_table(args: argparse.Namespace, folder: str, url: str, token: str) -> dict[str, Any]:
    """Part 1: one table at a time on stock ``tournament serve``."""
    with serve(url, folder, "serve-one", 0, 0, None) as served:
        codes, how = start_tables(served.port, url, token, ONE_TID)
        before = stage.uptime()
        found = clients(served.port, served.pid, folder, "one", codes,
                        "--moves", str(args.moves), "--interval", "0",
                        "--duration", "900")  # fmt: skip
        return {**found, "started_by": how, "threads": "serve's", "load_before": before,
                "load_after": stage.uptime()}  # fmt: skip


def many_tables(args: argparse.Namespace, folder: str, url: str, token: str
                ) -> dict[str, Any]:  # fmt: skip
    """Part 2: every table of round 1 at once."""
    profile = str(Path(folder) / "serve.prof") if args.profile else None
    with serve(url, folder, "serve-many", args.threads, args.connection_limit,
               profile, args.project_every) as served:  # fmt: skip
        say(f"  starting {args.players // 2} tables ...")
        codes, how = start_tables(served.port, url, token, MANY_TID)
        before = stage.uptime()
        say(f"  {len(codes)} tables, {2 * len(codes)} streams, a move every "
            f"{args.interval:g} s per table for {args.duration:g} s ...")  # fmt: skip
        found = clients(served.port, served.pid, folder, "many", codes,
                        "--active", str(len(codes)), "--interval", str(args.interval),
                        "--duration", str(args.duration))  # fmt: skip
        after = stage.uptime()
        if profile:
            os.kill(served.pid, signal.SIGUSR1)  # bench/play_serve.py writes it
            deadline = time.monotonic() + 120
            while not Path(profile + ".io").exists() and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(0.5)
    out = {**found, "started_by": how, "threads": args.threads or "serve's",
           "project_every_s": args.project_every or None,
           "connection_limit": args.connection_limit or "serve's",
           "load_before": before, "load_after": after}  # fmt: skip
    if profile and Path(profile + ".io").exists():
        requests, io_loop = load(profile), load(profile + ".io")
        if requests is not None:  # merged: for --keep
            requests.dump_stats(str(Path(folder) / "requests.prof"))
        out["profile"] = {
            "requests_cpu_s": total_own(requests),
            "io_loop_cpu_s": total_own(io_loop),
            "requests_top": top_functions(requests),
            "io_loop_top": top_functions(io_loop, 10),
        }
    return out


class Raw:
    """One thread's ``Profile.stats`` as pstats reads a profile."""

    def __init__(self, stats: dict[Any, Any]) -> None:
        self.stats = stats

    def create_stats(self) -> None:
        pass


def load(path: str) -> pstats.Stats | None:
    """bench/play_serve.py's marshalled stats (``.io``: the I/O loop's; else a list of
    threads' stats), merged; None when nothing was profiled (pstats refuses an empty
    profile)."""
    with open(path, "rb") as found:
        read = marshal.load(found)
    every = [read] if path.endswith(".io") else read
    every = [stats for stats in every if stats]
    if not every:
        return None
    merged = pstats.Stats(Raw(every[0]))  # type: ignore[arg-type]
    for stats in every[1:]:
        merged.add(Raw(stats))  # type: ignore[arg-type]
    return merged


def total_own(stats: pstats.Stats | None) -> float:
    if stats is None:
        return 0.0
    return round(sum(row[2] for row in stats.stats.values()), 2)  # type: ignore[attr-defined]


def top_functions(stats: pstats.Stats | None, count: int = 25) -> list[dict[str, Any]]:
    """The profile's functions by their own CPU time."""
    if stats is None:
        return []
    rows = []
    for (file, line, name), (_, calls, own, total, _) in stats.stats.items():  # type: ignore[attr-defined]
        where = file.replace(str(ROOT) + "/", "")
        if "site-packages/" in where:
            where = where.split("site-packages/", 1)[1]
        rows.append({"function": f"{where}:{line}({name})", "calls": calls,
                     "own_s": round(own, 3), "cumulative_s": round(total, 3)})  # fmt: skip
    rows.sort(key=lambda r: r["own_s"], reverse=True)
    return rows[:count]


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, well under a minute")
    parser.add_argument("--moves", type=int, default=300, help="part 1's moves")
    parser.add_argument("--players", type=int, default=400, help="part 2's Swiss (2 per table)")
    parser.add_argument("--interval", type=float, default=2.0, help="s between a table's moves")
    parser.add_argument("--duration", type=float, default=60.0, help="s of part 2's moves")
    parser.add_argument("--threads", type=int, default=0,
                        help="part 2's serve --threads (0: serve's own)")  # fmt: skip
    parser.add_argument("--connection-limit", type=int, default=0,
                        help="part 2's waitress sockets at least (0: serve's)")  # fmt: skip
    parser.add_argument("--profile", action="store_true", help="cProfile part 2's server")
    parser.add_argument("--project-every", type=float, default=0.0, metavar="S",
                        help="part 2's variant: a projection run at most every S s")  # fmt: skip
    parser.add_argument("--skip-one", action="store_true", help="part 2 only")
    parser.add_argument("--keep", metavar="DIR", help="copy the servers' logs and profiles here")
    args = parser.parse_args()
    if args.quick:
        args.moves, args.players, args.duration, args.interval = 30, 8, 4.0, 0.5
    return args


def main() -> None:
    args = options()
    before = stage.uptime()
    with tempfile.TemporaryDirectory() as folder:
        url = services.sqlite_store(folder)
        store = SQLEventStore(url)
        service = TournamentService(store)
        say(f"a Swiss of 8 and one of {args.players} players, round 1 drawn ...")
        stage.tournament(service, ONE_TID, 8, played=0, seed=1)
        stage.tournament(service, MANY_TID, args.players, played=0, seed=2)
        store.close()
        token = services.desk_token(url, [ONE_TID, MANY_TID])
        one = None
        if not args.skip_one:
            say(f"part 1: one table, {args.moves} moves ...")
            one = one_table(args, folder, url, token)
        say(f"part 2: {args.players // 2} tables at once ...")
        many = many_tables(args, folder, url, token)
        if args.keep:
            Path(args.keep).mkdir(parents=True, exist_ok=True)
            for path in Path(folder).iterdir():
                if path.suffix in (".log", ".prof", ".io"):
                    shutil.copy(path, args.keep)
    report(args, one, many, before, stage.uptime())


def judge(goal: float, value: float | None, way: str, clean: bool) -> dict[str, Any]:
    met = value is not None and (value >= goal if way == ">=" else value < goal)
    return {"target": f"{way} {goal:g}", "value": value, "pass": bool(met and clean)}


def report(args: argparse.Namespace, one: dict[str, Any] | None, many: dict[str, Any],
           before: str, after: str) -> None:  # fmt: skip
    print(f"\nload before: {before}\nload after:  {after}  ({os.cpu_count()} CPUs)")
    targets: dict[str, dict[str, Any]] = {}
    if one is not None:
        print(f"1. one table at a time, {one['moves']} moves posted as soon as both screens "
              f"showed the last ({one['tables_ended']} matches played out; stock serve, "
              f"tables started by {one['started_by']}):")  # fmt: skip
        line(one)
        clean = not one["missed"] and not one["refused"]
        targets["one_table_p95_ms"] = judge(ONE_P95_MS, one["p95_ms"], "<", clean)
    print(f"2. {many['tables']} tables at once, {many['held']} of {many['streams']} streams "
          f"held ({many['outcomes']}, connects {many['connect_wall_s']} s), a move every "
          f"{many['interval_s']:g} s per table for {many['wall_s']} s "
          f"(threads {many['threads']}, connection limit {many['connection_limit']};"
          f" tables started by {many['started_by']}):")  # fmt: skip
    line(many)
    print(f"   server CPU {many['server_cpu_s']} s over the moves ({many['server_cpu_share']} "
          f"of one core, {many['server_cpu_ms_per_move']} ms per move), RSS "
          f"{many['server_rss_mb']} MB; clients' CPU {many['clients_cpu_s']} s; moves sent "
          f"late p95 {many['sent_late_p95_ms']} ms")  # fmt: skip
    print(f"   p95 per {10}-s stretch of sends: {many['p95_ms_by_window']}")
    threads = many["server_threads"]
    print(f"   the server's CPU by thread: waitress's I/O loop {threads['io_loop_cpu_s']} s, "
          f"the others {threads['other_threads_cpu_s']} s ({threads['threads_busy']} busy; "
          f"busiest {threads['busiest_other_threads_cpu_s']} s)")  # fmt: skip
    print(f"   load during: {many['load_before']} -> {many['load_after']}")
    tables_held = min(many["held"] // 2, many["tables"])
    clean = not many["missed"] and not many["refused"] and many["held"] == many["streams"]
    targets["tables_held"] = judge(MANY_TABLES, tables_held, ">=", many["held"] == many["streams"])
    targets["many_tables_p95_ms"] = judge(MANY_P95_MS, many["p95_ms"], "<", clean)
    for name, t in targets.items():
        print(f"   {name:20s} {t['value']!s:>10}  target {t['target']:>8}  "
              f"{'met' if t['pass'] else 'MISSED'}")  # fmt: skip
    profile = many.get("profile")
    if profile:
        print(f"   profile (cProfile, thread CPU): requests {profile['requests_cpu_s']} s, "
              f"waitress's I/O loop {profile['io_loop_cpu_s']} s; top by own time:")  # fmt: skip
        for row in profile["requests_top"][:15] + profile["io_loop_top"][:5]:
            print(f"   {row['own_s']:8.3f} s own {row['cumulative_s']:8.3f} s cum "
                  f"{row['calls']:8d} x  {row['function']}")  # fmt: skip
    summary = {
        "bench": "play", "quick": args.quick,
        "load": {"before": before, "after": after, "cpus": os.cpu_count()},
        "one_table": one, "many_tables": many, "targets": targets,
    }  # fmt: skip
    print(json.dumps(summary))


def line(r: dict[str, Any]) -> None:
    print(f"   move -> opponent's event: p50 {r['p50_ms']} ms  p95 {r['p95_ms']} ms  "
          f"p99 {r['p99_ms']} ms  max {r['max_ms']} ms  ({r['measured']} measured, missed "
          f"{r['missed']}, refused {r['refused'] or 0})")  # fmt: skip
    print(f"   the POST's answer: p50 {r['post_p50_ms']} ms  p95 {r['post_p95_ms']} ms; own "
          f"screen's echo p50 {r['echo_p50_ms']} ms  p95 {r['echo_p95_ms']} ms; "
          f"{r['moves_per_s']} moves/s")  # fmt: skip
    if r["first_refusal"]:
        print(f"   first refusal: {r['first_refusal']}")


if __name__ == "__main__":
    main()

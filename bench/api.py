"""Benchmark: the web service under gunicorn on PostgreSQL -- standings reads, result writes.

    .venv/bin/python bench/api.py            # 3 runs of 10 s of GETs each way, 3 x 1,024 POSTs
    .venv/bin/python bench/api.py --quick    # a few seconds: the suite's smoke test runs it

The app (``tournament.web.create_app``) runs under gunicorn, 2 gthread workers, on a fresh
schema of PostgreSQL (``SCHNAPSEN_TEST_POSTGRES_URL`` or ``--postgres-url``; 127.0.0.1:5432
db ``test`` by default), dropped at the end. The tournaments are set up in this process
through the domain (bench/api_stage.py): a Swiss of 64 players with 3 rounds played, and
for the writes one tournament per run with 2,048 players and round 1 drawn.

- Standings: ``GET /api/v1/tournaments/<tid>/standings`` from 32 keep-alive connections for
  10 s with wrk (``--latency``; without wrk, a pool of Python threads, which is slower than
  the server and says so), once plain (200, the body cached per version) and once with
  ``If-None-Match`` (304): requests/s, p50, p99. Target: >= 2,000 requests/s, p99 < 50 ms.
- Results: 50 client threads, each on a keep-alive connection, post every open match's
  sheet (``{"tallies": [...], "signed": false}``, best of 3) with an ``Idempotency-Key``;
  5 % of them are sent again with the same key when their answer came (a retry): writes/s,
  p50, p99. Afterwards the store is read back: every posted match decided by exactly its
  sheet's events from one request (else ``lost`` or ``doubled``), every retry answered with
  ``Idempotent-Replayed: true`` and the first answer's body. Target: >= 300 writes/s.

``--setup workers`` runs the writes as the deploy guide does: gunicorn with ``REDIS_URL``
(a redis-server of the bench's own) and one Celery worker projecting; ``--setup embedded``
on the laptop's service (``tournament serve``: waitress, SQLite, projections in a thread),
whose target is >= 100 writes/s. ``--writes-only`` leaves the standings out.

Figures are the medians of ``--runs`` runs; the machine's load (``uptime``) is recorded
before and after, since this machine is shared, and so is the CPU the gunicorn workers
spent per request (from /proc): unlike requests/s, it hardly depends on what else runs,
and 2 cores divided by it is what the service could do on this machine alone (less
PostgreSQL's and the load generator's share). The last line is JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import http.client
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import api_load as load  # noqa: E402
import api_stage as stage  # noqa: E402
import live_services as services  # noqa: E402

from tournament.app.service import TournamentService  # noqa: E402
from tournament.eventstore import SQLEventStore  # noqa: E402

HOST = "127.0.0.1"
APP = "tournament.web:create_app()"
READS_PER_S, READ_P99_MS, WRITES_PER_S = 2000.0, 50.0, 300.0
EMBEDDED_WRITES_PER_S = 100.0


@dataclasses.dataclass(frozen=True)
class Server:
    """The gunicorn under test: where it listens, and what its workers have cost."""

    port: int
    master: int
    #: Whether the process itself serves (waitress), not only its children (gunicorn's).
    serves_itself: bool = False
    #: The Celery worker projecting (``--setup workers``): its CPU is the other half of
    #: what a write costs the server (the projection it causes).
    projector: int | None = None

    def cpu_seconds(self) -> float | None:
        """CPU seconds (user + system) its workers have used so far: divided by the
        requests of a stretch, what a request costs whatever else runs on the machine.
        None where /proc cannot tell (not Linux)."""
        return _tree_cpu(self.master, itself=self.serves_itself)

    def projector_cpu_seconds(self) -> float | None:
        """CPU seconds the Celery worker (its main process and forked children) has used."""
        return None if self.projector is None else _tree_cpu(self.projector, itself=True)


def _tree_cpu(pid: int, *, itself: bool) -> float | None:
    """CPU seconds of ``pid``'s children (and of ``pid`` itself with ``itself``)."""
    try:
        tick = os.sysconf("SC_CLK_TCK")
        used = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError):
                # After the command's closing parenthesis: state, ppid, ... utime, stime.
                fields = stat.read_text().rpartition(")")[2].split()
                if int(fields[1]) == pid or (itself and stat.parent.name == str(pid)):
                    used += int(fields[11]) + int(fields[12])
        return used / tick
    except (OSError, ValueError):
        return None


def cpu_ms_per_request(server: Server, before: float | None, requests: int) -> float | None:
    after = server.cpu_seconds()
    if before is None or after is None or not requests:
        return None
    return round(1000 * (after - before) / requests, 3)


def projector_cpu_ms(server: Server, before: float | None, posts: int) -> float | None:
    """The Celery worker's CPU per POST over a run, once it has been idle for a second
    (its last projection of the run done; 30 s at most)."""
    if before is None or not posts:
        return None
    last, deadline = server.projector_cpu_seconds(), time.monotonic() + 30
    while time.monotonic() < deadline:
        time.sleep(1.0)
        now = server.projector_cpu_seconds()
        if now is None or last is None or now - last < 0.02:
            last = now
            break
        last = now
    return None if last is None else round(1000 * (last - before) / posts, 3)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def gunicorn(url: str, folder: str, workers: int, threads: int, app: str,
             redis: str | None = None) -> Iterator[Server]:  # fmt: skip
    """The app under gunicorn on ``url`` (with ``redis``: its ``REDIS_URL``, the Celery
    workers project); yields it once it answers /healthz."""
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
        **({"REDIS_URL": redis} if redis else {}),
        "DATABASE_URL": url,
        "SECRET_KEY": secrets.token_urlsafe(32),
        "SCHNAPSEN_INSTANCE": folder,  # its seal key (unless set) and nothing else
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    command = [sys.executable, "-m", "gunicorn", "--workers", str(workers),
               "--worker-class", "gthread", "--threads", str(threads),
               "--bind", f"{HOST}:{port}", "--log-level", "warning",
               app]  # fmt: skip
    log_path = Path(folder) / "gunicorn.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not _answers(port):
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start:\n{_tail(log_path)}")
            time.sleep(0.2)
        yield Server(port, server.pid)
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _answers(port: int) -> bool:
    try:
        return get(port, "/healthz")[0] == 200
    except OSError:
        return False


def _tail(path: Path, lines: int = 30) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, Any, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        reply = conn.getresponse()
        return reply.status, reply.headers, reply.read()
    finally:
        conn.close()


def warm(port: int, path: str, connections: int = 8, each: int = 4) -> None:
    """Requests from several connections at once, so that every worker has read and
    folded the tournament before anything is measured."""

    def hit() -> None:
        for _ in range(each):
            get(port, path)

    threads = [threading.Thread(target=hit) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def standings(server: Server, tid: str, args: argparse.Namespace, client: str) -> dict[str, Any]:
    """requests/s, p50, p99 and the workers' CPU per request of the standings, plain and
    with If-None-Match, the two taking turns run by run (a noisy neighbour slows both)."""
    port = server.port
    path = f"/api/v1/tournaments/{tid}/standings"
    status, headers, body = get(port, path)
    if status != 200:
        raise RuntimeError(f"GET {path} answered {status}: {body[:300]!r} (is the route there?)")
    tag = headers.get("ETag")
    cases = {"plain": ({}, 200), "not_modified": ({"If-None-Match": tag or '"none"'}, 304)}
    checked = {name: get(port, path, sent)[0] for name, (sent, _) in cases.items()}
    warm(port, path)
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in cases}
    for number in range(args.runs):
        for name, (sent, wanted) in cases.items():
            print(f"  standings {name}, run {number + 1} ...", file=sys.stderr, flush=True)
            cpu = server.cpu_seconds()
            if client == "wrk":
                url = f"http://{HOST}:{port}{path}"
                figures = load.wrk(url, args.connections, args.seconds, sent, args.wrk_threads)
            else:
                figures = load.python_gets(HOST, port, path, args.connections, args.seconds,
                                           sent, wanted)  # fmt: skip
            cost = cpu_ms_per_request(server, cpu, figures.requests)
            runs[name].append({**vars(figures), "worker_cpu_ms": cost})
    out: dict[str, Any] = {"body_bytes": len(body), "etag": tag}
    for name, (_, wanted) in cases.items():
        done = runs[name]
        out[name] = {
            "status": checked[name],
            "wanted_status": wanted,
            **{key: median(done, key) for key in MEDIANS},
            "errors": sum(r["errors"] for r in done),
            "runs": done,
        }
    return out


#: The figures of a run reported as the median over the runs.
MEDIANS = ("requests_per_s", "p50_ms", "p99_ms", "worker_cpu_ms")


def median(runs: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in runs if r.get(key) is not None]
    return statistics.median(values) if values else None


def results(server: Server, url: str, tid: str, matches: list[str], token: str,
            args: argparse.Namespace, seed: int) -> dict[str, Any]:  # fmt: skip
    """One run of result POSTs on ``tid`` (every open match), then the store read back."""
    warm(server.port, f"/api/v1/tournaments/{tid}")
    sheets = load.sheets_for(matches, args.retry_share, seed)
    body = json.dumps({"tallies": stage.TALLIES, "signed": False}).encode()
    path_of = f"/api/v1/tournaments/{tid}/matches/{{mid}}/results"
    cpu, projecting = server.cpu_seconds(), server.projector_cpu_seconds()
    wall, reconnects = load.post_results(
        HOST, server.port, path_of, sheets, body, args.clients, token
    )
    figures = load.write_figures(sheets, wall)
    # Per POST, retries included (a retry costs what reading its first answer back costs).
    figures["worker_cpu_ms"] = cpu_ms_per_request(server, cpu, len(sheets) + figures["retries"])
    # The projector's share, measured once its runs have caught up with the last POST.
    figures["projector_cpu_ms"] = projector_cpu_ms(server, projecting, len(sheets))
    stored = stage.check_stored(url, tid, [s.mid for s in sheets], matches)
    refused = next((s for s in sheets if not 200 <= s.status < 300), None)
    return {
        **figures,
        "reconnects": reconnects,
        "lost": len(stored.lost),
        "doubled": len(stored.doubled),
        "others_decided": stored.others_decided,
        "first_refusal": refused and f"{refused.mid}: {refused.status} {refused.text()}",
        "examples": {"lost": stored.lost[:5], "doubled": stored.doubled[:5]},
    }


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tiny run of a few seconds")
    parser.add_argument("--postgres-url", default=stage.PG_URL)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0, help="of GETs per run")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--players", type=int, default=64, help="of the standings' Swiss")
    parser.add_argument("--rounds", type=int, default=3, help="played in it")
    parser.add_argument("--write-players", type=int, default=2048, help="per write run")
    parser.add_argument("--clients", type=int, default=50, help="posting results")
    parser.add_argument("--retry-share", type=float, default=0.05)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8, help="per gunicorn worker")
    parser.add_argument("--app", default=APP, help="what gunicorn runs (a variant to compare)")
    parser.add_argument("--client", choices=("auto", "wrk", "python"), default="auto")
    parser.add_argument("--wrk-threads", type=int, default=1, help="wrk shares the 2 cores")
    parser.add_argument(
        "--setup",
        choices=("inprocess", "workers", "embedded"),
        default="inprocess",
        help="inprocess: gunicorn, projections in its workers (no REDIS_URL); workers: "
        "gunicorn with a redis-server of the bench's own and one Celery worker projecting "
        "(the deploy guide's way); embedded: `tournament serve` (waitress) on SQLite",
    )
    parser.add_argument("--writes-only", action="store_true", help="no standings GETs")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.seconds, args.connections = 1, 1.0, 8
        args.players, args.rounds, args.write_players, args.clients = 16, 2, 64, 8
    return args


def main() -> None:
    args = options()
    client = args.client if args.client != "auto" else "wrk" if load.wrk_path() else "python"
    if client == "python" and not args.writes_only:
        why = "asked for" if args.client == "python" else "wrk is not installed"
        print(f"GETs from Python threads ({why}; slower than wrk)", file=sys.stderr)
    before = stage.uptime()
    read_tid = "bench-standings"
    write_tids = [f"bench-results-{n}" for n in range(1, args.runs + 1)]
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        if args.setup == "embedded":
            url = services.sqlite_store(folder)
        else:
            url = stack.enter_context(stage.scratch_schema(args.postgres_url))
        print("setting up the tournaments ...", file=sys.stderr, flush=True)
        store = SQLEventStore(url)
        service = TournamentService(store)
        if not args.writes_only:
            stage.tournament(service, read_tid, args.players, played=args.rounds, seed=1)
        matches = {}
        for seed, tid in enumerate(write_tids, 2):
            stage.tournament(service, tid, args.write_players, played=0, seed=seed)
            matches[tid] = stage.open_matches(service, tid)
        store.close()
        token = stage.scorer_token(url, write_tids)
        server = stack.enter_context(serving(args, url, folder, stack))
        reads = None if args.writes_only else standings(server, read_tid, args, client)
        writes = []
        for seed, tid in enumerate(write_tids):
            print(f"  results, run {seed + 1} ...", file=sys.stderr, flush=True)
            writes.append(results(server, url, tid, matches[tid], token, args, seed))
    after = stage.uptime()
    report(args, client, reads, writes, before, after)


@contextlib.contextmanager
def serving(args: argparse.Namespace, url: str, folder: str, stack: contextlib.ExitStack
            ) -> Iterator[Server]:  # fmt: skip
    """The service under test, set up as ``--setup`` says."""
    if args.setup == "embedded":
        # Every client posts from 127.0.0.1: a hall's 50 phones have 50 addresses, so
        # the per-address cap (32, serve_limits.py) is lifted for this one.
        cap = str(args.clients + 8)
        with services.waitress_serve(url, folder, SCHNAPSEN_SERVE_MAX_PER_ADDRESS=cap) as served:
            yield Server(served.port, served.pid, serves_itself=True)
        return
    redis = None
    if args.setup == "workers":
        redis = stack.enter_context(services.redis_server(folder))
        worker = stack.enter_context(services.celery_worker("worker", url, redis, folder, 1))
    with gunicorn(url, folder, args.workers, args.threads, args.app, redis) as server:
        yield dataclasses.replace(server, projector=worker.pid) if redis else server


def report(args: argparse.Namespace, client: str, reads: dict[str, Any] | None,
           writes: list[dict[str, Any]], before: str, after: str) -> None:  # fmt: skip
    def total(key: str) -> int:
        return sum(w[key] for w in writes)

    written = {
        "clients": args.clients,
        "matches_per_run": writes[0]["posted"],
        "writes_per_s": median(writes, "writes_per_s"),
        "p50_ms": median(writes, "p50_ms"),
        "p99_ms": median(writes, "p99_ms"),
        "worker_cpu_ms": median(writes, "worker_cpu_ms"),
        "projector_cpu_ms": median(writes, "projector_cpu_ms"),
        **{key: total(key) for key in ("failed", "retries", "retries_replayed", "reconnects",
                                       "lost", "doubled", "others_decided")},
        "runs": writes,
    }  # fmt: skip
    targets = {} if reads is None else {
        "standings_per_s": (READS_PER_S, reads["plain"]["requests_per_s"], ">="),
        "standings_p99_ms": (READ_P99_MS, reads["plain"]["p99_ms"], "<"),
        "standings_304_per_s": (READS_PER_S, reads["not_modified"]["requests_per_s"], ">="),
        "standings_304_p99_ms": (READ_P99_MS, reads["not_modified"]["p99_ms"], "<"),
    }  # fmt: skip
    # The laptop (waitress, SQLite, one process) has a target of its own.
    wanted = EMBEDDED_WRITES_PER_S if args.setup == "embedded" else WRITES_PER_S
    targets["writes_per_s"] = (wanted, written["writes_per_s"], ">=")
    judged = {
        name: {"target": f"{way} {goal:g}", "value": round(value, 2),
               "pass": value >= goal if way == ">=" else value < goal}
        for name, (goal, value, way) in targets.items()
    }  # fmt: skip
    print(f"\nload before: {before}\nload after:  {after}")
    if args.setup == "embedded":
        print("server: tournament serve (waitress, SQLite, projections in a thread)")
    else:
        print(f"server: gunicorn, {args.workers} gthread workers x {args.threads} threads"
              f"{', Redis + 1 Celery worker projecting' if args.setup == 'workers' else ''}; "
              f"GETs by {client}, {args.connections} connections, {args.runs} x "
              f"{args.seconds:g} s")  # fmt: skip
    for name in () if reads is None else ("plain", "not_modified"):
        r = reads[name]
        print(
            f"  standings {name:12s} (status {r['status']}) {r['requests_per_s']:8.0f} req/s  "
            f"p50 {r['p50_ms']:6.2f} ms  p99 {r['p99_ms']:6.2f} ms  errors {r['errors']}  "
            f"worker CPU {r['worker_cpu_ms']} ms/request"
        )
    w = written
    print(f"  results: {w['clients']} clients x {w['matches_per_run']} sheets, {args.runs} run(s):"
          f" {w['writes_per_s']:6.0f} writes/s  p50 {w['p50_ms']:6.1f} ms  p99 "
          f"{w['p99_ms']:6.1f} ms  failed {w['failed']}  retries {w['retries']} (replayed "
          f"{w['retries_replayed']})  lost {w['lost']}  doubled {w['doubled']}  "
          f"worker CPU {w['worker_cpu_ms']} ms/request"
          + (f", projector (Celery) CPU {w['projector_cpu_ms']} ms/request"
             if w["projector_cpu_ms"] is not None else ""))  # fmt: skip
    for run in writes:
        if run["first_refusal"]:
            print(f"  first refusal: {run['first_refusal']}")
    for name, t in judged.items():
        print(f"  {name:22s} {t['value']:>10}  target {t['target']:>8}  "
              f"{'met' if t['pass'] else 'MISSED'}")  # fmt: skip
    summary = {
        "bench": "api", "quick": args.quick, "client": client,
        "server": {"setup": args.setup, "workers": args.workers, "worker_class": "gthread",
                   "threads": args.threads, "app": args.app},
        "load": {"before": before, "after": after, "cpus": os.cpu_count()},
        "standings": {"players": args.players, "rounds_played": args.rounds,
                      "connections": args.connections, "seconds": args.seconds,
                      "runs": args.runs, **(reads or {"skipped": "--writes-only"})},
        "writes": written,
        "lost": written["lost"], "doubled": written["doubled"],
        "targets": judged,
    }  # fmt: skip
    print(json.dumps(summary))


if __name__ == "__main__":
    main()

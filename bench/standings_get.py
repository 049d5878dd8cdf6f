"""Benchmark: the standings GET of a 200-player tournament against a trivial Flask app,
both under the same gunicorn settings, in one run (issue 22, trial 9's P1).

    .venv/bin/python bench/standings_get.py           # 3 rounds of 5 s per case
    .venv/bin/python bench/standings_get.py --quick   # a few seconds: the smoke test

The service (``tournament.web:create_app()``, PostgreSQL: a scratch schema of
``SCHNAPSEN_TEST_POSTGRES_URL`` or ``--postgres-url``) and bench/hello_app.py each run
under gunicorn with bench/api.py's settings (2 gthread workers x 8 threads). The
tournament is a Swiss of 200 players with 7 rounds played (bench/reads_stage.py). Four
cases take turns, round after round, so that a changing load on this shared machine
slows them alike:

- ``standings``: ``GET /api/v1/tournaments/<tid>/standings`` (200, the whole table);
- ``standings_304``: the same with ``If-None-Match`` of its ETag (304);
- ``hello``: the Flask app's 5-byte answer;
- ``blob``: the Flask app answering as many bytes as the standings.

Each case is loaded by wrk (1 thread, 32 connections; ``apt-get install wrk``) or, without
it, by Python threads (slower than the server: a floor). Per case: requests/s, p50, p99
and the gunicorn workers' CPU per request (from /proc, which the load disturbs much
less). With ``REDIS_URL`` set the service runs as deployed (projections by the workers,
announcements on Redis; the tournament is projected before the servers start). Ratios
are taken per round (standings / hello in the same round) and reported as their median.
Target: standings >= 0.5x hello. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import api  # noqa: E402
import api_load as load  # noqa: E402
import api_stage as stage  # noqa: E402
import reads_stage  # noqa: E402

from tournament.app.service import TournamentService  # noqa: E402
from tournament.eventstore import SQLEventStore  # noqa: E402
from tournament.projections.runner import Projector  # noqa: E402

HELLO_APP = "bench.hello_app:create_app()"
TARGET_RATIO = 0.5
TID = "bench-200"


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tiny run of a few seconds")
    parser.add_argument("--postgres-url", default=stage.PG_URL)
    parser.add_argument("--runs", type=int, default=3, help="rounds of the four cases")
    parser.add_argument("--seconds", type=float, default=5.0, help="per case and round")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--played", type=int, default=7, help="rounds played")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8, help="per gunicorn worker")
    parser.add_argument("--client", choices=("auto", "wrk", "python"), default="auto")
    parser.add_argument("--wrk-threads", type=int, default=1)
    args = parser.parse_args()
    if args.quick:
        args.runs, args.seconds, args.connections, args.players, args.played = 1, 1.0, 4, 16, 2
    return args


def measure(
    server: api.Server, path: str, headers: dict[str, str], wanted: int,
    args: argparse.Namespace, client: str,
) -> dict[str, Any]:  # fmt: skip
    cpu = server.cpu_seconds()
    if client == "wrk":
        url = f"http://{api.HOST}:{server.port}{path}"
        figures = load.wrk(url, args.connections, args.seconds, headers, args.wrk_threads)
    else:
        figures = load.python_gets(api.HOST, server.port, path, args.connections, args.seconds,
                                   headers, wanted)  # fmt: skip
    return {**vars(figures), "worker_cpu_ms": api.cpu_ms_per_request(server, cpu, figures.requests)}


def main() -> None:
    args = options()
    client = args.client if args.client != "auto" else "wrk" if load.wrk_path() else "python"
    if client == "python":
        print("GETs from Python threads (wrk is not installed: apt-get install wrk)",
              file=sys.stderr)  # fmt: skip
    before = stage.uptime()
    path = f"/api/v1/tournaments/{TID}/standings"
    with tempfile.TemporaryDirectory() as folder, stage.scratch_schema(args.postgres_url) as url:
        print(f"setting up {args.players} players, {args.played} rounds ...", file=sys.stderr)
        store = SQLEventStore(url)
        reads_stage.tournament(TournamentService(store), TID, args.players, played=args.played)
        # Projected before the servers start: with REDIS_URL no worker runs here to do it
        # (each read would fold the log), and without it no read races the first run.
        Projector(store).project(TID)
        store.close()
        service_dir, hello_dir = Path(folder, "service"), Path(folder, "hello")
        service_dir.mkdir()
        hello_dir.mkdir()
        redis = os.environ.get("REDIS_URL") or None  # as deployed: announcements on Redis
        with api.gunicorn(url, str(service_dir), args.workers, args.threads, api.APP,
                          redis) as service:  # fmt: skip
            status, headers, body = api.get(service.port, path)
            if status != 200:
                raise RuntimeError(f"GET {path} answered {status}: {body[:300]!r}")
            tag = headers.get("ETag") or '"none"'
            os.environ["HELLO_BLOB_BYTES"] = str(len(body))
            with api.gunicorn(url, str(hello_dir), args.workers, args.threads,
                              HELLO_APP) as hello:  # fmt: skip
                cases = {
                    "standings": (service, path, {}, 200),
                    "standings_304": (service, path, {"If-None-Match": tag}, 304),
                    "hello": (hello, "/hello", {}, 200),
                    "blob": (hello, "/blob", {}, 200),
                }
                checked = {n: api.get(s.port, p, h)[0] for n, (s, p, h, _) in cases.items()}
                for server, p, _, _ in cases.values():
                    api.warm(server.port, p)
                runs: dict[str, list[dict[str, Any]]] = {name: [] for name in cases}
                for number in range(args.runs):
                    for name, (server, p, sent, wanted) in cases.items():
                        print(f"  {name}, round {number + 1} ...", file=sys.stderr, flush=True)
                        runs[name].append(measure(server, p, sent, wanted, args, client))
    after = stage.uptime()
    report(args, client, runs, checked, len(body), before, after)


def ratios(runs: dict[str, list[dict[str, Any]]], case: str, base: str) -> list[float]:
    return [
        a["requests_per_s"] / b["requests_per_s"]
        for a, b in zip(runs[case], runs[base], strict=True)
        if b["requests_per_s"]
    ]


def report(args: argparse.Namespace, client: str, runs: dict[str, list[dict[str, Any]]],
           checked: dict[str, int], body_bytes: int, before: str, after: str) -> None:  # fmt: skip
    figures: dict[str, Any] = {}
    for name, done in runs.items():
        figures[name] = {
            "status": checked[name],
            **{key: api.median(done, key) for key in api.MEDIANS},
            "errors": sum(r["errors"] for r in done),
            "runs": done,
        }
    per_round = {
        "standings_vs_hello": ratios(runs, "standings", "hello"),
        "standings_304_vs_hello": ratios(runs, "standings_304", "hello"),
        "standings_vs_blob": ratios(runs, "standings", "blob"),
    }
    medians = {name: round(statistics.median(v), 3) if v else None for name, v in per_round.items()}
    met = (
        medians["standings_vs_hello"] is not None and medians["standings_vs_hello"] >= TARGET_RATIO
    )
    print(f"\nload before: {before}\nload after:  {after}")
    print(f"gunicorn {args.workers} gthread workers x {args.threads} threads each; {client}, "
          f"{args.connections} connections, {args.runs} rounds x {args.seconds:g} s per case; "
          f"{args.players} players, {args.played} rounds played, body {body_bytes} "
          "bytes")  # fmt: skip
    for name, f in figures.items():
        print(f"  {name:14s} (status {f['status']}) {f['requests_per_s']:8.0f} req/s  "
              f"p50 {f['p50_ms']:7.2f} ms  p99 {f['p99_ms']:7.2f} ms  errors {f['errors']}  "
              f"worker CPU {f['worker_cpu_ms']} ms/request")  # fmt: skip
    for name, value in medians.items():
        print(f"  {name:24s} {value}  (per round: {[round(x, 3) for x in per_round[name]]})")
    print(f"  target: standings >= {TARGET_RATIO}x hello: {'met' if met else 'MISSED'}")
    summary = {
        "bench": "standings_get", "quick": args.quick, "client": client,
        "server": {"workers": args.workers, "worker_class": "gthread", "threads": args.threads,
                   "redis": bool(os.environ.get("REDIS_URL"))},
        "load": {"before": before, "after": after, "cpus": os.cpu_count()},
        "players": args.players, "rounds_played": args.played, "body_bytes": body_bytes,
        "connections": args.connections, "seconds": args.seconds, "runs": args.runs,
        "cases": figures, "ratios": medians, "ratios_per_round": per_round,
        "target": {"standings_vs_hello": f">= {TARGET_RATIO}", "pass": met},
    }  # fmt: skip
    print(json.dumps(summary))


if __name__ == "__main__":
    main()

"""Benchmark: one gevent stream process holding thousands of live streams (bench/live.py's
part 3 alone, and its baseline in the same run).

    .venv/bin/python bench/live_fanout.py             # 2,000 clients, about two minutes
    .venv/bin/python bench/live_fanout.py --quick     # 50 clients: the smoke test runs it

The live process is started as the deploy starts it, ``gunicorn -c deploy/gunicorn/live.py``
(its gevent worker, ``worker_connections`` and ``backlog``), with one worker, on a scratch
schema of PostgreSQL and a redis-server of the bench's own; a Celery worker projects the
tournament first, so the clients connect with ``Last-Event-ID`` at its version and get no
snapshot. bench/live_clients.py then opens the clients (200 connects at once), publishes
one change on Redis, and times publish -> each client's last event.

Two rounds, one after the other on the same tournament: **baseline**, the app with every
connect reading the tournament's versions itself (bench/live_fanout_baseline.py), then
**current**, where the connects of one second share one reading. Figures per round:
clients held, connect wall time and p95, the stream process's CPU per connect (which
depends less than the wall clock on the machine's other load, recorded before and after),
the fan-out p50/p95/max. Targets: >= 2,000 held, publish -> last client < 1 s. The last
line is JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
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
import live_throughput as throughput  # noqa: E402
from live import FANOUT_CLIENTS, FANOUT_MS, FANOUT_TID, fan_out, nudger  # noqa: E402

from tournament.app.service import TournamentService  # noqa: E402
from tournament.db import make_engine  # noqa: E402
from tournament.eventstore import SQLEventStore  # noqa: E402

VARIANTS = {
    "baseline": "bench.live_fanout_baseline:app",
    "current": services.APP,
}
CONFIG = str(ROOT / "deploy" / "gunicorn" / "live.py")


def say(text: str) -> None:
    print(f"[{time.monotonic() - STARTED:6.1f} s] {text}", file=sys.stderr, flush=True)


STARTED = time.monotonic()


def rounds(args: argparse.Namespace, folder: str, url: str) -> dict[str, Any]:
    store = SQLEventStore(url)
    version = stage.tournament(TournamentService(store), FANOUT_TID, 8, played=0, seed=2)
    engine = make_engine(url, pool_size=1, max_overflow=0)
    out: dict[str, Any] = {}
    try:
        with contextlib.ExitStack() as stack:
            redis = stack.enter_context(services.redis_server(folder))
            with services.celery_worker("worker-1", url, redis, folder, 1):
                say("projecting the tournament (the worker's first fold) ...")
                throughput.catch_up(engine, {FANOUT_TID: version}, nudger(redis))
            streams = str(max(2500, args.clients + 100))
            for name, app in VARIANTS.items():
                say(f"{name}: the live process, {args.clients} clients ...")
                with services.gunicorn(
                    f"live-{name}", url, redis, folder, ["-c", CONFIG, "--workers", "1"],
                    app=app, SCHNAPSEN_LIVE_MAX_STREAMS=streams, LIVE_CONCURRENCY="1",
                ) as live:  # fmt: skip
                    out[name] = fan_out(args, live, redis, version)
    finally:
        engine.dispose()
        store.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="50 clients")
    parser.add_argument("--postgres-url", default=stage.PG_URL)
    parser.add_argument("--clients", type=int, default=FANOUT_CLIENTS)
    args = parser.parse_args()
    if args.quick:
        args.clients = 50
    before = stage.uptime()
    with tempfile.TemporaryDirectory() as folder, stage.scratch_schema(args.postgres_url) as url:
        found = rounds(args, folder, url)
    after = stage.uptime()
    print(f"\nload before: {before}\nload after:  {after}")
    print(f"one gevent stream process (deploy/gunicorn/live.py, 1 worker), {args.clients} clients:")
    for name, fan in found.items():
        print(
            f"  {name:8s} held {fan['held']} ({fan['outcomes']});"
            f" connects {fan['connect_wall_s']} s"
            f" (p95 {fan['connect_p95_ms']} ms, stream process CPU {fan['connect_cpu_ms']} ms"
            f" each, RSS {fan['server_rss_mb']} MB); publish -> last event p50 {fan['p50_ms']}"
            f" ms p95 {fan['p95_ms']} ms max {fan['max_ms']} ms, missed {fan['missed']}"
        )  # fmt: skip
    base, now = found["baseline"], found["current"]
    ratios = {
        "connect_cpu": _ratio(now["connect_cpu_ms"], base["connect_cpu_ms"]),
        "connect_wall": _ratio(now["connect_wall_s"], base["connect_wall_s"]),
    }
    print(f"  current / baseline: CPU per connect x{ratios['connect_cpu']}, "
          f"connect wall time x{ratios['connect_wall']}")  # fmt: skip
    wanted = min(FANOUT_CLIENTS, args.clients)  # --quick: every one of its 50
    judged = {
        "fanout_clients": {"target": f">= {wanted}", "value": now["held"],
                           "pass": now["held"] >= wanted},
        "fanout_max_ms": {"target": f"< {FANOUT_MS:g}", "value": now["max_ms"],
                          "pass": now["max_ms"] is not None and now["max_ms"] < FANOUT_MS
                          and not now["missed"]},
    }  # fmt: skip
    for name, t in judged.items():
        print(f"  {name:15s} {t['value']!s:>8}  target {t['target']:>7}  "
              f"{'met' if t['pass'] else 'MISSED'}")  # fmt: skip
    summary = {
        "bench": "live_fanout", "quick": args.quick, "clients": args.clients,
        "load": {"before": before, "after": after, "cpus": os.cpu_count()},
        **found, "ratios": ratios, "targets": judged,
    }  # fmt: skip
    print(json.dumps(summary))


def _ratio(now: float | None, base: float | None) -> float | None:
    return round(now / base, 2) if now is not None and base else None


if __name__ == "__main__":
    main()

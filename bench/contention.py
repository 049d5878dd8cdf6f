"""Benchmark: many writers on one tournament at once, SQLite and PostgreSQL.

    .venv/bin/python bench/contention.py            # 16 writers x 60 commands, 5 rounds
    .venv/bin/python bench/contention.py --quick    # 8 writers x 30 commands, 1 round

Each writer is a process of its own (forked, its own service and connections) that
registers players one command at a time on the same tournament, as the desk terminals
or the web app's workers would; on SQLite it opens the store by its URL, through the
sqlite3 module, as every organiser command does. Two ways of deciding are compared on
the same database:

* ``locked`` -- what the service does: decide under the tournament's lock
  (``EventStore.append_decided``), folding only what others appended meanwhile;
* ``optimistic`` -- what it did before (trial 2, F9): fold, decide, append with the
  expected version, and on a lost race decide again at once, at most 5 times.

Reported per database and way (medians over the rounds): commands accepted, refused
(T-concurrency), lost and duplicated (players missing or registered twice), the wall time
and accepted commands/s of the whole run, and the latency of one command (p50, p95). And,
with one writer alone, commands/s of each way: the price of the lock when nobody
contends. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import socket
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.app.service import Command, Executed, TournamentService
from tournament.db import make_engine
from tournament.domain.commands.registration import register_player
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.eventstore import ConcurrencyError, SQLEventStore, migrate

PG_URL = os.environ.get(
    "SCHNAPSEN_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


class OptimisticService(TournamentService):
    """The service as it decided before: outside any lock, retrying a lost race at once."""

    def submit(
        self,
        tournament_id: str,
        command: Command,
        *,
        idempotency_key: str | None = None,
        metadata: Any = None,
    ) -> Executed:
        for _ in range(self.retries):
            t = self.state(tournament_id)
            new = ev.stamped(command(t), metadata or {})
            try:
                stored = self.store.append(
                    ev.stream_id(tournament_id), new, t.version, idempotency_key
                )
            except ConcurrencyError:
                continue
            return Executed(stored)
        raise ConflictError("tournament", "T-concurrency", "the tournament kept changing")


def _engine(url: str, schema: str | None) -> sa.Engine:
    kwargs: dict[str, Any] = {}
    if schema:
        kwargs["connect_args"] = {"options": f"-csearch_path={schema}"}
    return make_engine(url, **kwargs)


def _writer(url: str, schema: str | None, way: str, writer: int, count: int, out: Any) -> None:
    # On SQLite a writer opens the store as a command does: by its URL, through sqlite3.
    by_url = url.startswith("sqlite:")
    store = SQLEventStore(url) if by_url else SQLEventStore(_engine(url, schema))
    kind = TournamentService if way == "locked" else OptimisticService
    service = kind(store)
    refused, latencies = 0, []
    for n in range(count):
        start = time.perf_counter()
        try:
            service.execute("bench", lambda t, n=n: register_player(t, f"W{writer} P{n}"))
        except DomainError:
            refused += 1
        latencies.append(time.perf_counter() - start)
    store.close()
    if not by_url:
        store.engine.dispose()  # the engine it was given
    out.put((refused, latencies))


def run(url: str, schema: str | None, way: str, writers: int, count: int) -> dict[str, float]:
    """One round on a fresh tournament: what was accepted, refused, lost, doubled."""
    engine = _engine(url, schema)
    store = SQLEventStore(engine)
    tid = "bench"
    stream = ev.stream_id(tid)
    assert not store.stream_version(stream), "a fresh store per round"
    TournamentService(store).create(tid, {"name": "Bench", "format": "swiss"})
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    start = time.perf_counter()
    procs = [
        context.Process(target=_writer, args=(url, schema, way, w, count, out))
        for w in range(writers)
    ]
    for p in procs:
        p.start()
    reports = [out.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
    wall = time.perf_counter() - start
    names = Counter(p.name for p in TournamentService(store).state(tid).players.values())
    wanted = {f"W{w} P{n}" for w in range(writers) for n in range(count)}
    refused = sum(r for r, _ in reports)
    latencies = sorted(x for _, lat in reports for x in lat)
    engine.dispose()
    return {
        "commands": writers * count,
        "accepted": sum(names.values()),
        "refused": refused,
        "refused_pct": 100 * refused / (writers * count),
        "lost": len(wanted - set(names)) - refused,
        "duplicated": sum(n - 1 for n in names.values() if n > 1),
        "wall_s": wall,
        "accepted_per_s": sum(names.values()) / wall,
        "latency_p50_ms": 1000 * latencies[len(latencies) // 2],
        "latency_p95_ms": 1000 * latencies[int(len(latencies) * 0.95)],
    }


def fresh(kind: str, folder: str) -> tuple[str, str | None, Any]:
    """A new empty store: its URL, schema, and how to drop it."""
    if kind == "sqlite":
        url = f"sqlite:///{folder}/{uuid.uuid4().hex}.sqlite3"
        migrate.upgrade(url)
        return url, None, lambda: None
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    engine = _engine(PG_URL, schema)
    migrate.upgrade(engine)
    engine.dispose()

    def drop() -> None:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()

    return PG_URL, schema, drop


def postgres_reachable() -> bool:
    url = sa.make_url(PG_URL)
    try:
        with socket.create_connection((url.host or "127.0.0.1", url.port or 5432), 1):
            return True
    except OSError:
        return False


def median(rounds: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="8 x 30, one round")
    args = parser.parse_args()
    writers, count, rounds = (8, 30, 1) if args.quick else (16, 60, 5)
    kinds = ["sqlite"] + (["postgresql"] if postgres_reachable() else [])
    if "postgresql" not in kinds:
        print(f"PostgreSQL not reachable at {PG_URL}: skipped", file=sys.stderr)
    cases = [
        (kind, way, label, w, c)
        for kind in kinds
        for way in ("locked", "optimistic")
        for label, w, c in (("", writers, count), ("_alone", 1, writers * count // 4))
    ]
    runs: dict[tuple[str, str], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        # Round-robin: the machine is shared and its fsync times drift by 10x within
        # minutes; interleaving gives every case the same weather.
        for _ in range(rounds):
            for kind, way, label, w, c in cases:
                url, schema, drop = fresh(kind, folder)
                try:
                    runs.setdefault((kind, way + label), []).append(run(url, schema, way, w, c))
                finally:
                    drop()
    results: dict[str, dict[str, dict[str, float]]] = {}
    for (kind, name), rounds_run in runs.items():
        results.setdefault(kind, {})[name] = median(rounds_run)
    ratios: dict[str, float] = {}
    for kind, ways in results.items():
        print(f"\n== {kind}: {writers} writers x {count} commands, medians of {rounds} round(s)")
        for way, r in ways.items():
            print(
                f"  {way:18s} accepted {r['accepted']:5.0f}  refused {r['refused']:4.0f} "
                f"({r['refused_pct']:4.1f} %)  lost {r['lost']:.0f}  duplicated "
                f"{r['duplicated']:.0f}  {r['accepted_per_s']:6.0f} accepted/s  "
                f"p50 {r['latency_p50_ms']:6.1f} ms  p95 {r['latency_p95_ms']:6.1f} ms"
            )
        ratios[f"{kind}_accepted_per_s_locked_vs_optimistic"] = round(
            ways["locked"]["accepted_per_s"] / ways["optimistic"]["accepted_per_s"], 2
        )
        ratios[f"{kind}_alone_locked_vs_optimistic"] = round(
            ways["locked_alone"]["accepted_per_s"] / ways["optimistic_alone"]["accepted_per_s"], 2
        )
    met = {
        "locked_none_refused_lost_or_duplicated": all(
            ways["locked"][key] == 0
            for ways in results.values()
            for key in ("refused", "lost", "duplicated")
        )
    }
    print("\nratios:", json.dumps(ratios))
    print("targets met:", json.dumps(met))
    print(json.dumps({"bench": "contention", "writers": writers, "commands": count,
                      "rounds": rounds, "results": results, "ratios": ratios,
                      "targets_met": met}))  # fmt: skip


if __name__ == "__main__":
    main()

"""bench/live.py, part 2: how many events per second the Celery workers project.

Each case is a number of tournaments of 1,024 players (Swiss, best of 3) and a worker
with ``--concurrency`` 1 or 2 (prefork children). The tournaments are staged with round 1
drawn and projected once (the children's first fold of each is not measured). Then, per
run, a round's backlog is appended straight to the event store, as the scorers' desks
would append it while no projection ran: every match of the open round entered hand by
hand (one command per match, each a few dozen ``result.hand_recorded`` events) and the
next round drawn. Then each tournament is nudged (``workers.tasks.project_tournament``,
what the web app queues after a commit) and the clock runs until every tournament's
checkpoint (``projection:<tid>`` in ``es_checkpoints``) is at its log's version.

A tournament's runs are serialized by its lock (one run at a time; it is also one
task per nudge), so a second child can only help when there is a second tournament: the
cases with one tournament show that it does not, the ones with two that it does. A child
keeps the tournaments it folded in memory; a nudge that lands on the other child this
time makes it fold that tournament from the start (the cost of a second child, shown
by the one-tournament case).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from live_services import cpu_seconds

from tournament.app.service import TournamentService
from tournament.db import make_engine
from tournament.domain.commands.results import record_hand
from tournament.domain.commands.rounds import start_round
from tournament.domain.model.matchstate import MatchState
from tournament.domain.testing import Builder, random_hands
from tournament.eventstore.schema import checkpoints
from tournament.eventstore.schema import events as log
from tournament.projections.runner import checkpoint_name
from tournament.projections.upkeep import behind

Nudge = Callable[[str], None]


class Staged:
    """A tournament of the bench, with the events it was built from kept in step with
    the store (nobody else writes to it), so that its next round can be made here."""

    def __init__(self, service: TournamentService, tid: str, rng: random.Random) -> None:
        self.service = service
        self.tid = tid
        self.rng = rng
        self.builder = Builder(list(service.events(tid)))  # type: ignore[arg-type]
        self.version = len(self.builder.events)

    def append_round(self) -> int:
        """Enter every open match hand by hand, one command each, then draw the next
        round; the number of events appended."""
        b, before = self.builder, self.version
        for mid in list(b.state.rounds[-1].matches):
            match = b.state.matches[mid]
            if match.decided:
                continue  # the bye
            done = len(b.events)
            random_hands(b, match, self.rng)
            self._store(b.events[done:])
        self._store(b.add(start_round(b.state)))
        return self.version - before

    def _store(self, new: list[Any]) -> None:
        stored = self.service.execute(self.tid, lambda t: new)
        self.version = stored[-1].version


def projected(engine: sa.Engine, tids: list[str]) -> dict[str, int]:
    names = {checkpoint_name(tid): tid for tid in tids}
    query = sa.select(checkpoints.c.name, checkpoints.c.position).where(
        checkpoints.c.name.in_(list(names))
    )
    with engine.connect() as conn:
        return {names[name]: int(position) for name, position in conn.execute(query)}


def catch_up(engine: sa.Engine, logs: dict[str, int], nudge: Nudge, timeout: float = 300.0
             ) -> dict[str, float]:  # fmt: skip
    """Nudge every tournament of ``logs`` (id -> its log's version), then poll until
    each projection is there: the seconds each took, from the first nudge."""
    began = time.perf_counter()
    for tid in logs:
        nudge(tid)
    took: dict[str, float] = {}
    while len(took) < len(logs):
        at = projected(engine, list(logs))
        now = time.perf_counter()
        for tid, version in logs.items():
            if tid not in took and at.get(tid, 0) >= version:
                took[tid] = now - began
        if now - began > timeout:
            raise RuntimeError(f"projections not caught up after {timeout:g} s: {at}")
        time.sleep(0.005)
    return took


def logs_of(staged: list[Staged]) -> dict[str, int]:
    return {one.tid: one.version for one in staged}


def case(url: str, service: TournamentService, nudge: Nudge, label: str, tournaments: int,
         players: int, runs: int, seed: int, worker: int | None = None
         ) -> dict[str, Any]:  # fmt: skip
    """Stage ``tournaments`` tournaments (the worker is running), project them once, then
    ``runs`` backlogs of one round each: events/s per run and their median. The first
    projection's seconds include the worker's start when it is the worker's first case.
    ``worker``: the Celery worker's pid, whose CPU (with its children's) each run costs is
    counted too: on a shared machine the events per CPU second say more than per second."""
    import api_stage as stage  # bench/api_stage.py: the API bench's tournaments

    engine = make_engine(url, pool_size=1, max_overflow=0)
    try:
        staged = []
        for number in range(tournaments):
            tid = f"{label}-{number + 1}"
            stage.tournament(service, tid, players, played=0, seed=seed + number)
            staged.append(Staged(service, tid, random.Random(seed + number)))
        first = catch_up(engine, logs_of(staged), nudge)
        done: list[dict[str, Any]] = []
        for _ in range(runs):
            events = sum(one.append_round() for one in staged)
            cpu = cpu_seconds(worker)
            took = catch_up(engine, logs_of(staged), nudge)
            used = cpu_seconds(worker)
            seconds = max(took.values())
            done.append({
                "events": events,
                "seconds": round(seconds, 3),
                "events_per_s": round(events / seconds, 1),
                "per_tournament_s": [round(took[s.tid], 3) for s in staged],
                "worker_cpu_s": None if cpu is None or used is None else round(used - cpu, 3),
            })  # fmt: skip
    finally:
        engine.dispose()
    return {
        "tournaments": tournaments,
        "players": players,
        "first_projection_s": round(max(first.values()), 3),
        "events_per_run": round(statistics.median(r["events"] for r in done)),
        "seconds": statistics.median(r["seconds"] for r in done),
        "events_per_s": statistics.median(r["events_per_s"] for r in done),
        "events_per_cpu_s": _per_cpu(done),
        "runs": done,
    }


def _per_cpu(runs: list[dict[str, Any]]) -> float | None:
    """Median events per CPU second of the worker (None: /proc cannot tell)."""
    rates = [r["events"] / r["worker_cpu_s"] for r in runs if r["worker_cpu_s"]]
    return round(statistics.median(rates)) if rates else None


def one_result(url: str, service: TournamentService, nudge: Nudge, tid: str, runs: int
               ) -> dict[str, Any]:  # fmt: skip
    """A run's fixed cost: one hand appended to a projected tournament of 1,024 players
    (what a scorer entering hands as they are played sends), nudged, until its
    checkpoint moved: the whole tournament's rows are rewritten for it."""
    engine = make_engine(url, pool_size=1, max_overflow=0)
    staged = Staged(service, tid, random.Random(0))
    seconds = []
    try:
        for _ in range(runs):
            b = staged.builder
            mid = next(m for m in b.state.rounds[-1].matches if not b.state.matches[m].decided)
            staged._store(b.add(one_hand(b, b.state.matches[mid], staged.rng)))
            seconds.append(max(catch_up(engine, logs_of([staged]), nudge).values()))
    finally:
        engine.dispose()
    return {"runs": runs, "seconds": round(statistics.median(seconds), 3),
            "all_s": [round(s, 3) for s in seconds]}  # fmt: skip


def one_hand(b: Builder, match: MatchState, rng: random.Random) -> list[Any]:
    """One random paper hand of ``match`` (as domain.testing.random_hands enters them)."""
    seat, dealer = rng.randrange(2), match.engine.next_dealer
    return record_hand(
        b.state,
        match.match_id,
        winner=match.players[seat],
        game_points=rng.choice((1, 1, 2, 2, 3)),
        dealer=None if dealer is None or match.first_dealer is None else match.players[dealer],
    )


def sweep_scan(url: str, runs: int = 3) -> dict[str, Any]:
    """What the periodic sweep's query costs (``upkeep.behind``: every tournament's head
    against its checkpoint), with the log as the bench left it."""
    engine = make_engine(url, pool_size=1, max_overflow=0)
    try:
        with engine.connect() as conn:
            events = conn.execute(sa.select(sa.func.count()).select_from(log)).scalar_one()
        times = []
        for _ in range(runs):
            began = time.perf_counter()
            behind(engine)
            times.append(time.perf_counter() - began)
    finally:
        engine.dispose()
    return {"events_in_log": int(events), "ms": round(1000 * statistics.median(times), 1)}

"""More request threads than pool connections: they queue for the pool, never deadlock.

A request must never hold one connection of a pool while it waits for a second from the
same pool: with as many such requests as connections, each would hold one and wait for
another until the pool's timeout (30 s), then answer 503 (issue 22: the fifty threads'
test failed so once the pools were bounded to 2 + 8; the projector held the tournament's
projection lock on one connection and read the stream through another).
"""

from __future__ import annotations

import threading
import traceback
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.pool import Pool

from tests.databases import Database
from tests.eventstore.sample import NOTED
from tests.web.conftest import make_web
from tests.web.test_results import drawn, results, version
from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.eventstore import NO_STREAM, NewEvent, SQLEventStore


@pytest.fixture
def nested_checkouts() -> Iterator[list[str]]:
    """Stacks of every checkout made by a thread that already held a connection of the
    same pool (pool events per thread): the pattern that deadlocks a bounded pool."""
    held: defaultdict[tuple[int, int], int] = defaultdict(int)
    nested: list[str] = []
    lock = threading.Lock()

    def checkout(_dbapi: Any, record: Any, proxy: Any) -> None:
        key = (threading.get_ident(), id(proxy._pool))
        record.info["poolspy_thread"] = key
        with lock:
            if held[key]:
                nested.append("".join(traceback.format_stack(limit=25)))
            held[key] += 1

    def checkin(_dbapi: Any, record: Any) -> None:
        key = record.info.pop("poolspy_thread", None)
        if key is not None:
            with lock:
                held[key] -= 1

    sa.event.listen(Pool, "checkout", checkout)
    sa.event.listen(Pool, "checkin", checkin)
    sa.event.listen(Pool, "detach", checkin)
    try:
        yield nested
    finally:
        sa.event.remove(Pool, "checkout", checkout)
        sa.event.remove(Pool, "checkin", checkin)
        sa.event.remove(Pool, "detach", checkin)


def test_more_concurrent_writers_than_connections_finish_without_deadlock(
    pg_db: Database,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    nested_checkouts: list[str],
) -> None:
    """8 threads (a gunicorn process's default) post results at once to an app whose
    pools hold 1 connection + 1 overflow: every POST is answered 201, none waits for the
    pool's timeout, and the log holds one result per match; no thread ever checked out a
    second connection of a pool while holding one (the cause, not only the symptom)."""
    monkeypatch.setenv("SCHNAPSEN_DB_POOL_SIZE", "1")
    monkeypatch.setenv("SCHNAPSEN_DB_MAX_OVERFLOW", "1")
    web = make_web(pg_db.schema_url, tmp_path)
    try:
        drawn(web, players=32, best_of=1)
        scorer = web.caller(Role.SCORER, "club")
        before = version(web)
        threads_n = 8
        start = threading.Barrier(threads_n)
        statuses: list[int] = []
        lock = threading.Lock()

        def post(thread: int) -> None:
            client = web.app.test_client()
            start.wait()
            for round_robin in range(2):  # two matches each: 16 matches, all of round 1
                mid = f"1.{thread * 2 + round_robin + 1}"
                reply = client.post(
                    results(mid),
                    json={"tallies": ["7 4 1 0 / 7 6"]},
                    headers={"Authorization": f"Bearer {scorer}", "Idempotency-Key": mid},
                )
                with lock:
                    statuses.append(reply.status_code)

        threads = [threading.Thread(target=post, args=(i,)) for i in range(threads_n)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert not any(thread.is_alive() for thread in threads)
        assert statuses == [201] * 16
        assert version(web) == before + 16
        assert nested_checkouts == [], nested_checkouts[0]
    finally:
        with web.app.app_context():
            services().store.close()


def test_a_decision_reads_other_streams_on_the_connection_holding_the_lock(
    pg_db: Database, nested_checkouts: list[str]
) -> None:
    """Online play decides under the tournament's lock on what a hand's stream holds: that
    read goes through the locked connection, so a pool of one connection (no overflow)
    serves it instead of waiting for itself until the pool's timeout."""
    engine = pg_db.engine(pool_size=1, max_overflow=0, pool_timeout=3)
    store = SQLEventStore(engine)
    try:
        store.append("hand-1", [NewEvent(NOTED, {"n": 1})], NO_STREAM)
        seen: list[int] = []

        def decide(_since: list[object]) -> list[NewEvent]:
            seen.extend(e.version for e in store.read_stream("hand-1"))
            return [NewEvent(NOTED, {"hand": "hand-1"})]

        done = store.append_decided("table-1", decide)
        assert seen == [1] and [e.version for e in done.events] == [1]
        assert nested_checkouts == [], nested_checkouts[0]
    finally:
        store.close()
        engine.dispose()

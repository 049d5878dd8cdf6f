"""More request threads than pool connections: they queue for the pool, never deadlock.

A request must never hold one connection of a pool while it waits for a second from the
same pool: with as many such requests as connections, each would hold one and wait for
another until the pool's timeout (30 s), then answer 503 (issue 22: the fifty threads'
test failed so once the pools were bounded to 2 + 8; the projector held the tournament's
projection lock on one connection and read the stream through another).
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.databases import Database
from tests.web.conftest import make_web
from tests.web.test_results import drawn, results, version
from tournament.accounts.roles import Role
from tournament.web.services import services


def test_more_concurrent_writers_than_connections_finish_without_deadlock(
    pg_db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """8 threads (a gunicorn process's default) post results at once to an app whose
    pools hold 1 connection + 1 overflow: every POST is answered 201, none waits for the
    pool's timeout, and the log holds one result per match."""
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
    finally:
        with web.app.app_context():
            services().store.close()

"""The suite never holds 40 PostgreSQL connections or more (the charter's limit: the
server is shared). While a test that uses PostgreSQL runs, a thread counts the
connections to the test database every 50 ms on a connection kept for it (every xdist
worker's and every process the test started included: pg_stat_activity), and the test
fails when the count reached the limit, naming who held them: each connection's
``application_name`` is its xdist worker, the test during which its engine was made
(tests/conftest.py ``_connections_named``) and its kind (``log``, ``append``,
``accounts`` ...: tournament.db.application_name), so a connection some earlier test
left open names that test. Tests without PostgreSQL cost nothing.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

LIMIT = 40
#: How often the connections are counted while a PostgreSQL test runs.
SAMPLE_SECONDS = 0.05
_watcher: list[Any] = []  # the counting connection, opened at the first PostgreSQL test
#: How many of the connections the report names (the most numerous holders first).
NAMED = 12
#: The most connections seen while a test of this process ran (printed at the end).
peak = [0]


def holders(url: str) -> dict[str, int]:
    """The connections to the database of ``url`` now, counted by ``application_name``
    (this counting one included)."""
    if not _watcher:
        import psycopg
        import sqlalchemy as sa

        parsed = sa.make_url(url).set(drivername="postgresql")
        dsn = parsed.render_as_string(hide_password=False).split("?")[0]
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        _watcher.append(
            psycopg.connect(
                dsn,
                autocommit=True,
                connect_timeout=5,
                application_name=f"{worker} connection guard",
            )
        )
    rows = (
        _watcher[0]
        .execute(
            "SELECT application_name, count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() GROUP BY application_name"
        )
        .fetchall()
    )
    return {str(name): int(count) for name, count in rows}


def this_tests(url: str) -> dict[str, int]:
    """The connections to the database of ``url`` that engines made in the running test
    hold now, by kind (``log``, ``append``, ``accounts`` ...)."""
    from tournament.db import application_name

    found: dict[str, int] = {}
    for name, count in holders(url).items():
        kind = name.rpartition(" ")[2]
        if kind and application_name(kind) == name:
            found[kind] = count
    return found


def this_tests_after_closing(url: str, seconds: float = 10.0) -> dict[str, int]:
    """:func:`this_tests` once the connections a test just closed are gone: a server
    process leaves pg_stat_activity a moment after its client said goodbye (waits while
    any of this test's is still there but the ``schemas`` one, up to ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        found = this_tests(url)
        if set(found) <= {"schemas"} or time.monotonic() > deadline:
            return found
        time.sleep(SAMPLE_SECONDS)


def count_connections(url: str) -> int:
    """Connections to the database of ``url`` now (this counting one included)."""
    return sum(holders(url).values())


def report(seen: int, held: dict[str, int]) -> str:
    """What a test that reached the limit fails with: the count and who held them."""
    ranked = sorted(held.items(), key=lambda item: (-item[1], item[0]))
    named = ", ".join(f"{count} {name or '(no name)'!r}" for name, count in ranked[:NAMED])
    more = f" and {len(ranked) - NAMED} more" if len(ranked) > NAMED else ""
    return (
        f"{seen} PostgreSQL connections to the test database during this test: the suite "
        f"must stay under {LIMIT} (tests/pg_connections.py). Held by application_name "
        f"(xdist worker, the test that made the engine, its kind): {named}{more}. Close "
        "what a test opens (engine.dispose(), store.close(), tournament.web.close_app)."
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    if "postgres_url" not in getattr(item, "fixturenames", ()):
        return (yield)
    from tests.conftest import POSTGRES_URL

    seen: list[Any] = [0, {}]  # the most connections at once, and who held them then
    done = threading.Event()

    def sample() -> None:
        # While the test runs: its engines may hold more in the middle than at the end.
        while True:
            try:
                held = holders(POSTGRES_URL)
            except Exception:  # PostgreSQL went away: the test's own checks say so
                while _watcher:  # the next test counts on a new connection
                    with contextlib.suppress(Exception):
                        _watcher.pop().close()
                return
            if sum(held.values()) > seen[0]:
                seen[:] = [sum(held.values()), held]
            if done.wait(SAMPLE_SECONDS):
                return

    sampler = threading.Thread(target=sample, name="pg-connections", daemon=True)
    sampler.start()
    try:
        result = yield  # a failing test raises here: its own failure is the one to see
    finally:
        done.set()
        sampler.join()
    peak[0] = max(peak[0], seen[0])
    if seen[0] >= LIMIT:
        raise AssertionError(report(seen[0], seen[1]))
    return result


def pytest_sessionfinish() -> None:
    while _watcher:
        _watcher.pop().close()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if peak[0]:  # in this process (under xdist, each worker guards on its own)
        terminalreporter.write_line(
            f"PostgreSQL: at most {peak[0]} connections to the test database while a "
            f"test ran (limit {LIMIT})"
        )

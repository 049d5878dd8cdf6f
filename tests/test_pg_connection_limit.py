"""The guard of the suite's PostgreSQL connections (tests/pg_connections.py) counts what
it should: the connections to the test database, this test's pools included."""

from __future__ import annotations

from tests.databases import Database
from tests.pg_connections import LIMIT, count_connections


def test_the_suite_counts_its_postgres_connections_and_stays_under_40(
    pg_db: Database, postgres_url: str
) -> None:
    before = count_connections(postgres_url)
    engine = pg_db.engine()
    held = [engine.connect() for _ in range(3)]
    try:
        assert count_connections(postgres_url) >= before + 3
    finally:
        for conn in held:
            conn.close()
        engine.dispose()
    assert 1 <= count_connections(postgres_url) < LIMIT

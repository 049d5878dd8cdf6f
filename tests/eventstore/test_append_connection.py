"""The store's connection for plain appends on PostgreSQL (kept outside the engine's
pool: tournament/eventstore/pg_append.py) lives as long as the engine's pool: disposing
of the engine closes it, as it closes the pool's, and the next append makes it again."""

from __future__ import annotations

from tests.databases import Database
from tests.eventstore.sample import moved
from tests.pg_connections import this_tests, this_tests_after_closing
from tournament.eventstore import SQLEventStore


def test_disposing_the_engine_closes_the_stores_connection_for_appends(
    pg_db: Database, postgres_url: str
) -> None:
    engine = pg_db.engine()
    store = SQLEventStore(engine)
    store.append("table-1", [moved(1)], expected_version=0)
    assert this_tests(postgres_url).get("append") == 1
    engine.dispose()  # the store was given the engine: its owner disposes of it
    assert "append" not in this_tests_after_closing(postgres_url)
    store.append("table-1", [moved(1)], expected_version=1)  # made again
    assert this_tests(postgres_url).get("append") == 1
    store.close()
    engine.dispose()
    assert set(this_tests_after_closing(postgres_url)) <= {"schemas"}  # pg_db's, for the schema

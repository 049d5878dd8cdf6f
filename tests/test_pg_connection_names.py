"""Who holds a PostgreSQL connection is in its ``application_name`` (docs/deploy.md):
the process's label and the connection's kind. In the suite the label is the xdist
worker and the test, so the connection guard (tests/pg_connections.py) names the test
that left connections open."""

from __future__ import annotations

from tests.databases import Database
from tests.pg_connections import LIMIT, holders, report, this_tests, this_tests_after_closing
from tournament.db import application_name


def test_the_guard_names_a_tests_connections_by_worker_test_and_kind(
    pg_db: Database, postgres_url: str
) -> None:
    engine = pg_db.engine()  # the suite's engines are of the kind "tests"
    held = [engine.connect() for _ in range(2)]
    try:
        assert this_tests(postgres_url).get("tests") == 2
        assert f"2 '{application_name('tests')}'" in report(LIMIT, holders(postgres_url))
    finally:
        for conn in held:
            conn.close()
        engine.dispose()
    assert "tests" not in this_tests_after_closing(postgres_url)

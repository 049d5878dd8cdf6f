"""An app closed (``tournament.web.close_app``: what ``serve`` does as it stops, what
each test does with the apps it made) holds no PostgreSQL connection: its threads are
stopped, the log's pool and its connection for appends, and the accounts' pool closed."""

from __future__ import annotations

from pathlib import Path

from tests.databases import Database
from tests.pg_connections import this_tests, this_tests_after_closing
from tests.web.conftest import make_web
from tournament.web import close_app


def test_a_closed_app_holds_no_connection(
    pg_db: Database, postgres_url: str, tmp_path: Path
) -> None:
    web = make_web(pg_db.schema_url, tmp_path)
    web.tournament()
    web.ok("POST", "/api/v1/tournaments/club/players", {"name": "Anna", "rating": 1500})
    used = this_tests(postgres_url)
    assert used.get("log", 0) >= 1 and used.get("accounts", 0) >= 1, used
    close_app(web.app)
    assert set(this_tests_after_closing(postgres_url)) <= {"schemas"}  # pg_db's, for the schema

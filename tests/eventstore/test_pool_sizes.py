"""PostgreSQL pools are bounded and set by the operator (issue 22: a default deploy must
not fill a shared server): SCHNAPSEN_DB_POOL_SIZE and SCHNAPSEN_DB_MAX_OVERFLOW, with
small defaults, documented against max_connections and listed in env.example."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tests.deploy.files import DEPLOY, REPO
from tournament import db
from tournament.cli import main

PG = "postgresql+psycopg://app@127.0.0.1:5432/club"  # never connected to here


def test_the_default_pools_are_small_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCHNAPSEN_DB_POOL_SIZE")  # the suite's own small pools (conftest)
    monkeypatch.delenv("SCHNAPSEN_DB_MAX_OVERFLOW")
    engine = db.make_engine(PG)
    assert (engine.pool.size(), engine.pool._max_overflow) == (2, 8)  # type: ignore[attr-defined]
    assert db.POOL_SIZE + db.MAX_OVERFLOW >= 8  # a web process's 8 threads never wait


def test_the_operator_sets_the_pool_sizes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHNAPSEN_DB_POOL_SIZE", "1")
    monkeypatch.setenv("SCHNAPSEN_DB_MAX_OVERFLOW", "0")
    engine = db.make_engine(PG)
    assert (engine.pool.size(), engine.pool._max_overflow) == (1, 0)  # type: ignore[attr-defined]


def test_a_bad_pool_size_is_one_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHNAPSEN_DB_MAX_OVERFLOW", "-3")
    done = CliRunner().invoke(main, ["list"], env={"DATABASE_URL": PG})
    assert done.exit_code == 1
    assert done.output == (
        "Error: SCHNAPSEN_DB_MAX_OVERFLOW is '-3': a whole number of connections, at least 0\n"
    )


def test_the_pool_settings_are_documented_with_the_formula_and_pgbouncer() -> None:
    example = (DEPLOY / "env.example").read_text()
    assert "#SCHNAPSEN_DB_POOL_SIZE=2" in example and "#SCHNAPSEN_DB_MAX_OVERFLOW=8" in example
    guide = (REPO / "docs" / "deploy.md").read_text()
    assert "## How many PostgreSQL connections" in guide
    # The bound: two pools a process, and the plain appends' connection outside them.
    assert "processes x (2 x (SCHNAPSEN_DB_POOL_SIZE + SCHNAPSEN_DB_MAX_OVERFLOW) + 1)" in guide
    assert "pgbouncer" in guide and "max_connections" in guide

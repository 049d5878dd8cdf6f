"""Two ways to one SQLite store: by its URL, through the sqlite3 module (what every
organiser command does: no SQLAlchemy to import), or given a SQLAlchemy engine (tools,
an application with its own engine). The contract tests run on both (conftest.py); these
check what is particular to the first way: that it needs no SQLAlchemy, that its
connections are set up as an engine's, that it fails as the other does, and how it keeps
and closes its connections."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import strategies as st

from tests.databases import Database
from tests.eventstore import sample
from tournament.db import create_sqlite_file, make_engine, sqlite_file, sqlite_path
from tournament.eventstore import (
    NO_STREAM,
    SQLEventStore,
    StoreMissingError,
    StoreNotReadyError,
)
from tournament.eventstore.sqlite_connections import SQLitePool

REPO = Path(__file__).resolve().parents[2]
WAYS = ["sqlite", "sqlite-sqlalchemy"]


def opened(url: str, way: str) -> SQLEventStore:
    return SQLEventStore(url) if way == "sqlite" else SQLEventStore(make_engine(url))


def test_a_store_opened_by_its_url_checks_reads_and_appends_without_sqlalchemy(
    sqlite_db: Database,
) -> None:
    script = f"""
import sys
from tests.eventstore import sample
from tournament.eventstore import NO_STREAM, SQLEventStore, migrate

migrate.ensure_current({sqlite_db.url!r})  # at head: the revision read, nothing migrated
store = SQLEventStore({sqlite_db.url!r})
store.append("s", [sample.moved(0)], NO_STREAM, idempotency_key="k")
done = store.append_decided("s", lambda since: [sample.moved(1)], after_version=1)
assert [e.version for e in store.read_stream("s")] == [1, 2] == [1, done.events[0].version]
assert store.read_key("k").last_version == 1 and store.stream_version("s") == 2
assert len(store.read_all()) == 2
store.close()
print(sorted(m for m in sys.modules if m.split(".")[0] in ("sqlalchemy", "alembic", "psycopg")))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def _settings(conn: sqlite3.Connection) -> tuple[object, ...]:
    pragmas = ("journal_mode", "busy_timeout", "synchronous", "foreign_keys")
    values = [conn.execute(f"PRAGMA {name}").fetchone()[0] for name in pragmas]
    return (*values, conn.isolation_level)


def test_both_ways_set_up_their_connections_alike(sqlite_db: Database) -> None:
    """WAL, a 30 s busy timeout, synchronous=FULL (2), foreign keys, and transactions left
    to the store (isolation_level None: it says BEGIN IMMEDIATE itself)."""
    settings = []
    for way in WAYS:
        store = opened(sqlite_db.url, way)
        with store._backend._connect() as conn:
            settings.append(_settings(conn))
        store.close()
        if way == "sqlite-sqlalchemy":
            store.engine.dispose()  # the engine it was given
    assert settings == [("wal", 30_000, 2, 1, None)] * 2


@pytest.mark.parametrize("way", WAYS)
def test_a_missing_file_is_said_to_be_missing_and_is_not_created(tmp_path: Path, way: str) -> None:
    url = f"sqlite:///{tmp_path / 'typo' / 'club.sqlite3'}"
    store = opened(url, way)
    with pytest.raises(StoreMissingError, match=r"there is no database file .*club\.sqlite3"):
        store.read_all()
    with pytest.raises(StoreMissingError):
        store.append("s", [sample.moved(0)], NO_STREAM)
    assert not (tmp_path / "typo").exists()


@pytest.mark.parametrize("way", WAYS)
def test_a_file_without_the_tables_is_said_to_need_its_migrations(tmp_path: Path, way: str) -> None:
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    create_sqlite_file(url)
    store = opened(url, way)
    for call in (store.read_all, lambda: store.append("s", [sample.moved(0)], NO_STREAM)):
        with pytest.raises(StoreNotReadyError, match="run `tournament db upgrade`"):
            call()


def test_a_closed_store_leaves_every_event_in_the_file_itself(
    sqlite_db: Database, tmp_path: Path
) -> None:
    """What the command line relies on at exit: the last connection to close writes the
    write-ahead log back, so the .sqlite3 file alone (copied to a stick) holds it all."""
    store = SQLEventStore(sqlite_db.url)
    stored = store.append("s", [sample.moved(0), sample.moved(1)], NO_STREAM)
    store.close()
    path = sqlite_path(sqlite_db.url)
    assert path is not None and not Path(f"{path}-wal").exists()
    stick = tmp_path / "stick.sqlite3"
    shutil.copyfile(path, stick)
    copy = SQLEventStore(f"sqlite:///{stick}")
    assert copy.read_stream("s") == stored
    copy.close()


def test_a_closed_store_opens_new_connections_when_used_again(sqlite_db: Database) -> None:
    store = SQLEventStore(sqlite_db.url)
    store.append("s", [sample.moved(0)], NO_STREAM)
    store.close()
    assert store.stream_version("s") == 1
    store.close()


def test_the_warm_connection_is_used_again(sqlite_db: Database) -> None:
    pool = SQLitePool(sqlite_path(sqlite_db.url) or Path())
    with pool.connect() as first:
        pass
    with pool.connect() as again, pool.connect() as meanwhile:
        assert again is first and meanwhile is not first
    pool.close()


def test_a_connection_in_use_when_the_pool_closes_is_closed_when_it_comes_back(
    sqlite_db: Database,
) -> None:
    pool = SQLitePool(sqlite_path(sqlite_db.url) or Path())
    with pool.connect() as conn:
        pool.close()
        assert conn.execute("SELECT 1").fetchone() == (1,)  # still usable by its holder
    with pytest.raises(sqlite3.ProgrammingError, match="closed database"):
        conn.execute("SELECT 1")


def test_a_transaction_left_open_is_rolled_back_before_the_connection_is_used_again(
    sqlite_db: Database,
) -> None:
    path = sqlite_path(sqlite_db.url) or Path()
    pool, other = SQLitePool(path), SQLitePool(path)
    with pool.connect() as conn:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO es_checkpoints VALUES ('x', 1, '2026-01-01')")
    with other.connect() as writer:  # the write lock is free again, and nothing was kept
        writer.execute("BEGIN IMMEDIATE")
        assert writer.execute("SELECT count(*) FROM es_checkpoints").fetchone() == (0,)
        writer.execute("ROLLBACK")
    pool.close()
    other.close()


def test_threads_each_get_a_connection_of_their_own(sqlite_db: Database) -> None:
    pool = SQLitePool(sqlite_path(sqlite_db.url) or Path(), keep=2)
    barrier = threading.Barrier(4, timeout=10)
    held: list[int] = []

    def hold() -> None:
        with pool.connect() as conn:
            held.append(id(conn))
            barrier.wait()  # all four connections in use at once

    threads = [threading.Thread(target=hold) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(set(held)) == 4
    assert len(pool._idle) == 2  # at most ``keep`` stay open while idle
    pool.close()


# --- which URLs take the first way ----------------------------------------------------------
def _as_sqlalchemy_reads_it(url: str) -> Path | None:
    try:
        parsed = sa.make_url(url)
    except (sa.exc.ArgumentError, ValueError):
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).absolute()


@given(
    st.sampled_from(["sqlite:///", "sqlite:////", "sqlite+pysqlite:///", "sqlite://", "x:///"]),
    st.text(alphabet="ab/ .%20C3A4ä:@?=&#\\", max_size=24),
)
def test_a_url_read_without_sqlalchemy_names_the_file_sqlalchemy_would_open(
    prefix: str, rest: str
) -> None:
    url = prefix + rest
    fast = sqlite_file(url)
    if fast is not None:
        assert fast == _as_sqlalchemy_reads_it(url)
    assert sqlite_path(url) == _as_sqlalchemy_reads_it(url)


def test_only_a_plain_sqlite_file_url_takes_the_sqlite3_way(tmp_path: Path) -> None:
    assert sqlite_file(f"sqlite:///{tmp_path}/club.sqlite3") == tmp_path / "club.sqlite3"
    assert sqlite_file("sqlite:///club.sqlite3") == Path(os.getcwd()) / "club.sqlite3"
    for other in (
        "sqlite://",
        "sqlite:///:memory:",
        f"sqlite:///{tmp_path}/club.sqlite3?mode=ro",
        "postgresql://app@db/club",
        "mysql://club@db/turnier",
    ):
        assert sqlite_file(other) is None, other

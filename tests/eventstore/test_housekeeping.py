"""Housekeeping the first store left open: idempotency keys expire after a retention
(default 30 days) by a command a periodic task can run, never younger than a day; the
time of an event never goes back (trial 2, F12)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from tests.databases import Database
from tests.eventstore.conftest import StoreDatabase
from tests.eventstore.test_verify_backup import act
from tournament.cli import main
from tournament.eventstore import SQLEventStore
from tournament.eventstore.sqlite_backend import SQLiteBackend, db_time


def _key_aged(db: StoreDatabase, store: SQLEventStore, key: str, age: timedelta) -> None:
    """A key as if its append had happened ``age`` ago (inserting a row is what the
    owner may do; the guards stop only changes and deletions)."""
    stream = f"s-{key}"
    store.append(stream, [act()], 0)
    at = datetime.now(UTC) - age
    value = db_time(at) if db.kind == "sqlite" else at
    with db.engine().begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO es_idempotency (key, stream_id, first_version, last_version, "
                "recorded_at) VALUES (:k, :s, 1, 1, :at)"
            ),
            {"k": key, "s": stream, "at": value},
        )


def test_keys_older_than_the_retention_are_forgotten_and_younger_ones_kept(
    db: StoreDatabase, store: SQLEventStore
) -> None:
    _key_aged(db, store, "old", timedelta(days=40))
    _key_aged(db, store, "month", timedelta(days=29))
    _key_aged(db, store, "fresh", timedelta(minutes=5))
    assert store.expire_keys() == 1  # default: 30 days
    assert store.read_key("old") is None
    assert store.read_key("month") is not None and store.read_key("fresh") is not None


def test_a_key_younger_than_a_day_is_kept_whatever_the_retention_asked(
    db: StoreDatabase, store: SQLEventStore
) -> None:
    _key_aged(db, store, "hour", timedelta(hours=1))
    _key_aged(db, store, "two-days", timedelta(days=2))
    assert store.expire_keys(timedelta(0)) == 1
    assert store.read_key("hour") is not None and store.read_key("two-days") is None


def test_the_guards_refuse_deleting_a_young_key_behind_the_store(
    db: StoreDatabase, store: SQLEventStore
) -> None:
    store.append("s", [act()], 0, idempotency_key="young")
    with pytest.raises(sa.exc.DatabaseError, match="append-only"), db.engine().begin() as conn:
        conn.exec_driver_sql("DELETE FROM es_idempotency")
    assert store.read_key("young") is not None


def test_an_expired_key_decides_the_request_again(db: StoreDatabase, store: SQLEventStore) -> None:
    _key_aged(db, store, "k", timedelta(days=31))
    replayed = store.append("s-k", [act()], 1, idempotency_key="k")
    assert [e.version for e in replayed] == [1]  # what the key stored: nothing new
    store.expire_keys()
    assert [e.version for e in store.append("s-k", [act()], 1, idempotency_key="k")] == [2]


def test_the_command_forgets_keys_for_a_periodic_task(
    db: StoreDatabase, store: SQLEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _key_aged(db, store, "old", timedelta(days=12))
    if db.schema:
        monkeypatch.setenv("PGOPTIONS", f"-csearch_path={db.schema}")
    url = db.url
    out = CliRunner().invoke(main, ["db", "expire-keys", "--database-url", url])
    assert out.exit_code == 0, out.output
    assert out.output == "forgot 0 idempotency keys older than 30 days\n"
    monkeypatch.setenv("SCHNAPSEN_KEY_RETENTION_DAYS", "10")
    out = CliRunner().invoke(main, ["db", "expire-keys", "--database-url", url])
    assert out.output == "forgot 1 idempotency key older than 10 days\n"
    monkeypatch.setenv("SCHNAPSEN_KEY_RETENTION_DAYS", "0")
    out = CliRunner().invoke(main, ["db", "expire-keys", "--database-url", url])
    assert out.exit_code == 1
    assert "SCHNAPSEN_KEY_RETENTION_DAYS is '0': a whole number of days, at least 1" in out.output


def test_an_events_time_never_goes_back_when_the_clock_does(sqlite_db: Database) -> None:
    """SQLite takes the process's clock: one set back (a laptop's clock corrected) stamps
    the next event with the last event's time, never before it. (PostgreSQL takes the
    server's clock: test_roles.py.)"""
    store = SQLEventStore(sqlite_db.url)
    assert isinstance(store._backend, SQLiteBackend)
    first = store.append("s", [act()], 0)[0]
    backend = store._backend
    original = backend.append

    def from_an_hour_ago(*args: object) -> object:
        *rest, _now = args
        return original(*rest, datetime.now(UTC) - timedelta(hours=1))  # type: ignore[arg-type]

    backend.append = from_an_hour_ago  # type: ignore[method-assign, assignment]
    later = store.append("t", [act()], 0)[0]
    assert later.recorded_at == first.recorded_at
    assert store.read_stream("t")[0].recorded_at == first.recorded_at
    store.close()

"""A log written before the append and read paths were made cheaper (issue 22, writespeed:
libpq-level appends on PostgreSQL, ids and times parsed on first use on SQLite) verifies
and reads exactly as that code read it: the event format, the hash chain and the seals
did not change.

``previous/log-main-16f38c0.sqlite3`` was written by main at 16f38c0 (the code before
this change) and ``previous/log-main-16f38c0.json`` is what that code's ``read_all``,
``read_stream`` and ``read_key`` returned from it. On PostgreSQL the previous client's
call (psycopg's cursor, still the path of a decision's append) and the new one append to
the same streams of one log, which then verifies and reads back what each append returned.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import uuid
from pathlib import Path
from typing import Any

import pytest

import tournament.domain.model.hands  # noqa: F401  (registers hand.action)
from tests.eventstore.conftest import StoreDatabase
from tournament.eventstore import NewEvent, SQLEventStore
from tournament.eventstore.api import StoredEvent
from tournament.eventstore.postgres_backend import PostgresBackend, _es_append
from tournament.eventstore.seals import SealKey
from tournament.eventstore.verify import verify

PREVIOUS = Path(__file__).with_name("previous")
FIXTURE_KEY = SealKey(bytes(range(32)))  # the key the fixture's seal was made with


def shown(e: StoredEvent) -> dict[str, Any]:
    """An event as the fixture's JSON records it (the script that made it used this)."""
    return {
        "event_id": str(e.event_id), "stream_id": e.stream_id, "version": e.version,
        "position": e.position, "type": e.type, "schema_version": e.schema_version,
        "payload": e.payload, "metadata": e.metadata,
        "recorded_at": e.recorded_at.isoformat(), "prev_hash": e.prev_hash, "hash": e.hash,
    }  # fmt: skip


@pytest.mark.parametrize("through_engine", [False, True], ids=["sqlite3", "sqlalchemy"])
def test_sqlite_log_of_previous_code_verifies_and_reads_identically(
    tmp_path: Path, through_engine: bool
) -> None:
    copy = tmp_path / "log.sqlite3"
    shutil.copyfile(PREVIOUS / "log-main-16f38c0.sqlite3", copy)
    expected = json.loads((PREVIOUS / "log-main-16f38c0.json").read_text())
    url = f"sqlite:///{copy}"
    store = SQLEventStore(SQLEventStore(url).engine if through_engine else url)
    try:
        report = verify(store, key=FIXTURE_KEY)
        assert report.ok, report
        assert len(store.seals()) == 1
        assert [shown(e) for e in store.read_all()] == expected["log"]
        assert [shown(e) for e in store.read_stream("hand-a")] == expected["hand-a"]
        used = store.read_key("key-1")
        assert used is not None
        assert [shown(e) for e in used.events] == expected["key-1"]
        # Read events are the same values as events made whole: equal, printed alike.
        first = store.read_all()[0]
        whole = StoredEvent(**{f.name: getattr(first, f.name) for f in dataclasses.fields(first)})
        assert first == whole and repr(first) == repr(whole)
        assert isinstance(first.event_id, uuid.UUID) and first.recorded_at.tzinfo is not None
    finally:
        store.close()


def test_postgres_appends_of_previous_and_new_client_chain_and_verify(
    pg_db: Any, tmp_path: Path
) -> None:
    db = StoreDatabase(**dataclasses.asdict(pg_db), through_engine=True)
    store = db.open_store()
    backend = store._backend
    assert isinstance(backend, PostgresBackend)
    move = {"action": "play", "card": "AH", "seat": 1}
    meta = {"actor": "anna", "source": "live", "note": 'ü "quoted" \\ back'}
    returned: list[StoredEvent] = []
    for n in range(6):
        events = [NewEvent("hand.action", move, meta) for _ in range(1 + n % 3)]
        if n % 2:  # the previous client: psycopg's cursor, es_append() alike
            prepared = store._prepare_batch(events)
            with backend._connect() as conn:
                result = _es_append(conn, "hand-x", prepared, None, f"old-{n}")
            returned += store._stored("hand-x", prepared, result)  # type: ignore[arg-type]
        else:
            returned += store.append("hand-x", events, None, idempotency_key=f"new-{n}")
    try:
        assert verify(store).ok
        assert [shown(e) for e in store.read_stream("hand-x")] == [shown(e) for e in returned]
        again = store.append("hand-x", [NewEvent("hand.action", move, meta)], None, "old-1")
        assert [shown(e) for e in again] == [shown(e) for e in returned[1:3]]  # replayed
    finally:
        store.close()


def test_one_event_appends_before_and_after_migration_0008_chain_verify_and_replay(
    pg_db: Any,
) -> None:
    """Hosts upgraded one by one: this release's store on a database still at 0007 (no
    es_append_one()) appends one event through es_append(); after ``db upgrade`` through
    es_append_one(). One chain, which verifies, and each key replays what it stored,
    whichever function stored it."""
    from tournament.eventstore import migrate

    db = StoreDatabase(**dataclasses.asdict(pg_db), through_engine=True)
    engine, old_engine, new_engine = db.engine(), db.engine(), db.engine()
    migrate.downgrade(engine, "0007")
    move = {"action": "play", "card": "AH", "seat": 1}
    meta = {"actor": "anna", "source": "live", "note": 'ü "quoted" \\ back'}
    returned: list[StoredEvent] = []
    before = SQLEventStore(old_engine)
    try:
        for n in range(2):
            event = NewEvent("hand.action", move, meta)
            returned += before.append("hand-y", [event], n, idempotency_key=f"at-0007-{n}")
    finally:
        before.close()
    migrate.upgrade(engine)
    after = SQLEventStore(new_engine)  # new connections, as after a restart
    try:
        for n in range(2, 4):
            event = NewEvent("hand.action", move, meta)
            returned += after.append("hand-y", [event], n, idempotency_key=f"at-0008-{n}")
        assert verify(after).ok
        assert [shown(e) for e in after.read_stream("hand-y")] == [shown(e) for e in returned]
        for n, key in enumerate(["at-0007-0", "at-0007-1", "at-0008-2", "at-0008-3"]):
            again = after.append("hand-y", [NewEvent("hand.action", move, meta)], None, key)
            assert [shown(e) for e in again] == [shown(returned[n])]
        assert after.stream_version("hand-y") == 4
    finally:
        after.close()
        for each in (engine, old_engine, new_engine):
            each.dispose()

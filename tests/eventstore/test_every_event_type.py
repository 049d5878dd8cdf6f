"""A log holding every registered event type, written by earlier code and kept as a
backup (tests/fixtures/every_event/log.jsonl, ``tournament export``'s format), imports
into a fresh store and replays to the standings and brackets that code worked out
(expected.json): a change to a handler, an upcaster or the fold that changes what an
old log means fails here. Old schema versions are in it too (``round.started`` v1).

A new event type fails :func:`test_the_fixture_holds_every_registered_event_type` until
the fixture is written again, by tests/fixtures/every_event/make.py (which must then be
taught a command that writes the new type).
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tournament.domain.model.events as ev
import tournament.domain.model.hands  # noqa: F401  (registers hand.dealt, hand.action)
from tests.eventstore.conftest import StoreDatabase
from tests.fixtures.every_event.make import EXPECTED, LOG, replayed, stored_types
from tournament.eventstore import SQLEventStore
from tournament.eventstore.backup import export_store, import_store
from tournament.eventstore.migrate import upgrade
from tournament.eventstore.verify import verify

REPO = Path(__file__).resolve().parents[2]
REGENERATE = (
    "write the fixture again: `.venv/bin/python -m tests.fixtures.every_event.make` "
    "(teach its build() a command that writes the new type first), then commit "
    "tests/fixtures/every_event/"
)


def expected() -> dict[str, Any]:
    return dict(json.loads(EXPECTED.read_text()))


#: Prints the store registry's types once every module of the service is imported (in a
#: process of its own: this one's registry holds the tests' sample types too).
REGISTERED = """
import importlib, json, pkgutil, tournament
for found in pkgutil.walk_packages(tournament.__path__, "tournament."):
    if not found.name.endswith("__main__") and not found.name.startswith("tournament.migrations"):
        importlib.import_module(found.name)
from tournament.eventstore import REGISTRY
print(json.dumps(REGISTRY.names()))
"""


def registered_types(folder: Path) -> list[str]:
    environ = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", REGISTERED], cwd=folder, env=environ, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def test_the_fixture_holds_every_registered_event_type(tmp_path: Path) -> None:
    registered = registered_types(tmp_path)
    assert {ev.TOURNAMENT_CREATED, "hand.dealt", "hand.action"} <= set(registered)
    held = {name for name, _version in expected()["types"]}
    missing = sorted(set(registered) - held)
    assert not missing, f"the fixture holds no event of type {missing}: {REGENERATE}"


def test_the_fixture_holds_every_older_schema_version_an_upcaster_reads() -> None:
    held = {(name, version) for name, version in expected()["types"]}
    old = {(name, v) for name, steps in ev.UPCASTERS.items() for v in steps}
    missing = sorted(old - held)
    assert not missing, f"the fixture holds no event at the old version {missing}: {REGENERATE}"


def imported(store: SQLEventStore) -> SQLEventStore:
    with LOG.open() as lines:
        count = import_store(store, lines, progress=False)
    assert count == sum(1 for _ in store.read_all())
    report = verify(store)
    assert report.ok, report
    return store


def check_replays(store: SQLEventStore) -> None:
    want = expected()
    # Kept as stored (an old schema version too): the store's export says so again.
    again = io.StringIO()
    export_store(store, again, progress=False)
    assert stored_types(again.getvalue().splitlines()) == want["types"]
    for tid, then in want["tournaments"].items():
        now = replayed(store, tid)
        assert now["version"] == then["version"], tid
        assert now["standings"] == then["standings"], f"{tid}: the standings changed"
        assert now["documents"] == then["documents"], f"{tid}: a projected document changed"


def test_the_log_imports_into_a_fresh_sqlite_store_and_replays_to_its_standings(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    upgrade(url)
    store = imported(SQLEventStore(url))
    try:
        check_replays(store)
    finally:
        store.close()


@pytest.mark.postgres
def test_the_log_imports_into_a_fresh_postgres_store_and_replays_to_its_standings(
    pg_db: Any,
) -> None:
    db = StoreDatabase(**dataclasses.asdict(pg_db), through_engine=True)
    store = imported(db.open_store())
    try:
        check_replays(store)
    finally:
        store.close()

"""The same result sent four times at the same moment (a double click, a retry after a
dropped connection, two terminals) stores it once (trial 2, F1: it stored 4). Four
``tournament`` processes race on a real SQLite file and on PostgreSQL; the lock makes one
decide first, and the others see its entry and are refused (T-repeat), or, for a CSV
file, find its idempotency key and are told when it was imported."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.databases import Database
from tournament.app.service import TournamentService
from tournament.domain.model import events as ev
from tournament.domain.testing import paired
from tournament.eventstore import SQLEventStore, StoredEvent


@pytest.fixture
def drawn(db: Database) -> Iterator[tuple[Database, tuple[int, int]]]:
    """Tournament ``test``: 4 players, best of 3, round 1 drawn; match 1.1's players."""
    engine = db.engine()
    store = SQLEventStore(engine)
    store.append(ev.stream_id("test"), paired(players=4, best_of=3), expected_version=0)
    yield db, TournamentService(store).state("test").matches["1.1"].players
    engine.dispose()


def at_once(db: Database, tmp_path: Path, *args: str, times: int = 4) -> list[str]:
    """Run ``tournament ARGS`` in ``times`` processes at once; their outputs, in order."""
    env = {
        **os.environ,
        "DATABASE_URL": db.url,
        "SCHNAPSEN_INSTANCE": str(tmp_path),
        "SCHNAPSEN_TOURNAMENT": "test",
    }
    if db.schema:
        env["PGOPTIONS"] = f"-csearch_path={db.schema}"
    command = [sys.executable, "-m", "tournament", *args]
    runs = [
        subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for _ in range(times)
    ]
    outputs = [run.communicate(timeout=120)[0].decode() for run in runs]
    for run, output in zip(runs, outputs, strict=True):
        assert run.returncode in (0, 1) and "Traceback" not in output, output
    return outputs


def results_of(db: Database) -> list[StoredEvent]:
    engine = db.engine()
    stored = [e for e in SQLEventStore(engine).read_stream("tournament-test") if e.type
              in (ev.HAND_RECORDED, ev.TALLY_RECORDED)]  # fmt: skip
    engine.dispose()
    return stored


def test_four_identical_hands_at_once_store_one(
    drawn: tuple[Database, tuple[int, int]], tmp_path: Path
) -> None:
    db, (a, _) = drawn
    outputs = at_once(db, tmp_path, "results", "enter", "1.1", "--winner", str(a), "--points", "2")
    assert len(results_of(db)) == 1
    recorded = [o for o in outputs if o.startswith("recorded ")]
    refused = [o for o in outputs if o.startswith("Error: result: match 1.1: this hand is")]
    assert (len(recorded), len(refused)) == (1, 3), outputs
    assert all("(T-repeat)" in o and "--again" in o for o in refused)


def test_four_identical_tallies_at_once_store_one_and_decide_nothing(
    drawn: tuple[Database, tuple[int, int]], tmp_path: Path
) -> None:
    # Before: the second copy landed in Bummerl 2 and decided the match 2:0 from one sheet.
    db, _ = drawn
    at_once(db, tmp_path, "results", "enter", "1.1", "--tally", "7 5 4 1 0 / 7 6 3")
    assert len(results_of(db)) == 1
    engine = db.engine()
    match = TournamentService(SQLEventStore(engine)).state("test").matches["1.1"]
    engine.dispose()
    assert not match.decided and match.summary.bummerl == (1, 0)


def test_the_same_csv_file_imported_four_times_at_once_is_stored_once(
    drawn: tuple[Database, tuple[int, int]], tmp_path: Path
) -> None:
    db, (a, b) = drawn
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(f"match,winner,game_points\n1.1,{a},2\n1.1,{b},1\n")
    outputs = at_once(db, tmp_path, "results", "import", str(sheet))
    assert len(results_of(db)) == 2
    assert sum(o.startswith("imported 2 results") for o in outputs) == 1, outputs
    refused = [o for o in outputs if "this file was imported at" in o]
    assert len(refused) == 3 and all(o.startswith("Error: sheet.csv: ") for o in refused)

"""What the domain needs of the store -- its values and interface (``api``), typed errors,
the registry, ``fold`` -- loads no database code: ``tournament.eventstore`` imports the
store itself (:class:`SQLEventStore`) when it is first named (PEP 562)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import tournament.eventstore
from tournament.eventstore.store import SQLEventStore

REPO = Path(__file__).resolve().parents[2]


def loaded(code: str) -> set[str]:
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, check=True
    )
    return set(json.loads(done.stdout))


def test_the_domains_part_of_the_store_loads_no_database_code() -> None:
    modules = loaded(
        "import tournament.eventstore.api, tournament.eventstore.errors\n"
        "import tournament.eventstore.registry, tournament.eventstore.fold\n"
        "from tournament.eventstore import NewEvent, FoldError, register_event_type"
    )
    assert "tournament.eventstore.api" in modules
    database_code = {"sqlalchemy", "alembic", "psycopg", "sqlite3", "tournament.db"}
    assert not {m for m in modules if m.split(".")[0] in database_code or m in database_code}
    assert "tournament.eventstore.store" not in modules


def test_the_store_is_there_when_named() -> None:
    assert tournament.eventstore.SQLEventStore is SQLEventStore
    assert "SQLEventStore" in dir(tournament.eventstore)
    modules = loaded("from tournament.eventstore import SQLEventStore")
    assert "tournament.eventstore.store" in modules and "sqlalchemy" not in modules

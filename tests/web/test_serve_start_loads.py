"""What ``tournament serve`` loads before it answers ``/healthz`` (speed P10): not the
accounts' SQLModel, not SQLAlchemy (the projections, their reads, the print queue, the
backups), not rich (structlog's console renderer): each is loaded by the first request
that needs it, which answers as before. Each check runs a fresh interpreter: what one
test imported must not hide what another imports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

#: What the start does without (each loaded on first use).
LATER = ("sqlalchemy", "sqlmodel", "rich", "tournament.accounts.service", "alembic")

SCRIPT = """
import json, sys
from tournament.web import create_app
from tournament.web.server import setup_link
app = create_app({"DATABASE_URL": sys.argv[1], "SECRET_KEY": "x" * 32})
link = setup_link(app, "http://127.0.0.1:8080/")
client = app.test_client()
healthz = client.get("/healthz").status_code
before = sorted(sys.modules)
standings = client.get("/api/v1/tournaments/nowhere/standings").status_code
print(json.dumps({"link": link, "healthz": healthz, "before": before,
                  "standings": standings, "after": sorted(sys.modules)}))
"""


def started(url: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, url], capture_output=True, text=True, cwd=REPO,
        env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def add_account(url: str) -> None:
    from argon2 import PasswordHasher

    from tournament.accounts.service import Accounts

    accounts = Accounts(url, hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    accounts.add("desk@club.example", "eleven chars")
    accounts.close()


def test_serve_answers_healthz_without_sqlalchemy_sqlmodel_or_rich_speed_P10(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    first = started(url)  # a new store: created and migrated (that loads SQLAlchemy)
    assert first["healthz"] == 200 and str(first["link"]).startswith("http://127.0.0.1:8080/")
    add_account(url)
    used = started(url)  # a laptop used before: migrated, an organiser
    assert used["healthz"] == 200 and used["link"] is None  # no setup link once set up
    before = set(used["before"])  # type: ignore[arg-type]
    assert not [name for name in LATER if name in before]
    # The first real request loads what it needs and answers as it always did.
    assert used["standings"] == 404
    assert "sqlalchemy" in set(used["after"])  # type: ignore[arg-type]


def test_rich_is_importable_after_structlog_was_imported_without_it() -> None:
    pytest.importorskip("rich")  # installed with the test tools (schemathesis)
    code = (
        "import sys\n"
        "from tournament.web.plain_structlog import structlog\n"
        "assert 'rich' not in sys.modules and structlog.dev.rich is None\n"
        "import rich.console\n"
        "print(rich.console.Console.__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "Console"

"""Fixtures the print pack tests share: a stored evening to render packs of, and the web
app to ask for packs over the API (``tests/web``'s own ``web``), one definition each rather
than one per test module."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.printing.helpers import evening
from tests.web.conftest import web  # noqa: F401 -- the app on a fresh SQLite store, as in tests/web
from tournament.app.service import TournamentService
from tournament.domain.model import events as ev
from tournament.eventstore import SQLEventStore, migrate


@pytest.fixture
def service(tmp_path: Path) -> TournamentService:
    """A migrated SQLite store holding tournament ``t1``: 9 players, round 2 drawn and
    open (its last round not played), so every round kind has something to print."""
    url = f"sqlite:///{tmp_path / 'print.sqlite3'}"
    migrate.upgrade(url)
    service = TournamentService(SQLEventStore(url))
    b = evening(9, rounds=2, play_last=False)
    service.store.append(ev.stream_id("t1"), b.events, expected_version=0)
    return service

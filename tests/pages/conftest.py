"""The pages on a fresh store per test (the app of tests/web), and a Swiss in round 3."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.conftest import Web, make_web
from tests.web.played import run, swiss
from tournament.domain.commands.rounds import start_round


@pytest.fixture
def web(tmp_path: Path) -> Web:
    # PROJECTION_WAIT 0: a page never waits for a projection the test left behind on purpose.
    return make_web(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path, PROJECTION_WAIT=0)


@pytest.fixture
def club(web: Web) -> str:
    """A Swiss of eight after two rounds, with round 3 drawn and nothing entered yet."""
    tid = swiss(web, "club", rounds=2)
    run(web, tid, lambda t: start_round(t))
    return tid

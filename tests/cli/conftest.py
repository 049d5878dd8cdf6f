"""The CLI tests' fixture: the ``tournament`` command on a real SQLite file in tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tournament.cli import main


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """``cli(*args)`` runs ``tournament ARGS`` on a fresh store in tmp_path and checks that
    it succeeded; with ``ok=False`` it checks nothing, the test looks at the result."""
    monkeypatch.setenv("SCHNAPSEN_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'club.sqlite3'}")
    monkeypatch.delenv("SCHNAPSEN_TOURNAMENT", raising=False)
    runner = CliRunner()

    def run(*args: str, ok: bool = True, input: str | None = None) -> Result:
        result = runner.invoke(main, list(args), input=input, catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    return run

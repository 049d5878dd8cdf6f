"""Live hands from the command line, on a real SQLite file (no mocks)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tournament.cli import main


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SCHNAPSEN_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'club.sqlite3'}")
    monkeypatch.delenv("SCHNAPSEN_TOURNAMENT", raising=False)
    runner = CliRunner()

    def run(*args: str, ok: bool = True) -> Result:
        result = runner.invoke(main, list(args), catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    run("create", "Cup", "--best-of", "3", "--seed", "1", "--first-dealer", "higher_seed")
    run("players", "add", "Bernd", "--rating", "1600")
    run("players", "add", "Franz", "--rating", "1500")
    run("players", "seed", "--by", "rating")
    run("round", "start")
    return run


def test_playing_an_unknown_hand_says_so_in_one_line(cli) -> None:  # type: ignore[no-untyped-def]
    out = cli("live", "play", "hand-nonexistent", "1:AH", ok=False)
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert out.output.strip().splitlines() == [
        "Error: hand_stream: there is no live hand 'hand-nonexistent' in tournament cup; "
        "`tournament live deal MATCH` deals one and prints its id (hand-...) (T-live)"
    ]

"""Which tournament a command works on: -t, else the store's current one, else the only
one in the store -- per database, so two stores sharing an instance folder never mix."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tournament.cli import main


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SCHNAPSEN_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("SCHNAPSEN_TOURNAMENT", raising=False)
    runner = CliRunner()

    def run(*args: str, db: str = "club", ok: bool = True) -> Result:
        monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / db}.sqlite3")
        result = runner.invoke(main, list(args), catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    return run


def test_each_database_has_its_own_current_tournament(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "CSV Cup", db="club")
    cli("create", "Herbst", db="other")
    assert "CSV Cup (csv-cup)" in cli("show", db="club").output
    assert "Herbst (herbst)" in cli("show", db="other").output
    cli("create", "Winter", db="club")
    cli("use", "csv-cup", db="club")
    assert "CSV Cup (csv-cup)" in cli("show", db="club").output
    assert "Herbst (herbst)" in cli("show", db="other").output


def test_the_only_tournament_of_a_store_is_used_without_a_pointer(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("create", "CSV Cup", db="club")
    for pointer in (tmp_path / "instance").glob("current-tournament*"):
        pointer.unlink()
    assert "CSV Cup (csv-cup)" in cli("show", db="club").output
    cli("create", "Winter", db="club")
    for pointer in (tmp_path / "instance").glob("current-tournament*"):
        pointer.unlink()
    out = cli("show", db="club", ok=False)
    assert out.exit_code == 1 and "in this store: csv-cup, winter" in out.output
    cli("db", "upgrade", db="empty")  # a store, with no tournament in it yet
    out = cli("show", db="empty", ok=False)
    assert out.exit_code == 1 and "no tournament in this store yet" in out.output

"""Back to the previous release (operator F9): `tournament db downgrade` to the previous
revision and up again, with a tournament, an account, a role and a token in the store;
the standings, the log and the accounts are the same afterwards."""

from __future__ import annotations

import pytest
from click.testing import CliRunner, Result

from tests.cli.helpers import create_cup, play_round
from tests.databases import Database
from tournament.cli import main
from tournament.cli.common import service_at
from tournament.eventstore import migrate


def previous_revision() -> str:
    """The head's down_revision: the previous release's schema."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(migrate.alembic_config()).get_revision("head")
    assert script is not None and isinstance(script.down_revision, str)
    return script.down_revision


@pytest.fixture
def cli(db: Database, tmp_path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SCHNAPSEN_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", db.schema_url)
    monkeypatch.delenv("SCHNAPSEN_TOURNAMENT", raising=False)

    def run(*args: str, ok: bool = True, input: str | None = None) -> Result:
        result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    return run


def test_down_one_revision_and_up_again_keeps_standings_and_accounts_operator_f9(
    cli, db: Database
) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "swiss", "rounds=3")
    for name in ("Anna", "Bernd", "Clara", "Dora", "Emil", "Franz"):
        cli("players", "add", name)
    play_round(cli)
    play_round(cli)
    cli("accounts", "add", "anna@club.at", "--admin", "--password-stdin",
        input="a long password 1\n")  # fmt: skip
    cli("accounts", "add", "bernd@club.at", "--password-stdin", input="another password 2\n")
    cli("accounts", "grant", "bernd@club.at", "cup", "scorer")
    cli("tokens", "create", "anna@club.at", "--name", "scoreboard")
    standings = cli("standings", "--csv").output
    log = cli("log").output
    accounts = cli("accounts", "list").output
    tokens = cli("tokens", "list").output

    previous = previous_revision()
    down = cli("db", "downgrade", previous)
    assert down.output.strip() == f"database at revision {previous}"
    assert migrate.current(db.schema_url) == previous
    assert (
        cli("db", "upgrade")
        .output.strip()
        .endswith(f"database at revision {migrate.migrations_head()}")
    )

    assert cli("standings", "--csv").output == standings
    assert cli("log").output == log
    assert cli("accounts", "list").output == accounts
    assert cli("tokens", "list").output == tokens
    assert "no drift" in cli("db", "check").output
    assert cli("verify").exit_code == 0


def test_downgrade_to_an_unknown_revision_is_one_error_line(cli) -> None:  # type: ignore[no-untyped-def]
    cli("db", "upgrade")
    done = cli("db", "downgrade", "0042", ok=False)
    assert done.exit_code == 1
    assert done.output.startswith("Error: there is no revision '0042'; this release knows 0001, ")


def test_a_read_after_a_downgrade_refuses_and_migrates_nothing_opfix_1(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Operator trial of main, 1: `standings` after `db downgrade` exited 0 and left the
    SQLite store at head again. No command but `db upgrade` migrates a store behind: a
    read refuses with PostgreSQL's line, and so does a write."""
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    monkeypatch.setenv("SCHNAPSEN_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.delenv("SCHNAPSEN_TOURNAMENT", raising=False)

    def cli(*args: str) -> Result:
        """Each command as its own process would be: no store kept from the last one."""
        service_at(url).store.dispose()  # type: ignore[attr-defined]
        service_at.cache_clear()
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    create_cup(cli, "swiss", "rounds=3")
    assert cli("players", "add", "Anna").exit_code == 0
    previous, head = previous_revision(), migrate.migrations_head()
    assert cli("db", "downgrade", previous).exit_code == 0

    refusal = f"Error: database revision is {previous}, not {head}: run `tournament db upgrade`"
    for command in (("standings",), ("log",), ("accounts", "list"), ("players", "add", "Bernd")):
        done = cli(*command)
        assert done.exit_code == 1, (command, done.output)
        assert done.output.strip() == refusal, command
        assert migrate.current(url) == previous, command
    assert cli("db", "current").output.strip().endswith(previous)

    assert cli("db", "upgrade").exit_code == 0
    assert cli("standings").exit_code == 0
    assert migrate.current(url) == head

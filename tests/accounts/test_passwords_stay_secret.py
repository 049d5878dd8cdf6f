"""A password goes nowhere but into its argon2id hash: not into the database file (nor
its write-ahead log), not into an event, not into a log line, not into what the command
line prints -- and neither does a token's secret."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.accounts.conftest import FAST
from tournament.accounts import Accounts
from tournament.cli import main
from tournament.eventstore import SQLEventStore

PASSWORDS = ["Kreuz-Bauer 2026!", "Herz Dame und König", "schnapsen-66-66-66"]


def files_of(store: Path) -> bytes:
    """Every byte of the SQLite store: the file, its write-ahead log, its index."""
    return b"".join(p.read_bytes() for p in store.parent.glob(store.name + "*"))


def test_passwords_and_token_secrets_are_nowhere_but_in_their_hashes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, every level
    store = tmp_path / "club.sqlite3"
    monkeypatch.setenv("SCHNAPSEN_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{store}")
    runner = CliRunner()
    printed = []

    def tournament(*args: str, input: str | None = None) -> str:
        done = runner.invoke(main, list(args), input=input, catch_exceptions=False)
        assert done.exit_code == 0, done.output
        printed.append(done.output)
        return done.output

    tournament("accounts", "add", "anna@club.at", "--password-stdin", input=PASSWORDS[0] + "\n")
    typed = f"{PASSWORDS[1]}\n{PASSWORDS[1]}\n"
    tournament("accounts", "add", "berti@club.at", input=typed)  # at the hidden prompt
    tournament("accounts", "password", "berti@club.at", input=f"{PASSWORDS[2]}\n" * 2)
    tournament("create", "Cup", "--id", "cup")
    tournament("accounts", "grant", "berti@club.at", "cup", "scorer")
    secret = tournament("tokens", "create", "berti@club.at", "--name", "script").splitlines()[-1]
    tournament("accounts", "list")
    tournament("tokens", "list")

    accounts = Accounts(f"sqlite:///{store}", hasher=FAST)  # the default's hashes stay
    assert accounts.authenticate("anna@club.at", PASSWORDS[0]) is not None
    assert accounts.authenticate("berti@club.at", PASSWORDS[2]) is not None
    assert accounts.authenticate("berti@club.at", PASSWORDS[1]) is None
    assert accounts.account_for_token(secret) is not None
    accounts.close()

    everything = files_of(store)
    assert everything.count(b"$argon2id$") >= 2
    for password in [*PASSWORDS, secret]:
        assert password.encode() not in everything, password
        assert all(password not in output for output in printed[:-3] + printed[-2:]), password
        assert password not in caplog.text, password
    assert secret in printed[-3]  # shown once, by `tokens create`
    events = SQLEventStore(f"sqlite:///{store}").read_all()
    assert [e.type for e in events] == ["tournament.created"]  # accounts are no events

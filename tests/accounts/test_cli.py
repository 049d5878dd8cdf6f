"""`tournament accounts` and `tournament tokens` on a SQLite store in tmp_path: passwords
only from a hidden prompt or standard input, the token as the last line, every refusal
one line with exit status 1 and nothing stored."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tournament.accounts import Accounts, Role
from tournament.cli import main

Cli = Callable[..., Result]


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "club.sqlite3"


@pytest.fixture
def cli(tmp_path: Path, store: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    """``cli(*args, input=None, ok=True)``: ``tournament ARGS`` on the store in tmp_path;
    ``ok`` checks that it succeeded."""
    monkeypatch.setenv("SCHNAPSEN_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{store}")
    monkeypatch.delenv("SCHNAPSEN_TOURNAMENT", raising=False)
    monkeypatch.setenv("USER", "wirt")
    runner = CliRunner()

    def run(*args: str, input: str | None = None, ok: bool = True) -> Result:
        result = runner.invoke(main, list(args), input=input, catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    return run


def accounts_of(store: Path) -> Accounts:
    return Accounts(f"sqlite:///{store}")


def refused(result: Result) -> str:
    """The one error line of a refused command (exit status 1)."""
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]


def test_the_first_account_made_from_standard_input_is_an_admin(cli: Cli, store: Path) -> None:
    first = cli("accounts", "add", "Anna@Club.at", "--password-stdin", input="a long password\n")
    assert first.output == "account 1: anna@club.at (admin: the first account always is)\n"
    second = cli("accounts", "add", "berti@club.at", "--password-stdin", input="another one!\r\n")
    assert second.output == "account 2: berti@club.at\n"
    third = cli("accounts", "add", "carla@club.at", "--admin", "--password-stdin", input="x" * 12)
    assert third.output == "account 3: carla@club.at (admin)\n"
    accounts = accounts_of(store)
    assert accounts.authenticate("berti@club.at", "another one!") is not None  # no \r, no \n
    assert accounts.authenticate("carla@club.at", "x" * 12) is not None
    assert [a.admin for a in accounts.list()] == [True, False, True]


def test_without_stdin_the_password_is_asked_twice_and_hidden(cli: Cli, store: Path) -> None:
    done = cli("accounts", "add", "anna@club.at", input="a long password\na long password\n")
    assert "Password: \nRepeat the password: \n" in done.output
    assert "a long password" not in done.output
    assert accounts_of(store).authenticate("anna@club.at", "a long password") is not None


def test_a_password_the_policy_refuses_is_asked_again(cli: Cli, store: Path) -> None:
    typed = "short\nshort\nnot the same\nnot the samE\na long password\na long password\n"
    done = cli("accounts", "add", "anna@club.at", input=typed)
    assert "Error: a password has at least 10 characters; this one has 5" in done.output
    assert "do not match" in done.output
    assert "short" not in done.output and "not the same" not in done.output
    assert accounts_of(store).authenticate("anna@club.at", "a long password") is not None


def test_three_refused_passwords_store_nothing(cli: Cli, store: Path) -> None:
    done = cli("accounts", "add", "anna@club.at", input="short\nshort\n" * 3, ok=False)
    assert done.exit_code == 1
    assert done.output.strip().endswith("Error: no password after 3 tries; nothing stored")
    assert accounts_of(store).count() == 0


@pytest.mark.parametrize(
    ("args", "input", "line"),
    [
        (["accounts", "add", "anna club.at", "--password-stdin"], "a long password\n",
         "Error: email: 'anna club.at' is not an email address (name@place) (T-account)"),
        (["accounts", "add", "anna@club.at", "--password-stdin"], "",
         "Error: no password on standard input (--password-stdin reads its first line)"),
        (["accounts", "add", "anna@club.at", "--password-stdin"], "too short\n",
         "Error: password: a password has at least 10 characters; this one has 9 (T-account)"),
    ],
)  # fmt: skip
def test_a_refused_account_is_one_line(
    cli: Cli, store: Path, args: list[str], input: str, line: str
) -> None:
    assert refused(cli(*args, input=input, ok=False)) == line
    assert not store.exists() or accounts_of(store).count() == 0


def test_an_email_taken_is_refused_before_a_password_is_asked(cli: Cli) -> None:
    cli("accounts", "add", "anna@club.at", "--password-stdin", input="a long password\n")
    done = cli("accounts", "add", "ANNA@club.at", ok=False)
    assert refused(done) == "Error: email: there is an account 'anna@club.at' already (T-account)"


def test_roles_are_granted_in_tournaments_of_the_store_only(cli: Cli, store: Path) -> None:
    cli("accounts", "add", "anna@club.at", "--password-stdin", input="a long password\n")
    cli("accounts", "add", "berti@club.at", "--password-stdin", input="a long password\n")
    assert refused(cli("accounts", "grant", "berti@club.at", "cup", "scorer", ok=False)) == (
        "Error: tournament: there is no tournament 'cup' (T-settings)"
    )
    cli("create", "Cup", "--id", "cup")
    assert refused(cli("accounts", "grant", "berti@club.at", "cup", "boss", ok=False)) == (
        "Error: role: 'boss' is not a role: one of public, scorer, organiser, owner (T-account)"
    )
    assert refused(cli("accounts", "grant", "dora@club.at", "cup", "scorer", ok=False)) == (
        "Error: email: there is no account 'dora@club.at' (T-account)"
    )
    done = cli("accounts", "grant", "Berti@club.at", "cup", "Organizer")
    assert done.output == "berti@club.at is organiser of cup\n"
    accounts = accounts_of(store)
    berti = accounts.by_email("berti@club.at")
    assert berti is not None and accounts.roles(berti.id) == {"cup": Role.ORGANISER}
    assert accounts.members("cup")[0][1] is Role.ORGANISER
    listing = cli("accounts", "list").output.splitlines()
    assert listing[0].split() == ["id", "email", "admin", "created", "roles"]
    assert listing[1].split()[:3] == ["1", "anna@club.at", "admin"]
    assert listing[2].split()[:3] == ["2", "berti@club.at", "-"]
    assert listing[2].endswith("cup: organiser")
    assert cli("accounts", "revoke", "berti@club.at", "cup").output == (
        "berti@club.at has no role in cup now\n"
    )
    assert cli("accounts", "revoke", "berti@club.at", "cup").output == (
        "berti@club.at had no role in cup: nothing changed\n"
    )
    assert accounts.roles(berti.id) == {}


def test_a_grant_records_who_granted_it(cli: Cli, store: Path) -> None:
    import sqlalchemy as sa

    cli("accounts", "add", "anna@club.at", "--password-stdin", input="a long password\n")
    cli("create", "Cup", "--id", "cup")
    cli("accounts", "grant", "anna@club.at", "cup", "owner", "--actor", "Obmann")
    with accounts_of(store).engine.connect() as conn:
        by = conn.execute(sa.text("SELECT granted_by FROM acct_tournament_roles")).scalar_one()
    assert by == "Obmann"


def test_a_new_password_from_standard_input(cli: Cli, store: Path) -> None:
    cli("accounts", "add", "anna@club.at", "--password-stdin", input="the old password\n")
    done = cli("accounts", "password", "ANNA@club.at", "--password-stdin", input="the new one!\n")
    assert done.output == "password changed\n"
    accounts = accounts_of(store)
    assert accounts.authenticate("anna@club.at", "the old password") is None
    assert accounts.authenticate("anna@club.at", "the new one!") is not None
    nobody = cli("accounts", "password", "dora@club.at", ok=False)  # asks for nothing
    assert refused(nobody) == "Error: email: there is no account 'dora@club.at' (T-account)"


def test_a_token_is_printed_once_as_the_last_line_and_works(cli: Cli, store: Path) -> None:
    cli("accounts", "add", "anna@club.at", "--password-stdin", input="a long password\n")
    done = cli("tokens", "create", "anna@club.at", "--name", "scoreboard")
    *said, secret = done.output.splitlines()
    assert said == [
        "API token 'scoreboard' (id 1) of anna@club.at.",
        "Copy it now: it is shown this once, only its hash is stored.",
        "Scripts send it as the header  Authorization: Bearer <token>",
        "Revoke it with  tournament tokens revoke anna@club.at 1",
    ]
    accounts = accounts_of(store)
    assert accounts.account_for_token(secret) == accounts.by_email("anna@club.at")
    listing = cli("tokens", "list").output
    assert secret not in listing and f"{secret[:8]}…" in listing
    assert listing.splitlines()[-1] == "1 live token, 0 revoked"
    assert refused(cli("tokens", "create", "anna@club.at", "--name", "scoreboard", ok=False)) == (
        "Error: name: anna@club.at has a token 'scoreboard' already (id 1): revoke it or "
        "choose another name (T-account)"
    )
    assert cli("tokens", "revoke", "anna@club.at", "scoreboard").output == (
        "revoked API token 'scoreboard' (id 1) of anna@club.at\n"
    )
    assert accounts.account_for_token(secret) is None
    assert (
        cli("tokens", "list", "anna@club.at").output.splitlines()[-1] == "0 live tokens, 1 revoked"
    )
    assert refused(cli("tokens", "revoke", "anna@club.at", "1", ok=False)).startswith(
        "Error: token: token 1 ('scoreboard') of anna@club.at was revoked already, at "
    )


def test_listing_what_is_not_there(cli: Cli) -> None:
    cli("accounts", "add", "anna@club.at", "--password-stdin", input="a long password\n")
    assert cli("tokens", "list").output == "no API tokens\n"
    assert cli("tokens", "list", "Anna@club.at").output == "no API tokens of anna@club.at\n"
    assert refused(cli("tokens", "list", "dora@club.at", ok=False)) == (
        "Error: email: there is no account 'dora@club.at' (T-account)"
    )


def test_a_listing_never_creates_a_store(cli: Cli, store: Path) -> None:
    for args in (["accounts", "list"], ["tokens", "list"]):
        line = refused(cli(*args, ok=False))
        assert line.startswith(f"Error: there is no tournament store at {store}: no such file")
    assert not store.exists()
    assert cli("accounts", "add", "anna@club.at", "--password-stdin", input="a long password\n")
    assert store.exists()
    assert cli("accounts", "list").output.count("anna@club.at") == 1


def test_a_password_is_never_an_argument(cli: Cli) -> None:
    for command in ("add", "password"):
        done = cli("accounts", command, "anna@club.at", "--password", "a long password", ok=False)
        assert done.exit_code == 2 and "No such option '--password'" in done.output

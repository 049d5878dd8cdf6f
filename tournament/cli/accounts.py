"""``tournament accounts`` and ``tournament tokens``: who may sign in, with which role in
which tournament, and the API tokens scripts use (docs/operations.md, "Accounts, roles
and tokens").

    tournament accounts add anna@club.at                # asks for the password twice
    printf '%s\\n' "$PW" | tournament accounts add berti@club.at --password-stdin
    tournament accounts grant berti@club.at cup scorer
    tournament tokens create berti@club.at --name scoreboard   # the token is the last line
    tournament accounts export accounts.json            # the backup: hashes, roles, tokens
    tournament accounts import accounts.json            # into a store without accounts

A password is never an argument (it would stay in the shell's history and in the process
list): it is typed at a hidden prompt or read from standard input, and it is never
printed. The accounts live in the store's database (``DATABASE_URL``, else SQLite under
``instance/``); a command that writes creates and migrates a SQLite store as the other
commands do.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

import click

from tournament.cli import main
from tournament.cli.columns import counted, ljust, width
from tournament.cli.common import WHO, actor_option, cli_errors, get_service, when
from tournament.domain.model.text import excerpt

if TYPE_CHECKING:
    from tournament.accounts import Accounts

#: Hidden prompts before ``accounts add`` gives up on passwords the policy refuses.
PROMPTS = 3

password_stdin_option = click.option(
    "--password-stdin",
    is_flag=True,
    help="read the password from the first line of standard input instead of asking",
)


@contextlib.contextmanager
def _accounts(*, write: bool) -> Iterator[Accounts]:
    """The accounts of the configured store, checked as the other commands check it: a
    write may create a SQLite store, a read never does; neither migrates one behind."""
    from tournament.accounts import Accounts
    from tournament.config import database_url
    from tournament.eventstore import migrate

    url = database_url()
    migrate.ensure_current(url, may_upgrade=False, may_create=write)
    accounts = Accounts(url)
    try:
        yield accounts
    finally:
        # The last connection to close checkpoints SQLite's log into the file.
        accounts.close()


def _password(from_stdin: bool) -> str:
    """The new password: the first line of standard input, or typed twice at a hidden
    prompt (asked again, up to :data:`PROMPTS` times, when the policy refuses it)."""
    from tournament.accounts.errors import AccountError
    from tournament.accounts.passwords import check_policy

    if from_stdin:
        line = sys.stdin.readline()
        password = line.removesuffix("\n").removesuffix("\r")
        if not password:
            raise click.ClickException(
                "no password on standard input (--password-stdin reads its first line)"
            )
        return password
    for _ in range(PROMPTS):
        typed: str = click.prompt(
            "Password",
            hide_input=True,
            confirmation_prompt="Repeat the password",
            err=True,
        )
        try:
            check_policy(typed)
            return typed
        except AccountError as error:
            click.echo(f"Error: {error.message}", err=True)
    raise click.ClickException(f"no password after {PROMPTS} tries; nothing stored")


@main.group()
def accounts() -> None:
    """Organiser accounts: add, list, grant and revoke roles per tournament, passwords,
    backups (export, import).

    Roles per tournament, each allowing what the ones before it allow: public (reads what
    is published), scorer (enters and signs results), organiser (runs the tournament),
    owner (grants roles). An admin account manages accounts and acts as owner everywhere; the
    first account is always an admin.
    """


@accounts.command("add")
@click.argument("email")
@password_stdin_option
@click.option("--admin", is_flag=True, help="the account manages accounts, owner everywhere")
@cli_errors
def accounts_add(email: str, password_stdin: bool, admin: bool) -> None:
    """Add an account that signs in with EMAIL and a password of 10 to 256 characters
    (asked twice, hidden, unless --password-stdin). The first account is an admin."""
    from tournament.accounts import AccountError
    from tournament.accounts.values import normal_email

    address = normal_email(email)  # refused before a password is asked for
    with _accounts(write=True) as store:
        if store.by_email(address) is not None:
            raise AccountError("email", f"there is an account {excerpt(address)} already")
        account = store.add(address, _password(password_stdin), admin=admin)
    note = ""
    if account.admin:
        note = " (admin)" if admin else " (admin: the first account always is)"
    click.echo(f"account {account.id}: {account.email}{note}")


@accounts.command("list")
@cli_errors
def accounts_list() -> None:
    """Every account with its roles per tournament."""
    with _accounts(write=False) as store:
        rows = [(a, store.roles(a.id)) for a in store.list()]
    if not rows:
        click.echo("no accounts yet: `tournament accounts add EMAIL`")
        return
    table: list[tuple[str, ...]] = [("id", "email", "admin", "created", "roles")]
    for account, roles in rows:
        granted = ", ".join(f"{tid}: {role.label}" for tid, role in roles.items())
        table.append(
            (
                str(account.id),
                account.email,
                "admin" if account.admin else "-",
                when(account.created_at),
                granted or "-",
            )
        )
    _print_table(table)


@accounts.command("grant")
@click.argument("email")
@click.argument("tournament")
@click.argument("role")
@actor_option
@cli_errors
def accounts_grant(email: str, tournament: str, role: str, actor: str) -> None:
    """Give EMAIL the ROLE (public, scorer, organiser, owner) in TOURNAMENT, replacing
    the role it had there."""
    from tournament.accounts import Role

    wanted = Role.parse(role)
    get_service().state(tournament)  # refuses a tournament that is not in the store
    with _accounts(write=True) as store:
        store.grant(email, tournament, wanted, by=actor)
        account = store.by_email(email)
    assert account is not None
    click.echo(f"{account.email} is {wanted.label} of {tournament}")


@accounts.command("revoke")
@click.argument("email")
@click.argument("tournament")
@cli_errors
def accounts_revoke(email: str, tournament: str) -> None:
    """Take EMAIL's role in TOURNAMENT away (it can then only read what is published)."""
    with _accounts(write=True) as store:
        had = store.revoke_role(email, tournament)
        account = store.by_email(email)
    assert account is not None
    if had:
        click.echo(f"{account.email} has no role in {tournament} now")
    else:
        click.echo(f"{account.email} had no role in {tournament}: nothing changed")


@accounts.command("export")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@cli_errors
def accounts_export(file: str) -> None:
    """Write every account, its roles and its tokens to FILE as JSON ('-' for stdout):
    passwords and tokens only as the store's hashes; the file is readable by you only."""
    from tournament.accounts.backup import dumps, export_accounts

    with _accounts(write=False) as store:
        document = export_accounts(store.engine)
    text = dumps(document)
    if file == "-":
        click.echo(text, nl=False)
    else:
        _write_private(file, text)
    found = document["accounts"]
    roles = sum(len(a["roles"]) for a in found)
    tokens = sum(len(a["tokens"]) for a in found)
    click.echo(
        f"exported {counted(len(found), 'account')}, {counted(roles, 'role')}, "
        f"{counted(tokens, 'token')}",
        err=True,
    )


def _write_private(file: str, text: str) -> None:
    """FILE replaced whole (written beside it, renamed at the end), mode 0600 from the
    start: it holds the password hashes."""
    import os

    partial = f"{file}.partial"
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # a leftover partial file keeps no wider mode
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, file)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise


@accounts.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8", lazy=False))
@cli_errors
def accounts_import(file: TextIO) -> None:
    """Restore FILE (an accounts export) into a store without accounts: the same
    passwords, roles and tokens ('-' for stdin)."""
    import json

    from tournament.accounts.backup import AccountsFileError, import_accounts

    try:
        document = json.load(file)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise AccountsFileError(f"{file.name}: not JSON ({error})") from None
    with _accounts(write=True) as store:
        added, roles, tokens = import_accounts(store.engine, document)
    click.echo(
        f"imported {counted(added, 'account')}, {counted(roles, 'role')}, "
        f"{counted(tokens, 'token')}"
    )


@accounts.command("password")
@click.argument("email")
@password_stdin_option
@cli_errors
def accounts_password(email: str, password_stdin: bool) -> None:
    """Set EMAIL's password (asked twice, hidden, unless --password-stdin)."""
    from tournament.accounts import AccountError
    from tournament.accounts.values import normal_email

    address = normal_email(email)
    with _accounts(write=False) as store:
        if store.by_email(address) is None:  # before asking for a password it cannot take
            raise AccountError("email", f"there is no account {excerpt(address)}")
    password = _password(password_stdin)
    with _accounts(write=True) as store:
        store.set_password(email, password)
    click.echo("password changed")


@main.group()
def tokens() -> None:
    """API tokens for scripts: create (shown once), list, revoke.

    A script sends its token in the header ``Authorization: Bearer TOKEN`` and acts with
    the roles of the token's account. Only a hash of each token is stored.
    """


@tokens.command("create")
@click.argument("email")
@click.option("--name", required=True, type=WHO, help="what it is for, e.g. scoreboard")
@cli_errors
def tokens_create(email: str, name: str) -> None:
    """Create an API token for EMAIL's account; it is printed once, as the last line."""
    with _accounts(write=True) as store:
        account = store.by_email(email)
        info, secret = store.create_token(email, name)
    assert account is not None
    click.echo(f"API token {excerpt(info.name)} (id {info.id}) of {account.email}.")
    click.echo("Copy it now: it is shown this once, only its hash is stored.")
    click.echo("Scripts send it as the header  Authorization: Bearer <token>")
    click.echo(f"Revoke it with  tournament tokens revoke {account.email} {info.id}")
    click.echo(secret)


@tokens.command("list")
@click.argument("email", required=False)
@cli_errors
def tokens_list(email: str | None) -> None:
    """The API tokens of EMAIL's account (of every account without EMAIL), revoked ones
    too; each shown by its first characters."""
    from tournament.accounts.values import normal_email

    with _accounts(write=False) as store:
        found = store.tokens(email)
        emails = {a.id: a.email for a in store.list()}
    if not found:
        click.echo("no API tokens" + (f" of {normal_email(email)}" if email else ""))
        return
    table: list[tuple[str, ...]] = [
        ("id", "account", "name", "token", "created", "last used", "revoked")
    ]
    for token in found:
        table.append(
            (
                str(token.id),
                emails.get(token.account_id, "?"),
                token.name,
                token.prefix + "…",
                when(token.created_at),
                when(token.last_used_at) if token.last_used_at else "never",
                when(token.revoked_at) if token.revoked_at else "-",
            )
        )
    _print_table(table)
    live = sum(token.revoked_at is None for token in found)
    click.echo(f"{counted(live, 'live token')}, {len(found) - live} revoked")


@tokens.command("revoke")
@click.argument("email")
@click.argument("name_or_id")
@cli_errors
def tokens_revoke(email: str, name_or_id: str) -> None:
    """Revoke EMAIL's API token NAME_OR_ID (its name or its id, see `tokens list`): it
    stops working within SCHNAPSEN_AUTH_CACHE_SECONDS (5 s) in a running web service."""
    with _accounts(write=True) as store:
        token = store.revoke_token(email, name_or_id)
        account = store.get(token.account_id)
    assert account is not None
    click.echo(f"revoked API token {excerpt(token.name)} (id {token.id}) of {account.email}")


def _print_table(rows: list[tuple[str, ...]]) -> None:
    widths = [max(width(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(ljust(cell, w) for cell, w in zip(row, widths, strict=True)).rstrip())

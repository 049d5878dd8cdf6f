"""``tournament seal-key``: make, show and rotate the seal key (operator F8).

    tournament seal-key new /etc/schnapsen/seal.key --owner schnapsen   # a new key file
    tournament seal-key show     # the current key's id and the keyring's
    tournament seal-key rotate   # retire the current key, make a new one, seal with it

The keys' settings and the keyring are :mod:`tournament.eventstore.seal_keys`; the steps
for operators are docs/operations.md, "Rotating the seal key".
"""

from __future__ import annotations

from pathlib import Path

import click

from tournament.cli import main
from tournament.cli.columns import counted
from tournament.cli.store import _one_line_errors, _store, database_option

owner_option = click.option(
    "--owner",
    metavar="USER[:GROUP]",
    default=None,
    help="give the file to this user (and group): the service's, when run as root",
)


@main.group("seal-key")
def seal_key() -> None:
    """Make, show and rotate the seal key; retired keys stay in the keyring to
    authenticate old seals."""


@seal_key.command("new")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path), required=False)
@owner_option
def seal_key_new(path: Path | None, owner: str | None) -> None:
    """Make a new seal key file at PATH (default: SCHNAPSEN_SEAL_KEY_FILE, else the
    instance's seal.key), readable by its owner only (mode 0600). Never overwrites."""
    from tournament.eventstore.seal_keys import key_file, write_key_file

    with _one_line_errors():
        target = path if path is not None else key_file()
        if target is None:
            raise click.ClickException(
                "SCHNAPSEN_SEAL_KEY gives the key itself: name the file to make (PATH)"
            )
        key = write_key_file(target, owner=owner)
    click.echo(f"seal key {key.key_id} written to {target} (mode 0600)")


@seal_key.command("show")
def seal_key_show() -> None:
    """The current seal key's id and where it is, and the retired keys of the keyring."""
    from tournament.eventstore.seal_keys import (
        configured_key_problem,
        key_file,
        keyring_dir,
        retired_keys,
    )
    from tournament.eventstore.seals import available_key

    with _one_line_errors():
        problem = configured_key_problem()
        if problem is not None:
            raise click.ClickException(problem)
        key = available_key()
        where = key_file() or "SCHNAPSEN_SEAL_KEY"
        click.echo(f"current: {key.key_id} ({where})" if key else f"current: none yet ({where})")
        retired = retired_keys()
    ring = keyring_dir()
    click.echo(f"keyring: {ring} ({counted(len(retired), 'retired key')})")
    for key_id in retired:
        click.echo(f"  {key_id}")


@seal_key.command("rotate")
@owner_option
@database_option
def seal_key_rotate(owner: str | None, database_url: str | None) -> None:
    """Retire the current seal key into the keyring (verify still authenticates its
    seals), make a new current key, and seal the log with it at once."""
    from tournament.eventstore.seal_keys import rotate

    with _one_line_errors(database_url):
        store = _store(database_url)  # first: no rotation the log cannot be sealed after
        done = rotate(store, owner=owner)
    click.echo(f"retired key {done.old.key_id} to {done.retired_to}")
    click.echo(f"current key {done.new.key_id}")
    if done.seal is None:
        click.echo("the log is empty: the first seal will be made with the new key")
    else:
        click.echo(f"sealed with the new key: {done.seal.short}")
    click.echo(
        "running services read the new key at their next seal; another host with its own "
        "copy of the key file needs the new file and the keyring's"
    )

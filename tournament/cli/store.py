"""Event store commands: ``tournament db upgrade``, ``verify``, ``seal``, ``export``,
``import``, ``db expire-keys``.

    tournament db upgrade                 # apply the migrations (DATABASE_URL, else SQLite)
    tournament db downgrade 0006          # back to the previous release's schema
    tournament verify                     # every hash chain and seal; exit 1 at a broken one
    tournament verify --seal '#12 @4211 7KQM-3XJ9'   # ... and a seal printed on a sheet
    tournament seal                       # seal the log now; prints the seal's short form
    tournament db expire-keys --days 30   # forget idempotency keys older than 30 days
    tournament export club-2025.jsonl     # the whole store as JSON Lines ('-': stdout)
    tournament import club-2025.jsonl     # restore into an empty store, chains checked

Every command takes ``--database-url`` (default: the ``DATABASE_URL`` environment
variable, else ``instance/tournament.sqlite3``).
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from tournament.cli import main
from tournament.cli.columns import counted

T = TypeVar("T")

database_option = click.option(
    "--database-url",
    envvar="DATABASE_URL",
    default=None,
    help="SQLAlchemy URL of the store [env: DATABASE_URL; default: instance/ SQLite]",
)


def _url(database_url: str | None) -> str:
    from tournament.config import database_url as configured

    if database_url:
        return configured({"DATABASE_URL": database_url})
    return configured()


def _store(database_url: str | None, *, create: bool = False) -> Any:
    """The store, if it is at the newest migration. Never created or migrated here unless
    ``create`` (import into a new SQLite file): a mistyped URL must not leave a new empty
    database behind (``tournament db upgrade`` makes one on purpose)."""
    from tournament.eventstore import SQLEventStore, migrate

    url = _url(database_url)
    migrate.ensure_current(url, may_upgrade=create)
    return SQLEventStore(url)


def _one_line_errors(database_url: str | None = None) -> contextlib.AbstractContextManager[None]:
    """Every error one ``Error:`` line and exit status 1: the organiser commands' own
    handling (:func:`tournament.cli.common.one_line_errors`), for ``--database-url``."""
    from tournament.cli.common import one_line_errors

    return one_line_errors(_url(database_url))


@main.group()
def db() -> None:
    """The database: apply and inspect migrations."""


@db.command()
@click.argument("revision", default="head")
@database_option
def upgrade(revision: str, database_url: str | None) -> None:
    """Apply the migrations up to REVISION (default: head); creates a SQLite file."""
    from tournament.db import sqlite_path
    from tournament.eventstore import migrate
    from tournament.eventstore.guards import MissingGuardsError, check_guards

    with _one_line_errors(database_url):
        url = _url(database_url)
        path = sqlite_path(url)
        if path is not None:  # another program's database is never made a store
            migrate.refuse_foreign(path)
        if path is None:  # the app's role would "upgrade" nothing and look successful
            _refuse_non_owner(url)
        missing = []
        if path is None or path.is_file():  # a new file has no guards to miss
            try:
                check_guards(url)
            except MissingGuardsError as error:
                missing = error.missing
        migrate.upgrade(url, revision)  # reinstalls them
        for guard in missing:
            click.echo(f"reinstalled {guard.kind} {guard.name} (it was {guard.problem})")
        click.echo(f"database at revision {migrate.current(url)}")


@db.command()
@click.argument("revision")
@database_option
def downgrade(revision: str, database_url: str | None) -> None:
    """Undo the migrations after REVISION (the previous release's head, e.g. 0006), to go
    back to the previous release (docs/deploy.md#upgrading); the log is never touched."""
    from tournament.db import sqlite_path
    from tournament.eventstore import migrate

    with _one_line_errors(database_url):
        url = _url(database_url)
        path = sqlite_path(url)
        if path is not None:
            migrate.refuse_foreign(path)
        else:
            _refuse_non_owner(url)
        known = migrate.known_revisions()
        if revision not in known:
            raise click.ClickException(
                f"there is no revision {revision!r}; this release knows {', '.join(sorted(known))}"
            )
        migrate.downgrade(url, revision)
        click.echo(f"database at revision {migrate.current(url)}")


def _refuse_non_owner(url: str) -> None:
    from tournament.eventstore.guards import owner_problem

    problem = _asked(url, owner_problem)
    if problem:
        raise click.ClickException(problem)


@db.command()
@database_option
def current(database_url: str | None) -> None:
    """Print the database's migration revision."""
    from tournament.eventstore import migrate

    with _one_line_errors(database_url):
        click.echo(migrate.current(_url(database_url)) or "not migrated")


@db.command()
@database_option
def check(database_url: str | None) -> None:
    """Fail if the tables drift from the models (alembic check) or a guard is missing."""
    from alembic.util.exc import AutogenerateDiffsDetected

    from tournament.eventstore import migrate
    from tournament.eventstore.guards import MissingGuardsError, bypass_reasons, missing_guards

    with _one_line_errors(database_url):
        try:
            migrate.check(_url(database_url))
        except AutogenerateDiffsDetected as error:
            raise click.ClickException(str(error)) from None
        # Triggers are invisible to alembic check.
        missing, bypass = _asked(
            _url(database_url), lambda conn: (missing_guards(conn), bypass_reasons(conn))
        )
        if missing:
            raise MissingGuardsError(missing)
    click.echo("no drift; append-only guards in place")
    for reason in bypass:
        click.echo(f"CAN BYPASS THE GUARDS: {reason}")


def _asked(url: str, question: Callable[[Any], T]) -> T:
    """``question(connection)`` on a connection of its own to the store at ``url``."""
    from tournament.db import make_engine

    engine = make_engine(url, kind="tool")
    try:
        with engine.connect() as conn:
            return question(conn)
    finally:
        engine.dispose()


@db.command("expire-keys")
@click.option(
    "--days",
    type=click.IntRange(min=1),
    default=None,
    help="keep keys this many days [env: SCHNAPSEN_KEY_RETENTION_DAYS; default 30; at least 1]",
)
@database_option
def expire_keys(days: int | None, database_url: str | None) -> None:
    """Forget idempotency keys older than DAYS (a periodic task runs this). A request
    repeated with a forgotten key is decided again like a new one."""
    from datetime import timedelta

    from tournament.eventstore.store import KEY_RETENTION_DAYS

    with _one_line_errors(database_url):
        if days is None:
            days = _retention_days(KEY_RETENTION_DAYS)
        store = _store(database_url)
        gone = store.expire_keys(timedelta(days=days))
    click.echo(f"forgot {counted(gone, 'idempotency key')} older than {counted(days, 'day')}")


def _retention_days(default: int) -> int:
    text = os.environ.get("SCHNAPSEN_KEY_RETENTION_DAYS", "").strip()
    if not text:
        return default
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise click.ClickException(
            f"SCHNAPSEN_KEY_RETENTION_DAYS is {text!r:.20}: a whole number of days, at least 1"
        )
    return int(text)


@main.command()
@click.option(
    "--seal",
    "printed",
    multiple=True,
    metavar="SHORT",
    help="a seal's short form as printed on a sheet ('#12 @4211 7KQM-3XJ9'): the log must "
    "still hold that seal, and a key here must authenticate it (else exit 2; repeatable)",
)
@click.option(
    "--require-authenticated",
    is_flag=True,
    help="exit 2 when a seal matches the log but no key here (current or keyring) can "
    "authenticate it: for cron",
)
@database_option
def verify(printed: tuple[str, ...], require_authenticated: bool, database_url: str | None) -> None:
    """Check every stream's hash chain, every seal of the log (with the seal key) and the
    append-only guards; report the first broken link of each.

    Exit status: 0 all verify; 1 a broken link or seal, or a seal key that is configured
    but cannot be read; 2 a seal given with --seal, or (with --require-authenticated) any
    seal, that no key here authenticates.
    """
    from tqdm import tqdm

    from tournament.eventstore.seals import parse_short
    from tournament.eventstore.verify import verify as run_verify

    with _one_line_errors(database_url):
        anchors = [parse_short(text) for text in printed]
        store = _store(database_url)
        key, keyring, key_problems = _verification_keys()
        with tqdm(unit="ev", disable=None, file=sys.stderr) as bar:
            report = run_verify(store, on_row=lambda: bar.update(), key=key, keyring=keyring)
        seals = {seal.seq: seal for seal in store.seals()} if anchors else {}
    for problem in key_problems:
        click.echo(f"SEAL KEY {problem}")
    for line in _seal_keys_lines(report.made_with, key, keyring):
        click.echo(line)
    for link in report.broken:
        click.echo(f"BROKEN {link}")
    for guard in report.missing_guards:
        click.echo(f"MISSING GUARD {guard}: `tournament db upgrade` reinstalls it")
    for reason in report.bypass:
        click.echo(f"CAN BYPASS THE GUARDS: {reason}")
    for note in report.unchecked:
        click.echo(f"NOT AUTHENTICATED {note}")
    mismatched = [_anchor_problem(anchor, seals) for anchor in anchors]
    for problem in filter(None, mismatched):
        click.echo(f"BROKEN {problem}")
    # A seal checked by hand is a question about that seal: one that matches the log but
    # that no key here authenticates is not an answer, with or without the flag.
    trusted = {key_id for key_id in keyring} | ({key.key_id} if key is not None else set())
    made_with = dict(report.made_with)
    unproven = [
        seals[seq].short
        for (seq, _, _), problem in zip(anchors, mismatched, strict=True)
        if problem is None and made_with.get(seq, "") not in trusted
    ]
    for short in unproven:
        click.echo(
            f"NOT AUTHENTICATED the printed seal {short} matches the log, but no key here "
            "authenticates it: it proves nothing until it is checked where its key is"
        )
    click.echo(
        f"{counted(report.events, 'event')} in {counted(report.streams, 'stream')} checked; "
        f"log head position {report.head_position} hash {report.log_head}"
    )
    if report.last_seal is not None:
        click.echo(
            f"{counted(report.seals, 'seal')} checked, the last {report.last_seal.short}; "
            f"{counted(report.unsealed, 'event')} after it, covered by their streams' "
            "chains only"
        )
    else:
        click.echo("no seal yet: the events are covered by their streams' chains only")
    if not report.ok or any(mismatched) or key_problems:
        raise SystemExit(1)
    if unproven:
        raise SystemExit(2)
    if report.unchecked:  # they match the log, but who made them is not known here
        click.echo(
            f"all chains verify and every seal matches the log; {len(report.unchecked)} of "
            f"{counted(report.seals, 'seal')} could not be authenticated here (their key is "
            "not this machine's: SCHNAPSEN_SEAL_KEY_FILE names it, or a retired key in "
            "SCHNAPSEN_SEAL_KEYRING_DIR)"
        )
        if require_authenticated:
            raise SystemExit(2)
        return
    click.echo("all chains and seals verify" if report.seals else "all chains verify")


def _verification_keys() -> tuple[Any, dict[str, Any], list[str]]:
    """The current seal key (None: none here), the keyring's retired keys, and what is
    wrong with either: verify goes on without a key it cannot read, and says so."""
    from tournament.eventstore.seal_keys import retired_keys
    from tournament.eventstore.seals import SealKeyError, available_key

    problems = []
    try:
        key = available_key()
    except SealKeyError as error:
        key = None
        problems.append(f"{error}: seals made with it cannot be authenticated")
    try:
        keyring = retired_keys()
    except SealKeyError as error:
        keyring = {}
        problems.append(f"{error}: the keyring is not used")
    return key, keyring, problems


def _seal_keys_lines(
    made_with: list[tuple[int, str]], key: Any, keyring: dict[str, Any]
) -> list[str]:
    """Which key made which seals, one line per run of seals by one key (operator F8)."""
    runs: list[tuple[int, int, str]] = []
    for seq, key_id in made_with:
        if runs and runs[-1][2] == key_id and runs[-1][1] == seq - 1:
            runs[-1] = (runs[-1][0], seq, key_id)
        else:
            runs.append((seq, seq, key_id))
    lines = []
    for first, last, key_id in runs:
        which = f"seal #{first}" if first == last else f"seals #{first}-#{last}"
        if key is not None and key_id == key.key_id:
            whose = "the current key"
        elif key_id in keyring:
            whose = "a retired key in the keyring"
        else:
            whose = "a key not here: not authenticated"
        lines.append(f"{which} made with key {key_id} ({whose})")
    return lines


def _anchor_problem(anchor: tuple[int, int, str], seals: dict[int, Any]) -> str | None:
    """What is wrong with a seal printed on paper, checked against the log's seals."""
    seq, position, code = anchor
    seal = seals.get(seq)
    if seal is None:
        newest = f"#{max(seals)}" if seals else "none"
        return (
            f"seal #{seq} @{position} (printed) is not in the log, whose seals end at "
            f"{newest}: check the sheet for a misread; if it is right, seals were removed"
        )
    if seal.position != position or seal.code != code:
        return (
            f"seal #{seq} @{position} {code[:4]}-{code[4:]} (printed) is {seal.short} in the "
            "log: the seal was replaced"
        )
    return None


@main.command("seal")
@database_option
def seal_(database_url: str | None) -> None:
    """Seal the log now (appends seal it at intervals; rounds and prints, at their end):
    prints the seal's short form, to be written down or printed."""
    with _one_line_errors(database_url):
        store = _store(database_url)
        done = store.seal("by hand")
    if done is None:
        click.echo("the log is empty: nothing to seal")
        return
    click.echo(
        f"seal {done.short}: {counted(done.events, 'event')} up to position {done.position}, "
        f"{done.sealed_at:%Y-%m-%d %H:%M:%S} UTC"
    )


@main.command("export")
@click.argument("file", type=click.Path(dir_okay=False, writable=True, allow_dash=True))
@database_option
def export_(file: str, database_url: str | None) -> None:
    """Write the whole store to FILE as JSON Lines ('-' for stdout)."""
    from pathlib import Path

    from tournament.eventstore.backup import export_store
    from tournament.eventstore.backup_file import replacing

    with _one_line_errors(database_url):
        store = _store(database_url)  # first: a store that is not there leaves no file
        withhold = _hands_in_play(store)
        if file == "-":
            with click.open_file("-", "w") as stdout:
                count = export_store(store, stdout, withhold=withhold)
        else:
            _refuse_read_only(file)
            # Written beside FILE under a visible name and renamed at the end, so a failed
            # or killed export leaves no half a backup under the backup's name.
            try:
                with replacing(Path(file)) as out:
                    count = export_store(store, out, withhold=withhold)
            except OSError as error:  # name FILE, not the unfinished file beside it
                raise OSError(error.errno, error.strerror, file) from None
        last = store.latest_seal()
    sealed = f"; seal {last.short}" if last is not None and count else ""
    click.echo(f"exported {count} events{sealed}", err=True)


def _hands_in_play(store: Any) -> Callable[[str], bool]:
    """The live hands an export withholds (F2): every hand stream but those over for
    good. Worked out at the first hand's line only, so a store without online play pays
    nothing; a hand is over for good for ever, so one that ended meanwhile is published
    rightly, and a tournament that cannot be read now (a rescue export of a damaged
    store) has its hands withheld rather than the export refused."""
    from tournament.app.service import TournamentService
    from tournament.domain.model.hands import HAND_PREFIX, fold_hand
    from tournament.domain.views.transfer import finished_hands, in_play

    found: list[Callable[[str], bool]] = []

    def withheld(stream: str) -> bool:
        if not stream.startswith(HAND_PREFIX):
            return False
        if not found:
            service = TournamentService(store)
            finished: set[str] = set()
            for tid in service.tournament_ids():
                try:
                    t = service.state(tid)
                    finished |= finished_hands(t, lambda s: fold_hand(store.read_stream(s)))
                except Exception:  # unreadable: its hands stay withheld
                    continue
            found.append(in_play(finished))
        return found[0](stream)

    return withheld


def _refuse_read_only(file: str) -> None:
    """An export replaces FILE by renaming, which a read-only file does not stop (nor
    does root's access()); a backup someone write-protected is kept as it is."""
    if os.path.isfile(file) and not os.stat(file).st_mode & stat.S_IWUSR:
        raise click.ClickException(f"{file} is read-only; nothing written")


@contextlib.contextmanager
def _removed_unless_filled(url: str) -> Iterator[None]:
    """A SQLite file (and folders) that an import creates is removed again if the import
    fails: a refused backup, or a mistyped target, leaves no empty store behind."""
    from pathlib import Path

    from tournament.db import sqlite_path

    path = sqlite_path(url)
    new: list[Path] = []
    if path is not None:
        new = [p for p in (path, *path.parents) if not p.exists()]
    try:
        yield
    except BaseException:
        for made in new:  # the file, its -wal and -shm, then the folders, innermost first
            with contextlib.suppress(OSError):
                if made.is_dir():
                    made.rmdir()
                    continue
                for suffix in ("", "-wal", "-shm"):
                    made.with_name(made.name + suffix).unlink(missing_ok=True)
        raise


@main.command("import")
@click.argument("file", type=click.File("rb"))
@database_option
def import_(file: Any, database_url: str | None) -> None:
    """Restore FILE (an export) into an empty store, verifying every hash chain; a new
    SQLite file is created and migrated first."""
    from tournament.eventstore import ChainError, ImportFormatError
    from tournament.eventstore.backup import import_store

    notes: list[str] = []
    with _one_line_errors(database_url), _removed_unless_filled(_url(database_url)):
        store = _store(database_url, create=True)
        try:
            # Bytes: import_store decodes each line, so bad UTF-8 names its line.
            count = import_store(store, file, notes=notes)
        except (ImportFormatError, ChainError) as error:
            raise click.ClickException(f"{file.name}: {error}") from None
        finally:
            store.close()  # its connections, before a refused import removes the file
    for note in notes:
        click.echo(f"note: {note}", err=True)
    click.echo(f"imported {count} events; all chains verify")

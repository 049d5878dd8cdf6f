"""What every organiser command shares: the store and the current tournament, one
correlation id per command, errors as one line, and the parsing of typed numbers.

The store is the event store's: ``DATABASE_URL``, else SQLite in the instance folder.
A SQLite store is created and migrated by the first command that writes to it; a command
that only reads never creates a file or a folder, it says there is no store. The
tournament is ``-t ID`` (or ``SCHNAPSEN_TOURNAMENT``); without it, the one last created
or chosen with ``use``. Errors name the field, row or rule (or what is wrong with the
database, :func:`one_line_errors`), exit with status 1, and store nothing.
"""

from __future__ import annotations

import atexit
import contextlib
import contextvars
import functools
import io
import os
import re
import uuid
from collections.abc import Callable, Collection, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from tournament.domain.commands import startnumbers
from tournament.domain.commands.csvio import (
    PLAYER_COLUMNS,
    CsvImportError,
    import_key,
    import_players,
)
from tournament.domain.commands.csvread import CP1252, read_rows, read_text
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.domain.model.text import MAX_DIGITS, NAME_LIMIT, excerpt, plain_text, whole_number
from tournament.domain.views.spellings import possible_duplicates

if TYPE_CHECKING:  # the service and the store: loaded when the command first uses them
    from tournament.app.service import TournamentService
    from tournament.eventstore import SQLEventStore
    from tournament.eventstore.api import Decide, Decided, KeyRecord, NewEvent, StoredEvent
    from tournament.eventstore.seals import Seal

F = TypeVar("F", bound=Callable[..., Any])


class WholeNumber(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.4
    """A number typed with the digits 0-9 only: ``²`` or Arabic-Indic digits pass Python's
    ``isdigit()`` and then crash or misread ``int()``; at most ``digits`` of them."""

    name = "integer"

    def __init__(self, digits: int = MAX_DIGITS) -> None:
        self.digits = digits

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        try:
            return whole_number(str(value), "value", digits=self.digits, signed=True)
        except DomainError as error:
            self.fail(error.message, param, ctx)


class PlainText(click.ParamType):  # type: ignore[type-arg]
    """Text that is stored and printed (who, why): no control or bidi character (a
    terminal escape, a line break; refused naming the position), at most ``limit``
    characters; spaces around it stripped."""

    name = "text"

    def __init__(self, limit: int = NAME_LIMIT, what: str = "a name") -> None:
        self.limit, self.what = limit, what

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        try:
            text.encode("utf-8")  # an environment variable ($USER) is not checked by the group
            return plain_text(text, "value", "T-input", limit=self.limit, what=self.what)
        except UnicodeEncodeError:
            self.fail("not UTF-8 text: set your terminal to UTF-8 (nothing stored)", param, ctx)
        except DomainError as error:
            self.fail(error.message, param, ctx)


#: Start numbers, tables, event numbers, counts.
WHOLE = WholeNumber()
#: Seeds of draws: a recorded seed has up to 10 digits.
SEED = WholeNumber(digits=20)
#: Who did something (``--actor``, ``--by``): a person's name.
WHO = PlainText(what="a name")
#: Why (``--why``, a withdrawal's ``--reason``): a sentence.
WHY = PlainText(limit=500, what="a reason")

tournament_option = click.option(
    "-t",
    "--tournament",
    "tournament_id",
    envvar="SCHNAPSEN_TOURNAMENT",
    type=PlainText(what="a tournament id"),
    help="the tournament's id [default: the current one, see `tournament use`]",
)
actor_option = click.option(
    "--actor",
    envvar="USER",
    default="organiser",
    type=WHO,
    help="who does this, as the log records it [default: $USER]",
)
card_points_option = click.option(
    "--card-points",
    help="a hand: both players' R11 points, pairing order, e.g. 66:40 (each 0 or 4-220, "
    "together at most 220)",
)


def pointer_file() -> Path:
    """The file naming the current tournament of the configured store: one per database
    (keyed by a hash of its URL, which may hold a password), so a shell with another
    ``DATABASE_URL`` does not read a tournament that is not in its store."""
    import hashlib

    from tournament.config import database_url, instance_path

    key = hashlib.sha256(database_url().encode()).hexdigest()[:16]
    return instance_path() / f"current-tournament.{key}"


def legacy_pointer_file() -> Path | None:
    """``instance/current-tournament`` as written before pointers were per database: it
    belonged to the default store (no ``DATABASE_URL``), so only that store reads it."""
    from tournament.config import database_url, instance_path

    if database_url() != database_url({k: v for k, v in os.environ.items() if k != "DATABASE_URL"}):
        return None
    return instance_path() / "current-tournament"


def get_service() -> TournamentService:
    """The service on the configured store (``DATABASE_URL``)."""
    from tournament.config import database_url

    return service_at(database_url())


@functools.cache
def service_at(url: str) -> TournamentService:
    """One service per store and process: a command asks for it several times, and the
    service keeps the folded tournament, so the stream is read and folded once."""
    from tournament.app.service import TournamentService

    return TournamentService(ReadyStore(url))


class ReadyStore:
    """The store at ``url``, checked (:func:`~tournament.eventstore.migrate.ensure_current`)
    on first use: a missing one is created and migrated by a write (a club laptop needs no
    setup step) and never by a read, which says there is no store instead of leaving an
    empty one behind a mistyped path. A store behind is migrated by no command but ``db
    upgrade`` (the operator trial of main): a read that migrated undid a deliberate ``db
    downgrade``, and a write that did would too. A SQLite store at head
    is checked and used through the ``sqlite3`` module: no SQLAlchemy, no Alembic."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._store: SQLEventStore | None = None

    def _ready(self, write: bool) -> SQLEventStore:
        if self._store is None:
            from tournament.eventstore import SQLEventStore, migrate
            from tournament.eventstore.seals import SealPolicy

            migrate.ensure_current(self.url, may_upgrade=False, may_create=write)
            # Appends seal the log at intervals; the key is read when a seal is due.
            self._store = SQLEventStore(self.url, sealing=SealPolicy.from_environment())
            # Closed before the process exits, though the exit skips its last garbage
            # collection (tournament/cli/__init__.py): the last SQLite connection to close
            # checkpoints the write-ahead log into the file, so a copy of the .sqlite3 file
            # alone (a USB stick at the end of the evening) holds every result.
            atexit.register(self.dispose)
        return self._store

    def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        expected_version: int | None,
        idempotency_key: str | None = None,
    ) -> list[StoredEvent]:
        return self._ready(True).append(stream_id, events, expected_version, idempotency_key)

    def append_decided(
        self,
        stream_id: str,
        decide: Decide,
        *,
        after_version: int = 0,
        idempotency_key: str | None = None,
    ) -> Decided:
        return self._ready(True).append_decided(
            stream_id, decide, after_version=after_version, idempotency_key=idempotency_key
        )

    def read_key(self, key: str) -> KeyRecord | None:
        return self._ready(False).read_key(key)

    def seal(self, reason: str) -> Seal | None:
        """Seal the log now (:meth:`SQLEventStore.seal`)."""
        return self._ready(True).seal(reason)

    def latest_seal(self) -> Seal | None:
        return self._ready(False).latest_seal()

    def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[StoredEvent]:
        return self._ready(False).read_stream(stream_id, from_version, to_version)

    def read_all(self, after_position: int = 0, limit: int | None = None) -> list[StoredEvent]:
        return self._ready(False).read_all(after_position, limit)

    def stream_version(self, stream_id: str) -> int:
        return self._ready(False).stream_version(stream_id)

    def dispose(self) -> None:
        """Close the pooled connections (another program may then lock the file)."""
        if self._store is not None:
            self._store.close()


def make_current(tid: str) -> None:
    """Make ``tid`` the configured store's current tournament."""
    pointer = pointer_file()
    pointer.parent.mkdir(parents=True, exist_ok=True)
    pointer.write_text(tid)


def tournament_id_of(tournament_id: str | None) -> str:
    """The tournament to work on: ``-t``, else this store's current one, else the only one
    in the store."""
    if tournament_id:
        return tournament_id
    for pointer in (pointer_file(), legacy_pointer_file()):
        if pointer is not None and pointer.exists() and pointer.read_text().strip():
            return pointer.read_text().strip()
    ids = get_service().tournament_ids()
    if len(ids) == 1:
        return ids[0]
    # Refusals, not usage errors: exit status 1 and no usage hint (docs/tournaments.md).
    if not ids:
        raise click.ClickException("there is no tournament in this store yet: `tournament create`")
    raise click.ClickException(
        f"which tournament? give -t ID or `tournament use ID` (in this store: {', '.join(ids)})"
    )


#: The running command's correlation id: every event one organiser action appends (a CSV
#: of 40 results, a correction and the flags it raises) carries it, so the log links them.
CORRELATION: contextvars.ContextVar[str] = contextvars.ContextVar("correlation_id")


def event_meta() -> dict[str, str]:
    """Metadata the CLI adds to every event it appends."""
    return {"correlation_id": CORRELATION.get()}


@contextlib.contextmanager
def one_line_errors(url: str | None = None) -> Iterator[None]:
    """Every error a user can cause or meet becomes one ``Error:`` line and exit status 1,
    never a traceback: a refused command (field, rule), a bad CSV file (file, line), and
    whatever is wrong with the database at ``url`` (default: the configured one) -- busy,
    read-only, unreachable, missing, not a tournament database, a mistyped URL
    (:func:`tournament.eventstore.failures.explain`). The store commands use it too."""
    try:
        yield
    except DomainError as error:
        raise click.ClickException(error.line()) from None
    except CsvImportError as error:
        raise click.ClickException(str(error)) from None
    except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
        raise
    except BrokenPipeError:
        # The reader went away (`tournament export - | head`): click ends the command
        # quietly, as any Unix tool ends on SIGPIPE; it is not an error to report.
        raise
    except Exception as error:
        line = database_line(error, url)
        if line is None:
            raise
        raise click.ClickException(line) from None


def database_line(error: Exception, url: str | None = None) -> str | None:
    """``error`` in one line if it is the store's or the database's (None: it is not)."""
    from tournament.config import database_url
    from tournament.eventstore import EventStoreError, MalformedEventError, UnknownEventTypeError
    from tournament.eventstore.failures import explain
    from tournament.eventstore.sqlite_connections import StoreBusyError

    if isinstance(error, MalformedEventError | UnknownEventTypeError):
        return f"store: {error}"  # an event the store refused: say whose words these are
    if isinstance(error, EventStoreError) and not isinstance(error, StoreBusyError):
        return str(error)
    line = explain(error, url or database_url())
    if line is None and isinstance(error, OSError):
        return f"{error.filename or 'file'}: {error.strerror or error}"
    return line


def cli_errors(func: F) -> F:
    """One fresh correlation id per command; every error one line and exit status 1
    (:func:`one_line_errors`), no traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        token = CORRELATION.set(uuid.uuid4().hex)
        try:
            with one_line_errors():
                return func(*args, **kwargs)
        finally:
            CORRELATION.reset(token)

    return wrapper  # type: ignore[return-value]


def run_command(tid: str | None, command: Callable[[Tournament], list[Any]]) -> list[Any]:
    return list(get_service().execute(tournament_id_of(tid), command, metadata=event_meta()))


def parse_id_ranges(text: str, option: str | None = None) -> list[tuple[int, int, str]]:
    """Start numbers as typed, ``1,2,5`` or ranges ``1-38,40``
    (:func:`tournament.domain.commands.startnumbers.id_ranges`), a refusal as ``option``'s."""
    with bad_parameter(option):
        return startnumbers.id_ranges(text, option or "ids")


def parse_ids(
    text: str, registered: Collection[int] | None = None, *, option: str | None = None
) -> list[int]:
    """Start numbers as typed, expanded and checked against the ``registered`` ones
    (:func:`tournament.domain.commands.startnumbers.parse_ids`), a refusal as ``option``'s."""
    with bad_parameter(option):
        return startnumbers.parse_ids(text, registered, field=option or "ids")


@contextlib.contextmanager
def bad_parameter(option: str | None) -> Iterator[None]:
    """A refusal of the domain's as click's usage error of ``option`` (its message alone:
    click names the option)."""
    try:
        yield
    except DomainError as error:
        raise click.BadParameter(error.message, param_hint=option) from None


def parse_pairs(text: str) -> list[tuple[int, int]]:
    """Manual pairings ``1-5,2-6`` (start numbers, digits 0-9; the first sits as player A).

    >>> parse_pairs("1-5, 2 - 6")
    [(1, 5), (2, 6)]
    """
    pairs = []
    for item in (p.strip() for p in re.split(r"[,;]", text) if p.strip()):
        a, dash, b = item.partition("-")
        try:
            if not dash:
                raise DomainError("--pair", "T-input", "a pair")
            pairs.append((whole_number(a, "--pair"), whole_number(b, "--pair")))
        except DomainError:
            raise click.BadParameter(
                f"{excerpt(item)}: pairs of start numbers like 1-5,2-6", param_hint="--pair"
            ) from None
    return pairs


def parse_tables(items: Sequence[str]) -> dict[int, int]:
    """Players fixed to tables, each ``PLAYER=TABLE`` (digits 0-9).

    >>> parse_tables(["3=1", " 12 = 4 "])
    {3: 1, 12: 4}
    """
    fixed = {}
    for item in items:
        player, eq, table = item.partition("=")
        try:
            if not eq:
                raise DomainError("--table", "T-input", "PLAYER=TABLE")
            fixed[whole_number(player, "--table")] = whole_number(table, "--table")
        except DomainError:
            raise click.BadParameter(
                f"{excerpt(item)}: PLAYER=TABLE, e.g. 12=1", param_hint="--table"
            ) from None
    return fixed


def parse_card_points(text: str | None) -> list[int] | None:
    """Both players' points as ``66:40`` (pairing order), digits 0-9; the range is checked
    by the domain (0 or 4-220 each, at most 220 together, docs/tournaments.md)."""
    if text is None:
        return None
    return _pair(
        text,
        "--card-points",
        "is not card points like 66:40 (both players' points, pairing order, each 0-220)",
    )


def parse_score(text: str | None, option: str = "--forfeit-score") -> list[int] | None:
    """A match score in Bummerl as ``2:0`` (winner first), digits 0-9."""
    if text is None:
        return None
    return _pair(text, option, "is not a score like 2:0 (the winner's Bummerl first)")


def _pair(text: str, option: str, what: str) -> list[int]:
    parts = text.replace("/", ":").split(":")
    try:
        if len(parts) != 2:
            raise DomainError(option, "T-input", "two numbers")
        return [whole_number(p, option) for p in parts]
    except DomainError:
        raise click.BadParameter(f"{excerpt(text)} {what}", param_hint=option) from None


def _warn_spellings(t: Any, text: str) -> None:
    """Rows spelt like a registered player or an earlier row (Guenther/Günther): a
    warning on stderr, not a refusal (O-L2). Rows the import refuses say so itself."""
    try:
        listed = read_rows(io.StringIO(text), ("name",), PLAYER_COLUMNS, "players")
    except CsvImportError:
        return
    registered = [(p.id, p.name, p.club) for p in t.players.values()]
    rows = [(line, row.get("name", ""), row.get("club", "")) for line, row in listed]
    for line, warning in possible_duplicates(registered, rows):
        click.echo(f"line {line}: {warning}", err=True)


def import_csv_file(
    file: Path, tid: str, rows: Callable[..., list[Any]], actor: str, **options: Any
) -> list[Any]:
    """Decode ``file`` (UTF-8, BOM or not) and import it in one append; every problem
    of the file or its rows is one ClickException naming the file, nothing stored.

    A re-run of the same file into the same tournament is refused, naming when it was
    imported and as which action: the import's idempotency key is what the file says
    (:func:`~tournament.domain.commands.csvio.import_key`: its rows as read, so the same sheet
    saved again by Excel, with other bytes, is the same file), so a retry after a lost
    connection or a crash never stores the sheet twice.
    ``options`` go to ``rows`` (the importing function)."""
    service = get_service()
    data = file.read_bytes()
    try:
        text, encoding = read_text(data)
        if encoding == CP1252:  # Excel's plain "CSV" on Windows: say how it was read (O-L2)
            click.echo(f"{file.name}: read as Windows-1252 (Excel)", err=True)
        if rows is import_players:
            _warn_spellings(service.state(tid), text)
        done = service.submit(
            tid,
            lambda t: rows(service.events(tid), io.StringIO(text), actor=actor, **options),
            idempotency_key=import_key(rows.__name__, tid, text),
            metadata=event_meta(),
        )
    except CsvImportError as error:
        raise click.ClickException(error.text(file.name)) from None
    if done.replayed:
        first = done.events[0]
        action = str(first.metadata.get("correlation_id") or "")[:8] or "-"
        raise click.ClickException(
            f"{file.name}: this file was imported at {when(first.recorded_at)} as action "
            f"{action} (`tournament log --action {action}`); nothing stored"
        )
    return done.events


def entered_when(tid: str) -> Callable[[str], str]:
    """When each result of tournament ``tid`` was entered (``21:14``), read only if asked:
    for a refusal that names an earlier result."""

    def lookup(result_id: str) -> str:
        from tournament.domain.commands.repeats import entered_at

        moment = entered_at(get_service().events(tid), result_id)
        return when(moment) if moment is not None else ""

    return lookup


def when(moment: datetime) -> str:
    """A stored time as the organiser reads it: local ``21:14`` today, else with the date."""
    local = moment.astimezone()
    if local.date() == datetime.now().astimezone().date():
        return f"{local:%H:%M}"
    return f"{local:%Y-%m-%d %H:%M}"


CSV_FILE = click.Path(exists=True, dir_okay=False, readable=True, path_type=Path)

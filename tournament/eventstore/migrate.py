"""Apply and check the Alembic migrations from Python (tests, ``tournament db``).

>>> import tempfile
>>> url = f"sqlite:///{tempfile.mkdtemp()}/m.sqlite3"
>>> upgrade(url)
>>> current(url) == alembic_heads()
True
>>> check(url)  # no drift between the tables and tournament.eventstore.schema
>>> ensure_current(url)  # at head: a file read and one SELECT, no Alembic

Alembic (~75 ms) and SQLAlchemy (~100 ms) are imported only where they are used: a CLI
command on a SQLite store already at head, the common case, loads neither.

Before anything is migrated, a SQLite file is looked at read-only and each possible cause
is told apart: no file (:class:`~tournament.eventstore.errors.StoreMissingError`; created
only where the caller may create a store), not a SQLite file or a database of another
program (:class:`~tournament.eventstore.errors.NotAStoreError`; never migrated), no tables
yet, behind, or newer than this program. "Not migrated" is said only when that is the
cause; a file that cannot be read or is locked raises the driver's error, which the CLI
explains (:mod:`tournament.eventstore.failures`).
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from tournament import db
from tournament.db import create_sqlite_file, make_engine, sqlite_path
from tournament.eventstore.api import EventStoreError
from tournament.eventstore.errors import NotAStoreError, StoreMissingError

if TYPE_CHECKING:
    import sqlalchemy as sa
    from alembic.config import Config

#: The Alembic history ships inside the package (``tournament/migrations``), so that an
#: installed wheel migrates as a checkout does; no alembic.ini is needed to find it.
SCRIPT_LOCATION = "tournament:migrations"
MIGRATIONS_FOLDER = Path(__file__).resolve().parent.parent / "migrations"
MIGRATIONS = MIGRATIONS_FOLDER / "versions"
_REVISION = re.compile(r"^(down_revision|revision)\b[^=]*=\s*(?:[\"']([^\"']+)[\"']|None)", re.M)


class NotMigratedError(EventStoreError):
    """The database is not at the newest migration and this process may not migrate it."""


class NewerSchemaError(NotMigratedError):
    """The database was migrated by a newer release than this program."""


class MigrationsMissingError(EventStoreError):
    """The package's migrations are not installed (a broken or partial install)."""


def migration_files() -> list[Path]:
    """The revision files of ``tournament/migrations/versions``; a missing folder is an
    install problem, said in one line rather than as Alembic's traceback."""
    if not (MIGRATIONS_FOLDER / "env.py").is_file() or not MIGRATIONS.is_dir():
        raise MigrationsMissingError(
            f"the migrations are not installed: {MIGRATIONS} is missing; reinstall the "
            "package (pip install schnapsen-tournament, or pip install -e . in a checkout)"
        )
    return [file for file in MIGRATIONS.glob("*.py") if not file.name.startswith("__")]


def alembic_config(connection: sa.Connection | None = None) -> Config:
    from alembic.config import Config

    migration_files()  # one clear line instead of Alembic's "Path doesn't exist"
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _engine(target: sa.Engine | str | None, *, create: bool = False) -> tuple[sa.Engine, bool]:
    """The engine of ``target``; for SQLite, the file must exist (or, ``create``, is made)."""
    import sqlalchemy as sa

    url = target.url if isinstance(target, sa.Engine) else db.parse_url(target)
    path = sqlite_path(url)
    if path is not None and not path.exists():
        if not create:
            raise missing_store(path)
        create_sqlite_file(url)
    if isinstance(target, sa.Engine):
        return target, False
    return make_engine(url, kind="migrate"), True


def missing_store(path: Path) -> StoreMissingError:
    """The error for a SQLite store file that is not there, naming a missing folder too."""
    folder = "" if path.parent.exists() else f" (the folder {path.parent} does not exist either)"
    return StoreMissingError(
        f"there is no tournament store at {path}: no such file{folder}; check the path "
        "(DATABASE_URL); `tournament create` or `tournament db upgrade` starts a new store"
    )


def upgrade(target: sa.Engine | str | None = None, revision: str = "head") -> None:
    """Migrate the database (engine or URL; default DATABASE_URL) to ``revision``, and
    reinstall any append-only guard that is missing (:mod:`.guards`)."""
    from alembic import command

    from tournament.eventstore.guards import repair_guards

    engine, own = _engine(target, create=True)
    try:
        with engine.connect() as conn:
            command.upgrade(alembic_config(conn), revision)
            # Alembic sees no triggers: a dropped guard would stay dropped at head.
            repair_guards(conn)
            conn.commit()
    finally:
        if own:
            engine.dispose()


def downgrade(target: sa.Engine | str | None, revision: str) -> None:
    from alembic import command

    engine, own = _engine(target)
    try:
        with engine.connect() as conn:
            command.downgrade(alembic_config(conn), revision)
            conn.commit()
    finally:
        if own:
            engine.dispose()


def check(target: sa.Engine | str | None = None) -> None:
    """Raise ``alembic.util.exc.AutogenerateDiffsDetected`` if the tables drift from
    :mod:`tournament.eventstore.schema` (``alembic check``)."""
    from alembic import command

    engine, own = _engine(target)
    try:
        with engine.connect() as conn:
            command.check(alembic_config(conn))
    finally:
        if own:
            engine.dispose()


def current(target: sa.Engine | str | None = None) -> str | None:
    """The database's revision (None: not migrated); a SQLite file that is not there
    raises :class:`StoreMissingError` (it is not created)."""
    from alembic.runtime.migration import MigrationContext

    engine, own = _engine(target)
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        if own:
            engine.dispose()


def alembic_heads() -> str | None:
    """The newest revision in ``tournament/migrations/``."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def ensure_current(
    url: str,
    *,
    may_upgrade: bool = True,
    may_create: bool | None = None,
    engine: sa.Engine | None = None,
) -> None:
    """Make sure the store at ``url`` is at the newest migration before a command uses it.

    At head this costs a file read and one ``SELECT`` (no Alembic). On SQLite a store
    behind is migrated here when ``may_upgrade``, and a missing or empty file is created
    and migrated when ``may_create`` (default: ``may_upgrade``): a club laptop needs no
    setup step, and a read-only command, which may not create, says there is no store
    instead of leaving an empty one behind. PostgreSQL is never migrated here (its owner
    role migrates it as a deploy step, docs/operations.md). Otherwise a store behind
    raises :class:`NotMigratedError`; a missing file :class:`StoreMissingError`; a file
    that is not a tournament store :class:`NotAStoreError` (never migrated). ``engine``:
    PostgreSQL is asked through this pool (a web process's own, for ``/readyz``) instead
    of a connection of its own.
    """
    create = may_upgrade if may_create is None else may_create
    head = migrations_head()
    path = sqlite_path(url)
    found = _sqlite_revisions(path) if path is not None else _revisions(url, engine)
    if head is not None and found == [head]:
        return
    if found is None:  # no such file
        assert path is not None
        if not create:
            raise missing_store(path)
        upgrade(url)
        return
    known = known_revisions()
    if known and any(revision not in known for revision in found):
        raise NewerSchemaError(
            f"database revision is {', '.join(found)}, newer than this program knows "
            f"({head}): update the program"
        )
    if path is not None and (create if not found else may_upgrade):
        upgrade(url)  # idempotent: also right for anything the quick check misread
        return
    head = head or alembic_heads()
    if not found:
        raise NotMigratedError("the database is not migrated yet: run `tournament db upgrade`")
    if found != [head]:
        raise NotMigratedError(
            f"database revision is {', '.join(found)}, not {head}: run `tournament db upgrade`"
        )


def migrations_head() -> str | None:
    """The newest revision, read from the migration files without Alembic: the one
    revision no other builds on. None when that is not clear-cut (branches, odd files)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for file in migration_files():
        found = dict(_REVISION.findall(file.read_text()))
        if not found.get("revision"):
            return None
        revisions.add(found["revision"])
        if found.get("down_revision"):
            parents.add(found["down_revision"])
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def known_revisions() -> set[str]:
    """Every revision in ``tournament/migrations/``, read from the files without Alembic."""
    found = (dict(_REVISION.findall(f.read_text())) for f in migration_files())
    return {revision for names in found if (revision := names.get("revision"))}


def refuse_foreign(path: Path) -> None:
    """Raise :class:`NotAStoreError` for a SQLite file that is not ours to migrate: a
    folder, not SQLite at all, or another program's database (``db upgrade`` would add
    the store's tables to it); a missing file or an empty or older store passes."""
    _sqlite_revisions(path)


def _sqlite_revisions(path: Path) -> list[str] | None:
    """``alembic_version`` of a SQLite file, opened read-only: None when there is no file,
    [] when it has no tables yet. Raises :class:`NotAStoreError` for a folder, a file that
    is not SQLite, and a database of another program; the driver's error when the file
    cannot be read (permissions, a lock), for the caller to explain."""
    if path.is_dir():
        raise NotAStoreError(f"{path} is a folder, not a tournament database file")
    if not path.exists():
        return None
    uri = db.read_only_uri(path)
    try:
        timeout = db.BUSY_TIMEOUT_MS / 1000
        with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=timeout)) as conn:
            try:
                return [row[0] for row in conn.execute("SELECT version_num FROM alembic_version")]
            except sqlite3.OperationalError as error:
                if "no such table" not in str(error):
                    raise
            tables = sorted(
                row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            )
    except sqlite3.DatabaseError as error:
        if "not a database" not in str(error):  # SQLITE_NOTADB: not a SQLite file at all
            raise
        raise NotAStoreError(
            f"{path} is not a tournament database: it is not a SQLite database file"
        ) from None
    if not tables or any(name.startswith("es_") for name in tables):
        return []
    shown = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
    raise NotAStoreError(
        f"{path} is not a tournament database: it holds the tables of another program ({shown})"
    )


def _revisions(url: str, pooled: sa.Engine | None = None) -> list[str]:
    import sqlalchemy as sa

    engine = pooled or make_engine(url, kind="migrate")
    try:
        with engine.connect() as conn:
            if not sa.inspect(conn).has_table("alembic_version"):
                return []
            return list(conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars())
    finally:
        if pooled is None:
            engine.dispose()

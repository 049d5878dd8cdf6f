"""Are the append-only guards in place? ``db check`` and ``verify`` ask; ``db upgrade``
puts back what is missing.

The guards are the triggers of :mod:`tournament.eventstore.schema` and, on PostgreSQL,
the function they call, ``es_reject_change()``. Alembic knows nothing of triggers, so a
dropped one is no "drift" to ``alembic check`` and no reason for ``alembic upgrade`` to
run anything: without this module nothing would notice.

    >>> import tempfile
    >>> from tournament.eventstore import migrate
    >>> url = f"sqlite:///{tempfile.mkdtemp()}/g.sqlite3"
    >>> migrate.upgrade(url)
    >>> engine = make_engine(url)
    >>> with engine.begin() as conn:
    ...     _ = conn.exec_driver_sql("DROP TRIGGER es_events_no_update")
    ...     [str(g) for g in missing_guards(conn)]
    ['trigger es_events_no_update on es_events is missing']
    >>> with engine.begin() as conn:
    ...     [g.name for g in repair_guards(conn)], missing_guards(conn)
    (['es_events_no_update'], [])
"""

from __future__ import annotations

import dataclasses
import re

import sqlalchemy as sa

from tournament.db import make_engine
from tournament.eventstore.api import EventStoreError
from tournament.eventstore.backends import KEY_RETENTION_FLOOR_DAYS
from tournament.eventstore.schema import (
    APPEND_ONLY_TABLES,
    REJECT_FUNCTION,
    REJECT_FUNCTION_BODY,
    append_only_ddl,
    install_append_only_guards,
)

# pg_trigger.tgtype bits: ROW 1, BEFORE 2, DELETE 8, UPDATE 16, TRUNCATE 32; and
# whether the trigger has a WHEN condition (es_idempotency lets old keys expire).
_PG_TRIGGERS = {
    "no_update_delete": (1 | 2 | 8 | 16, False),
    "no_update": (1 | 2 | 16, False),
    "no_recent_delete": (1 | 2 | 8, True),
    "no_truncate": (2 | 32, False),
}
_PG_KINDS_OF = {
    "es_idempotency": ("no_update", "no_recent_delete", "no_truncate"),
}
_PG_KINDS = ("no_update_delete", "no_truncate")
#: How PostgreSQL shows the expiry condition (pg_get_triggerdef), see schema.py.
_PG_RECENT = f"WHEN ((old.recorded_at > (now() - '{KEY_RETENTION_FLOOR_DAYS} day'::interval)))"


@dataclasses.dataclass(frozen=True)
class MissingGuard:
    """One guard that is not in place: its name, what it is, and what is wrong."""

    name: str
    kind: str  # "trigger" or "function"
    table: str | None
    problem: str  # "missing", "disabled", "changed"

    def __str__(self) -> str:
        on = f" on {self.table}" if self.table else ""
        return f"{self.kind} {self.name}{on} is {self.problem}"


class MissingGuardsError(EventStoreError):
    """Append-only guards are missing or changed: the database would allow rewriting."""

    def __init__(self, missing: list[MissingGuard]) -> None:
        listed = "; ".join(str(guard) for guard in missing)
        super().__init__(
            f"append-only guards not in place: {listed}; "
            "run `tournament db upgrade` (as the tables' owner) to reinstall them"
        )
        self.missing = missing


def _tables(conn: sa.Connection) -> list[str]:
    """The append-only tables that exist (an unmigrated database has no guards to miss)."""
    inspector = sa.inspect(conn)
    return [table for table in APPEND_ONLY_TABLES if inspector.has_table(table)]


def missing_guards(conn: sa.Connection) -> list[MissingGuard]:
    """Every guard of the existing append-only tables that is missing or not as created."""
    tables = _tables(conn)
    if not tables:
        return []
    if conn.dialect.name == "sqlite":
        return _sqlite_missing(conn, tables)
    return _pg_missing(conn, tables)


def _sqlite_expected(table: str) -> dict[str, str]:
    # SQLite keeps the statement's text, without "IF NOT EXISTS": compare with that.
    out = {}
    for statement in append_only_ddl("sqlite", table):
        text = statement.replace("CREATE TRIGGER IF NOT EXISTS ", "CREATE TRIGGER ", 1)
        out[text.split()[2]] = text
    return out


def _sqlite_missing(conn: sa.Connection, tables: list[str]) -> list[MissingGuard]:
    found: dict[str, str] = dict(
        conn.exec_driver_sql("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all()
    )
    out = []
    for table in tables:
        for name, sql in _sqlite_expected(table).items():
            if name not in found:
                out.append(MissingGuard(name, "trigger", table, "missing"))
            elif found[name] != sql:
                out.append(MissingGuard(name, "trigger", table, "changed"))
    return out


def _pg_missing(conn: sa.Connection, tables: list[str]) -> list[MissingGuard]:
    out = []
    body = conn.exec_driver_sql(
        "SELECT prosrc FROM pg_proc WHERE proname = %(f)s "
        "AND pronamespace = current_schema()::regnamespace",
        {"f": REJECT_FUNCTION},
    ).scalar()
    if body is None:
        out.append(MissingGuard(f"{REJECT_FUNCTION}()", "function", None, "missing"))
    elif body.strip() != REJECT_FUNCTION_BODY.strip():
        out.append(MissingGuard(f"{REJECT_FUNCTION}()", "function", None, "changed"))
    rows = conn.exec_driver_sql(
        "SELECT t.tgname, c.relname, t.tgenabled, t.tgtype, p.proname, "
        "pg_get_triggerdef(t.oid) FROM pg_trigger t "
        "JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid "
        "WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace"
    ).all()
    found = {row[0]: row[1:] for row in rows}
    for table in tables:
        for suffix in _PG_KINDS_OF.get(table, _PG_KINDS):
            kind, conditional = _PG_TRIGGERS[suffix]
            name = f"{table}_{suffix}"
            if name not in found:
                out.append(MissingGuard(name, "trigger", table, "missing"))
                continue
            on, enabled, actual_kind, proc, definition = found[name]
            when_ok = (_PG_RECENT in definition) if conditional else " WHEN " not in definition
            if enabled not in ("O", "A"):  # D: disabled; R: fires only on replicas
                out.append(MissingGuard(name, "trigger", table, "disabled"))
            elif (on, actual_kind, proc) != (table, kind, REJECT_FUNCTION) or not when_ok:
                out.append(MissingGuard(name, "trigger", table, "changed"))
    return out


def repair_guards(conn: sa.Connection) -> list[MissingGuard]:
    """Reinstall every guard that is missing or changed (idempotent: nothing to do, nothing
    done); returns what was repaired. Needs the tables' owner on PostgreSQL."""
    missing = missing_guards(conn)
    if not missing:
        return []
    if conn.dialect.name == "sqlite":
        # CREATE TRIGGER IF NOT EXISTS would keep a changed trigger: drop those first.
        for guard in missing:
            if guard.problem == "changed":
                conn.exec_driver_sql(f'DROP TRIGGER "{_identifier(guard.name)}"')
    # PostgreSQL's CREATE OR REPLACE replaces changed ones and re-enables disabled ones.
    # Through text(), as Alembic's op.execute: the driver's paramstyle must not read
    # the '%' in the function body as a placeholder.
    install_append_only_guards(lambda sql: conn.execute(sa.text(sql)), conn.dialect.name)
    return missing


def _identifier(name: str) -> str:
    if not re.fullmatch(r"[a-z_]+", name):  # only ever our own trigger names
        raise ValueError(f"not a guard name: {name!r}")
    return name


def check_guards(target: sa.Engine | str | None = None) -> None:
    """Raise :class:`MissingGuardsError` naming every guard not in place."""
    engine = target if isinstance(target, sa.Engine) else make_engine(target, kind="guards")
    try:
        with engine.connect() as conn:
            missing = missing_guards(conn)
    finally:
        if not isinstance(target, sa.Engine):
            engine.dispose()
    if missing:
        raise MissingGuardsError(missing)


def bypass_reasons(conn: sa.Connection) -> list[str]:
    """Why this connection could get past the guards, so that rewriting the log would show
    only in the hash chains and seals (PostgreSQL; empty if it cannot). On SQLite whoever
    can write the file can drop the triggers: file permissions are its access control."""
    tables = _tables(conn)
    if conn.dialect.name != "postgresql" or "es_events" not in tables:
        return []
    # has_parameter_privilege() came with PostgreSQL 15; before, only a superuser could
    # SET session_replication_role.
    new_enough = conn.exec_driver_sql("SHOW server_version_num").scalar_one()
    replication_sql = (
        "has_parameter_privilege('session_replication_role', 'SET')"
        if int(new_enough) >= 150000
        else "r.rolsuper"
    )
    row = conn.exec_driver_sql(
        "SELECT current_user, r.rolsuper, pg_has_role(current_user, c.relowner, 'USAGE'), "
        f"pg_get_userbyid(c.relowner), {replication_sql}, "
        "current_setting('session_replication_role') "
        "FROM pg_roles r, pg_class c WHERE r.rolname = current_user "
        "AND c.oid = 'es_events'::regclass"
    ).one()
    user, superuser, owner, owner_name, replication, role_now = row
    inserts = [
        table
        for table in tables
        if conn.exec_driver_sql(
            "SELECT has_table_privilege(%(t)s::regclass, 'INSERT')", {"t": table}
        ).scalar_one()
    ]
    out = []
    if superuser:
        out.append(f"{user} is a superuser: it can disable the triggers and rewrite any row")
    elif owner:
        out.append(
            f"{user} owns the event tables (as or through {owner_name}): it can drop or "
            "disable the triggers"
        )
    if replication and not superuser:
        out.append(
            f"{user} may SET session_replication_role: with 'replica' the triggers do not fire"
        )
    if role_now != "origin":
        out.append(f"session_replication_role is {role_now!r} here: the triggers do not fire")
    if inserts:
        out.append(
            f"{user} may INSERT into {', '.join(inserts)} directly, past es_append() "
            "(positions, hashes and times of its choosing); deploy/postgres-roles.sql "
            "confines the app"
        )
    return out


def owner_problem(conn: sa.Connection) -> str | None:
    """Why this connection may not migrate the store, in one line: on PostgreSQL a role
    that does not own the event tables (the app's) can change nothing, so `db upgrade` at
    head would look like success. None if it may (the owner, a member of the owner's
    role, a superuser), before the first migration, and on SQLite."""
    if conn.dialect.name != "postgresql" or "es_events" not in _tables(conn):
        return None
    user, owns, owner = conn.exec_driver_sql(
        "SELECT current_user, pg_has_role(current_user, c.relowner, 'USAGE'), "
        "pg_get_userbyid(c.relowner) FROM pg_class c WHERE c.oid = 'es_events'::regclass"
    ).one()
    if owns:
        return None
    return (
        f"{user} does not own the event tables ({owner} does) and cannot migrate them: "
        f"run `tournament db upgrade` as {owner}"
    )

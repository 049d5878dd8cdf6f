"""The event store's tables, and the triggers that make them append-only.

The tables are SQLAlchemy Core ``Table`` objects on :data:`metadata`, which Alembic's
``env.py`` compares against the database (``alembic check``). The triggers are raw DDL
per dialect; migrations call :func:`install_append_only_guards` after creating or
batch-altering a table, because SQLite's batch mode recreates the table and so silently
drops its triggers.

    >>> sorted(metadata.tables)
    ['es_checkpoints', 'es_events', 'es_idempotency']
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa

metadata = sa.MetaData()

# Positions are assigned by the store under the append lock (max + 1), never by a
# sequence: a sequence would hand out numbers that commit out of order.
_position = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

events = sa.Table(
    "es_events",
    metadata,
    sa.Column("position", _position, primary_key=True, autoincrement=False),
    sa.Column("event_id", sa.Uuid().with_variant(sa.String(36), "sqlite"), nullable=False),
    sa.Column("stream_id", sa.String(200), nullable=False),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("type", sa.String(100), nullable=False),
    sa.Column("schema_version", sa.Integer(), nullable=False),
    # Canonical JSON text (sorted keys, no spaces): exactly what the hash covers.
    sa.Column("payload", sa.Text(), nullable=False),
    sa.Column("metadata", sa.Text(), nullable=False),
    sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("prev_hash", sa.String(64), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.UniqueConstraint("stream_id", "version", name="uq_es_events_stream_version"),
    sa.UniqueConstraint("event_id", name="uq_es_events_event_id"),
)

idempotency = sa.Table(
    "es_idempotency",
    metadata,
    sa.Column("key", sa.String(200), primary_key=True),
    sa.Column("stream_id", sa.String(200), nullable=False),
    sa.Column("first_version", sa.Integer(), nullable=False),
    sa.Column("last_version", sa.Integer(), nullable=False),
    sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
)

checkpoints = sa.Table(
    "es_checkpoints",
    metadata,
    sa.Column("name", sa.String(200), primary_key=True),
    sa.Column("position", sa.BigInteger(), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

#: Tables whose rows may never change once written.
APPEND_ONLY_TABLES = ("es_events", "es_idempotency")


#: The PostgreSQL trigger function, and its body (``guards`` checks it is unchanged).
REJECT_FUNCTION = "es_reject_change"
REJECT_FUNCTION_BODY = (
    " BEGIN RAISE EXCEPTION '% is append-only: % is not allowed', "
    "TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege'; END "
)


def append_only_ddl(dialect: str, table: str) -> list[str]:
    """The statements that make ``table`` reject UPDATE and DELETE (and TRUNCATE)."""
    if dialect == "sqlite":
        return [
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_{op.lower()} BEFORE {op} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {op} is not allowed'); END"
            for op in ("UPDATE", "DELETE")
        ]
    if dialect == "postgresql":
        return [
            # One function for every table; TG_OP and TG_TABLE_NAME say what was refused.
            f"CREATE OR REPLACE FUNCTION {REJECT_FUNCTION}() RETURNS trigger "
            f"LANGUAGE plpgsql AS $${REJECT_FUNCTION_BODY}$$",
            f"CREATE OR REPLACE TRIGGER {table}_no_update_delete BEFORE UPDATE OR DELETE "
            f"ON {table} FOR EACH ROW EXECUTE FUNCTION es_reject_change()",
            f"CREATE OR REPLACE TRIGGER {table}_no_truncate BEFORE TRUNCATE "
            f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION es_reject_change()",
        ]
    raise NotImplementedError(f"no append-only triggers for dialect {dialect!r}")


def install_append_only_guards(execute: Callable[[str], object], dialect: str) -> None:
    """Create the triggers on every append-only table (idempotent).

    ``execute`` runs one SQL string, e.g. Alembic's ``op.execute`` or
    ``connection.exec_driver_sql``.
    """
    for table in APPEND_ONLY_TABLES:
        for statement in append_only_ddl(dialect, table):
            execute(statement)


def trigger_names(connection: sa.Connection) -> set[str]:
    """The names of the append-only triggers present in the connected database."""
    dialect = connection.dialect.name
    if dialect == "sqlite":
        rows = connection.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type = 'trigger'"
        ).scalars()
    else:
        rows = connection.exec_driver_sql(
            "SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace"
        ).scalars()
    return set(rows)


def expected_trigger_names(dialect: str) -> set[str]:
    """The trigger names :func:`install_append_only_guards` creates."""
    if dialect == "sqlite":
        return {f"{t}_no_{op}" for t in APPEND_ONLY_TABLES for op in ("update", "delete")}
    return {
        f"{t}_{kind}" for t in APPEND_ONLY_TABLES for kind in ("no_update_delete", "no_truncate")
    }

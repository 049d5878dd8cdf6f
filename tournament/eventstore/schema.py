"""The event store's tables, and the triggers that make them append-only.

The tables are SQLAlchemy Core ``Table`` objects on :data:`metadata`, which Alembic's
``env.py`` compares against the database (``alembic check``). The triggers are raw DDL
per dialect; migrations call :func:`install_append_only_guards` after creating or
batch-altering a table, because SQLite's batch mode recreates the table and so silently
drops its triggers.

    >>> sorted(metadata.tables)
    ['es_checkpoints', 'es_events', 'es_idempotency', 'es_seals']
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sqlalchemy as sa

from tournament.eventstore.backends import KEY_RETENTION_FLOOR_DAYS

metadata = sa.MetaData()

# Positions: on SQLite max + 1 under the database's single write lock (dense); on
# PostgreSQL from the sequence es_events_position_seq, taken together with the writing
# transaction's id (tx_id) under a lock held for those two steps only (migration 0003):
# a reader that reads only below the oldest transaction still running never skips one.
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
    # PostgreSQL: the id (xid8, as a number) of the transaction that wrote the event;
    # tailing readers read only events of transactions older than every one still
    # running. 0 on SQLite (one writer) and for events written before migration 0003.
    sa.Column("tx_id", sa.BigInteger(), nullable=False, server_default="0"),
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

seals = sa.Table(
    "es_seals",
    metadata,
    # 1, 2, 3 ...: a seal removed from the middle leaves a hole verify reports.
    sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
    # The log's last event it covers, how many events up to it, and the log's head hash
    # there (tournament.eventstore.chain.log_link over every event in position order).
    sa.Column("position", sa.BigInteger(), nullable=False),
    sa.Column("events", sa.BigInteger(), nullable=False),
    sa.Column("head", sa.String(64), nullable=False),
    # "position:hash16" of each event since the previous seal: verify names the first
    # event that no longer matches.
    sa.Column("digests", sa.Text(), nullable=False),
    sa.Column("sealed_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("reason", sa.String(200), nullable=False),
    # Which key authenticated it, and the HMAC-SHA256 (tournament.eventstore.seals).
    sa.Column("key_id", sa.String(16), nullable=False),
    sa.Column("mac", sa.String(64), nullable=False),
)

#: Tables whose rows may never change once written (idempotency keys may expire: see
#: KEY_RETENTION_FLOOR).
APPEND_ONLY_TABLES = ("es_events", "es_idempotency", "es_seals")
#: The tables migration 0001 created, with their guards.
FIRST_TABLES = ("es_events", "es_idempotency")


#: The PostgreSQL trigger function, and its body (``guards`` checks it is unchanged).
REJECT_FUNCTION = "es_reject_change"
REJECT_FUNCTION_BODY = (
    " BEGIN RAISE EXCEPTION '% is append-only: % is not allowed', "
    "TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege'; END "
)


def append_only_ddl(dialect: str, table: str) -> list[str]:
    """The statements that make ``table`` reject UPDATE and DELETE (and TRUNCATE).

    ``es_idempotency`` alone allows deleting a key older than
    :data:`KEY_RETENTION_FLOOR_DAYS` (``tournament db expire-keys``).
    """
    floor = KEY_RETENTION_FLOOR_DAYS
    expiring = table == "es_idempotency"
    if dialect == "sqlite":
        recent = f" WHEN OLD.recorded_at > datetime('now', '-{floor} day')" if expiring else ""
        when = {"UPDATE": "", "DELETE": recent}
        return [
            f"CREATE TRIGGER IF NOT EXISTS {table}_no_{op.lower()} BEFORE {op} ON {table}"
            f"{when[op]} BEGIN SELECT RAISE(ABORT, '{table} is append-only: {op} is not "
            "allowed'); END"
            for op in ("UPDATE", "DELETE")
        ]
    if dialect == "postgresql":
        reject = "FOR EACH ROW EXECUTE FUNCTION es_reject_change()"
        rows = (
            [
                f"CREATE OR REPLACE TRIGGER {table}_no_update BEFORE UPDATE ON {table} {reject}",
                f"CREATE OR REPLACE TRIGGER {table}_no_recent_delete BEFORE DELETE ON {table} "
                f"FOR EACH ROW WHEN (OLD.recorded_at > now() - interval '{floor} day') "
                "EXECUTE FUNCTION es_reject_change()",
            ]
            if expiring
            else [
                f"CREATE OR REPLACE TRIGGER {table}_no_update_delete BEFORE UPDATE OR DELETE "
                f"ON {table} {reject}"
            ]
        )
        return [
            # One function for every table; TG_OP and TG_TABLE_NAME say what was refused.
            f"CREATE OR REPLACE FUNCTION {REJECT_FUNCTION}() RETURNS trigger "
            f"LANGUAGE plpgsql AS $${REJECT_FUNCTION_BODY}$$",
            *rows,
            f"CREATE OR REPLACE TRIGGER {table}_no_truncate BEFORE TRUNCATE "
            f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION es_reject_change()",
        ]
    raise NotImplementedError(f"no append-only triggers for dialect {dialect!r}")


def install_append_only_guards(
    execute: Callable[[str], object], dialect: str, tables: tuple[str, ...] = APPEND_ONLY_TABLES
) -> None:
    """Create the triggers on every append-only table (idempotent).

    ``execute`` runs one SQL string, e.g. Alembic's ``op.execute`` or
    ``connection.exec_driver_sql``. A migration passes the tables that exist at its
    revision.
    """
    for table in tables:
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
    return {
        match.group(1)
        for table in APPEND_ONLY_TABLES
        for statement in append_only_ddl(dialect, table)
        if (match := _TRIGGER_NAME.search(statement))
    }


_TRIGGER_NAME = re.compile(r"TRIGGER (?:IF NOT EXISTS )?(\w+) BEFORE")

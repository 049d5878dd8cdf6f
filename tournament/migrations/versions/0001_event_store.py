"""The event store: events, idempotency keys, projection checkpoints; append-only triggers.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tournament.eventstore.schema import FIRST_TABLES, install_append_only_guards

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "es_events",
        sa.Column(
            "position",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("event_id", sa.Uuid().with_variant(sa.String(36), "sqlite"), nullable=False),
        sa.Column("stream_id", sa.String(200), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(100), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("metadata", sa.Text(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.UniqueConstraint("stream_id", "version", name="uq_es_events_stream_version"),
        sa.UniqueConstraint("event_id", name="uq_es_events_event_id"),
    )
    op.create_table(
        "es_idempotency",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("stream_id", sa.String(200), nullable=False),
        sa.Column("first_version", sa.Integer(), nullable=False),
        sa.Column("last_version", sa.Integer(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "es_checkpoints",
        sa.Column("name", sa.String(200), primary_key=True),
        sa.Column("position", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    install_append_only_guards(op.execute, op.get_bind().dialect.name, FIRST_TABLES)


def downgrade() -> None:
    op.drop_table("es_checkpoints")
    for table in reversed(FIRST_TABLES):
        op.drop_table(table)  # drops its triggers with it
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS es_reject_change()")

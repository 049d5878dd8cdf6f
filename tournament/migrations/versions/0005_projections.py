"""The projections' tables (read models): standings, documents, outstanding matches,
per-player summaries, and the reconciliations' record.

Seven tables of their own (``proj_``; the seventh keeps the print packs), rewritten per tournament by the projection runner
(tournament/projections/runner.py) in the transaction that moves the tournament's
checkpoint in ``es_checkpoints``; they hold nothing the log does not, and can be dropped
and rebuilt at any time. They match tournament/projections/tables.py (``alembic check``).
deploy/postgres-roles.sql lets the app role write them (they are not history).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_TIME = sa.DateTime(timezone=True)
_TID = sa.String(200)


def upgrade() -> None:
    op.create_table(
        "proj_tournaments",
        sa.Column("tournament_id", _TID, primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(300), nullable=False),
        sa.Column("format", sa.String(50), nullable=False),
        sa.Column("final", sa.Boolean(), nullable=False),
        sa.Column("event_at", _TIME, nullable=False),
        sa.Column("projected_at", _TIME, nullable=False),
        sa.Column("reconciled_at", _TIME, nullable=True),
    )
    op.create_table(
        "proj_documents",
        sa.Column("tournament_id", _TID, primary_key=True),
        sa.Column("name", sa.String(200), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("media_type", sa.String(100), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
    )
    op.create_table(
        "proj_standings",
        sa.Column("tournament_id", _TID, primary_key=True),
        sa.Column("player_id", sa.Integer(), primary_key=True),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(300), nullable=False),
        sa.Column("row", sa.Text(), nullable=False),
    )
    op.create_table(
        "proj_outstanding",
        sa.Column("tournament_id", _TID, primary_key=True),
        sa.Column("match_id", sa.String(100), primary_key=True),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=True),
        sa.Column("player_a", sa.Integer(), nullable=False),
        sa.Column("player_b", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(50), nullable=False),
        sa.Column("words", sa.String(500), nullable=False),
    )
    op.create_table(
        "proj_players",
        sa.Column("tournament_id", _TID, primary_key=True),
        sa.Column("player_id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(300), nullable=False),
        sa.Column("status", sa.String(50), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
        sa.Column("bummerl_won", sa.Integer(), nullable=False),
        sa.Column("bummerl_lost", sa.Integer(), nullable=False),
        sa.Column("next_match", sa.String(100), nullable=True),
        sa.Column("next_table", sa.Integer(), nullable=True),
        sa.Column("summary", sa.Text(), nullable=False),
    )
    op.create_table(
        "proj_reconciliations",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", _TID, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("checked_at", _TIME, nullable=False),
        sa.Column("matched", sa.Boolean(), nullable=False),
        sa.Column("differences", sa.Text(), nullable=False),
    )
    op.create_table(
        "proj_print_packs",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("tournament_id", _TID, nullable=False),
        sa.Column("kind", sa.String(50), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("pdf", sa.LargeBinary(), nullable=True),
        sa.Column("pages", sa.Integer(), nullable=True),
        sa.Column("seal", sa.String(100), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("requested_by", sa.String(254), nullable=False),
        sa.Column("requested_at", _TIME, nullable=False),
        sa.Column("done_at", _TIME, nullable=True),
    )
    op.create_index(
        "ix_proj_print_packs_asked",
        "proj_print_packs",
        ["tournament_id", "kind", "round", "version"],
    )


def downgrade() -> None:
    op.drop_index("ix_proj_print_packs_asked", table_name="proj_print_packs")
    for table in (
        "proj_print_packs",
        "proj_reconciliations",
        "proj_players",
        "proj_outstanding",
        "proj_standings",
        "proj_documents",
        "proj_tournaments",
    ):
        op.drop_table(table)
    op.execute("DELETE FROM es_checkpoints WHERE name LIKE 'projection:%'")

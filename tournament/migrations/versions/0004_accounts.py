"""Accounts, API tokens, roles per tournament and the first account's setup tokens.

Four tables of their own (``acct_``), beside the event store's and never touching them:
``acct_accounts`` (email, argon2id hash, admin flag), ``acct_api_tokens`` (the SHA-256 of
each secret, never the secret; a name is unique among an account's live tokens),
``acct_tournament_roles`` (one role per account and tournament) and
``acct_setup_tokens`` (hashes of the one-time secrets of the setup link). They match
tournament/accounts/tables.py (``alembic check``). deploy/postgres-roles.sql grants the
app role what tournament/accounts/service.py does with them, nothing more.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "acct_accounts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("admin", sa.Boolean(), nullable=False),
        sa.Column("created_at", _TIME, nullable=False),
        sa.UniqueConstraint("email", name="uq_acct_accounts_email"),
    )
    op.create_table(
        "acct_api_tokens",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey(
                "acct_accounts.id", name="fk_acct_api_tokens_account", ondelete="CASCADE"
            ),
            nullable=False,
        ),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("prefix", sa.String(8), nullable=False),
        sa.Column("created_at", _TIME, nullable=False),
        sa.Column("last_used_at", _TIME, nullable=True),
        sa.Column("revoked_at", _TIME, nullable=True),
        sa.UniqueConstraint("token_hash", name="uq_acct_api_tokens_token_hash"),
    )
    op.create_index(
        "uq_acct_api_tokens_live_name",
        "acct_api_tokens",
        ["account_id", "name"],
        unique=True,
        sqlite_where=sa.text("revoked_at IS NULL"),
        postgresql_where=sa.text("revoked_at IS NULL"),
    )
    op.create_table(
        "acct_tournament_roles",
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey(
                "acct_accounts.id", name="fk_acct_tournament_roles_account", ondelete="CASCADE"
            ),
            primary_key=True,
        ),
        sa.Column("tournament_id", sa.String(200), primary_key=True),
        sa.Column("role", sa.Integer(), nullable=False),
        sa.Column("granted_by", sa.String(254), nullable=False),
        sa.Column("granted_at", _TIME, nullable=False),
    )
    op.create_table(
        "acct_setup_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("created_at", _TIME, nullable=False),
        sa.Column("used_at", _TIME, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("acct_setup_tokens")
    op.drop_table("acct_tournament_roles")
    op.drop_index("uq_acct_api_tokens_live_name", table_name="acct_api_tokens")
    op.drop_table("acct_api_tokens")
    op.drop_table("acct_accounts")

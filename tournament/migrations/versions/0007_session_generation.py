"""Accounts have a session generation: ``acct_accounts.session_generation``.

A page's session cookie carries the generation its account had when it signed in, and a
request is signed in only while the account still has it. Signing out, a new password
(on the web or ``tournament accounts password``) add one, which ends every session of
the account on the server side, wherever its cookies were copied (trial 2, F4). Every
account starts at 0. It matches tournament/accounts/tables.py (``alembic check``).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "acct_accounts",
        sa.Column("session_generation", sa.Integer(), nullable=False, server_default="0"),
    )


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite 3.35+), not a batch copy: on SQLite the batch drops
    # and re-creates the table, and dropping it deleted the rows that refer to it
    # through ON DELETE CASCADE (the roles and tokens of every account; operator F9).
    op.drop_column("acct_accounts", "session_generation")

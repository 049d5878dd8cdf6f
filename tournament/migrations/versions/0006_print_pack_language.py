"""Print packs have a language: ``proj_print_packs.lang`` (``de`` or ``en``).

A pack renders in German or English (tournament/printing/language.py), and the same pack
of the same version in the other language is another pack, rendered on its own. The
packs asked for before were German (the templates were), so the column's default is
``de``. It matches tournament/projections/tables.py (``alembic check``).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "proj_print_packs",
        sa.Column("lang", sa.String(5), nullable=False, server_default="de"),
    )


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite 3.35+), not a batch copy: on SQLite the batch drops
    # and re-creates the table, and dropping it deleted the rows that refer to it
    # through ON DELETE CASCADE (the roles and tokens of every account; operator F9).
    op.drop_column("proj_print_packs", "lang")

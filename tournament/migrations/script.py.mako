"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
Create Date: ${create_date}
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
${imports if imports else ""}

revision = ${repr(up_revision)}
down_revision = ${repr(down_revision)}
branch_labels = ${repr(branch_labels)}
depends_on = ${repr(depends_on)}


def upgrade() -> None:
    ${upgrades if upgrades else "pass"}
    # Batch-altered an append-only table on SQLite? Its triggers are gone; put them back:
    # from tournament.eventstore.schema import install_append_only_guards
    # install_append_only_guards(op.execute, op.get_bind().dialect.name)


def downgrade() -> None:
    ${downgrades if downgrades else "pass"}

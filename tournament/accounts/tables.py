"""The accounts' tables (SQLModel), on a metadata of their own: :data:`metadata`.

They are the database's rows, not what an API shows: nothing here leaves
:mod:`tournament.accounts.service` (no password hash ever does); the service hands out
:class:`~tournament.accounts.service.AccountInfo` and ``TokenInfo``. Every name starts
with ``acct_``, apart from the event store's ``es_`` tables in the same database.
Migration ``0004_accounts`` creates them; ``alembic check`` (``tournament db check``)
compares the database with :data:`metadata` as with the event store's schema.

    >>> sorted(metadata.tables)
    ['acct_accounts', 'acct_api_tokens', 'acct_setup_tokens', 'acct_tournament_roles']
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import registry
from sqlmodel import Field, SQLModel

#: Times are stored in UTC; SQLite gives them back without a zone (the service adds it).
_TIME = sa.DateTime(timezone=True)


class _Table(SQLModel, registry=registry()):
    """The accounts' tables: their own metadata, not SQLModel's shared one."""


metadata = _Table.metadata

#: How long an email address may be (RFC 5321's path limit).
EMAIL_LIMIT = 254
#: How long a token's name may be.
TOKEN_NAME_LIMIT = 100
#: Tournament ids as the event store keeps them in stream ids.
TOURNAMENT_ID_LIMIT = 200


class Account(_Table, table=True):
    __tablename__ = "acct_accounts"
    __table_args__ = (sa.UniqueConstraint("email", name="uq_acct_accounts_email"),)

    id: int | None = Field(default=None, primary_key=True)
    #: Stripped and lower-cased (tournament.accounts.service.normal_email).
    email: str = Field(sa_type=sa.String(EMAIL_LIMIT), nullable=False)
    #: argon2id, in its own encoded form (parameters and salt included).
    password_hash: str = Field(sa_type=sa.String(200), nullable=False)
    admin: bool = Field(default=False, nullable=False)
    created_at: datetime = Field(sa_type=_TIME, nullable=False)
    #: Sessions signed in at another generation are over: signing out and a new
    #: password add one (migration 0007).
    session_generation: int = Field(
        default=0, nullable=False, sa_column_kwargs={"server_default": "0"}
    )


class ApiToken(_Table, table=True):
    __tablename__ = "acct_api_tokens"
    __table_args__ = (
        sa.UniqueConstraint("token_hash", name="uq_acct_api_tokens_token_hash"),
        # A name names one live token of its account; revoked ones keep theirs.
        sa.Index(
            "uq_acct_api_tokens_live_name",
            "account_id",
            "name",
            unique=True,
            sqlite_where=sa.text("revoked_at IS NULL"),
            postgresql_where=sa.text("revoked_at IS NULL"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    account_id: int = Field(
        sa_column=sa.Column(
            sa.Integer(),
            sa.ForeignKey(
                "acct_accounts.id", name="fk_acct_api_tokens_account", ondelete="CASCADE"
            ),
            nullable=False,
        )
    )
    name: str = Field(sa_type=sa.String(TOKEN_NAME_LIMIT), nullable=False)
    #: SHA-256 (hex) of the secret: the secret itself is shown once and never stored.
    token_hash: str = Field(sa_type=sa.String(64), nullable=False)
    #: The secret's first characters, to tell tokens apart in a list.
    prefix: str = Field(sa_type=sa.String(8), nullable=False)
    created_at: datetime = Field(sa_type=_TIME, nullable=False)
    last_used_at: datetime | None = Field(default=None, sa_type=_TIME, nullable=True)
    revoked_at: datetime | None = Field(default=None, sa_type=_TIME, nullable=True)


class TournamentRole(_Table, table=True):
    __tablename__ = "acct_tournament_roles"

    account_id: int = Field(
        sa_column=sa.Column(
            sa.Integer(),
            sa.ForeignKey(
                "acct_accounts.id", name="fk_acct_tournament_roles_account", ondelete="CASCADE"
            ),
            primary_key=True,
        )
    )
    tournament_id: str = Field(sa_type=sa.String(TOURNAMENT_ID_LIMIT), primary_key=True)
    #: A :class:`tournament.accounts.roles.Role` value.
    role: int = Field(nullable=False)
    granted_by: str = Field(sa_type=sa.String(EMAIL_LIMIT), nullable=False)
    granted_at: datetime = Field(sa_type=_TIME, nullable=False)


class SetupToken(_Table, table=True):
    __tablename__ = "acct_setup_tokens"

    #: SHA-256 (hex) of the one-time secret of the first account's setup link.
    token_hash: str = Field(sa_type=sa.String(64), primary_key=True)
    created_at: datetime = Field(sa_type=_TIME, nullable=False)
    used_at: datetime | None = Field(default=None, sa_type=_TIME, nullable=True)

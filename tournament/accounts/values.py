"""What the accounts' service takes and gives: the checks of its input (an email
address, a token's name) and the records it hands out, :class:`AccountInfo` and
:class:`TokenInfo` -- never a password hash or a token's hash.

    >>> token_name(" Scoreboard  beamer ")
    'Scoreboard beamer'
    >>> try:
    ...     token_name("42")
    ... except AccountError as error:
    ...     print(error.line())
    name: '42': a token's name is not a number alone (numbers are ids) (T-account)
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from datetime import UTC, datetime
from typing import Any

from tournament.accounts.errors import AccountError
from tournament.accounts.tables import EMAIL_LIMIT, TOKEN_NAME_LIMIT, Account, ApiToken
from tournament.domain.model.errors import DomainError
from tournament.domain.model.text import excerpt, plain_text

#: What every API token starts with: a secret pasted in the wrong place is recognisable
#: (and a secret scanner can look for it).
TOKEN_PREFIX = "sch_"
#: Characters of a token shown in lists (the secret's first ones, ``sch_`` included).
SHOWN_PREFIX = 8
#: Longer than any secret this service makes: such a "token" is not looked up at all.
SECRET_LIMIT = 100
EMAIL_FORM = re.compile(r"[^@\s]+@[^@\s]+")


@dataclasses.dataclass(frozen=True)
class AccountInfo:
    """An account as the rest of the service sees it (no password hash)."""

    id: int
    email: str
    admin: bool
    created_at: datetime
    #: A session signed in at another generation is over (Accounts.end_sessions).
    session_generation: int = 0


@dataclasses.dataclass(frozen=True)
class TokenInfo:
    """An API token as lists show it: its name and the first characters of its secret
    (``prefix``), never the secret or its hash."""

    id: int
    account_id: int
    name: str
    prefix: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None


def normal_email(email: str) -> str:
    """``email`` as it is stored: stripped and lower-cased; refused unless it looks like
    an address (``name@place``, no spaces, at most 254 characters).

    >>> normal_email("  Anna.Huber@Club.AT ")
    'anna.huber@club.at'
    """
    if not isinstance(email, str):
        raise AccountError("email", "an email address is text")
    text = email.strip().lower()
    if not text:
        raise AccountError("email", "an email address is needed")
    if len(text) > EMAIL_LIMIT:
        raise AccountError(
            "email", f"{excerpt(text)} is longer than {EMAIL_LIMIT} characters, no address is"
        )
    if not EMAIL_FORM.fullmatch(text) or not text.isprintable():
        raise AccountError("email", f"{excerpt(text)} is not an email address (name@place)")
    return text


def token_hash(secret: str) -> str:
    """The SHA-256 (hex) of a token's secret: what the database keeps instead of it. A
    token is a random 256-bit secret, so a plain hash suffices (no salt, no stretching:
    nobody can guess one)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def now() -> datetime:
    return datetime.now(UTC)


def utc(moment: datetime) -> datetime:
    """A stored time with its zone (SQLite keeps times without one; they are UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def utc_or_none(moment: datetime | None) -> datetime | None:
    return None if moment is None else utc(moment)


def account_info(row: Account) -> AccountInfo:
    assert row.id is not None
    return AccountInfo(row.id, row.email, row.admin, utc(row.created_at), row.session_generation)


def token_info(row: ApiToken) -> TokenInfo:
    assert row.id is not None
    return TokenInfo(
        row.id,
        row.account_id,
        row.name,
        row.prefix,
        utc(row.created_at),
        utc_or_none(row.last_used_at),
        utc_or_none(row.revoked_at),
    )


def plain(value: Any, field: str, limit: int, what: str) -> str:
    """Plain text (no control characters), stripped, not empty, at most ``limit``."""
    if not isinstance(value, str):
        raise AccountError(field, f"{what} is text")
    try:
        text = plain_text(value, field, "T-account", limit=limit, what=what)
    except DomainError as error:
        raise AccountError(field, error.message) from None
    if not text:
        raise AccountError(field, f"{what} is needed")
    return text


def token_name(name: Any) -> str:
    text = plain(name, "name", TOKEN_NAME_LIMIT, "a token's name")
    if text.isdigit():
        # `tokens revoke EMAIL 12` takes a number for a token's id.
        raise AccountError(
            "name", f"{excerpt(text)}: a token's name is not a number alone (numbers are ids)"
        )
    return text

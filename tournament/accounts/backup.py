"""The accounts' backup: every account with its password hash, its roles and its API
tokens' hashes, as one JSON document (``tournament accounts export`` / ``import``).

The event store's export holds no accounts by design (they are not events); after a
disaster a federation would otherwise add dozens of organisers and scorers again by hand
(operator F14). No secret is in the file: passwords and tokens only as the hashes the
store keeps (argon2id, SHA-256), so an imported organiser signs in with the same
password and a script's token keeps working. The hashes still let an attacker guess
passwords offline: the file is written readable by its owner only, and belongs with the
backups, not in a mail.

The file names accounts by email, never by the store's row ids, so it restores into any
store, and as the app's role (which may use the id sequences but not set them).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from tournament.accounts.errors import AccountError
from tournament.accounts.roles import Role
from tournament.accounts.tables import Account, ApiToken, TournamentRole

FORMAT = "schnapsen-accounts/1"
_ACCOUNTS = Account.__table__  # type: ignore[attr-defined]
_TOKENS = ApiToken.__table__  # type: ignore[attr-defined]
_ROLES = TournamentRole.__table__  # type: ignore[attr-defined]


def _time(value: datetime | None) -> str | None:
    if value is None:
        return None
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()


def export_accounts(engine: sa.Engine) -> dict[str, Any]:
    """Every account, its roles and its tokens (live and revoked), as plain JSON data."""
    with engine.connect() as conn:
        accounts = conn.execute(sa.select(_ACCOUNTS).order_by(_ACCOUNTS.c.id)).mappings().all()
        roles = conn.execute(sa.select(_ROLES).order_by(_ROLES.c.tournament_id)).mappings().all()
        tokens = conn.execute(sa.select(_TOKENS).order_by(_TOKENS.c.id)).mappings().all()
    found = []
    for account in accounts:
        found.append(
            {
                "email": account["email"],
                "password_hash": account["password_hash"],
                "admin": bool(account["admin"]),
                "created_at": _time(account["created_at"]),
                "session_generation": account["session_generation"],
                "roles": [
                    {
                        "tournament": role["tournament_id"],
                        "role": Role(role["role"]).label,
                        "granted_by": role["granted_by"],
                        "granted_at": _time(role["granted_at"]),
                    }
                    for role in roles
                    if role["account_id"] == account["id"]
                ],
                "tokens": [
                    {
                        "name": token["name"],
                        "token_hash": token["token_hash"],
                        "prefix": token["prefix"],
                        "created_at": _time(token["created_at"]),
                        "last_used_at": _time(token["last_used_at"]),
                        "revoked_at": _time(token["revoked_at"]),
                    }
                    for token in tokens
                    if token["account_id"] == account["id"]
                ],
            }
        )
    return {"format": FORMAT, "exported_at": _time(datetime.now(UTC)), "accounts": found}


def dumps(document: Mapping[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


class AccountsFileError(AccountError):
    """The file is not an accounts export this program can read; nothing was stored."""

    def __init__(self, message: str) -> None:
        super().__init__("file", message)


def _parsed_time(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise AccountsFileError(f"{where}: {value!r:.40} is not a time") from None


def import_accounts(engine: sa.Engine, document: Any) -> tuple[int, int, int]:
    """Restore ``document`` into a store without accounts, in one transaction:
    (accounts, roles, tokens) added. A store with accounts is refused (the file would
    have to be merged with them, and which password wins is not the file's to say)."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise AccountsFileError(f"not an accounts export (its format is not {FORMAT})")
    counts = [0, 0, 0]
    with engine.begin() as conn:
        present = conn.execute(sa.select(sa.func.count()).select_from(_ACCOUNTS)).scalar_one()
        if present:
            raise AccountError(
                "accounts",
                f"the store has {present} account(s) already: accounts import restores into "
                "a store without any (a new store, before the first account is added)",
            )
        for number, account in enumerate(document.get("accounts") or [], 1):
            where = f"account {number}"
            try:
                email = account["email"]
                new_id = conn.execute(
                    sa.insert(_ACCOUNTS).returning(_ACCOUNTS.c.id),
                    {
                        "email": email,
                        "password_hash": account["password_hash"],
                        "admin": bool(account["admin"]),
                        "created_at": _parsed_time(account["created_at"], where),
                        "session_generation": int(account.get("session_generation") or 0),
                    },
                ).scalar_one()
                for role in account.get("roles") or []:
                    conn.execute(
                        sa.insert(_ROLES),
                        {
                            "account_id": new_id,
                            "tournament_id": role["tournament"],
                            "role": int(Role.parse(role["role"])),
                            "granted_by": role["granted_by"],
                            "granted_at": _parsed_time(role["granted_at"], where),
                        },
                    )
                    counts[1] += 1
                for token in account.get("tokens") or []:
                    conn.execute(
                        sa.insert(_TOKENS),
                        {
                            "account_id": new_id,
                            "name": token["name"],
                            "token_hash": token["token_hash"],
                            "prefix": token["prefix"],
                            "created_at": _parsed_time(token["created_at"], where),
                            "last_used_at": _parsed_time(token.get("last_used_at"), where),
                            "revoked_at": _parsed_time(token.get("revoked_at"), where),
                        },
                    )
                    counts[2] += 1
            except (KeyError, TypeError, AttributeError) as error:
                raise AccountsFileError(f"{where}: {error!s:.60} is missing or wrong") from None
            except sa.exc.IntegrityError:
                raise AccountsFileError(
                    f"{where} ({account.get('email')!s:.60}): an email, or a token of it, is "
                    "in the file twice; nothing was stored"
                ) from None
            counts[0] += 1
    return counts[0], counts[1], counts[2]

"""Accounts, roles per tournament and API tokens: for the web app and the command line.

    from tournament.accounts import Accounts, Role
    accounts = Accounts(database_url())       # the store's database, migrated
    accounts.add("anna@club.at", password)    # the first account is an admin
    accounts.grant("berti@club.at", "cup", Role.SCORER, by="anna@club.at")

Modules: :mod:`roles` (``Role``), :mod:`tables` (the SQLModel tables, ``acct_*``),
:mod:`passwords` (argon2id, the policy), :mod:`service` (``Accounts``), :mod:`errors`
(``AccountError``, rule ``T-account``). docs/operations.md, "Accounts, roles and tokens".
"""

from typing import TYPE_CHECKING

from tournament.accounts.errors import AccountError
from tournament.accounts.roles import Role
from tournament.lazy import lazy_names

if TYPE_CHECKING:
    from tournament.accounts.service import AccountInfo, Accounts, TokenInfo

# The service (SQLModel, SQLAlchemy: a fifth of a second) is imported when first asked
# for: the web app's start needs only Role (tournament serve's start, speed P10).
__getattr__ = lazy_names(
    __name__, dict.fromkeys(("AccountInfo", "Accounts", "TokenInfo"), f"{__name__}.service")
)

__all__ = ["AccountError", "AccountInfo", "Accounts", "Role", "TokenInfo"]

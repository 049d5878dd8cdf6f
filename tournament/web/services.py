"""What every request works with, made once per app: the event store, the tournament
service (which keeps each tournament's folded state between requests) and the accounts."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask import Flask, current_app

if TYPE_CHECKING:
    from tournament.accounts.service import Accounts
    from tournament.domain.service import TournamentService
    from tournament.eventstore import SQLEventStore

KEY = "schnapsen"


@dataclasses.dataclass
class Services:
    url: str
    store: SQLEventStore
    tournaments: TournamentService
    #: Makes the accounts (:attr:`accounts`, on first use).
    make_accounts: Callable[[], Accounts]
    _accounts: Accounts | None = dataclasses.field(default=None, repr=False)
    _made: threading.Lock = dataclasses.field(default_factory=threading.Lock, repr=False)

    @property
    def accounts(self) -> Accounts:
        """The accounts, made on first use: their module (SQLModel, SQLAlchemy) is a fifth
        of a second of a start that /healthz does not need (speed P10)."""
        if self._accounts is None:
            with self._made:
                if self._accounts is None:
                    self._accounts = self.make_accounts()
        return self._accounts

    def close_accounts(self) -> None:
        """Close the accounts' engine if they were made (nothing to do otherwise)."""
        if self._accounts is not None:
            self._accounts.close()


def open_services(app: Flask, url: str) -> Services:
    """The services on the store at ``url``: a SQLite store is created and migrated on
    first start (a club laptop needs no setup step); a PostgreSQL store must be migrated
    (``tournament db upgrade``), or the start says so."""
    from tournament.domain.service import TournamentService
    from tournament.eventstore import SQLEventStore, migrate
    from tournament.eventstore.seals import SealPolicy

    migrate.ensure_current(url, may_create=True)
    store = SQLEventStore(url, sealing=SealPolicy.from_environment())

    def accounts() -> Accounts:
        from tournament.accounts.service import Accounts

        # PASSWORD_HASHER: tests pass cheaper argon2 parameters; the service keeps the defaults.
        return Accounts(url, hasher=app.config.get("PASSWORD_HASHER"))

    found = Services(url, store, TournamentService(store), accounts)
    app.extensions[KEY] = found
    return found


def services() -> Services:
    found: Services = current_app.extensions[KEY]
    return found

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
    from tournament.app.service import TournamentService
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

    def close(self) -> None:
        """Close every database connection of these services: the event store's pool and
        its connection for appends, and the accounts' pool (made again on next use)."""
        self.store.close()
        self.close_accounts()


def open_services(app: Flask, url: str) -> Services:
    """The services on the store at ``url``: a SQLite store is created and migrated on
    first start (a club laptop needs no setup step); a PostgreSQL store must be migrated
    (``tournament db upgrade``), or the start says so. A PostgreSQL that does not answer
    yet does not stop the start (the requests answer 503 until it does)."""
    from tournament.app.service import TournamentService
    from tournament.db import sqlite_path
    from tournament.eventstore import SQLEventStore, migrate
    from tournament.eventstore.failures import explain, first_line, outage
    from tournament.eventstore.seal_keys import check_at_start
    from tournament.eventstore.seals import SealPolicy

    check_at_start()  # a configured seal key that is missing: refuse, never run unsealed
    try:
        migrate.ensure_current(url, may_create=True)
    except migrate.NewerSchemaError as error:
        # A newer release migrated while this host still runs the previous one (an
        # upgrade across hosts, docs/deploy.md#upgrading): its migrations only add, so
        # this process starts and serves; /readyz says so in its notes.
        app.logger.warning("%s; serving on, as the previous release", error)
    except Exception as error:
        # PostgreSQL away as the process starts (a host booting before the database, a
        # restart): start anyway, as a running process rides out an outage -- requests
        # answer 503 with Retry-After and /readyz is not ready (it checks the revision
        # again) until the database answers, then all works without a restart. Failing
        # the boot only made gunicorn give up (operator trial of main, 4).
        if sqlite_path(url) is not None or outage(error) is None:
            raise
        app.logger.warning(
            "%s; starting anyway: 503 and /readyz not ready until it answers",
            explain(error, url) or first_line(error),
        )
    store = SQLEventStore(url, sealing=SealPolicy.from_environment())

    def accounts() -> Accounts:
        from tournament.accounts.service import Accounts

        # PASSWORD_HASHER: tests pass cheaper argon2 parameters; the service keeps the
        # defaults. AUTH_CACHE_SECONDS: how long a token's account and a role are remembered
        # here (a change made by another process is seen that much later;
        # tournament.accounts.remembered).
        return Accounts(
            url,
            hasher=app.config.get("PASSWORD_HASHER"),
            cache_seconds=float(app.config.get("AUTH_CACHE_SECONDS", 5.0)),
        )

    found = Services(url, store, TournamentService(store), accounts)
    app.extensions[KEY] = found
    return found


def services() -> Services:
    found: Services = current_app.extensions[KEY]
    return found

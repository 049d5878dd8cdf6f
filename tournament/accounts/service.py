"""Accounts, their roles per tournament and their API tokens, on the store's database.

    >>> import tempfile
    >>> from argon2 import PasswordHasher
    >>> from tournament.eventstore import migrate
    >>> url = f"sqlite:///{tempfile.mkdtemp()}/club.sqlite3"
    >>> migrate.ensure_current(url, may_create=True)
    >>> accounts = Accounts(url, hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    >>> anna = accounts.add(" Anna@Club.AT ", "eleven chars")
    >>> anna.email, anna.admin        # the first account is an admin
    ('anna@club.at', True)
    >>> accounts.authenticate("anna@club.at", "eleven chars") == anna
    True
    >>> berti = accounts.add("berti@club.at", "twelve chars")
    >>> accounts.grant("berti@club.at", "cup", Role.SCORER, by="anna@club.at")
    >>> accounts.role_of(berti.id, "cup"), accounts.role_of(anna.id, "cup")
    (<Role.SCORER: 1>, <Role.OWNER: 3>)
    >>> info, secret = accounts.create_token("berti@club.at", "scoreboard")
    >>> accounts.account_for_token(secret) == berti
    True
    >>> accounts.close()

One :class:`Accounts` serves every thread of a process (the web app shares one): it makes
its SQLAlchemy engine on first use and opens a session per call. The database must be
migrated (``migrate.ensure_current(url, may_create=True)``). What leaves it is
:class:`AccountInfo` and :class:`TokenInfo`: never a password hash, never a token's hash;
a token's secret only once, from :meth:`Accounts.create_token`. Bad input is an
:class:`~tournament.accounts.errors.AccountError` naming the field, raised before
anything is stored.

Writes that decide from what is there (the first account is an admin; setup works only
while there is none; a token's name is free) hold one lock to their commit: SQLite's
write lock (``BEGIN IMMEDIATE``), on PostgreSQL an advisory transaction lock of the
schema's accounts table. Account writes are rare; the one frequent write, a token's
``last_used_at``, takes no lock and happens at most once a minute per token.

With ``cache_seconds`` (the web app's ``AUTH_CACHE_SECONDS``) a token's account and an
account's role in a tournament are remembered that long
(:mod:`tournament.accounts.remembered`): every write through this object forgets them at
once; a write by another process is seen within ``cache_seconds``.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import secrets
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlmodel import Session, col, func, select

from tournament.accounts.errors import AccountError
from tournament.accounts.passwords import MAX_LENGTH, Passwords, check_policy
from tournament.accounts.remembered import Remembered
from tournament.accounts.roles import Role
from tournament.accounts.tables import (
    EMAIL_LIMIT,
    TOURNAMENT_ID_LIMIT,
    Account,
    ApiToken,
    SetupToken,
    TournamentRole,
)
from tournament.accounts.values import (
    SECRET_LIMIT,
    SHOWN_PREFIX,
    TOKEN_PREFIX,
    AccountInfo,
    TokenInfo,
    account_info,
    normal_email,
    now,
    plain,
    token_hash,
    token_info,
    token_name,
    utc,
)
from tournament.domain.model.text import excerpt

if TYPE_CHECKING:
    from argon2 import PasswordHasher

__all__ = ["AccountInfo", "Accounts", "TokenInfo", "normal_email", "token_hash"]

#: A token's ``last_used_at`` is written at most this often.
TOUCH_EVERY = timedelta(minutes=1)
#: The accounts' advisory lock on PostgreSQL: "acct" in the high half, the schema's
#: accounts table's oid in the low half (each schema its own, as the event store's).
_PG_LOCK = "SELECT pg_advisory_xact_lock((1633903476::bigint << 32) | "
_PG_LOCK += "('acct_accounts'::regclass::oid)::bigint)"


@dataclasses.dataclass
class _LiveToken:
    """A live token as remembered: its id, its account, when it was last noted used."""

    token_id: int
    account: AccountInfo
    last_used_at: datetime | None


def _is_id(value: object) -> bool:
    """Whether ``value`` can be an id (a session may hand in anything): a whole number
    a database integer holds."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**31


class Accounts:
    """Accounts, roles and tokens in the database at ``url`` (see the module)."""

    def __init__(
        self, url: str, *, hasher: PasswordHasher | None = None, cache_seconds: float = 0.0
    ) -> None:
        self.url = url
        self.passwords = Passwords(hasher)
        #: Tokens, roles and accounts remembered for ``cache_seconds`` (0: never).
        self.remembered = Remembered(cache_seconds)
        self._engine: sa.Engine | None = None
        self._engine_lock = threading.Lock()

    # --- the database ----------------------------------------------------------------
    @property
    def engine(self) -> sa.Engine:
        if self._engine is None:
            with self._engine_lock:
                if self._engine is None:
                    from tournament.db import make_engine

                    # No statement's parameters (a hash, an email) in an error's text.
                    self._engine = make_engine(self.url, kind="accounts", hide_parameters=True)
        return self._engine

    def close(self) -> None:
        """Close the pooled connections (made again on next use)."""
        with self._engine_lock:
            if self._engine is not None:
                self._engine.dispose()
                self._engine = None

    @contextlib.contextmanager
    def _read(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session:
            yield session

    @contextlib.contextmanager
    def _write(self, *, locked: bool = True, forgets: bool = True) -> Iterator[Session]:
        """One transaction, committed at the end; ``locked``: under the accounts' lock
        from its start (see the module), so what it read stays true to its commit.
        ``forgets``: what this process remembers is forgotten once it ends (a revoked
        token, a role taken back stop at once here)."""
        engine = self.engine
        if locked:
            engine = engine.execution_options(sqlite_begin="IMMEDIATE")
        try:
            with Session(engine, expire_on_commit=False) as session, session.begin():
                if locked and engine.dialect.name == "postgresql":
                    session.execute(sa.text(_PG_LOCK))
                yield session
        finally:
            if forgets:
                self.remembered.forget()

    @staticmethod
    def _row(session: Session, email: str) -> Account | None:
        return session.exec(select(Account).where(Account.email == email)).first()

    def _existing(self, session: Session, email: str) -> Account:
        row = self._row(session, normal_email(email))
        if row is None:
            raise AccountError("email", f"there is no account {excerpt(normal_email(email))}")
        return row

    # --- accounts ----------------------------------------------------------------------
    def count(self) -> int:
        with self._read() as session:
            return session.exec(select(func.count()).select_from(Account)).one()

    def add(self, email: str, password: str, *, admin: bool = False) -> AccountInfo:
        """A new account; the first one there is is an admin whatever ``admin`` says."""
        address = normal_email(email)
        check_policy(password)
        hashed = self.passwords.hash(password)  # before the lock: it takes a while
        with self._write() as session:
            if self._row(session, address) is not None:
                raise AccountError("email", f"there is an account {excerpt(address)} already")
            first = session.exec(select(func.count()).select_from(Account)).one() == 0
            row = Account(
                email=address, password_hash=hashed, admin=admin or first, created_at=now()
            )
            session.add(row)
            session.flush()
            return account_info(row)

    def authenticate(self, email: str, password: str) -> AccountInfo | None:
        """The account if ``password`` is its password, else None (also for an unknown
        or malformed email, after as long a wait). A hash made with older parameters is
        made again with the hasher's."""
        if not isinstance(password, str):
            return None
        try:
            address = normal_email(email)
        except AccountError:
            address = None
        row = None
        if address is not None:
            with self._read() as session:
                row = self._row(session, address)
        if row is None or len(password) > MAX_LENGTH:
            self.passwords.waste_time(password)
            return None
        if not self.passwords.verify(row.password_hash, password):
            return None
        if self.passwords.needs_rehash(row.password_hash):
            rehashed = self.passwords.hash(password)
            with self._write(locked=False) as session:
                # Only if the password was not changed meanwhile.
                session.execute(
                    sa.update(Account)
                    .where(col(Account.id) == row.id)
                    .where(col(Account.password_hash) == row.password_hash)
                    .values(password_hash=rehashed)
                )
        return account_info(row)

    def get(self, account_id: int) -> AccountInfo | None:
        if not _is_id(account_id):
            return None
        # Never remembered: a session's generation is checked on every request, so a
        # sign-out ends every copy of the cookie at once, in every process.
        with self._read() as session:
            row = session.get(Account, account_id)
            return None if row is None else account_info(row)

    def by_email(self, email: str) -> AccountInfo | None:
        """The account with ``email`` (any case, spaces around it); None if there is none
        or ``email`` is no address."""
        try:
            address = normal_email(email)
        except AccountError:
            return None
        with self._read() as session:
            row = self._row(session, address)
            return None if row is None else account_info(row)

    def list(self) -> list[AccountInfo]:
        """Every account, oldest first."""
        with self._read() as session:
            return [
                account_info(r) for r in session.exec(select(Account).order_by(col(Account.id)))
            ]

    def set_password(self, email: str, password: str) -> None:
        check_policy(password)
        normal_email(email)  # a malformed address is refused before the hashing
        hashed = self.passwords.hash(password)
        with self._write() as session:
            row = self._existing(session, email)
            row.password_hash = hashed
            # A new password ends every session of the old one (trial 2, F4).
            row.session_generation += 1

    def end_sessions(self, account_id: int) -> None:
        """End every session of the account (signing out): a cookie signed in before,
        wherever it was copied, no longer signs anybody in."""
        if not _is_id(account_id):
            return
        with self._write(locked=False) as session:
            session.execute(
                sa.update(Account)
                .where(col(Account.id) == account_id)
                .values(session_generation=Account.session_generation + 1)
            )

    # --- roles -------------------------------------------------------------------------
    def grant(self, email: str, tournament_id: str, role: Role, *, by: str) -> None:
        """Give the account ``role`` in the tournament (replacing the role it had)."""
        tid = plain(tournament_id, "tournament", TOURNAMENT_ID_LIMIT, "a tournament id")
        granter = plain(by, "by", EMAIL_LIMIT, "who grants it")
        try:
            role = Role(role)
        except ValueError:
            raise AccountError("role", f"{role!r} is not a role") from None
        with self._write() as session:
            account = self._existing(session, email)
            assert account.id is not None
            session.merge(
                TournamentRole(
                    account_id=account.id,
                    tournament_id=tid,
                    role=int(role),
                    granted_by=granter,
                    granted_at=now(),
                )
            )

    def revoke_role(self, email: str, tournament_id: str) -> bool:
        """Take the account's role in the tournament away; False if it had none."""
        with self._write() as session:
            account = self._existing(session, email)
            gone = session.execute(
                sa.delete(TournamentRole)
                .where(col(TournamentRole.account_id) == account.id)
                .where(col(TournamentRole.tournament_id) == tournament_id)
            )
            return bool(gone.rowcount)  # type: ignore[attr-defined]

    def role_of(self, account_id: int, tournament_id: str) -> Role:
        """The account's role in the tournament: OWNER for an admin, PUBLIC when it has
        none (or there is no such account)."""
        if not _is_id(account_id):
            return Role.PUBLIC
        key = ("role", account_id, tournament_id)
        known: Role | None = self.remembered.get(key)
        if known is not None:
            return known
        generation = self.remembered.generation
        with self._read() as session:
            found = session.exec(
                select(Account.admin, TournamentRole.role)
                .select_from(Account)
                .outerjoin(
                    TournamentRole,
                    sa.and_(
                        col(TournamentRole.account_id) == col(Account.id),
                        col(TournamentRole.tournament_id) == tournament_id,
                    ),
                )
                .where(col(Account.id) == account_id)
            ).first()
        if found is None:
            return Role.PUBLIC
        admin, role = found
        held = Role.OWNER if admin else Role(role or 0)
        if held != Role.PUBLIC:  # no role is not remembered: a role granted works at once
            self.remembered.put(key, held, generation)
        return held

    def roles(self, account_id: int) -> dict[str, Role]:
        """The roles granted to the account, by tournament (an admin's OWNER everywhere
        is not listed: it is no grant)."""
        if not _is_id(account_id):
            return {}
        with self._read() as session:
            rows = session.exec(
                select(TournamentRole)
                .where(TournamentRole.account_id == account_id)
                .order_by(TournamentRole.tournament_id)
            )
            return {row.tournament_id: Role(row.role) for row in rows}

    def members(self, tournament_id: str) -> builtins.list[tuple[AccountInfo, Role]]:
        """The accounts granted a role in the tournament, highest role first."""
        with self._read() as session:
            rows = session.exec(
                select(Account, TournamentRole)
                .join(TournamentRole, col(TournamentRole.account_id) == col(Account.id))
                .where(TournamentRole.tournament_id == tournament_id)
                .order_by(col(TournamentRole.role).desc(), Account.email)
            )
            return [(account_info(account), Role(grant.role)) for account, grant in rows]

    # --- API tokens --------------------------------------------------------------------
    def create_token(self, email: str, name: str) -> tuple[TokenInfo, str]:
        """A new API token of the account: its info and its secret, which is not kept
        (only its SHA-256) and cannot be shown again."""
        label = token_name(name)
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        with self._write() as session:
            account = self._existing(session, email)
            assert account.id is not None
            taken = session.exec(
                select(ApiToken.id)
                .where(ApiToken.account_id == account.id)
                .where(ApiToken.name == label)
                .where(col(ApiToken.revoked_at).is_(None))
            ).first()
            if taken is not None:
                raise AccountError(
                    "name",
                    f"{account.email} has a token {excerpt(label)} already (id {taken}): "
                    "revoke it or choose another name",
                )
            row = ApiToken(
                account_id=account.id,
                name=label,
                token_hash=token_hash(secret),
                prefix=secret[:SHOWN_PREFIX],
                created_at=now(),
            )
            session.add(row)
            session.flush()
            return token_info(row), secret

    def account_for_token(self, secret: str) -> AccountInfo | None:
        """The account of a live token, None for anything else (unknown, revoked, not a
        token at all). Notes when the token was used, at most once a minute."""
        if not isinstance(secret, str) or not secret.startswith(TOKEN_PREFIX):
            return None
        if len(secret) > SECRET_LIMIT:
            return None
        hashed = token_hash(secret)
        key = ("token", hashed)
        known: _LiveToken | None = self.remembered.get(key)
        if known is None:
            generation = self.remembered.generation
            with self._read() as session:
                found = session.exec(
                    select(ApiToken, Account)
                    .join(Account, col(Account.id) == col(ApiToken.account_id))
                    .where(ApiToken.token_hash == hashed)
                ).first()
            if found is None or found[0].revoked_at is not None:
                return None  # not remembered: a token made meanwhile works at once
            token, account = found
            assert token.id is not None
            known = _LiveToken(token.id, account_info(account), token.last_used_at)
            self.remembered.put(key, known, generation)
        moment = now()
        if known.last_used_at is None or moment - utc(known.last_used_at) >= TOUCH_EVERY:
            known.last_used_at = moment
            token_id = known.token_id
            with self._write(locked=False, forgets=False) as session:
                # Another thread may have noted it meanwhile: then this writes nothing.
                session.execute(
                    sa.update(ApiToken)
                    .where(col(ApiToken.id) == token_id)
                    .where(
                        sa.or_(
                            col(ApiToken.last_used_at).is_(None),
                            col(ApiToken.last_used_at) <= moment - TOUCH_EVERY,
                        )
                    )
                    .values(last_used_at=moment)
                )
        return known.account

    def tokens(self, email: str | None = None) -> builtins.list[TokenInfo]:
        """The account's tokens (every account's without ``email``), revoked ones too,
        oldest first."""
        with self._read() as session:
            query = select(ApiToken).order_by(col(ApiToken.id))
            if email is not None:
                query = query.where(ApiToken.account_id == self._existing(session, email).id)
            return [token_info(row) for row in session.exec(query)]

    def revoke_token(self, email: str, name_or_id: str) -> TokenInfo:
        """Revoke the account's live token of that name (or, a number, that id); it
        stops working at once."""
        wanted = str(name_or_id).strip()
        with self._write() as session:
            account = self._existing(session, email)
            mine = select(ApiToken).where(ApiToken.account_id == account.id)
            row = session.exec(
                mine.where(ApiToken.name == wanted).where(col(ApiToken.revoked_at).is_(None))
            ).first()
            digits = wanted.isascii() and wanted.isdigit() and len(wanted) <= 10
            number = int(wanted) if digits else None
            if row is None and number is not None and _is_id(number):
                row = session.exec(mine.where(ApiToken.id == number)).first()
            if row is None:
                live = session.exec(
                    mine.where(col(ApiToken.revoked_at).is_(None)).order_by(col(ApiToken.id))
                ).all()
                names = ", ".join(f"{t.name} (id {t.id})" for t in live) or "none"
                raise AccountError(
                    "token",
                    f"{account.email} has no live token {excerpt(wanted)} (its live tokens: "
                    f"{names})",
                )
            if row.revoked_at is not None:
                raise AccountError(
                    "token",
                    f"token {row.id} ({excerpt(row.name)}) of {account.email} was revoked "
                    f"already, at {utc(row.revoked_at):%Y-%m-%d %H:%M} UTC",
                )
            row.revoked_at = now()
            session.flush()
            return token_info(row)

    # --- the first account -------------------------------------------------------------
    def setup_token(self) -> str | None:
        """A new one-time secret for the setup link of the first account, while there
        is no account (None once there is one). Earlier unused ones stay valid until
        used or until an account exists."""
        with self._write() as session:
            if session.exec(select(func.count()).select_from(Account)).one():
                return None
            secret = secrets.token_urlsafe(32)
            session.add(SetupToken(token_hash=token_hash(secret), created_at=now()))
            return secret

    def complete_setup(self, secret: str, email: str, password: str) -> AccountInfo:
        """Create the first account, an admin, with a setup secret: once, with a secret
        not used yet, and only while there is no account (atomic: of two calls at the
        same time, one creates it, the other is refused). Email and password are checked
        first: a typo does not use up the secret."""
        address = normal_email(email)
        check_policy(password)
        hashed = self.passwords.hash(password)
        with self._write() as session:
            if session.exec(select(func.count()).select_from(Account)).one():
                raise AccountError(
                    "token", "setup is done: there is an account already; sign in with it"
                )
            found = None
            if isinstance(secret, str) and len(secret) <= SECRET_LIMIT:
                found = session.get(SetupToken, token_hash(secret))
            if found is None or found.used_at is not None:
                raise AccountError("token", "this setup link is not valid or was used already")
            found.used_at = now()
            row = Account(email=address, password_hash=hashed, admin=True, created_at=now())
            session.add(row)
            session.flush()
            return account_info(row)

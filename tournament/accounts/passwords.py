"""Passwords: the policy, and argon2id hashes (argon2-cffi's ``PasswordHasher``).

    >>> from argon2 import PasswordHasher
    >>> passwords = Passwords(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    >>> stored = passwords.hash("correct horse battery")
    >>> stored.startswith("$argon2id$"), passwords.verify(stored, "correct horse battery")
    (True, True)
    >>> passwords.verify(stored, "Correct horse battery"), passwords.verify("junk", "x")
    (False, False)
    >>> try:
    ...     check_policy("short")
    ... except AccountError as error:
    ...     print(error.message)
    a password has at least 10 characters; this one has 5

The service uses the library's default parameters (argon2id, RFC 9106's second
recommendation at the time of the release); a hash made with older parameters is made
again at the next successful login (:meth:`Passwords.needs_rehash`). Tests may pass a
cheaper hasher. No message here, nor any exception, holds the password.
"""

from __future__ import annotations

import secrets
import threading

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from tournament.accounts.errors import AccountError

MIN_LENGTH = 10
#: Long passphrases are welcome; beyond this a "password" is a way to make the server
#: hash megabytes.
MAX_LENGTH = 256


def check_policy(password: str) -> None:
    """Refuse a password the policy does not allow (``AccountError('password', ...)``)."""
    if not isinstance(password, str):
        raise AccountError("password", "a password is text")
    if len(password) < MIN_LENGTH:
        raise AccountError(
            "password",
            f"a password has at least {MIN_LENGTH} characters; this one has {len(password)}",
        )
    if len(password) > MAX_LENGTH:
        raise AccountError(
            "password",
            f"a password has at most {MAX_LENGTH} characters; this one has {len(password):,}",
        )


class Passwords:
    """Hashing and checking with one hasher (thread-safe: the hasher keeps no state)."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self._dummy: str | None = None
        self._dummy_lock = threading.Lock()

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored: str, password: str) -> bool:
        """Whether ``password`` matches ``stored``; False for a hash that is not one."""
        try:
            return self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with other parameters than the hasher's now."""
        try:
            return self.hasher.check_needs_rehash(stored)
        except (InvalidHashError, ValueError):
            return True

    def waste_time(self, password: str) -> None:
        """Verify ``password`` against a hash of nothing anybody knows: a login with an
        unknown email takes as long as one with a wrong password, so the time of the
        answer does not tell which addresses have accounts."""
        if self._dummy is None:
            with self._dummy_lock:
                if self._dummy is None:
                    self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        self.verify(self._dummy, password[:MAX_LENGTH])

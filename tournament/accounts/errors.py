"""The accounts' refusals: a :class:`~tournament.domain.model.errors.DomainError` with rule
``T-account``, so the CLI prints it in one line and the web app answers it as a problem
naming the field, like every other refusal.

    >>> AccountError("password", "a password has at least 10 characters").line()
    'password: a password has at least 10 characters (T-account)'

Messages never hold a password, nor a token's secret.
"""

from __future__ import annotations

from tournament.domain.model.errors import DomainError

RULE = "T-account"


class AccountError(DomainError):
    """Bad input to an account, role or token operation; nothing was stored."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, RULE, message)

"""Roles per tournament, from least to most: each role may do what the ones below it may.

- ``PUBLIC``: reads what is published (everybody, signed in or not);
- ``SCORER``: also enters and signs results;
- ``ORGANISER``: also runs the tournament (players, rounds, corrections, settings);
- ``OWNER``: also grants and revokes roles in it.

An *admin* is not a role but a flag of the account: it manages accounts, acts as owner
in every tournament and restores backups.

    >>> Role.parse(" Organizer ") is Role.ORGANISER
    True
    >>> Role.SCORER >= Role.PUBLIC
    True
"""

from __future__ import annotations

from enum import IntEnum

from tournament.accounts.errors import AccountError
from tournament.domain.model.text import excerpt

#: Spellings accepted besides the names themselves.
_ALIASES = {"organizer": "organiser"}


class Role(IntEnum):
    PUBLIC = 0
    SCORER = 1
    ORGANISER = 2
    OWNER = 3

    @property
    def label(self) -> str:
        """The role as the docs and the command line spell it: ``organiser``."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Role:
        """The role named ``text`` (any case; ``organizer`` too), else
        :class:`AccountError` naming the valid ones."""
        word = text.strip().lower()
        word = _ALIASES.get(word, word)
        for role in cls:
            if role.label == word:
                return role
        valid = ", ".join(role.label for role in cls)
        raise AccountError("role", f"{excerpt(text)} is not a role: one of {valid}")

"""The domain's typed errors: every refusal names the field, the rule and what is wrong.

Commands raise these *before* anything is written, so a refused command stores nothing::

    try:
        events = record_hand(state, match_id="1.3", winner=7, game_points=4)
    except DomainError as error:
        print(error.field, error.rule, error.message)   # game_points R13 a hand is worth ...

``rule`` is a rule id of RULES.md (``R13``, ``R17`` ...) where one applies, otherwise a
short tournament rule name of docs/tournaments.md (``T-player``, ``T-round`` ...).
"""

from __future__ import annotations

from typing import Any


class DomainError(ValueError):
    """A command the tournament's rules refuse."""

    def __init__(self, field: str, rule: str, message: str) -> None:
        self.field = field
        self.rule = rule
        self.message = message
        super().__init__(self.line())

    def line(self) -> str:
        """One line for the organiser: field, message, rule (once, if the message already
        cites it as "(R18: the deal alternates ...)")."""
        if f"({self.rule}" in self.message:
            return f"{self.field}: {self.message}"
        return f"{self.field}: {self.message} ({self.rule})"

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "rule": self.rule, "message": self.message}


class NotFoundError(DomainError):
    """A tournament, player, round, match or result that does not exist."""


class ConflictError(DomainError):
    """A command that contradicts what is already recorded (a decided match, a started round)."""

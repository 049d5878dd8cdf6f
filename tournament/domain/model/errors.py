"""The domain's typed errors: every refusal names the field, the rule and what is wrong.

Commands raise these *before* anything is written, so a refused command stores nothing::

    try:
        events = record_hand(state, match_id="1.3", winner=7, game_points=4)
    except DomainError as error:
        print(error.field, error.rule, error.message)   # game_points R13 a hand is worth ...

``rule`` is a rule id of docs/rules.md (``R13``, ``R17`` ...) where one applies, otherwise a
short tournament rule name of docs/tournaments.md (``T-player``, ``T-round`` ...).

A refusal raised with a ``code`` (a key of :data:`tournament.domain.words.messages.TEMPLATES`)
and its ``params`` builds its English ``message`` from the code's template, so a page can
render the same refusal in German from the same code and params (issue 11)::

    DomainError("tally", "R13", code="tally.step_too_large", params={"hand": 2, ...})

Given both a message and a code, the message is kept as given (a refusal raised again
as another kind of error keeps its code and its words).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournament.domain.words.messages import Param, english, param, plain


class DomainError(ValueError):
    """A command the tournament's rules refuse."""

    def __init__(
        self,
        field: str,
        rule: str,
        message: str | None = None,
        *,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        self.field = field
        self.rule = rule
        self.code = code
        # Each value as an f-string would have shown it, so the template filled with the
        # params is exactly the English text the raise site wrote before it had a code.
        self.params: dict[str, Param] = {k: param(v) for k, v in (params or {}).items()}
        if message is None:
            if code is None:
                raise TypeError("DomainError needs a message or a code")
            message = english(code, self.params)
        self.message = message
        super().__init__(self.line())

    def line(self) -> str:
        """One line for the organiser: field, message, rule (once, if the message already
        cites it as "(R18: the deal alternates ...)")."""
        if f"({self.rule}" in self.message:
            return f"{self.field}: {self.message}"
        return f"{self.field}: {self.message} ({self.rule})"

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"field": self.field, "rule": self.rule, "message": self.message}
        if self.code is not None:
            body["code"] = self.code
            body["params"] = plain(self.params)
        return body


class NotFoundError(DomainError):
    """A tournament, player, round, match or result that does not exist."""


class ConflictError(DomainError):
    """A command that contradicts what is already recorded (a decided match, a started round)."""

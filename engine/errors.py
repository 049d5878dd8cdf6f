"""The engine's exception family. Every error names the rule it enforces.

``EngineError`` is the root; catch it to handle anything the engine refuses::

    try:
        state = state.apply(action)
    except IllegalActionError as error:
        print(error.rule, error.message)    # e.g. "R6", "must follow suit ..."

``rule`` is a rule id of docs/rules.md (``R0`` .. ``R20``) or ``format`` for input that is not
in the shape of the record format at all (bad JSON, missing fields).
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class: something the rules (or the record format) do not allow."""

    def __init__(self, rule: str, message: str, index: int | None = None) -> None:
        super().__init__(f"{rule}: {message}" if index is None else f"{rule} at {index}: {message}")
        self.rule = rule
        self.message = message
        self.index = index

    def with_index(self, index: int) -> EngineError:
        """The same error, located at action ``index`` of a record."""
        return type(self)(self.rule, self.message, index)

    def to_json(self) -> dict[str, object]:
        """The error object of docs/rules.md: ``{"index": 4, "rule": "R6", "message": "..."}``."""
        return {"index": self.index, "rule": self.rule, "message": self.message}


class IllegalActionError(EngineError):
    """An action that the rules do not allow in this state (R0-R16)."""


class RecordFormatError(EngineError):
    """A record, action or card that is not in the form of schnapsen-record/1."""


class IllegalResultError(EngineError):
    """A hand result that a Bummerl or match cannot take (R17-R20)."""

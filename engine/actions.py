"""Actions a seat takes in a hand, with a text notation and the record's JSON form.

    >>> from engine.actions import Action
    >>> a = Action.parse("1:KS+marriage")
    >>> a
    Action.parse('1:KS+marriage')
    >>> a.to_json()
    {'seat': 1, 'action': 'play', 'card': 'KS', 'marriage': True}
    >>> Action.from_json(a.to_json()) == a
    True
    >>> str(Action.claim(0)), str(Action.play(0, "10H"))
    ('0:claim', '0:TH')

Text notation: ``SEAT:WHAT`` where WHAT is a card code (a play), a card code followed by
``+marriage`` (a play that declares a marriage, R10), ``exchange`` (R8), ``close`` (R9) or
``claim`` (R12).
"""

from __future__ import annotations

import enum
from typing import Any, Final

from engine.cards import ALL_CARDS, Card, is_seat
from engine.errors import RecordFormatError


class Kind(enum.IntEnum):
    PLAY = 0
    EXCHANGE = 1
    CLOSE = 2
    CLAIM = 3

    @property
    def word(self) -> str:
        return _KIND_WORDS[self]


_KIND_WORDS: Final = ("play", "exchange", "close", "claim")
_KIND_BY_WORD: Final = {word: Kind(i) for i, word in enumerate(_KIND_WORDS)}
_ACTION_KEYS: Final = frozenset({"seat", "action", "card", "marriage"})


class Action:
    """One action of one seat. Immutable and hashable; equal actions compare equal."""

    __slots__ = ("card", "kind", "marriage", "seat")

    seat: int
    kind: Kind
    card: Card | None
    marriage: bool

    def __init__(self, seat: int, kind: Kind, card: Card | None = None, marriage: bool = False):
        if not is_seat(seat):
            raise RecordFormatError("R0", f"seat must be 0 or 1, not {seat!r}")
        if (kind == Kind.PLAY) != (card is not None):
            raise RecordFormatError("R0", "a play names exactly one card; other actions none")
        if marriage and kind != Kind.PLAY:
            raise RecordFormatError("R0", "only a play can declare a marriage")
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "marriage", bool(marriage))

    # --- constructors -----------------------------------------------------------------------
    @classmethod
    def play(cls, seat: int, card: Card | str, marriage: bool = False) -> Action:
        return cls(seat, Kind.PLAY, card if isinstance(card, Card) else Card.parse(card), marriage)

    @classmethod
    def exchange(cls, seat: int) -> Action:
        return cls(seat, Kind.EXCHANGE)

    @classmethod
    def close(cls, seat: int) -> Action:
        return cls(seat, Kind.CLOSE)

    @classmethod
    def claim(cls, seat: int) -> Action:
        return cls(seat, Kind.CLAIM)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the text notation (``1:KS``, ``1:KS+marriage``, ``0:exchange``, ...)."""
        seat_text, sep, what = text.strip().partition(":")
        if not sep or seat_text not in ("0", "1"):
            raise RecordFormatError("R0", f"action {text!r} must look like '0:TH' or '1:claim'")
        seat = int(seat_text)
        word = what.strip().lower()
        if word in _KIND_BY_WORD and word != "play":
            return cls(seat, _KIND_BY_WORD[word])
        code, plus, flag = what.partition("+")
        if plus and flag.strip().lower() != "marriage":
            raise RecordFormatError("R0", f"action {text!r}: only '+marriage' may follow a card")
        try:
            card = Card.parse(code)
        except ValueError as error:
            raise RecordFormatError("R0", str(error)) from None
        return cls(seat, Kind.PLAY, card, bool(plus))

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Read one action object of schnapsen-record/1; anything else is a R0 format error."""
        # Fast path: records repeat a universe of 86 actions in their canonical spelling.
        try:
            cached = _CANONICAL.get(
                (data["seat"], data["action"], data.get("card"), data.get("marriage"))
            )
        except (TypeError, KeyError, AttributeError):
            cached = None
        if (
            cached is not None
            and type(data["seat"]) is int
            and type(data.get("marriage", False)) is bool
            and len(data) == 2 + ("card" in data) + ("marriage" in data)
        ):
            return cached
        if not isinstance(data, dict):
            raise RecordFormatError("R0", f"an action must be a JSON object, not {data!r}")
        unknown = set(data) - _ACTION_KEYS
        if unknown:
            raise RecordFormatError("R0", f"unknown action field(s) {sorted(unknown)}")
        seat = data.get("seat")
        if not is_seat(seat):
            raise RecordFormatError("R0", f"'seat' must be 0 or 1, not {seat!r}")
        word = data.get("action")
        kind = _KIND_BY_WORD.get(word) if isinstance(word, str) else None
        if kind is None:
            raise RecordFormatError(
                "R0", f"'action' must be one of {list(_KIND_WORDS)}, not {word!r}"
            )
        marriage = data.get("marriage", False)
        if not isinstance(marriage, bool):
            raise RecordFormatError("R0", f"'marriage' must be true or false, not {marriage!r}")
        if kind != Kind.PLAY:
            if "card" in data or "marriage" in data:
                raise RecordFormatError("R0", f"a {word} action takes no 'card' or 'marriage'")
            return cls(seat, kind)
        if "card" not in data:
            raise RecordFormatError("R0", "a play needs a 'card'")
        try:
            card = Card.parse(data["card"])
        except ValueError as error:
            raise RecordFormatError("R0", str(error)) from None
        return cls(seat, kind, card, marriage)

    # --- output -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "action": self.kind.word}
        if self.card is not None:
            data["card"] = self.card.code
            if self.marriage:
                data["marriage"] = True
        return data

    def __str__(self) -> str:
        if self.card is None:
            return f"{self.seat}:{self.kind.word}"
        return f"{self.seat}:{self.card.code}{'+marriage' if self.marriage else ''}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    # --- value semantics --------------------------------------------------------------------
    def _key(self) -> tuple[int, int, int, bool]:
        return (self.seat, self.kind, -1 if self.card is None else self.card.index, self.marriage)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __lt__(self, other: Action) -> bool:
        return self._key() < other._key()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Action.parse, (str(self),))


def all_actions() -> list[Action]:
    """Every action that can be written down: the universe the legality properties range over."""
    result: list[Action] = []
    for seat in (0, 1):
        for card in ALL_CARDS:
            result.append(Action(seat, Kind.PLAY, card))
            result.append(Action(seat, Kind.PLAY, card, True))
        result.extend(Action(seat, kind) for kind in (Kind.EXCHANGE, Kind.CLOSE, Kind.CLAIM))
    return result


def _canonical_key(action: Action) -> tuple[int, str, str | None, bool | None]:
    data = action.to_json()
    return (action.seat, data["action"], data.get("card"), data.get("marriage"))


_CANONICAL: Final = {_canonical_key(a): a for a in all_actions()}

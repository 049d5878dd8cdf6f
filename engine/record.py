"""The game record format ``schnapsen-record/1``: read, write, replay.

A record is one hand as JSON (JSON Lines hold one per line)::

    >>> from engine.record import GameRecord
    >>> text = ('{"format": "schnapsen-record/1", "variants": [], "dealer": 0, '
    ...         '"deck": ["QS","AH","TC","KC","QC","JH","KH","TD","AD","AS",'
    ...         '"TS","JS","JD","KD","QD","JC","KS","QH","TH","AC"], '
    ...         '"actions": [{"seat": 1, "action": "play", "card": "AH"}]}')
    >>> record = GameRecord.loads(text)
    >>> record.replay().to_act
    (0,)
    >>> GameRecord.loads(record.dumps()) == record
    True

Reading is strict about the shape (a typo such as ``"mariage"`` is an error, not a silently
ignored field) and lenient about card spelling (``10H`` and ``♥10`` read as ``TH``). Fields
beyond the format's own (for example ``outcome``, or a club's ``event`` tag) are kept and
written back unchanged, so reading and writing a record loses nothing.

Text in the exact form :meth:`GameRecord.dumps` writes is read by a shortcut
(:mod:`engine.fastread`) with the same result; anything else by strict JSON and
:meth:`GameRecord.from_json`.
"""

from __future__ import annotations

import codecs
import dataclasses
import json
from collections.abc import Iterable, Iterator
from typing import Any, Final

from engine.actions import Action
from engine.cards import Card, is_seat
from engine.errors import EngineError, IllegalActionError, RecordFormatError
from engine.fastread import canonical_record
from engine.hand import HandState, _read_deck
from engine.outcome import Outcome
from engine.rules import Ruleset

FORMAT: Final = "schnapsen-record/1"
_OWN_KEYS: Final = ("format", "variants", "dealer", "deck", "actions")


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """One hand: the variants, the dealer, the deck order and the actions taken."""

    deck: tuple[Card, ...]
    dealer: int = 0
    variants: tuple[str, ...] = ()
    actions: tuple[Action, ...] = ()
    extra: dict[str, Any] = dataclasses.field(default_factory=dict, compare=True)

    @property
    def rules(self) -> Ruleset:
        return Ruleset.from_names(self.variants)

    # --- replay -------------------------------------------------------------------------
    def start(self) -> HandState:
        """The state right after the deal."""
        return HandState.deal(self.deck, self.dealer, self.rules)

    def replay(self) -> HandState:
        """The state after all actions; an illegal one raises with its ``index``."""
        state = self.start()
        apply = state._apply_in_place
        for index, action in enumerate(self.actions):
            try:
                apply(action)
            except IllegalActionError as error:
                raise error.with_index(index) from None
        return state

    def outcome(self) -> Outcome:
        return self.replay().outcome()

    def with_actions(self, actions: Iterable[Action]) -> GameRecord:
        return dataclasses.replace(self, actions=tuple(actions))

    # --- JSON ---------------------------------------------------------------------------
    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a decoded JSON object; a shape error is a :class:`RecordFormatError`."""
        if not isinstance(data, dict):
            raise RecordFormatError("format", "a record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordFormatError(
                "format", f"'format' must be {FORMAT!r}, not {data.get('format')!r}"
            )
        for key in ("dealer", "deck", "actions"):
            if key not in data:
                raise RecordFormatError("format", f"the record has no {key!r}")
        variants = data.get("variants", [])
        if not isinstance(variants, list):
            raise RecordFormatError("format", "'variants' must be a list of variant names")
        if len(set(map(str, variants))) != len(variants):
            raise RecordFormatError("format", "'variants' names a variant twice")
        Ruleset.from_names(variants)  # validates the names
        dealer = data["dealer"]
        if not is_seat(dealer):
            raise RecordFormatError("R2", f"'dealer' must be seat 0 or 1, not {dealer!r}")
        if not isinstance(data["deck"], list):
            raise RecordFormatError("R1", "'deck' must be a list of 20 card codes")
        deck = tuple(_read_deck(data["deck"]))
        raw_actions = data["actions"]
        if not isinstance(raw_actions, list):
            raise RecordFormatError("format", "'actions' must be a list")
        actions = []
        for index, item in enumerate(raw_actions):
            try:
                actions.append(Action.from_json(item))
            except EngineError as error:
                raise error.with_index(index) from None
        extra = {k: v for k, v in data.items() if k not in _OWN_KEYS}
        return cls(deck, dealer, tuple(variants), tuple(actions), extra)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "variants": list(self.variants),
            "dealer": self.dealer,
            "deck": [card.code for card in self.deck],
            "actions": [action.to_json() for action in self.actions],
        }
        data.update(self.extra)
        return data

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Read one record from JSON text (strict JSON, see :func:`decode_json`)."""
        record = canonical_record(text, cls)
        if record is not None:
            return record
        return cls.from_json(decode_json(text))

    def dumps(self) -> str:
        """One line of JSON (the JSON Lines form)."""
        return _encode(self.to_json())


#: ``json.dumps(obj, ensure_ascii=False)`` without building an encoder per call.
_encode: Final = json.JSONEncoder(ensure_ascii=False).encode


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):  # only then look for the culprit
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RecordFormatError("format", f"the key {key!r} appears twice in one object")
            seen.add(key)
    return data


def _no_constant(name: str) -> Any:
    raise RecordFormatError("format", f"{name} is not a JSON number")


def decode_json(text: str) -> Any:
    """Strict JSON: no duplicate keys, no NaN or Infinity, and any failure (bad syntax,
    nesting too deep, a number too long) is a :class:`RecordFormatError`, never a crash."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except RecordFormatError:
        raise
    except json.JSONDecodeError as error:
        raise RecordFormatError("format", f"not valid JSON: {error}") from None
    except (ValueError, RecursionError) as error:
        # Python refuses integers of more than 4,300 digits and nesting deeper than its
        # recursion limit; both are input errors here.
        reason = "nested too deeply" if isinstance(error, RecursionError) else str(error)
        raise RecordFormatError("format", f"not valid JSON: {reason}") from None


def replay_result(data: Any) -> dict[str, Any]:
    """What ``python -m engine replay`` prints for one decoded record: outcome or error."""
    try:
        return GameRecord.from_json(data).outcome().to_json()
    except EngineError as error:
        return {"error": error.to_json()}


def _on_line(number: int, error: RecordFormatError) -> RecordFormatError:
    return RecordFormatError("format", f"line {number}: {error.message}")


def read_line(number: int, line: str) -> GameRecord | EngineError | None:
    """Line ``number`` of a JSON Lines text as a record, or the error it gives (a JSON
    error names the line); None for a blank line."""
    record = canonical_record(line, GameRecord)
    if record is not None:
        return record
    if not line.strip():
        return None
    try:
        data = decode_json(line)
    except RecordFormatError as error:
        return _on_line(number, error)
    try:
        return GameRecord.from_json(data)
    except EngineError as error:
        return error


def read_records(lines: Iterable[str]) -> Iterator[GameRecord | EngineError]:
    """Records of a JSON Lines text; a bad line yields its error instead of stopping."""
    for number, line in enumerate(lines, start=1):
        item = read_line(number, line)
        if item is not None:
            yield item


def read_jsonl(data: bytes | str) -> Iterator[GameRecord | EngineError]:
    """Records of a JSON Lines file, one per line, as :func:`read_records`.

    Lines end with ``\\n`` (``\\r\\n`` too); a UTF-8 byte order mark at the start is skipped.
    A line that is not UTF-8 is an error for that line only: the other lines are read.
    """
    lines: Iterable[str | RecordFormatError]
    if isinstance(data, str):
        lines = data.removeprefix("\ufeff").split("\n")
    else:
        data = data.removeprefix(codecs.BOM_UTF8)
        try:
            lines = data.decode("utf-8").split("\n")
        except UnicodeDecodeError:  # rare: find the lines that are not UTF-8
            lines = map(_utf8_line, data.split(b"\n"))
    for number, line in enumerate(lines, start=1):
        if isinstance(line, RecordFormatError):
            yield _on_line(number, line)
            continue
        item = read_line(number, line.removesuffix("\r"))
        if item is not None:
            yield item


def _utf8_line(line: bytes) -> str | RecordFormatError:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as error:
        byte = error.object[error.start]
        where = f"byte 0x{byte:02x} at position {error.start} ({error.reason})"
        return RecordFormatError("format", f"cannot read it as UTF-8: {where}")


def write_records(records: Iterable[GameRecord]) -> str:
    return "".join(record.dumps() + "\n" for record in records)

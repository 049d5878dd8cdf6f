"""Reading a record in the exact form the engine writes, without a generic JSON decode.

Almost every line a club replays was written by the engine (``GameRecord.dumps``, ``python
-m engine random``, the service's exports): the own fields in their order, card codes and
actions in their canonical spelling, Python's separators. :func:`canonical_record` reads
such a line with one regular expression and look-ups of whole pieces of text (a quoted
card code, the body of an action object) instead of building a dictionary per action and
then checking it; only the extra fields (an ``outcome``, a club's tags) are decoded as
JSON. Reading JSON text was more than half of the time of a replay before.

It answers None for anything else -- other spelling or spacing, fields in another order,
a duplicate key, anything it is not sure of -- and the caller reads the line the careful
way (strict JSON, then ``GameRecord.from_json``), which also names the error. So it never
accepts what the careful path refuses, and returns what that path returns:
tests/engine/test_fastread.py checks both on valid records and on mangled ones.

    >>> from engine.record import GameRecord
    >>> line = ('{"format": "schnapsen-record/1", "variants": [], "dealer": 0, '
    ...         '"deck": ["QS", "AH", "TC", "KC", "QC", "JH", "KH", "TD", "AD", "AS", '
    ...         '"TS", "JS", "JD", "KD", "QD", "JC", "KS", "QH", "TH", "AC"], '
    ...         '"actions": [{"seat": 1, "action": "play", "card": "AH"}], "table": 4}')
    >>> record = canonical_record(line, GameRecord)
    >>> record.deck[1], record.actions, record.extra
    (Card.parse('AH'), (Action.parse('1:AH'),), {'table': 4})
    >>> canonical_record(line.replace('"AH"', '"10H"', 1), GameRecord) is None  # careful path
    True
"""

from __future__ import annotations

import json
import json.scanner
import re
from operator import itemgetter
from typing import Any, Final, TypeVar, cast

from engine.actions import all_actions
from engine.cards import ALL_CARDS
from engine.errors import EngineError
from engine.rules import VARIANTS, Ruleset

R = TypeVar("R")

#: The own fields as ``dumps`` writes them; each group is checked piece by piece below.
_LINE: Final = re.compile(
    r'\{"format": "schnapsen-record/1", "variants": \[([^\]]*)\], "dealer": ([01]), '
    r'"deck": \[([^\]]*)\], "actions": \[([^\]]*)\](.*)\}',
    re.DOTALL,
)
_QUOTED_CARD: Final = {f'"{card.code}"': card for card in ALL_CARDS}
_QUOTED_VARIANT: Final = {f'"{name}"': name for name in VARIANTS}
#: ``"seat": 1, "action": "play", "card": "AH"`` -> the action, for all 86 of them.
_ACTION_BODY: Final = {json.dumps(a.to_json())[1:-1]: a for a in all_actions()}
_OWN_KEYS: Final = frozenset({"format", "variants", "dealer", "deck", "actions"})


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


#: A plain JSON scanner for the extra fields (NaN and Infinity refused): ``(value, end)``
#: of the JSON value at an index. A repeated key inside a value is found by counting.
_scan: Final = json.scanner.make_scanner(cast(Any, json.JSONDecoder(parse_constant=_no_constant)))


def _pairs(value: dict[str, Any] | list[Any]) -> int:
    """Key-value pairs of the objects in a decoded JSON value, at any depth."""
    items = value.values() if type(value) is dict else value
    count = len(value) if type(value) is dict else 0
    for item in items:
        if type(item) is dict or type(item) is list:
            count += _pairs(item)
    return count


def _look_up(table: dict[str, Any], pieces: list[str]) -> tuple[Any, ...]:
    """The table's values of all the pieces, in one call (KeyError for an unknown one)."""
    found = itemgetter(*pieces)(table)
    return found if len(pieces) > 1 else (found,)


def canonical_record(text: str, make: type[R]) -> R | None:
    """``make(deck, dealer, variants, actions, extra)`` of a record written the engine's
    way; None for any other text (it may still be a good record: read it carefully)."""
    match = _LINE.fullmatch(text)
    if match is None:
        return None
    variants_text, dealer_text, deck_text, actions_text, rest = match.groups()
    codes = deck_text.split(", ")
    # Twenty distinct codes, each one of the twenty cards: the pack (R1).
    if len(codes) != 20 or len(set(codes)) != 20:
        return None
    try:
        deck = itemgetter(*codes)(_QUOTED_CARD)
        actions: tuple[Any, ...] = ()
        if actions_text:
            if actions_text[0] != "{" or actions_text[-1] != "}":
                return None
            actions = _look_up(_ACTION_BODY, actions_text[1:-1].split("}, {"))
        variants: tuple[Any, ...] = ()
        if variants_text:
            variants = _look_up(_QUOTED_VARIANT, variants_text.split(", "))
            if len(set(variants)) != len(variants):
                return None
            Ruleset.from_names(variants)  # the two visibility variants exclude each other
    except (KeyError, EngineError):
        return None
    extra = _extra_fields(text, match.start(5)) if rest else {}
    if extra is None:
        return None
    return make(deck, int(dealer_text), variants, actions, extra)  # type: ignore[call-arg]


def _extra_fields(text: str, at: int) -> dict[str, Any] | None:
    """The members ``, "key": value`` from ``at`` to the closing brace, decoded; None if
    they are not exactly that (a key repeated or one of the own fields included)."""
    extra: dict[str, Any] = {}
    last = len(text) - 1
    try:
        while at < last:
            if not text.startswith(', "', at):
                return None
            key, at = _scan(text, at + 2)
            if not text.startswith(": ", at) or key in extra or key in _OWN_KEYS:
                return None
            start = at + 2
            value, at = _scan(text, start)
            # One colon per key-value pair: as many pairs decoded as colons in the value's
            # text proves that no object in it repeated a key (a repeat keeps one pair for
            # two colons). Colons inside strings just send the line to the careful path.
            if type(value) is dict or type(value) is list:
                colons = text.count(":", start, at)
                top = len(value) if type(value) is dict else 0  # enough without nesting
                if colons != top and colons != _pairs(value):
                    return None
            extra[key] = value
    except (ValueError, RecursionError, StopIteration):
        return None
    return extra if at == last else None

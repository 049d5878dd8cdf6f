"""Reading records from JSON text: the shortcut for the engine's own form and the careful
path agree on every line -- the same record, or the same error -- so the speed costs no
strictness (duplicate keys, NaN, nesting and every error of docs/game-record.md).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import EngineError, GameRecord
from engine.fastread import canonical_record
from engine.randomplay import random_records
from engine.record import decode_json, read_jsonl

RECORDS = list(random_records(seed=20261122, count=300))
VARIANTS = list(random_records(seed=5, count=40, variants=["no-close-at-two", "own-tricks-hidden"]))
LINES = [r.dumps() for r in RECORDS + VARIANTS]

#: Extra fields a club or another tool may add, each kept as it is.
EXTRAS: list[dict[str, Any]] = [
    {},
    {"table": 4},
    {"event": "Club night", "round": 3, "tags": ["a", "b"], "ok": True, "none": None},
    {"event": "Freitag 19:30"},  # a colon in a string
    {"when": {"time": "19:30"}},  # and in a nested string: read carefully
    {"nested": {"a": {"b": [1, {"c": 2}]}}, "x": -0.5e3},
    {"name": 'Müller \u2028 "quoted" \\ back'},
]


def careful(text: str) -> GameRecord | tuple[str, int | None, str]:
    """What strict JSON and ``GameRecord.from_json`` make of ``text``."""
    try:
        return GameRecord.from_json(decode_json(text))
    except EngineError as error:
        return (error.rule, error.index, error.message)


def loaded(text: str) -> GameRecord | tuple[str, int | None, str]:
    try:
        return GameRecord.loads(text)
    except EngineError as error:
        return (error.rule, error.index, error.message)


def test_every_line_the_engine_writes_takes_the_shortcut_to_the_same_record() -> None:
    for record in RECORDS + VARIANTS:
        for extra in EXTRAS:
            line = GameRecord(record.deck, record.dealer, record.variants, record.actions, extra)
            text = line.dumps()
            fast = canonical_record(text, GameRecord)
            if "when" in extra:
                assert fast is None  # the careful path reads it (with the same result)
            else:
                assert fast == careful(text), text
            assert loaded(text) == careful(text)


def test_other_spellings_of_a_good_record_are_read_carefully_with_the_same_result() -> None:
    data = RECORDS[0].to_json()
    texts = [
        json.dumps(data, separators=(",", ":")),
        json.dumps(data, indent=1),
        json.dumps({**data, "deck": [c.lower() for c in data["deck"]]}),
        json.dumps(dict(reversed(list(data.items())))),
        " " + RECORDS[0].dumps(),
        RECORDS[0].dumps() + " ",
        json.dumps({k: v for k, v in data.items() if k != "variants"}),
    ]
    for text in texts:
        assert canonical_record(text, GameRecord) is None
        assert GameRecord.loads(text) == RECORDS[0]


def extra(members: str) -> Any:
    """A change adding ``members`` as the record's last fields."""
    return lambda text: text[:-1] + members + "}"


def swap(old: str, new: str, count: int = 1) -> Any:
    return lambda text: text.replace(old, new, count)


def both_dealers(text: str) -> str:
    return text.replace('"dealer": 0', '"dealer": 2').replace('"dealer": 1', '"dealer": 2')


NO_VARIANTS = '"variants": []'


@pytest.mark.parametrize(
    "change, rule",
    [
        pytest.param(extra(', "outcome": 1'), "format", id="outcome-twice"),
        pytest.param(extra(', "dealer": 1'), "format", id="own-field-twice"),
        pytest.param(extra(', "x": 1, "x": 2'), "format", id="extra-field-twice"),
        pytest.param(
            swap('"outcome": {', '"outcome": {"winner": 0, '), "format", id="nested-key-twice"
        ),
        pytest.param(extra(', "x": [{"a": 1, "a": 2}]'), "format", id="key-twice-in-a-list"),
        pytest.param(extra(', "x": {"y": {"a": 1, "a": 2}}'), "format", id="key-twice-deep"),
        pytest.param(extra(', "x": NaN'), "format", id="nan"),
        pytest.param(extra(', "x": [-Infinity]'), "format", id="infinity"),
        pytest.param(extra(', "x": ' + "[" * 100_000 + "]" * 100_000), "format", id="deep"),
        pytest.param(extra(", "), "format", id="trailing-comma"),
        pytest.param(extra(', "x": 1 '), None, id="space-before-the-brace"),
        pytest.param(lambda t: t + "}", "format", id="extra-data"),
        pytest.param(swap('"deck": ["', '"deck": ["AH", "'), "R1", id="21-cards"),
        pytest.param(swap('"deck": ["', '"deck": ["AH", "AH", "'), "R1", id="card-twice"),
        pytest.param(both_dealers, "R2", id="dealer-2"),
        pytest.param(
            swap(NO_VARIANTS, '"variants": ["no-close-at-two", "no-close-at-two"]'),
            "format",
            id="variant-twice",
        ),
        pytest.param(
            swap(NO_VARIANTS, '"variants": ["own-tricks-hidden", "first-tricks-visible"]'),
            "format",
            id="visibility-variants",
        ),
        pytest.param(swap(NO_VARIANTS, '"variants": ["no-such"]'), "format", id="unknown-variant"),
        pytest.param(
            swap('"action": "play"', '"action": "play", "mariage": true'), "R0", id="typo"
        ),
        pytest.param(swap('"seat": 0', '"seat": false'), "R0", id="seat-false"),
        pytest.param(swap('"seat": 1', '"seat": 1.0'), "R0", id="seat-float"),
        pytest.param(
            swap('"seat": 1, "action"', '"seat": 1, "seat": 1, "action"'), "format", id="seat-twice"
        ),
    ],
)
def test_a_mangled_line_gives_the_careful_paths_error(change: Any, rule: str | None) -> None:
    for record in RECORDS[:40]:
        text = change(record.dumps())
        assert loaded(text) == careful(text), text
        if rule is not None and text != record.dumps():
            result = careful(text)
            assert isinstance(result, tuple) and result[0] == rule, (text, result)


#: Pieces of text a random edit inserts: JSON's punctuation, keys, escapes, separators.
PIECES = ['"', ":", ", ", "{", "}", "[", "]", "\\", "1", "AH", "true", "NaN", " ", "é"]
PIECES += ['"seat": 0, ', '"dealer": 1, ', "\u2028", ', "x": 1']

MANGLE = st.tuples(
    st.sampled_from(LINES),
    st.lists(
        st.tuples(
            st.integers(0, 10_000),
            st.integers(0, 3),
            st.sampled_from(PIECES),
        ),
        min_size=1,
        max_size=4,
    ),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MANGLE)
def test_random_edits_never_make_the_shortcut_disagree(case: Any) -> None:
    text, edits = case
    for position, delete, insert in edits:
        position %= len(text) + 1
        text = text[:position] + insert + text[position + delete :]
    assert loaded(text) == careful(text), text


def test_a_line_that_is_not_utf8_is_an_error_for_that_line_only() -> None:
    good = [line.encode() for line in LINES[:3]]
    bad = b'{"format": "schnapsen-record/1", "event": "\xed\xa0"}'  # a lone surrogate
    data = b"\n".join([good[0], bad, *good[1:]])
    items = list(read_jsonl(data))
    assert [isinstance(i, EngineError) for i in items] == [False, True, False, False]
    error = items[1]
    assert isinstance(error, EngineError)
    assert (error.rule, error.index) == ("format", None)
    assert error.message == (
        "line 2: cannot read it as UTF-8: byte 0xed at position 43 (invalid continuation byte)"
    )
    assert items[0] == RECORDS[0] and items[3] == RECORDS[2]


def test_crlf_line_ends_a_byte_order_mark_and_blank_lines_are_read() -> None:
    data = b"\xef\xbb\xbf" + b"\r\n".join(line.encode() for line in LINES[:2]) + b"\r\n\r\n"
    assert list(read_jsonl(data)) == RECORDS[:2]


def test_a_line_separator_inside_a_string_does_not_split_the_line() -> None:
    record = GameRecord(RECORDS[0].deck, 0, (), (), {"note": "a\u2028b\x85c"})
    assert list(read_jsonl(record.dumps().encode() + b"\n")) == [record]

"""The read path's fast decoders return and raise exactly what the general ones do."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

import pytest

from tournament.eventstore.sqlite_backend import text_time, text_uuid
from tournament.eventstore.store import _loads

JSON_TEXTS = [
    '{"action":"play","card":"AH","seat":1}',  # canonical: the fast path
    '{"a":[1,2.5,{"b":null}],"c":"Schnapsen ♥"}',
    '{"a": 1} ',  # whitespace: not canonical, still what json.loads reads
    " [1]",
    "[]",
    '"text"',
]
BAD_JSON = ['{"a":1}x', "", "{", '{"a":1}{}', "nope"]


@pytest.mark.parametrize("text", JSON_TEXTS)
def test_loads_matches_json_loads(text: str) -> None:
    assert _loads(text) == json.loads(text)


@pytest.mark.parametrize("text", BAD_JSON)
def test_loads_raises_what_json_loads_raises(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    with pytest.raises(json.JSONDecodeError, match=expected.value.msg):
        _loads(text)


def test_loads_returns_a_new_object_each_time() -> None:
    text = '{"a":{"b":1}}'
    first, second = _loads(text), _loads(text)
    first["a"]["b"] = 2
    assert second == {"a": {"b": 1}}


# Fixed values: test ids must be the same in every worker process (pytest-xdist).
_SOME = [uuid.UUID(int=n * 0x1F2E3D4C5B6A79881726354453627180) for n in (1, 2, 3, 4)]
UUIDS = [str(_SOME[0]), str(_SOME[1]).upper(), _SOME[2].hex, f"{{{_SOME[3]}}}"]
BAD_UUIDS = ["", "abc", "g" * 32, "1234", "0" * 31 + "_"]


@pytest.mark.parametrize("text", UUIDS)
def test_uuid_matches_uuid(text: str) -> None:
    fast, general = text_uuid(text), uuid.UUID(text)
    assert fast == general and hash(fast) == hash(general) and str(fast) == str(general)
    assert fast.is_safe == general.is_safe and fast.version == general.version


@pytest.mark.parametrize("text", BAD_UUIDS)
def test_uuid_raises_what_uuid_raises(text: str) -> None:
    with pytest.raises(ValueError):
        uuid.UUID(text)
    with pytest.raises(ValueError):
        text_uuid(text)


@pytest.mark.parametrize(
    "text",
    ["2025-03-01 18:02:11.123456", "2025-03-01T18:02:11", "2025-03-01 18:02:11+01:00"],
)
def test_time_matches_fromisoformat(text: str) -> None:
    expected = datetime.fromisoformat(text).replace(tzinfo=UTC)
    got = text_time(text)
    assert got == expected and got.tzinfo is UTC and got.utcoffset() == expected.utcoffset()


def test_time_raises_on_garbage() -> None:
    with pytest.raises(ValueError):
        text_time("yesterday")

"""Every event type is a typed, immutable value carrying its schema version, and reading a
stored payload into it and back gives exactly the stored payload (same keys, same values:
stored logs and their hash chain do not change)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tournament.domain.model import events as ev
from tournament.eventstore.registry import REGISTRY

ROWS = [["1.1", 1, 1, 2, 1], ["R4-1b", 2, 3, 4, None, "R4-1"], ["R1-1", 3, 5, 6, None, True]]

#: Per type, payloads as the commands store them: every key each may carry, and the fewest.
PAYLOADS: dict[str, list[dict[str, Any]]] = {
    ev.TOURNAMENT_CREATED: [
        {"tournament_id": "t1", "settings": {"name": "Cup", "format": "swiss", "options": {}}}
    ],
    ev.PLAYER_REGISTERED: [
        {"player_id": 1, "name": "Anna"},
        {
            "player_id": 7,
            "name": "Berti",
            "club": "SK Wien",
            "category": "U18",
            "rating": 1500,
            "late": True,
            "missed_rounds": 2,
            "missed_rounds_score": "zero",
        },
    ],
    ev.PLAYER_CHECKED_IN: [{"player_id": 1}],
    ev.PLAYER_CHECKED_OUT: [{"player_id": 1}],
    ev.PLAYER_EDITED: [
        {"player_id": 1, "changes": {"rating": None}, "previous": {"rating": 1400}},
        {
            "player_id": 1,
            "changes": {"name": "Ann", "club": ""},
            "previous": {"name": "A", "club": "X"},
        },
    ],
    ev.PLAYER_WITHDRAWN: [
        {"player_id": 3, "policy": "forfeit"},
        {"player_id": 3, "policy": "drop", "reason": "ill", "dropped": []},
        {"player_id": 3, "policy": "drop", "dropped": ["2.1", "3.4"]},
    ],
    ev.PLAYERS_SEEDED: [
        {"method": "rating", "order": [2, 1, 3]},
        {"method": "draw", "seed": 3507749787, "order": [3, 1, 2]},
    ],
    ev.LIFE_BOUGHT: [{"player_id": 4, "before_round": 3}],
    ev.ROUND_STARTED: [
        {"round": 1, "seed": 0, "stage": "", "byes": [], "match_count": 3, "matches": ROWS},
        {
            "round": 2,
            "seed": 99,
            "stage": "knockout",
            "byes": [7],
            "match_count": 5,
            "matches": ROWS[:1],
            "idle": [8, 9],
            "override": True,
            "warnings": ["repeat 1-2"],
            "info": {"bracket": {"size": 8, "matches": [["R1-1", None, None]]}, "seeds": [1, 2]},
        },
    ],
    ev.ROUND_TABLES: [
        {"round": 2, "matches": ROWS[1:]},
        {"round": 2, "matches": [], "bracket": [["R2-1", "R1-1", "R1-2"]]},
    ],
    ev.ROUND_CANCELLED: [
        {"round": 3, "why": "wrong pairing", "cancellation": 1},
        {"round": 3, "why": "x", "cancellation": 2, "by": "Maria"},
    ],
    ev.FIRST_DEALER_SET: [{"match_id": "1.1", "player_id": 2}],
    ev.HAND_RECORDED: [
        {"result_id": "r1", "match_id": "1.1", "winner": 1, "game_points": 2},
        {
            "result_id": "r2",
            "match_id": "1.1",
            "winner": 2,
            "game_points": 3,
            "dealer": 1,
            "reason": "points",
            "card_points": [66, 0],
            "closed": True,
            "scorer": 2,
            "sheet": {"by": "Maria", "reason": "sheet re-read"},
        },
    ],
    ev.TALLY_RECORDED: [
        {"result_id": "r3", "match_id": "R1-1", "tally": {"columns": [[7, 4, 1, 0], [7]]}},
        {
            "result_id": "r4",
            "match_id": "R1-1",
            "tally": {"columns": [[7], [7, 5]]},
            "scorer": 1,
            "sheet": {"by": "M", "reason": "r"},
        },
    ],
    ev.LIVE_HAND_STARTED: [{"match_id": "1.1", "hand_stream": "hand-abc", "dealer": 2}],
    ev.LIVE_HAND_RECORDED: [
        {
            "result_id": "r5",
            "match_id": "1.1",
            "hand_stream": "hand-abc",
            "winner": 1,
            "game_points": 1,
            "dealer": 2,
            "reason": "last_trick",
            "card_points": [61, 59],
        },
    ],
    ev.LIVE_HAND_ABANDONED: [
        {"match_id": "1.1", "hand_stream": "hand-abc", "by": "Maria", "reason": "power cut"}
    ],
    ev.LIVE_HAND_CLOSED: [
        {"match_id": "1.1", "hand_stream": "hand-abc", "seat": 0},
        {"match_id": "1.1", "hand_stream": "hand-abc", "seat": None, "by": "Maria"},
    ],
    ev.ONLINE_STARTED: [
        {"match_id": "1.1", "move_seconds": None},
        {"match_id": "1.1", "move_seconds": 30},
    ],
    ev.ONLINE_STOPPED: [{"match_id": "1.1", "by": "Maria", "reason": "device lost"}],
    ev.ONLINE_CLOCK_RESTARTED: [
        {"match_id": "1.1", "hand_stream": "h", "at": "2026-12-07T19:00:00+00:00", "by": "M"}
    ],
    ev.ONLINE_SEAT_TAKEN: [
        {"match_id": "1.1", "seat": 0, "device": "d1", "at": "2026-12-07T19:00:00+00:00"},
        {
            "match_id": "1.1",
            "seat": 1,
            "device": "d2",
            "at": "2026-12-07T19:00:01+00:00",
            "origin": {"ip": "10.0.0.1", "agent": "x"},
            "released_by": "",
            "flags": ["same_address", "retaken_in_hand"],
        },
    ],
    ev.ONLINE_SEAT_RELEASED: [
        {"match_id": "1.1", "seat": 0, "by": "Maria"},
        {"match_id": "1.1", "seat": 1, "by": "Maria", "in_hand": "hand-abc"},
    ],
    ev.MATCH_FORFEITED: [
        {"result_id": "r6", "match_id": "2.1", "winner": 1, "reason": "no_show", "score": [2, 0]},
        {"result_id": "r7", "match_id": "2.2", "winner": None, "reason": "both", "score": [2, 0]},
    ],
    ev.RESULT_CORRECTED: [
        {
            "correction_id": "c1",
            "result_id": "r1",
            "match_id": "1.1",
            "replacement": {"result_id": "r1", "match_id": "1.1", "winner": 2, "game_points": 2},
            "previous": {"result_id": "r1", "match_id": "1.1", "winner": 1, "game_points": 2},
            "by": "Maria",
            "reason": "typo",
        },
        {
            "correction_id": "c2",
            "result_id": "r1",
            "match_id": "1.1",
            "replacement": None,
            "previous": {"winner": 1},
            "by": "M",
            "reason": "r",
            "sheet": {"by": "M", "reason": "r"},
        },
    ],
    ev.HAND_STRUCK: [
        {
            "strike_id": "s1",
            "result_id": "r3",
            "match_id": "1.1",
            "hand": 2,
            "by": "M",
            "reason": "",
        }
    ],
    ev.SHEET_SIGNED: [{"match_id": "1.1", "player_id": 1}],
    ev.FLAG_CLEARED: [{"match_id": "1.1"}],
    ev.REPORT_SUBMITTED: [
        {
            "match_id": "1.1",
            "seat": 0,
            "player_id": 1,
            "draw": 1,
            "texts": ["7 4 1 0"],
            "tallies": [{"columns": [[7, 4, 1, 0], [7]]}],
        },
        {
            "match_id": "1.1",
            "seat": 1,
            "player_id": 2,
            "draw": 2,
            "texts": [],
            "tallies": [],
            "origin": {"ip": "10.0.0.2"},
        },
    ],
    ev.REPORT_CONFIRMED: [
        {"match_id": "1.1", "seat": 1, "player_id": 2, "draw": 1},
        {"match_id": "1.1", "seat": 1, "player_id": 2, "draw": 1, "flags": ["same_device"]},
    ],
    ev.RESULT_DISPUTED: [
        {"match_id": "1.1", "seat": 0, "player_id": 1, "draw": 1, "reason": "differs"},
        {"match_id": "1.1", "seat": 0, "player_id": 1, "draw": 1, "reason": "x", "mismatch": True},
    ],
    ev.REPORTS_SETTLED: [
        {"match_id": "1.1", "draw": 1, "how": "dismissed"},
        {"match_id": "1.1", "draw": 1, "how": "accepted", "seat": 0},
    ],
    ev.CODES_REVOKED: [{"round": 2}, {"round": 2, "match_id": "2.1"}],
}

CASES = [(type_, p) for type_, payloads in PAYLOADS.items() for p in payloads]


def test_every_event_type_has_a_value_class_and_payload_examples() -> None:
    assert set(ev.EVENT_CLASSES) == set(ev.SCHEMA_VERSIONS) == set(PAYLOADS)


@pytest.mark.parametrize(
    ("type_", "payload"), CASES, ids=[f"{t}-{i}" for i, (t, _) in enumerate(CASES)]
)
def test_a_stored_payload_reads_into_its_value_and_back_unchanged(
    type_: str, payload: dict[str, Any]
) -> None:
    value = ev.EVENT_CLASSES[type_].from_payload(payload)
    assert type_ == value.TYPE
    assert REGISTRY.get(type_).schema_version == ev.SCHEMA_VERSIONS[type_] == value.SCHEMA_VERSION
    assert value.to_payload() == payload
    assert ev.EVENT_CLASSES[type_].from_payload(value.to_payload()) == value
    new = value.event(actor="anna")
    assert (new.type, dict(new.payload), new.schema_version) == (
        type_,
        payload,
        ev.SCHEMA_VERSIONS[type_],
    )


@pytest.mark.parametrize("type_", sorted(ev.EVENT_CLASSES))
def test_an_event_value_is_immutable(type_: str) -> None:
    value = ev.EVENT_CLASSES[type_].from_payload(PAYLOADS[type_][0])
    field = dataclasses.fields(value)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, field, None)
    assert not hasattr(value, "__dict__")  # slots


def test_an_old_round_started_is_upcast_by_the_store_before_it_is_read() -> None:
    v1 = {
        "round": 1,
        "seed": 5,
        "stage": "",
        "byes": [],
        "matches": [{"match_id": "1.1", "table": 1, "players": [1, 2], "first_dealer": None}],
    }
    version, payload = REGISTRY.upcast(ev.ROUND_STARTED, 1, v1)
    value = ev.RoundStarted.from_payload(payload)
    assert (version, value.matches, value.match_count) == (2, (("1.1", 1, 1, 2, None),), 1)


def test_a_payload_that_does_not_fit_its_type_is_refused_saying_which_keys() -> None:
    with pytest.raises(ValueError, match=r"player.checked_in.*unknown keys \['name'\]"):
        ev.PlayerCheckedIn.from_payload({"player_id": 1, "name": "Anna"})
    with pytest.raises(ValueError, match=r"missing keys \['player_id'\]"):
        ev.PlayerCheckedIn.from_payload({})

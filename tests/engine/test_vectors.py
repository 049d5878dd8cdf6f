"""The 500 hands of shared/vectors, played by an independent public engine
(cpatrasciuc/schnapsen-card-game, BSD-3, converted to schnapsen-record/1): our engine must
replay every one of them to the outcome that engine scored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.record import GameRecord

VECTORS = Path(__file__).resolve().parent / "data" / "independent-engine-hands.jsonl"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "vectors" / VECTORS.name


def load() -> list[dict[str, object]]:
    return [json.loads(line) for line in VECTORS.read_text().splitlines() if line.strip()]


def test_the_copy_matches_shared_when_it_is_there() -> None:
    if not SHARED.exists():
        pytest.skip(f"{SHARED} is not beside the checkout; the copy in tests/ is used")
    assert SHARED.read_bytes() == VECTORS.read_bytes()


def test_every_independent_hand_replays_to_the_same_outcome() -> None:
    vectors = load()
    assert len(vectors) == 500
    mismatches = []
    for number, data in enumerate(vectors, start=1):
        outcome = GameRecord.from_json(data).outcome().to_json()
        if outcome != data["outcome"]:
            mismatches.append((number, outcome, data["outcome"]))
    assert mismatches == []


def test_the_vectors_cover_every_reason_they_can() -> None:
    reasons = {v["outcome"]["reason"] for v in load()}  # type: ignore[index]
    assert reasons == {"claim", "closer_failed", "last_trick"}  # that engine has no false claims


def test_each_vector_round_trips_losslessly() -> None:
    for data in load():
        assert GameRecord.from_json(data).to_json() == data

"""Golden hands: checked-in records with the outcomes our engine gave when they were
reviewed. Every reason under the defaults and under each variant."""

from __future__ import annotations

import json
from pathlib import Path

from engine.outcome import REASONS
from engine.record import GameRecord
from engine.rules import VARIANTS

GOLDEN = Path(__file__).resolve().parent / "data" / "golden.jsonl"


def golden() -> list[dict[str, object]]:
    return [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


def test_golden_hands_replay_to_their_outcomes() -> None:
    for number, data in enumerate(golden(), start=1):
        assert GameRecord.from_json(data).outcome().to_json() == data["outcome"], number


def test_golden_hands_cover_every_reason_under_every_variant() -> None:
    covered = {(tuple(d["variants"]), d["outcome"]["reason"]) for d in golden()}  # type: ignore[arg-type,index]
    for variants in [(), *((name,) for name in VARIANTS)]:
        for reason in REASONS:
            assert (variants, reason) in covered

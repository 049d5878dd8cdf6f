"""Make ``data/golden.jsonl``: for the defaults and for each variant, one hand per reason.

Run ``python -m tests.engine.make_golden`` after a deliberate rule change, then review the
diff hand by hand: every changed outcome must be explained by the change.
"""

from __future__ import annotations

import random
from pathlib import Path

from engine.outcome import REASONS
from engine.randomplay import random_record
from engine.rules import VARIANTS

GOLDEN = Path(__file__).resolve().parent / "data" / "golden.jsonl"


def make() -> list[str]:
    lines = []
    rng = random.Random(2026)
    for variants in [(), *((name,) for name in VARIANTS)]:
        wanted = set(REASONS)
        while wanted:
            record = random_record(rng, variants)
            reason = record.extra["outcome"]["reason"]
            if reason in wanted:
                wanted.discard(reason)
                lines.append(record.dumps())
    return lines


if __name__ == "__main__":
    GOLDEN.write_text("\n".join(make()) + "\n")
    print(f"wrote {GOLDEN}")

"""The lot can be recomputed from docs/standings.md (trial 3 #10): the worked example there
is what the program computes, digit for digit and in order."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from tournament.domain.model.state import Stats
from tournament.domain.standings import rank
from tournament.domain.standings.tiebreaks import Context

DOC = Path(__file__).resolve().parents[2] / "docs" / "standings.md"


def documented_example() -> tuple[int, list[tuple[int, str, str, int]]]:
    """The seed and the rows (start number, text hashed, first 16 hex digits, lot order)."""
    text = DOC.read_text(encoding="utf-8")
    seed = int(re.search(r"<!-- lot-example: seed (\d+) -->", text).group(1))  # type: ignore[union-attr]
    rows = re.findall(r"^\| (\d+) \| `([^`]+)` \| `([0-9a-f]{16})` \| (\d+) \|$", text, re.M)
    return seed, [(int(n), hashed, digest, int(order)) for n, hashed, digest, order in rows]


def test_the_documented_lot_example_is_what_the_program_computes() -> None:
    seed, rows = documented_example()
    assert seed == 42 and len(rows) == 5
    for number, hashed, digest, _ in rows:
        assert hashed == f"lot:{seed}:{number}"
        assert hashlib.sha256(hashed.encode()).hexdigest()[:16] == digest
    # Five players tied on everything: the standings' ranking orders them by lot alone.
    players = [number for number, *_ in rows]
    ctx = Context({p: Stats() for p in players}, {}, {p: p for p in players}, seed)
    ranked, _ = rank(ctx, players, ["lot"], {})
    documented = sorted(rows, key=lambda row: row[3])
    assert [p for p, _ in ranked] == [number for number, *_ in documented] == [1, 5, 3, 2, 4]


def test_the_smaller_digest_comes_first() -> None:
    _, rows = documented_example()
    by_digest = sorted(rows, key=lambda row: hashlib.sha256(row[1].encode()).hexdigest())
    assert [order for *_, order in by_digest] == [1, 2, 3, 4, 5]

"""Table numbers and the first dealer of each game.

Tables are numbered 1..n with the top boards first (the caller passes the games best
first). A player with a fixed table (e.g. a wheelchair user at table 1) gets it; the other
games fill the remaining numbers in order.

>>> ps = assign_tables([("a", "b", "a"), ("c", "d", "d")], fixed_tables={"d": 1})
>>> [(p.table, p.player_a, p.player_b) for p in ps]
[(1, 'c', 'd'), (2, 'a', 'b')]
>>> draw_first_dealer("a", "b", seed=1, key="W1-1") == draw_first_dealer("a", "b", 1, "W1-1")
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from .model import FormatError, Pairing


def draw_first_dealer(player_a: str, player_b: str, seed: int | str, key: str) -> str:
    """Seeded draw of who deals first; `key` (match id, round and table...) makes the draw
    of each game independent of the others yet reproducible from the recorded seed."""
    return random.Random(f"first-dealer:{seed}:{key}:{player_a}:{player_b}").choice(
        (player_a, player_b)
    )


def assign_tables(
    games: Sequence[tuple[str, str, str]],
    fixed_tables: Mapping[str, int] | None = None,
    match_ids: Sequence[str | None] | None = None,
) -> tuple[Pairing, ...]:
    """Number the games (player_a, player_b, first_dealer), best first, into Pairings.

    Returned in table order. Two games claiming the same fixed table raise FormatError;
    a game with two fixed players takes the lower table number.
    """
    fixed = dict(fixed_tables or {})
    for pid, number in fixed.items():
        if number < 1:
            raise FormatError(
                f"fixed_tables[{pid!r}]",
                code="formats.tables.table_must_more_got",
                params={"number": number},
            )
    ids = list(match_ids) if match_ids is not None else [None] * len(games)
    tables: list[int | None] = []
    taken: dict[int, int] = {}
    for i, (a, b, _) in enumerate(games):
        wanted = [fixed[p] for p in (a, b) if p in fixed]
        if not wanted:
            tables.append(None)
            continue
        table = min(wanted)
        if table in taken:
            other = games[taken[table]]
            raise FormatError(
                "fixed_tables",
                code="formats.tables.table_fixed_both_v",
                params={"table": table, "other": other[0], "other2": other[1], "a": a, "b": b},
            )
        taken[table] = i
        tables.append(table)
    free = (t for t in range(1, len(games) + len(taken) + 1) if t not in taken)
    out = []
    for (a, b, dealer), fixed_at, mid in zip(games, tables, ids, strict=True):
        out.append(Pairing(fixed_at if fixed_at is not None else next(free), a, b, dealer, mid))
    return tuple(sorted(out, key=lambda p: p.table))

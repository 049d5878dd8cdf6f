"""Seed order of the entrants: by rating, by hand, or by a recorded random draw.

>>> es = (Entrant("anna", 1500, 1), Entrant("bert", 1700, 2), Entrant("carl", 1500, 0))
>>> seed_by_rating(es)
('bert', 'carl', 'anna')
>>> seed_by_hand(es, ["anna", "carl", "bert"])
('anna', 'carl', 'bert')
>>> seed_by_draw(es, seed=7) == seed_by_draw(es, seed=7)
True
>>> bracket_order(8)
(1, 8, 4, 5, 2, 7, 3, 6)
>>> snake_groups(["s1", "s2", "s3", "s4", "s5", "s6"], 2)
(('s1', 's4', 's5'), ('s2', 's3', 's6'))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .model import FormatError, check_unique


@dataclass(frozen=True)
class Entrant:
    """A registered player. `registration_no` breaks rating ties (earlier first)."""

    player_id: str
    rating: float | None = None
    registration_no: int = 0
    club: str | None = None
    category: str | None = None


def seed_by_rating(entrants: Sequence[Entrant]) -> tuple[str, ...]:
    """Highest rating first; unrated players last; ties by registration order."""
    check_unique([e.player_id for e in entrants], "entrants")
    ordered = sorted(
        entrants,
        key=lambda e: (e.rating is None, -(e.rating or 0.0), e.registration_no),
    )
    return tuple(e.player_id for e in ordered)


def seed_by_hand(entrants: Sequence[Entrant], order: Sequence[str]) -> tuple[str, ...]:
    """The organiser's order; it must name every entrant exactly once."""
    check_unique([e.player_id for e in entrants], "entrants")
    check_unique(order, "order")
    known = {e.player_id for e in entrants}
    for i, pid in enumerate(order):
        if pid not in known:
            raise FormatError(
                f"order[{i}]", code="formats.seeding.registered_entrant", params={"pid": repr(pid)}
            )
    missing = [e.player_id for e in entrants if e.player_id not in set(order)]
    if missing:
        raise FormatError(
            "order", code="formats.seeding.entrants_missing_seed_order", params={"missing": missing}
        )
    return tuple(order)


def seed_by_draw(entrants: Sequence[Entrant], seed: int | str) -> tuple[str, ...]:
    """A random order drawn with the recorded `seed` (registration order is the base)."""
    check_unique([e.player_id for e in entrants], "entrants")
    ids = [e.player_id for e in sorted(entrants, key=lambda e: e.registration_no)]
    random.Random(f"seed-order:{seed}").shuffle(ids)
    return tuple(ids)


def bracket_order(size: int) -> tuple[int, ...]:
    """Seed numbers in bracket slot order, so that seeds 1 and 2 meet only in the final.

    Slot pairs (0,1), (2,3), ... are the first-round matches; every pair adds up to
    size + 1 (1 v 16, 8 v 9, ...), and each half of the bracket is built the same way.
    """
    if size < 1 or size & (size - 1):
        raise FormatError(
            "size", code="formats.seeding.bracket_size_must_power", params={"size": size}
        )
    order = [1]
    while len(order) < size:
        n = 2 * len(order) + 1
        order = [x for s in order for x in (s, n - s)]
    return tuple(order)


def snake_groups(seeds: Sequence[str], group_count: int) -> tuple[tuple[str, ...], ...]:
    """Deal the seeds into groups in a snake: 1..g to groups 1..g, g+1..2g back, ...

    Group sizes differ by at most one, and every group gets a fair share of strong seeds.
    """
    check_unique(seeds, "seeds")
    if group_count < 1:
        raise FormatError(
            "group_count",
            code="formats.seeding.need_least_one_group",
            params={"group_count": group_count},
        )
    if len(seeds) < 2 * group_count:
        raise FormatError(
            "group_count",
            code="formats.seeding.groups_need_least_players",
            params={
                "group_count": group_count,
                "value": 2 * group_count,
                "seeds_count": len(seeds),
            },
        )
    groups: list[list[str]] = [[] for _ in range(group_count)]
    for i, pid in enumerate(seeds):
        lap, pos = divmod(i, group_count)
        groups[pos if lap % 2 == 0 else group_count - 1 - pos].append(pid)
    return tuple(tuple(g) for g in groups)

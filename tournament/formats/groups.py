"""Groups then knockout: round-robin groups, then the top K of each group in a bracket.

The group stage is `seeding.snake_groups` + `round_robin.round_robin_round`. For the
knockout, the caller passes each group's final standings (best first) and, optionally, a
record per qualifier that compares across groups (points, then tie-break values; larger
is better). Qualifiers are seeded by finishing place first (all group winners, then all
runners-up, ...) and, within a place, by record (ties and missing records: group order).
So the best group winner gets the best seed, and with it a bye if there are byes.

Group winners keep the places standard seeding gives them. The players of each later
place are then spread over that place's seed positions so that players of the same group
meet as late as possible: in opposite halves (so, with two qualifiers per group, only in
the final), with three or four per group in different quarters, and so on, as far as the
bracket allows; among equally good spreads, each player moves as few seeds as possible.

>>> knockout_seeds([["a1", "a2", "a3"], ["b1", "b2", "b3"]], 2, records={"b1": (3,)})
('b1', 'a1', 'a2', 'b2')
>>> from tournament.formats.bracket import bracket_state
>>> b = knockout_from_groups([["a1", "a2", "a3"], ["b1", "b2", "b3"]], 2)
>>> [bracket_state(b).matches[m].players for m in ("R1-1", "R1-2")]
[('a1', 'b2'), ('b1', 'a2')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ._lazy import nx
from .bracket import Bracket, Seed, Source
from .model import FormatError, check_unique
from .seeding import bracket_order
from .single_elim import bracket_size, single_elimination

Record = Sequence[float]


def knockout_seeds(
    group_standings: Sequence[Sequence[str]],
    qualifiers_per_group: int,
    *,
    records: Mapping[str, Record] | None = None,
) -> tuple[str, ...]:
    """Qualifiers in seed order: the group winners best record first, then the
    runners-up best record first, ... (equal or no records: group order)."""
    check_unique([p for g in group_standings for p in g], "group_standings")
    if qualifiers_per_group < 1:
        raise FormatError(
            "qualifiers_per_group",
            code="formats.groups.must_more_got",
            params={"qualifiers_per_group": qualifiers_per_group},
        )
    for i, g in enumerate(group_standings):
        if len(g) < qualifiers_per_group:
            raise FormatError(
                f"group_standings[{i}]",
                code="formats.groups.group_players_fewer_qualifiers",
                params={"g_count": len(g), "qualifiers_per_group": qualifiers_per_group},
            )
    by_record = records or {}

    def key(p: str) -> tuple[bool, tuple[float, ...]]:
        # Players without a record sort after those with one; sorted() is stable, so
        # equal records keep group order.
        return (p in by_record, tuple(by_record.get(p, ())))

    seeds: list[str] = []
    for place in range(qualifiers_per_group):
        seeds += sorted((g[place] for g in group_standings), key=key, reverse=True)
    return tuple(seeds)


def knockout_from_groups(
    group_standings: Sequence[Sequence[str]],
    qualifiers_per_group: int,
    *,
    records: Mapping[str, Record] | None = None,
    third_place: bool = False,
) -> Bracket:
    """Single-elimination bracket of the qualifiers, same-group players kept apart."""
    seeds = knockout_seeds(group_standings, qualifiers_per_group, records=records)
    if len(seeds) < 2:
        raise FormatError(
            "qualifiers_per_group", code="formats.groups.knockout_needs_least_qualifiers"
        )
    group_of = {p: i for i, g in enumerate(group_standings) for p in g}
    bracket = single_elimination(seeds, third_place=third_place)
    # Seed number -> the seed number of the player who takes that bracket place.
    moved = _spread(seeds, group_of, len(group_standings))
    matches = tuple(
        replace(m, source_a=_moved(m.source_a, moved), source_b=_moved(m.source_b, moved))
        if m.round_no == 1 and m.section == "R"
        else m
        for m in bracket.matches
    )
    return replace(bracket, matches=matches)


def _moved(src: Source, moved: Mapping[int, int]) -> Source:
    return Seed(moved[src.n]) if isinstance(src, Seed) and src.n in moved else src


def _spread(seeds: Sequence[str], group_of: Mapping[str, int], groups: int) -> dict[int, int]:
    """Place by place after the winners: assign the players of the place to its seed
    numbers so that same-group players meet as late as possible, then move them least."""
    size = bracket_size(len(seeds))
    position = {n: i for i, n in enumerate(bracket_order(size))}  # seed -> bracket place
    rounds = size.bit_length() - 1
    # An earlier meeting outweighs any number of later ones, and any spread outweighs
    # every move of a seed (a place holds at most `groups` players).
    per_round = len(seeds) + 1
    spread_unit = groups**3 + 1
    placed: dict[int, int] = {n: n for n in range(1, min(groups, len(seeds)) + 1)}

    def _cost(n: int, slot: int) -> int:
        """The player with seed n at the bracket place of seed `slot`."""
        group = group_of[seeds[n - 1]]
        same = [m for m, p in placed.items() if group_of[seeds[p - 1]] == group]
        meets = [(position[slot] ^ position[m]).bit_length() for m in same]  # round no.
        return int(sum(per_round ** (rounds - r) for r in meets)) * spread_unit + (slot - n) ** 2

    for first in range(groups + 1, len(seeds) + 1, groups):
        numbers = list(range(first, min(first + groups, len(seeds) + 1)))
        costs = {(n, slot): _cost(n, slot) for n in numbers for slot in numbers}
        top = max(costs.values()) + 1  # positive weights: least cost, most weight
        graph = nx.Graph()
        for (n, slot), cost in costs.items():
            graph.add_edge(("p", n), ("s", slot), weight=top - cost)
        mate = nx.max_weight_matching(graph, maxcardinality=True)
        for u, v in mate:
            (_, n), (_, slot) = (u, v) if u[0] == "p" else (v, u)
            placed[slot] = n
    return placed

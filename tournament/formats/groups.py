"""Groups then knockout: round-robin groups, then the top K of each group in a bracket.

The group stage is `seeding.snake_groups` + `round_robin.round_robin_round`. For the
knockout, the caller passes each group's final standings; the qualifiers are seeded by
finishing place first and group order second (all group winners in group order, then all
runners-up, ...), placed by standard seeding (so the winner of group 1 meets a runner-up of
the last group), and then first-round opponents from the same group are swapped apart
where possible, moving each lower-placed player as few bracket places as possible. Byes
stay with the top seeds.

>>> ko = knockout_seeds([["a1", "a2", "a3"], ["b1", "b2", "b3"]], qualifiers_per_group=2)
>>> ko
('a1', 'b1', 'a2', 'b2')
>>> from tournament.formats.bracket import bracket_state
>>> b = knockout_from_groups([["a1", "a2", "a3"], ["b1", "b2", "b3"]], 2)
>>> [bracket_state(b).matches[m].players for m in ("R1-1", "R1-2")]
[('a1', 'b2'), ('b1', 'a2')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import networkx as nx  # type: ignore[import-untyped]

from .bracket import Bracket, Seed
from .model import FormatError, check_unique
from .single_elim import single_elimination


def knockout_seeds(
    group_standings: Sequence[Sequence[str]], qualifiers_per_group: int
) -> tuple[str, ...]:
    """Qualifiers in seed order: place 1 of every group, then place 2 of every group, ..."""
    check_unique([p for g in group_standings for p in g], "group_standings")
    if qualifiers_per_group < 1:
        raise FormatError("qualifiers_per_group", f"must be 1 or more, got {qualifiers_per_group}")
    for i, g in enumerate(group_standings):
        if len(g) < qualifiers_per_group:
            raise FormatError(
                f"group_standings[{i}]",
                f"group has {len(g)} players, fewer than {qualifiers_per_group} qualifiers",
            )
    seeds: list[str] = []
    for place in range(qualifiers_per_group):
        seeds += [g[place] for g in group_standings]
    return tuple(seeds)


def knockout_from_groups(
    group_standings: Sequence[Sequence[str]],
    qualifiers_per_group: int,
    *,
    third_place: bool = False,
) -> Bracket:
    """Single-elimination bracket of the qualifiers, avoiding same-group first rounds."""
    seeds = knockout_seeds(group_standings, qualifiers_per_group)
    if len(seeds) < 2:
        raise FormatError("qualifiers_per_group", "the knockout needs at least 2 qualifiers")
    group_of = {p: i for i, g in enumerate(group_standings) for p in g}
    bracket = single_elimination(seeds, third_place=third_place)
    # Upper slot keeps its seed; the lower-seeded players (not the byes) are re-assigned.
    first = [
        m
        for m in bracket.matches
        if m.round_no == 1 and isinstance(m.source_b, Seed) and m.source_b.n <= len(seeds)
    ]
    lows = [m.source_b for m in first]
    graph = nx.Graph()
    for i, m in enumerate(first):
        top = m.source_a
        assert isinstance(top, Seed)
        for j, low in enumerate(lows):
            assert isinstance(low, Seed)
            clash = group_of[seeds[top.n - 1]] == group_of[seeds[low.n - 1]]
            # A clash is allowed only when it cannot be avoided; otherwise stay close.
            penalty = (len(first) ** 3 if clash else 0) + abs(i - j) ** 2
            graph.add_edge(("m", i), ("s", j), weight=len(first) ** 4 - penalty)
    mate = nx.max_weight_matching(graph, maxcardinality=True)
    chosen = {}
    for u, v in mate:
        m_node, s_node = (u, v) if u[0] == "m" else (v, u)
        chosen[m_node[1]] = lows[s_node[1]]
    new_first = {m.match_id: replace(m, source_b=chosen[i]) for i, m in enumerate(first)}
    matches = tuple(new_first.get(m.match_id, m) for m in bracket.matches)
    return replace(bracket, matches=matches)

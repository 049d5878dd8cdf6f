"""Swiss system: pair one round from the standings the domain computed.

Rules, in order of priority:

1. nobody meets the same opponent twice while a repeat-free round exists;
2. the bye (odd number of players) goes to the lowest-ranked player with the fewest byes
   so far (in practice: without a previous bye; a walkover win counts as a bye);
3. players meet their own score group; an odd group floats its lowest player down to the
   top of the next group;
4. inside a score group, two players who have both dealt first (or both second) at least
   twice more often than not are kept apart where possible, so nobody's balance reaches 3;
5. inside a score group the top half plays the bottom half (1 v 5, 2 v 6, ... in a group
   of 8), the Dutch pattern;
6. first dealer: the player who has dealt first less often (relative to games played); on
   a tie, the one who did not deal first in their latest game; then a seeded draw.

>>> st = [Standing(p, 0.0) for p in ("p1", "p2", "p3", "p4", "p5")]
>>> r = swiss_round(1, st, seed=1)
>>> [(p.table, p.player_a, p.player_b) for p in r.pairings], r.byes
([(1, 'p1', 'p3'), (2, 'p2', 'p4')], ('p5',))
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence

from . import _matching
from .model import (
    Bye,
    FormatError,
    Game,
    RoundPairing,
    Standing,
    bye_counts,
    check_unique,
    first_deal_balance,
    meetings,
)
from .tables import assign_tables, draw_first_dealer


def recommended_rounds(player_count: int) -> int:
    """Rounds needed to find a clear winner: ceil(log2(players)).

    >>> recommended_rounds(1024)
    10
    """
    return max(1, math.ceil(math.log2(max(2, player_count))))


def swiss_round(
    round_no: int,
    standings: Sequence[Standing],
    games: Sequence[Game] = (),
    byes: Sequence[Bye] = (),
    *,
    seed: int | str = 0,
    withdrawn: Collection[str] = (),
    fixed_tables: Mapping[str, int] | None = None,
) -> RoundPairing:
    """Pair round `round_no`.

    `standings`: the players to pair, best first (score, then the domain's tie-breaks; in
    round 1 the seed order). Withdrawn players are left out even if listed. `games` and
    `byes` are all earlier rounds. `seed` only decides first-dealer ties.
    """
    if round_no < 1:
        raise FormatError("round_no", f"rounds count from 1, got {round_no}")
    check_unique([s.player_id for s in standings], "standings")
    gone = set(withdrawn)
    active = [s for s in standings if s.player_id not in gone]
    if len(active) < 2:
        raise FormatError("standings", f"need at least 2 active players, got {len(active)}")
    for i, g in enumerate(games):
        if g.round_no >= round_no:
            raise FormatError(
                f"games[{i}].round_no", f"round {g.round_no} is not before {round_no}"
            )

    players = [s.player_id for s in active]
    rank = {p: i for i, p in enumerate(players)}
    # Score groups, best first; floats compared exactly, as the domain computed them.
    levels = sorted({s.score for s in active}, reverse=True)
    group = {s.player_id: levels.index(s.score) for s in active}
    members: list[list[str]] = [[] for _ in levels]
    for p in players:
        members[group[p]].append(p)
    size = {g: len(m) for g, m in enumerate(members)}

    had = bye_counts(byes, games)
    fewest = min(had[p] for p in players)
    bye_preference = [p for p in reversed(players) if had[p] == fewest]

    n = len(players)
    balance, latest = first_deal_balance(games)
    deal_weight = n * n  # a dealing clash costs more than any in-group order
    float_weight = 2 * n * n * (n // 2 + 1) + 1  # one float costs more than all of that

    def deal_clash(u: str, v: str) -> bool:
        # Both already dealt first (or second) twice more often: one would go to three.
        return (balance[u] >= 2 and balance[v] >= 2) or (balance[u] <= -2 and balance[v] <= -2)

    def cost(u: str, v: str) -> int:
        gu, gv = group[u], group[v]
        if gu == gv:
            return (abs(rank[u] - rank[v]) - size[gu] // 2) ** 2 + deal_weight * deal_clash(u, v)
        return float_weight * (gu - gv) ** 2 + (rank[u] - rank[v]) ** 2

    def ideal_order(bye: str | None) -> list[str]:
        order: list[str] = []
        carry: list[str] = []
        for m in members:
            pool = [p for p in m if p != bye]
            if carry:  # the floater meets the top of the next group
                if not pool:
                    continue
                order += [carry.pop(), pool.pop(0)]
            half = len(pool) // 2
            for top, bottom in zip(pool[:half], pool[half : 2 * half], strict=True):
                order += [top, bottom]
            if len(pool) % 2:
                carry.append(pool[-1])
        return order + carry

    pairs, bye = _matching.solve(
        _matching.Problem(
            players=players,
            ideal_order=ideal_order,
            cost=cost,
            max_cost=float_weight * len(levels) ** 2 + n * n + deal_weight,
            played=meetings(games),
            bye_preference=bye_preference,
            avoid=deal_clash,
        )
    )

    def dealer(a: str, b: str) -> str:
        if balance[a] != balance[b]:  # the one who dealt first less often deals first
            return a if balance[a] < balance[b] else b
        a_last, b_last = latest.get(a) == a, latest.get(b) == b
        if a_last != b_last:
            return b if a_last else a
        return draw_first_dealer(a, b, seed, f"swiss:{round_no}")

    # Player a is the better-placed player; table 1 holds the best-placed game.
    ordered = sorted((a, b) if rank[a] < rank[b] else (b, a) for a, b in pairs)
    ordered.sort(key=lambda g: rank[g[0]])
    games_out = [(a, b, dealer(a, b)) for a, b in ordered]
    return RoundPairing(
        round_no=round_no,
        pairings=assign_tables(games_out, fixed_tables),
        byes=(bye,) if bye is not None else (),
    )

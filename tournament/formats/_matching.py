"""The pairing engine behind Swiss and lives knockout: pair everybody, repeat-free if at all
possible, staying as close as we can to an ideal order.

The caller describes the ideal round as an order in which consecutive players (0-1, 2-3,
...) would play each other, plus a cost for any other pair. Pairing 1,024 players must take
well under a second, and networkx's blossom matching needs ~2 s for 1,024 nodes even on a
sparse graph, so we work in three steps:

1. take the ideal order as it is (linear time; the usual case, no repeat in it);
2. repair each repeat (and each game the caller would rather avoid) locally: re-match a
   window of the order around it with the blossom algorithm (complete graph on that
   window, repeats left out, the rest weighted by cost), widening the window while it
   cannot be made repeat-free;
3. when even the whole field cannot be repaired that way, match everybody at once on the
   complete graph with a bye node, where one repeat costs more than anything else; this
   finds a repeat-free round (moving the bye if needed) whenever one exists, and otherwise
   the round with the fewest repeats.

Swiss runs these steps per score group (`repair`, then `best_partial` for a group that
cannot be paired completely) and `best_round` only when that leaves players over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from ._lazy import nx
from .model import Pair

_BYE = "\x00bye"


@dataclass(frozen=True)
class Problem:
    """What to pair.

    - `cost(u, v)`: how far the game u v is from ideal, an int in 0..max_cost.
    - `ideal_order(bye)`: the ideal sequence of the players other than `bye` (needed by
      `solve`; Swiss builds its order group by group and calls the steps itself).
    - `bye_preference`: who may get the bye, best choice first (needed when odd).
    """

    players: Sequence[str]
    cost: Callable[[str, str], int]
    max_cost: int
    played: AbstractSet[Pair]
    ideal_order: Callable[[str | None], list[str]] | None = None
    bye_preference: Sequence[str] = ()
    avoid: Callable[[str, str], bool] | None = None  # soft: worth a local repair attempt


def solve(problem: Problem) -> tuple[list[tuple[str, str]], str | None]:
    """Pairs (in ideal order where untouched) and the bye, or None when even."""
    assert problem.ideal_order is not None, "solve() needs an ideal order"
    odd = len(problem.players) % 2 == 1
    bye = problem.bye_preference[0] if odd else None
    order = problem.ideal_order(bye)
    repaired = repair(order, problem)
    if repaired is not None:
        return repaired, bye
    return best_round(problem)


def _is_repeat(problem: Problem, u: str, v: str) -> bool:
    return frozenset((u, v)) in problem.played


def repair(order: list[str], problem: Problem) -> list[tuple[str, str]] | None:
    """Step 2: `order` (even length) as games, each repeat or avoided game re-matched in a
    widening window; None when even the whole order has no repeat-free round."""
    n = len(order)
    slots = [(order[k], order[k + 1]) for k in range(0, n, 2)]
    avoid = problem.avoid
    bad = [
        k
        for k in range(0, n, 2)
        if _is_repeat(problem, order[k], order[k + 1])
        or (avoid is not None and avoid(order[k], order[k + 1]))
    ]
    done: list[tuple[int, int]] = []  # windows already re-matched, kept whole
    margin = 4  # players each side of a repeat; even, so windows hold whole games
    while bad:
        windows = _merge([(max(0, k - margin), min(n, k + 2 + margin)) for k in bad])
        # A window that cuts through an earlier repaired window would split its games.
        absorbed = [d for d in done if any(d[0] < hi and lo < d[1] for lo, hi in windows)]
        windows = _merge(sorted(windows + absorbed))
        done = [d for d in done if d not in absorbed]
        still_bad: list[int] = []
        for lo, hi in windows:
            games = _match(order[lo:hi], problem)
            if games is None:
                if (lo, hi) == (0, n):
                    return None
                still_bad.extend(k for k in bad if lo <= k < hi)
                done.extend(d for d in absorbed if lo <= d[0] and d[1] <= hi)
                continue
            slots[lo // 2 : hi // 2] = games
            done.append((lo, hi))
        bad = still_bad
        margin *= 2
    return slots


def _merge(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(windows):
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _match(players: list[str], problem: Problem) -> list[tuple[str, str]] | None:
    """Best repeat-free games among `players`, or None when there is no such round."""
    top = problem.max_cost + 1
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for i, u in enumerate(players):
        for v in players[i + 1 :]:
            if not _is_repeat(problem, u, v):
                graph.add_edge(u, v, weight=top - problem.cost(u, v))
    mate = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(mate) < len(players):
        return None
    return _in_order(mate, players)


def best_partial(
    players: list[str], problem: Problem, keep_out: Callable[[str], int]
) -> tuple[list[tuple[str, str]], list[str]]:
    """Exact repeat-free games among `players` when not everybody can be paired.

    In strict order: as many games as possible; then the players left over are those
    with the smallest total `keep_out` (a non-negative int each); then the least cost.
    Returns the games and the players left over (in the order of `players`).
    """
    games_total = (len(players) // 2 + 1) * problem.max_cost + 1
    keep_total = sum(keep_out(p) for p in players) + 1
    one_game = games_total * 2 * keep_total  # a game more outweighs everything else
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for i, u in enumerate(players):
        for v in players[i + 1 :]:
            if not _is_repeat(problem, u, v):
                kept = games_total * (keep_out(u) + keep_out(v))
                graph.add_edge(u, v, weight=one_game + kept - problem.cost(u, v))
    mate = nx.max_weight_matching(graph)
    paired = {p for game in mate for p in game}
    return _in_order(mate, players), [p for p in players if p not in paired]


def best_round(problem: Problem) -> tuple[list[tuple[str, str]], str | None]:
    """Step 3: everybody at once; fewest repeats, then the best bye, then the least cost."""
    players = list(problem.players)
    n = len(players)
    # Strict priorities by weight scale: fewest repeats, then the best bye, then cost.
    games_cost = (n // 2 + 1) * problem.max_cost + 1
    bye_step = games_cost
    repeat = bye_step * (len(problem.bye_preference) + 1) + games_cost
    top = repeat + bye_step * (len(problem.bye_preference) + 1) + problem.max_cost + 1
    graph = nx.Graph()
    for i, u in enumerate(players):
        for v in players[i + 1 :]:
            w = top - problem.cost(u, v) - (repeat if _is_repeat(problem, u, v) else 0)
            graph.add_edge(u, v, weight=w)
    if n % 2:
        for rank, p in enumerate(problem.bye_preference):
            graph.add_edge(_BYE, p, weight=top - bye_step * rank)
    mate = nx.max_weight_matching(graph, maxcardinality=True)
    bye = None
    for u, v in mate:
        if _BYE in (u, v):
            bye = v if u == _BYE else u
    games = [(u, v) for u, v in mate if _BYE not in (u, v)]
    return _in_order(set(games), players), bye


def _in_order(mate: set[tuple[str, str]], players: list[str]) -> list[tuple[str, str]]:
    """Games listed by their better-placed player, each with that player first."""
    index = {p: i for i, p in enumerate(players)}
    games = [(u, v) if index[u] < index[v] else (v, u) for u, v in mate]
    return sorted(games, key=lambda g: index[g[0]])

"""The pairing engine behind Swiss and lives knockout: pair everybody, without repeats (and
without the caller's hard clashes) if at all possible, staying as close as we can to an
ideal order.

The caller describes the ideal round as an order in which consecutive players (0-1, 2-3,
...) would play each other, plus a cost for any other pair. networkx's exact (blossom)
matching is cubic: 1 ms for 16 players, 60 ms for 64, 0.5 s for 128, ~35 s for 1,024. So
exact matching is only ever run on a bounded number of players, and the steps are:

1. take the ideal order as it is (linear time; the usual case);
2. `repair` each forbidden game (a repeat, a hard clash) locally: optionally first by the
   cheapest allowed swap of partners with a nearby game, then by re-matching a window of
   the order around it exactly (forbidden games left out, the rest weighted by cost),
   widening the window while it cannot be fixed, up to `WINDOW_CAP` players;
3. `improve` each game the caller would rather avoid (`soft`, a dealing preference in
   Swiss) by swapping partners with a nearby game where that leaves fewer such games and
   lowers the total cost;
4. when the windows cannot fix a game (`fallback`): up to `EXACT_UP_TO` players, match
   everybody at once exactly (`best_round`: fewest repeats, then fewest clashes, then the
   best bye, then the least cost); above that, `complete` re-pairs the players left over
   by augmenting paths (:mod:`._augment`), which finds a round without repeats and clashes
   whenever one exists, at worst in O(players²) checks per player left over.

Swiss runs these steps per score group (with `best_partial` for a small group or one that
cannot be paired completely, `pair_most` for a large one) and the last step only when that
leaves players over at the bottom.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from ._augment import augment
from ._lazy import nx
from .model import Pair

_BYE = "\x00bye"
_Four = tuple[str, str, str, str]  # two games' players: a, b (the first), c, d

#: Fields up to this size are matched exactly at once when the local steps fail (0.5 s).
EXACT_UP_TO = 128
#: The most players a repair window holds (an exact matching of 64 players: ~60 ms).
WINDOW_CAP = 64
#: How many games either side `improve` looks at for a swap.
SWAP_REACH = 24


@dataclass(frozen=True)
class Problem:
    """What to pair.

    - `players`: everybody to pair, best placed first (nearness is measured in this order).
    - `cost(u, v)`: how far the game u v is from ideal, an int in 0..max_cost.
    - `played`: pairs who met before (a repeat is forbidden while avoidable).
    - `clash(u, v)`: a game forbidden next to repeats (Swiss: dealing beyond ±2), or None.
    - `soft(u, v)`: a game to avoid where a swap with a nearby game lowers the cost, or None.
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
    clash: Callable[[str, str], bool] | None = None
    soft: Callable[[str, str], bool] | None = None

    def repeat(self, u: str, v: str) -> bool:
        return frozenset((u, v)) in self.played

    def allowed(self, u: str, v: str) -> bool:
        """Neither a repeat nor a clash."""
        return not self.repeat(u, v) and not (self.clash is not None and self.clash(u, v))


def solve(problem: Problem) -> tuple[list[tuple[str, str]], str | None]:
    """Pairs (in ideal order where untouched) and the bye, or None when even."""
    assert problem.ideal_order is not None, "solve() needs an ideal order"
    odd = len(problem.players) % 2 == 1
    bye = problem.bye_preference[0] if odd else None
    slots, stuck = repair(problem.ideal_order(bye), problem)
    if not stuck:
        return improve(slots, problem), bye
    return fallback(problem, slots, stuck, bye)


def fallback(
    problem: Problem, slots: list[tuple[str, str]], stuck: list[int], bye: str | None
) -> tuple[list[tuple[str, str]], str | None]:
    """The local steps left the games `stuck` (indices into `slots`) forbidden: match a small
    field exactly, complete a large one by augmenting paths."""
    if len(problem.players) <= EXACT_UP_TO:
        return best_round(problem)
    kept = [g for i, g in enumerate(slots) if i not in set(stuck)]
    rank = {p: i for i, p in enumerate(problem.players)}
    free = sorted((p for i in stuck for p in slots[i]), key=rank.__getitem__)
    return complete(problem, kept, free, bye)


def repair(
    order: list[str], problem: Problem, cap: int | None = WINDOW_CAP, *, swap: bool = False
) -> tuple[list[tuple[str, str]], list[int]]:
    """Step 2: `order` (even length) as games, each forbidden game re-matched exactly in a
    window around it that widens (4, 8, 16, ... players each side) while it cannot be
    fixed, up to `cap` players (None: up to the whole order). Windows next to each other
    are matched together, in pieces of at most the current window size. With `swap`, a
    forbidden game is first given the cheapest allowed swap of partners with one of the
    SWAP_REACH games either side (much cheaper than a window; only what that leaves
    forbidden goes to windows).

    Returns the games and the indices of those still forbidden: none when every window
    could be fixed; with `cap=None`, any left means the whole order has no round without
    repeats and clashes.
    """
    order = list(order)
    n = len(order)
    if swap:
        slots = [(order[k], order[k + 1]) for k in range(0, n, 2)]
        for i, (a, b) in enumerate(slots):
            if not problem.allowed(a, b):
                _swap(slots, i, problem, lambda before, after: True, gain_only=False)
        order = [p for game in slots for p in game]
    limit = n if cap is None else min(n, cap)
    bad = [k for k in range(0, n, 2) if not problem.allowed(order[k], order[k + 1])]
    # A player who may play nobody within reach of the widest window cannot be helped by
    # a window (its exact matchings would all fail): leave that game to the caller at once.
    bad = [k for k in bad if all(_partner_near(order, i, limit, problem) for i in (k, k + 1))]
    margin = 4  # players each side of a forbidden game; even, so windows hold whole games
    while bad and margin <= 2 * n:
        size = min(limit, 4 * margin + 4)
        windows = _pieces(_merge([_window(k, margin, n, size) for k in bad]), size)
        still_bad: list[int] = []
        for lo, hi in windows:
            games = _match(order[lo:hi], problem)
            if games is not None:
                order[lo:hi] = [p for game in games for p in game]
            elif hi - lo < limit:  # not yet as wide as allowed: widen next time
                still_bad.extend(k for k in bad if lo <= k < hi)
        bad = still_bad
        margin *= 2
    slots = [(order[k], order[k + 1]) for k in range(0, n, 2)]
    return slots, [i for i, (a, b) in enumerate(slots) if not problem.allowed(a, b)]


def _partner_near(order: list[str], i: int, limit: int, problem: Problem) -> bool:
    """Whether order[i] may play somebody in a window of `limit` players around it."""
    lo = max(0, min(i - limit // 2, len(order) - limit))
    return any(problem.allowed(order[i], p) for p in order[lo : lo + limit] if p != order[i])


def _window(k: int, margin: int, n: int, size: int) -> tuple[int, int]:
    """`margin` players each side of the game at k, at most `size` players in all."""
    lo, hi = max(0, k - margin), min(n, k + 2 + margin)
    if hi - lo > size:  # keep the game in the middle, whole games only
        lo = max(0, min(k - (size - 2) // 4 * 2, n - size))
        hi = lo + size
    return lo, hi


def _merge(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(windows):
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _pieces(windows: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """Merged windows cut into pieces of at most `size` players (whole games)."""
    return [(lo, min(hi, lo + size)) for w_lo, hi in windows for lo in range(w_lo, hi, size)]


def _match(players: list[str], problem: Problem) -> list[tuple[str, str]] | None:
    """Best games among `players` without repeats or clashes, or None if there is none."""
    top = problem.max_cost + 1
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for i, u in enumerate(players):
        for v in players[i + 1 :]:
            if problem.allowed(u, v):
                graph.add_edge(u, v, weight=top - problem.cost(u, v))
    mate = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(mate) < len(players):
        return None
    return _in_order(mate, players)


def improve(
    games: list[tuple[str, str]], problem: Problem, reach: int = SWAP_REACH
) -> list[tuple[str, str]]:
    """Step 3: for each game the caller would rather avoid (`soft`), swap partners with one
    of the `reach` games either side: of the swaps that are allowed and leave fewer such
    games, the one that lowers the summed cost most (the cost decides, so no rule above
    the soft one is ever traded for it)."""
    soft = problem.soft
    if soft is None:
        return games
    games = list(games)

    def fewer(before: _Four, after: _Four) -> bool:
        a, b, c, d = before
        w, x, y, z = after
        return soft(w, x) + soft(y, z) < soft(a, b) + soft(c, d)

    for i, (a, b) in enumerate(games):
        if soft(a, b):
            _swap(games, i, problem, fewer, gain_only=True, reach=reach)
    return games


def _swap(
    games: list[tuple[str, str]],
    i: int,
    problem: Problem,
    admit: Callable[[_Four, _Four], bool],
    *,
    gain_only: bool,
    reach: int = SWAP_REACH,
) -> bool:
    """Give game i new partners by a swap with one of the `reach` games either side: of
    the allowed swaps that `admit(before, after)` (four players each: the two games as they
    are and as they would be), the one that lowers the summed cost most (with
    `gain_only`, only one that lowers it at all)."""
    cost = problem.cost
    a, b = games[i]
    here = cost(a, b)
    best: tuple[int, int, tuple[str, str], tuple[str, str]] | None = None
    for j in _around(i, len(games), reach):
        c, d = games[j]
        for x, y in (((a, c), (b, d)), ((a, d), (b, c))):
            if not (admit((a, b, c, d), (*x, *y)) and problem.allowed(*x)):
                continue
            if not problem.allowed(*y):
                continue
            gain = here + cost(c, d) - cost(*x) - cost(*y)
            if (best is None or gain > best[0]) and (gain > 0 or not gain_only):
                best = (gain, j, x, y)
    if best is None:
        return False
    _, j, x, y = best
    games[i], games[j] = x, y
    return True


def _around(i: int, n: int, reach: int) -> Iterator[int]:
    for d in range(1, reach + 1):
        if i + d < n:
            yield i + d
        if i - d >= 0:
            yield i - d


def best_partial(
    players: list[str], problem: Problem, keep_out: Callable[[str], int]
) -> tuple[list[tuple[str, str]], list[str]]:
    """Exact games without repeats or clashes among `players` (a score group).

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
            if problem.allowed(u, v):
                kept = games_total * (keep_out(u) + keep_out(v))
                graph.add_edge(u, v, weight=one_game + kept - problem.cost(u, v))
    mate = nx.max_weight_matching(graph)
    paired = {p for game in mate for p in game}
    return _in_order(mate, players), [p for p in players if p not in paired]


def best_round(problem: Problem) -> tuple[list[tuple[str, str]], str | None]:
    """Everybody at once, exactly: fewest repeats, then fewest clashes, then the best bye,
    then the least cost."""
    players = list(problem.players)
    n = len(players)
    # Strict priorities by weight scale, each tier outweighing everything below it.
    games_cost = (n // 2 + 1) * problem.max_cost + 1
    bye_step = games_cost
    clash = bye_step * (len(problem.bye_preference) + 1)
    repeat = clash * (n // 2 + 2)
    top = repeat + clash + bye_step * len(problem.bye_preference) + problem.max_cost + 1
    graph = nx.Graph()
    for i, u in enumerate(players):
        for v in players[i + 1 :]:
            penalty = problem.cost(u, v)
            if problem.repeat(u, v):
                penalty += repeat
            if problem.clash is not None and problem.clash(u, v):
                penalty += clash
            graph.add_edge(u, v, weight=top - penalty)
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


def complete(
    problem: Problem, games: list[tuple[str, str]], free: list[str], bye: str | None
) -> tuple[list[tuple[str, str]], str | None]:
    """Pair the players `free` (best placed first) into `games` by augmenting paths; the
    bye may move to another player of `bye_preference` where that is the only way.

    First without repeats and clashes (found whenever such a round exists); whoever is
    still free then may meet in a clash, and after that in a repeat, as few as possible.
    """
    order = list(problem.players)
    eligible = set(problem.bye_preference)
    made = list(games)
    if bye is not None:
        order.append(_BYE)  # the bye is a player at the very bottom
        made.append((bye, _BYE))

    def fits(strict: Callable[[str, str], bool]) -> Callable[[str, str], bool]:
        def allowed(u: str, v: str) -> bool:
            if _BYE in (u, v):
                return (v if u == _BYE else u) in eligible
            return strict(u, v)

        return allowed

    made, left = augment(order, made, free, fits(problem.allowed))
    if left:  # no round without repeats and clashes: allow clashes, then repeats
        made, left = augment(order, made, left, fits(lambda u, v: not problem.repeat(u, v)))
    if left:
        made, left = augment(order, made, left, fits(lambda u, v: True))
    out_bye = next((u if v == _BYE else v for u, v in made if _BYE in (u, v)), None)
    rank = {p: i for i, p in enumerate(problem.players)}
    kept = [(u, v) if rank[u] < rank[v] else (v, u) for u, v in made if _BYE not in (u, v)]
    kept.sort(key=lambda g: rank[g[0]])
    return improve(kept, problem), out_bye


def pair_most(
    players: list[str],
    slots: list[tuple[str, str]],
    stuck: list[int],
    spare: list[str],
    problem: Problem,
) -> tuple[list[tuple[str, str]], list[str]]:
    """A large group (`players`, best placed first) whose games `slots` the windows left
    forbidden at `stuck`, and who was to be left over (`spare`): pair as many as possible
    by augmenting paths, the spare only if that pairs more. Returns the games and who is
    left over (the matching is maximum: nobody more can be paired)."""
    out = set(spare)
    kept = [g for i, g in enumerate(slots) if i not in set(stuck)]
    rank = {p: i for i, p in enumerate(players)}
    free = sorted((p for i in stuck for p in slots[i]), key=rank.__getitem__)
    games, left = augment([p for p in players if p not in out], kept, free, problem.allowed)
    if left and spare:
        games, left = augment(players, games, left + spare, problem.allowed)
    else:
        left += spare
    return _in_order(set(games), players), left


def _in_order(mate: set[tuple[str, str]], players: list[str]) -> list[tuple[str, str]]:
    """Games listed by their better-placed player, each with that player first."""
    index = {p: i for i, p in enumerate(players)}
    games = [(u, v) if index[u] < index[v] else (v, u) for u, v in mate]
    return sorted(games, key=lambda g: index[g[0]])

"""Swiss system: pair one round from the standings the domain computed.

Rules in strict priority order (a rule never trades against one below it); the organiser's
version with examples is docs/formats.md, "Swiss". A player's *dealing balance* is the
number of games they dealt first minus the number they dealt second, counting only games
decided at the table (`model.first_deal_balance`).

1. nobody meets the same opponent twice while a repeat-free round exists (whole field);
2. dealing limit: nobody's balance goes beyond ±2 - two players on +2 (or on -2) never
   meet - while a round allowed by rule 1 exists (whole field; FIDE's absolute colour
   criterion);
3. the bye (odd number of players) goes to the lowest-ranked player with the fewest byes
   so far (in practice: without a previous bye; a walkover win counts as a bye) that
   rules 1 and 2 allow;
4. score groups are paired top-down, each as completely as possible (with the floaters it
   received) before the next one is looked at;
5. a group's floater is its lowest-ranked player that the rules above allow;
6. inside a score group, first the dealing preference: as few games as possible between
   two players whose balances are both positive (or both negative), so that balances stay
   within ±1; then the top half plays the bottom half (1 v 5, 2 v 6, ... in a group of 8),
   the Dutch pattern, and a floater meets the top of the group below;
7. first dealer: the player with the lower balance; on a tie, the one who did not deal
   first in their latest game; then a seeded draw.

Rule 2 and the dealing preference apply only where the pairing decides the first dealer
(`balance_dealing`: the tournament's first-dealer rule is `balanced`); otherwise dealing
is left alone.

>>> st = [Standing(p, 0.0) for p in ("p1", "p2", "p3", "p4", "p5")]
>>> r = swiss_round(1, st, seed=1)
>>> [(p.table, p.player_a, p.player_b) for p in r.pairings], r.byes
([(1, 'p1', 'p3'), (2, 'p2', 'p4')], ('p5',))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

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

#: A score group (with its floaters) of at most this many players is matched exactly
#: (about 1 ms); larger ones keep their ideal games and are repaired locally.
_EXACT_POOL = 16


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
    balance_dealing: bool = True,
) -> RoundPairing:
    """Pair round `round_no`.

    `standings`: the players to pair, best first (score, then the domain's tie-breaks; in
    round 1 the seed order). Withdrawn players are left out even if listed. `games` and
    `byes` are all earlier rounds. `seed` only decides first-dealer ties.
    `balance_dealing`: the first dealers proposed here are the ones played (the domain's
    first-dealer rule `balanced`), so the pairing keeps dealing balanced (rules 2 and 6).
    """
    if round_no < 1:
        raise FormatError(
            "round_no", code="formats.swiss.rounds_count_got", params={"round_no": round_no}
        )
    check_unique([s.player_id for s in standings], "standings")
    gone = set(withdrawn)
    active = [s for s in standings if s.player_id not in gone]
    if len(active) < 2:
        raise FormatError(
            "standings",
            code="formats.swiss.need_least_active_players",
            params={"active_count": len(active)},
        )
    for i, g in enumerate(games):
        if g.round_no >= round_no:
            raise FormatError(
                f"games[{i}].round_no",
                code="formats.swiss.round_before",
                params={"round_no": g.round_no, "round_no2": round_no},
            )

    players = [s.player_id for s in active]
    had = bye_counts(byes, games)
    fewest = min(had[p] for p in players)
    balance, latest = first_deal_balance(games)
    field = _Field.of(active, balance, balance_dealing)
    problem = _matching.Problem(
        players=players,
        cost=field.cost,
        max_cost=field.max_cost,
        played=meetings(games),
        bye_preference=[p for p in reversed(players) if had[p] == fewest],
        clash=field.clash if balance_dealing and field.can_clash() else None,
        soft=field.soft if balance_dealing else None,
    )
    pairs, bye = _pair(field, problem)
    rank = field.rank

    def dealer(a: str, b: str) -> str:
        if balance[a] != balance[b]:  # the lower dealing balance deals first
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


@dataclass(frozen=True)
class _Field:
    """The players of a round in score groups, and what a game between two of them costs.

    The cost of a game is a single int that encodes rules 4-6 as strict tiers (a
    mixed-radix number, most important tier in the highest digit), so that summed over a
    round no amount of a lower tier ever outweighs one unit of a higher tier. From the
    top: for each score group k, best group first, the games that cross below group k
    (a float out of k), then who floats out of k (the higher in k, the worse); then the
    dealing preference, then the in-group order (both rule 6). Rules 1 and 2 are not
    costs: they forbid a game (`_matching.Problem.allowed`).
    """

    rank: Mapping[str, int]  # 0 = best placed
    group: Mapping[str, int]  # 0 = best score group
    members: tuple[tuple[str, ...], ...]  # per score group, best placed first
    balance: Mapping[str, int]  # dealing balance: first deals minus second deals so far
    weights: Mapping[str, int]  # the digit weight of each plain tier
    float_at: tuple[int, ...]  # per group boundary k: a game crossing below group k
    who_at: tuple[int, ...]  # per group: one place higher up for the floater out of it
    max_cost: int

    @classmethod
    def of(cls, active: Sequence[Standing], balance: Mapping[str, int], dealing: bool) -> _Field:
        """Group `active` (best first) by score; floats compared exactly as computed.
        Without `dealing` the dealing preference costs nothing."""
        levels = sorted({s.score for s in active}, reverse=True)
        level = {score: i for i, score in enumerate(levels)}
        members: list[list[str]] = [[] for _ in levels]
        for s in active:
            members[level[s.score]].append(s.player_id)
        n = len(active)
        games = n // 2 + 1  # at most this many games in a round
        # Least important tier first; each digit holds the tier's largest total in a round.
        weight = 1
        weights: dict[str, int] = {}
        for tier, most in (("order", games * n * n), ("deal", games if dealing else 0)):
            weights[tier] = weight if most else 0
            weight *= most + 1
        float_at = [0] * len(levels)
        who_at = [0] * len(levels)
        for k in reversed(range(len(levels))):
            who_at[k] = weight
            weight *= games * len(members[k]) + 1
            float_at[k] = weight
            weight *= games + 1
        return cls(
            rank={s.player_id: i for i, s in enumerate(active)},
            group={s.player_id: level[s.score] for s in active},
            members=tuple(tuple(m) for m in members),
            balance=balance,
            weights=weights,
            float_at=tuple(float_at),
            who_at=tuple(who_at),
            max_cost=weight,
        )

    def clash(self, u: str, v: str) -> bool:
        """Rule 2: both on +2 or more (or -2 or less): whoever deals first, one goes to 3."""
        bu, bv = self.balance.get(u, 0), self.balance.get(v, 0)
        return (bu >= 2 and bv >= 2) or (bu <= -2 and bv <= -2)

    def can_clash(self) -> bool:
        """Whether two players could clash at all (two on +2 or two on -2)."""
        high = sum(1 for p in self.rank if self.balance.get(p, 0) >= 2)
        low = sum(1 for p in self.rank if self.balance.get(p, 0) <= -2)
        return high >= 2 or low >= 2

    def soft(self, u: str, v: str) -> bool:
        """Rule 6, the dealing preference: both dealt first more often (or both second): one
        moves away from 0."""
        bu, bv = self.balance.get(u, 0), self.balance.get(v, 0)
        return (bu >= 1 and bv >= 1) or (bu <= -1 and bv <= -1)

    def depth(self, p: str) -> int:
        """How many players of p's score group are placed above p."""
        return self.rank[p] - self.rank[self.members[self.group[p]][0]]

    def cost(self, u: str, v: str) -> int:
        """The cost of the game u v (see the class docstring)."""
        if self.rank[u] > self.rank[v]:
            u, v = v, u
        gu, gv = self.group[u], self.group[v]
        total = self.weights["deal"] * self.soft(u, v) if self.weights["deal"] else 0
        if gu == gv:  # top half v bottom half: partners half the group apart
            half = len(self.members[gu]) // 2
            return total + self.weights["order"] * (self.rank[v] - self.rank[u] - half) ** 2
        # u floats down from gu to gv: each boundary crossed is a float out of that group;
        # u is the floater out of gu, and out of every group in between it passes through
        # (worse than any player of that group floating, so floaters get paired first).
        total += self.weights["order"] * (self.rank[v] - self.rank[u]) ** 2
        total += sum(self.float_at[gu:gv])
        total += self.who_at[gu] * (len(self.members[gu]) - 1 - self.depth(u))
        total += sum(self.who_at[k] * len(self.members[k]) for k in range(gu + 1, gv))
        return total

    def keep_out(self, k: int, floaters: Collection[str]) -> Callable[[str], int]:
        """For the pool of group k: how bad it is to leave p unpaired (to float on), in the
        units of `who_at[k]`: a floater received is worse than any player of group k."""
        size = len(self.members[k])

        def penalty(p: str) -> int:
            return size if p in floaters else size - 1 - self.depth(p)

        return penalty


def _pool_order(floaters: list[str], residents: list[str]) -> tuple[list[str], list[str]]:
    """The ideal games of a score group as an order, and who floats on (the lowest).

    Floaters from above meet the top of the group; the rest play top half v bottom half.
    """
    order: list[str] = []
    for f, r in zip(floaters, residents, strict=False):
        order += [f, r]
    met = min(len(floaters), len(residents))
    rest = floaters[met:] + residents[met:]
    half = len(rest) // 2
    for top, bottom in zip(rest[:half], rest[half : 2 * half], strict=True):
        order += [top, bottom]
    return order, rest[2 * half :]


def _pair(field: _Field, problem: _matching.Problem) -> tuple[list[tuple[str, str]], str | None]:
    """Pair the score groups top-down; repair the whole field if that leaves anybody out.

    Each group (with the floaters it received) is paired as completely as possible, with
    the lowest possible floaters, before the next group is looked at (`_pair_group`). If
    players are left over at the bottom, this greedy order has failed rule 1 or 2 (their
    only possible opponents were used higher up): a field of up to EXACT_UP_TO players is
    then matched exactly at once; a larger one is repaired around the players left over,
    by exact windows and, failing those, by augmenting paths (bounded time).
    """
    bye = problem.bye_preference[0] if len(problem.players) % 2 else None
    carry: list[str] = []
    pairs: list[tuple[str, str]] = []
    for k, members in enumerate(field.members):
        games, carry = _pair_group(field, problem, k, carry, [p for p in members if p != bye])
        pairs += games
    if not carry:
        return pairs, bye
    if len(problem.players) <= _matching.EXACT_UP_TO:
        return _matching.best_round(problem)
    slots, stuck = _matching.repair([p for game in pairs for p in game] + carry, problem)
    if not stuck:
        return _matching.improve(slots, problem), bye
    return _matching.fallback(problem, slots, stuck, bye)


def _pair_group(
    field: _Field, problem: _matching.Problem, k: int, floaters: list[str], residents: list[str]
) -> tuple[list[tuple[str, str]], list[str]]:
    """The games of score group k with the floaters it received, and who floats on.

    A small group is matched exactly. A larger one keeps its ideal games, repairs the
    forbidden ones in windows, and swaps partners against dealing clashes (rule 6); if the
    windows cannot pair it, augmenting paths pair as many as can be (rule 4), the lowest
    players left over where there is a choice.
    """
    # Whoever may play nobody here floats on whatever the group does: set them aside (an
    # exact matching would only find that out slowly).
    pool = floaters + residents
    lone = {p for p in pool if not any(problem.allowed(p, q) for q in pool if q != p)}
    if lone:
        games, spare = _pair_group(
            field,
            problem,
            k,
            [f for f in floaters if f not in lone],
            [r for r in residents if r not in lone],
        )
        return games, sorted([*spare, *lone], key=field.rank.__getitem__)
    if len(pool) <= _EXACT_POOL:
        games, spare = _matching.best_partial(pool, problem, field.keep_out(k, floaters))
        return games, sorted(spare, key=field.rank.__getitem__)
    order, spare = _pool_order(floaters, residents)
    cap = None if len(pool) <= _matching.WINDOW_CAP else _matching.WINDOW_CAP
    games, stuck = _matching.repair(order, problem, cap, swap=True)
    if stuck and cap is None:  # cannot be paired completely: choose who floats exactly
        games, spare = _matching.best_partial(pool, problem, field.keep_out(k, floaters))
    elif stuck:
        games, spare = _matching.pair_most(pool, games, stuck, spare, problem)
    return _matching.improve(games, problem), sorted(spare, key=field.rank.__getitem__)

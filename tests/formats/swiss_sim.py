"""Generated Swiss tournaments and independent checks of each round against the rules.

`play` runs a tournament through `swiss_round` with seeded random results: wins at the
table, one-sided no-shows, double no-shows, withdrawals before a round and during one
(under policy forfeit or drop) and a late entry. `check` verifies a round by brute force
(exact matchings of the whole field, written here independently of the pairing code):

- no repeat while a repeat-free round exists (rule 1);
- nobody's dealing balance beyond ±2 while a round allowed by rule 1 avoids it (rule 2);
- the bye: the lowest-ranked player with the fewest byes that rules 1 and 2 allow (rule 3);
- score groups top-down as complete as possible with the lowest floaters (rules 4 and 5):
  the completeness vector D of the round equals the exact optimum with the same bye.

Used by tests/formats/test_swiss_properties.py and bench/pairing.py.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import networkx as nx  # type: ignore[import-untyped]

from tournament.formats import Bye, Game, RoundPairing, Standing, swiss_round
from tournament.formats.model import bye_counts, first_deal_balance, meetings

Pair = frozenset[str]


@dataclass
class Round:
    """One round as it was paired: its input and its output."""

    number: int
    table: list[Standing]  # the active players, best first
    games_before: list[Game]
    byes_before: list[Bye]
    pairing: RoundPairing


@dataclass
class Tournament:
    """What a generated tournament went through, round by round."""

    players: int
    rounds: list[Round] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)


def play(
    rng: random.Random,
    n: int,
    rounds: int,
    *,
    pair: Callable[..., RoundPairing] = swiss_round,
    each_round: Callable[[Round], None] | None = None,
) -> Tournament:
    """Play a Swiss of `n` players over `rounds` rounds with random results.

    About 5% of games are one-sided no-shows, 1% double no-shows; one or two players
    withdraw before a round, one during a round (its game forfeited or dropped); one player
    enters late (before round 2 or 3). `each_round` sees every round once it is paired.
    """
    field_ = [f"p{i:03d}" for i in range(1, n + 1)]
    late = f"p{n + 1:03d}"
    late_round = rng.choice((2, 3))
    score: Counter[str] = Counter()
    gone: set[str] = set()
    withdraw_before = {rng.randrange(2, rounds + 1): rng.choice(field_) for _ in range(2)}
    withdraw_during = (rng.randrange(1, rounds + 1), rng.choice(field_), rng.random() < 0.5)
    t = Tournament(n)
    for r in range(1, rounds + 1):
        if r == late_round:
            field_.append(late)
        if r in withdraw_before:
            gone.add(withdraw_before[r])
        active = [p for p in field_ if p not in gone]
        if len(active) < 2:
            break
        table = [Standing(p, score[p]) for p in sorted(active, key=lambda p: -score[p])]
        pairing = pair(r, table, list(t.games), list(t.byes), seed=r, withdrawn=gone)
        rnd = Round(r, table, list(t.games), list(t.byes), pairing)
        t.rounds.append(rnd)
        if each_round is not None:
            each_round(rnd)
        quitter = withdraw_during[1] if withdraw_during[0] == r else None
        for p in pairing.pairings:
            a, b, dealer = p.player_a, p.player_b, p.first_dealer
            if quitter in p.players:
                other = b if quitter == a else a
                if withdraw_during[2]:  # policy drop: void, nobody scores
                    t.games.append(Game(r, a, b, dealer, dropped=True))
                else:
                    t.games.append(Game(r, a, b, dealer, other, forfeit=True))
                    score[other] += 1
                continue
            luck = rng.random()
            if luck < 0.01:  # both absent: a loss for each
                t.games.append(Game(r, a, b, dealer, forfeit=True))
            elif luck < 0.06:
                winner = rng.choice(p.players)
                t.games.append(Game(r, a, b, dealer, winner, forfeit=True))
                score[winner] += 1
            else:
                winner = rng.choice(p.players)
                t.games.append(Game(r, a, b, dealer, winner))
                score[winner] += 1
        for bye in pairing.byes:
            t.byes.append(Bye(r, bye))
            score[bye] += 1
        if quitter is not None:
            gone.add(quitter)
    return t


# --- the brute-force checks ------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """How a round compares with the exact optimum under the rules."""

    repeats: int
    clashes: int
    best_repeats: int
    best_clashes: int
    bye_ok: bool
    d: tuple[int, ...]
    best_d: tuple[int, ...]


def check(rnd: Round, dealing: bool = True) -> Verdict:
    """Compare one round with the exact optimum of rules 1-5 (see the module docstring)."""
    players = [s.player_id for s in rnd.table]
    met = meetings(rnd.games_before)
    balance, _ = first_deal_balance(rnd.games_before)

    def clash(u: str, v: str) -> bool:
        bu, bv = balance[u], balance[v]
        return dealing and ((bu >= 2 and bv >= 2) or (bu <= -2 and bv <= -2))

    pairs = [frozenset(p.players) for p in rnd.pairing.pairings]
    repeats = sum(1 for pair in pairs if pair in met)
    clashes = sum(1 for p in rnd.pairing.pairings if clash(*p.players))
    had = bye_counts(rnd.byes_before, rnd.games_before)
    fewest = min(had[p] for p in players)
    eligible = [p for p in players if had[p] == fewest]
    bye = rnd.pairing.byes[0] if rnd.pairing.byes else None
    best = _fewest_faults(players, met, clash, eligible)
    bye_ok = True
    if bye is not None:
        # The chosen bye must reach the best (repeats, clashes), and nobody eligible below
        # it may reach it too.
        reach = _fewest_faults([p for p in players if p != bye], met, clash, [])
        below = eligible[eligible.index(bye) + 1 :] if bye in eligible else eligible
        bye_ok = (
            bye in eligible
            and reach == best
            and all(
                _fewest_faults([p for p in players if p != q], met, clash, []) > best for q in below
            )
        )
    rest = [p for p in players if p != bye]
    groups = _groups(rnd.table)
    best_pairs = _best_d(rest, met, clash, groups)
    return Verdict(
        repeats,
        clashes,
        best[0],
        best[1],
        bye_ok,
        completeness(pairs, groups),
        completeness(best_pairs, groups),
    )


def _groups(table: Sequence[Standing]) -> dict[str, tuple[int, int, int]]:
    """Per player: (score group, place in it from the top, size of the group)."""
    levels = sorted({s.score for s in table}, reverse=True)
    members: dict[float, list[str]] = {score: [] for score in levels}
    for s in table:
        members[s.score].append(s.player_id)
    return {
        p: (levels.index(score), i, len(ms))
        for score, ms in members.items()
        for i, p in enumerate(ms)
    }


def completeness(pairs: Sequence[Pair], groups: dict[str, tuple[int, int, int]]) -> tuple[int, ...]:
    """The top-down vector D: for each score group k, best first, the games crossing below
    it, then the heights of the players leaving it (a player's places above the bottom of
    its group; a floater passing through from above counts as the group's size)."""
    k_max = max(g for g, _, _ in groups.values()) + 1
    size = {g: s for g, _, s in groups.values()}
    d = [0] * (2 * k_max)
    for pair in pairs:
        u, v = sorted(pair, key=lambda p: groups[p][:2])
        gu, place, _ = groups[u]
        for k in range(gu, groups[v][0]):
            d[2 * k] += 1
            d[2 * k + 1] += size[k] - 1 - place if k == gu else size[k]
    return tuple(d)


def _fewest_faults(
    players: list[str], met: set[Pair], clash: Callable[[str, str], bool], bye_from: list[str]
) -> tuple[int, int]:
    """The least (repeats, clashes) of any round of `players` (the bye, when odd, among
    `bye_from`); (big, big) when no round is possible."""
    n = len(players)
    if n % 2 and not bye_from:
        return (n, n)
    clash_w = n + 2
    top = clash_w * (n + 2) + 1
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for i, u in enumerate(players):
        for v in players[i + 1 :]:
            penalty = clash_w * (frozenset((u, v)) in met) + clash(u, v)
            graph.add_edge(u, v, weight=top - penalty)
    if n % 2:
        graph.add_edges_from(("\x00", p, {"weight": top}) for p in bye_from)
    mate = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(mate) < n + n % 2:
        return (n, n)
    games = [m for m in mate if "\x00" not in m]
    return (
        sum(frozenset(m) in met for m in games),
        sum(clash(*m) for m in games),
    )


def _best_d(
    players: list[str],
    met: set[Pair],
    clash: Callable[[str, str], bool],
    groups: dict[str, tuple[int, int, int]],
) -> list[Pair]:
    """A round of `players` (even) with the fewest repeats, then clashes, then the least
    D (lexicographic), by one exact matching."""
    k_max = max(g for g, _, _ in groups.values()) + 1
    n = len(players)
    # Mixed radix from the last component of D up; each digit holds its largest total.
    radix = []
    weight = 1
    for k in reversed(range(k_max)):
        size = max(s for g, _, s in groups.values() if g == k)
        radix.append((2 * k + 1, weight))
        weight *= n * (size + 1) + 1
        radix.append((2 * k, weight))
        weight *= n + 1
    digit = dict(radix)
    clash_w = weight
    repeat_w = clash_w * (n + 1)
    top = repeat_w * (n + 1)
    graph = nx.Graph()
    for i, u in enumerate(players):
        for v in players[i + 1 :]:
            d = completeness([frozenset((u, v))], groups)
            penalty = sum(digit[j] * x for j, x in enumerate(d))
            penalty += repeat_w * (frozenset((u, v)) in met) + clash_w * clash(u, v)
            graph.add_edge(u, v, weight=top - penalty)
    mate = nx.max_weight_matching(graph, maxcardinality=True)
    return [frozenset(m) for m in mate]


def rounds_of(seed: int, sizes: range, lengths: range) -> Iterator[tuple[int, int]]:
    """A seeded choice of (players, rounds) for generated tournaments."""
    rng = random.Random(seed)
    while True:
        yield rng.choice(sizes), rng.choice(lengths)

"""Helpers that play tournaments out with seeded random results."""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection, Iterable

import networkx as nx  # type: ignore[import-untyped]

from tournament.formats import (
    Bracket,
    BracketResult,
    BracketState,
    Bye,
    Game,
    RoundPairing,
    bracket_state,
)


def players(n: int) -> list[str]:
    return [f"p{i:03d}" for i in range(1, n + 1)]


def play_bracket(
    bracket: Bracket,
    rng: random.Random,
    withdraw: dict[int, str] | None = None,
    favour_seeds: bool = False,
) -> tuple[BracketState, list[BracketResult], list[str]]:
    """Play every ready match with random winners until the bracket is decided.

    `withdraw` maps a step number to a player who withdraws before that step.
    """
    results: list[BracketResult] = []
    gone: list[str] = []
    seed_rank = {p: i for i, p in enumerate(bracket.seeds)}
    for step in itertools.count():
        if withdraw and step in withdraw:
            gone.append(withdraw[step])
        state = bracket_state(bracket, results, gone)
        assert not state.conflicts, state.conflicts
        ready = state.ready()
        if not ready:
            return state, results, gone
        m = ready[0]
        a, b = m.player_a, m.player_b
        assert a is not None and b is not None
        best = a if seed_rank[a] < seed_rank[b] else b
        winner = best if favour_seeds else rng.choice((a, b))
        results.append(BracketResult(m.match_id, winner))
    raise AssertionError("unreachable")


def record(
    rp: RoundPairing, rng: random.Random, games: list[Game], byes: list[Bye]
) -> dict[str, float]:
    """Random winners for a round; returns points won this round (win or bye = 1)."""
    points: dict[str, float] = {}
    for p in rp.pairings:
        w = rng.choice(p.players)
        games.append(Game(rp.round_no, p.player_a, p.player_b, p.first_dealer, w))
        points[w] = points.get(w, 0) + 1
    for b in rp.byes:
        byes.append(Bye(rp.round_no, b))
        points[b] = points.get(b, 0) + 1
    return points


def repeat_free_round_exists(
    active: Collection[str], met: Iterable[frozenset[str]], bye_allowed: Collection[str]
) -> bool:
    """Brute-force check: is there a round with no repeat (bye among `bye_allowed`)?"""
    met_set = set(met)
    people = list(active)
    graph = nx.complete_graph(people)
    graph.remove_edges_from([tuple(m) for m in met_set if m <= set(people)])
    if len(people) % 2 == 0:
        return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(people)
    for b in bye_allowed:
        rest = graph.subgraph([p for p in people if p != b])
        if 2 * len(nx.max_weight_matching(rest, maxcardinality=True)) == len(people) - 1:
            return True
    return False


def check_round(rp: RoundPairing, active: Collection[str]) -> None:
    """Every active player plays exactly once or has the bye; tables are 1..n."""
    seen = rp.players_in_round()
    assert sorted(seen) == sorted(active), (sorted(seen), sorted(active))
    assert len(rp.byes) == len(active) % 2
    assert [p.table for p in rp.pairings] == list(range(1, len(rp.pairings) + 1))
    for p in rp.pairings:
        assert p.first_dealer in p.players
        assert p.player_a != p.player_b

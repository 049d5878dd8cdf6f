"""The pairing engine's bounded repair: augmenting paths find a pairing of everybody
whenever one exists (checked against networkx's exact matching), and a large Swiss field
that the local repairs cannot pair is completed by them without repeats where possible."""

from __future__ import annotations

import networkx as nx  # type: ignore[import-untyped]
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament.formats import Game, Standing, swiss_round
from tournament.formats._augment import augment
from tournament.formats.model import meetings

from .sim import check_round, players, repeat_free_round_exists


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[str], set[frozenset[str]], list[tuple[str, str]]]:
    """Players, the pairs allowed to play, and some games already made among them."""
    people = players(draw(st.integers(2, 24)))
    pairs = [frozenset((a, b)) for i, a in enumerate(people) for b in people[i + 1 :]]
    allowed = set(draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))))
    games: list[tuple[str, str]] = []
    taken: set[str] = set()
    for pair in draw(st.permutations(sorted(allowed, key=sorted))):
        a, b = sorted(pair)
        if a not in taken and b not in taken and draw(st.booleans()):
            games.append((a, b))
            taken |= {a, b}
    return people, allowed, games


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs())
def test_augmenting_paths_pair_as_many_players_as_any_pairing_can(
    g: tuple[list[str], set[frozenset[str]], list[tuple[str, str]]],
) -> None:
    people, allowed, games = g
    paired = {p for game in games for p in game}
    free = [p for p in people if p not in paired]
    out, left = augment(people, games, free, lambda u, v: frozenset((u, v)) in allowed)
    seated = [p for game in out for p in game]
    assert len(seated) == len(set(seated))
    assert all(frozenset(game) in allowed for game in out)
    assert paired <= set(seated)  # whoever was paired stays paired
    assert sorted(left) == sorted(set(people) - set(seated))
    exact = nx.Graph()
    exact.add_nodes_from(people)
    exact.add_edges_from(tuple(pair) for pair in allowed)
    assert len(out) == len(nx.max_weight_matching(exact, maxcardinality=True))


def test_a_player_who_may_play_nobody_is_left_over_without_a_search() -> None:
    out, left = augment(
        ["a", "b", "c", "d"], [("b", "c")], ["a", "d"], lambda u, v: "a" not in (u, v)
    )
    assert out == [("b", "c")]
    assert sorted(left) == ["a", "d"]


FIELD = players(200)  # past the exact whole-field fallback (128 players)


def standings_in_groups() -> list[Standing]:
    return [Standing(p, 5 - i // 40) for i, p in enumerate(FIELD)]


def test_rule_1_a_large_field_without_repeats_when_the_bottom_may_only_play_the_top() -> None:
    # The lowest player has met everybody but the leader: the greedy pass leaves him over
    # at the bottom, far from his only possible opponent.
    history = [Game(1, FIELD[-1], p) for p in FIELD[1:-1]]
    rp = swiss_round(11, standings_in_groups(), history)
    check_round(rp, FIELD)
    assert not {frozenset(p.players) for p in rp.pairings} & meetings(history)
    assert frozenset((FIELD[0], FIELD[-1])) in {frozenset(p.players) for p in rp.pairings}


def test_rule_1_a_large_field_repeats_only_as_often_as_it_must() -> None:
    # The two lowest players have met everybody but the leader: one of them must repeat,
    # and only one game may be a repeat.
    history = [Game(1, x, p) for x in FIELD[-2:] for p in FIELD[1:] if p != x]
    rp = swiss_round(11, standings_in_groups(), history)
    check_round(rp, FIELD)
    assert not repeat_free_round_exists(FIELD, meetings(history), ())
    repeats = [p for p in rp.pairings if frozenset(p.players) in meetings(history)]
    assert len(repeats) == 1


def test_rule_3_in_a_large_field_the_bye_moves_up_only_as_far_as_it_must() -> None:
    # 201 players: p200 has met everybody but p201, the lowest player, so p201 cannot have
    # the bye without p200 repeating; it goes to the lowest player who can take it, p200.
    field = [*FIELD, "p201"]
    history = [Game(1, "p200", p) for p in field[:-2]]
    table = [Standing(p, 5 - i // 40) for i, p in enumerate(field)]
    rp = swiss_round(11, table, history)
    check_round(rp, field)
    assert not {frozenset(p.players) for p in rp.pairings} & meetings(history)
    assert rp.byes == ("p200",)


def test_rule_1_a_large_group_pairs_a_player_whose_only_opponent_is_far_below_him() -> None:
    # One score group of 200: its best player has met all of it but its lowest player, far
    # beyond any repair window; augmenting paths inside the group pair the two.
    table = [Standing(p, 3) for p in FIELD]
    history = [Game(1, FIELD[0], p) for p in FIELD[1:-1]]
    rp = swiss_round(5, table, history)
    check_round(rp, FIELD)
    assert frozenset((FIELD[0], FIELD[-1])) in {frozenset(p.players) for p in rp.pairings}
    assert not {frozenset(p.players) for p in rp.pairings} & meetings(history)

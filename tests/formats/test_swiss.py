"""Swiss: score groups, no repeats while avoidable, byes, first dealer, withdrawals."""

from __future__ import annotations

import random
from collections import Counter

import networkx as nx  # type: ignore[import-untyped]
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament.formats import (
    Bye,
    FormatError,
    Game,
    RoundPairing,
    Standing,
    recommended_rounds,
    swiss_round,
)
from tournament.formats.model import bye_counts, first_deal_balance, meetings

from .sim import check_round, players, record, repeat_free_round_exists


def standings(order: list[str], score: dict[str, float]) -> list[Standing]:
    ranked = sorted(order, key=lambda p: (-score[p], order.index(p)))
    return [Standing(p, score[p]) for p in ranked]


def run(
    n: int,
    rounds: int,
    seed: int,
    withdraw: dict[int, str] | None = None,
    check_top: bool = False,
) -> None:
    """Play `rounds` rounds with random results, checking every round's pairing (with
    `check_top`, also rules 4 and 5 for the top score group, by brute force)."""
    rng = random.Random(seed)
    field = players(n)
    score = dict.fromkeys(field, 0.0)
    games: list[Game] = []
    byes: list[Bye] = []
    gone: set[str] = set()
    for r in range(1, rounds + 1):
        if withdraw and r in withdraw:
            gone.add(withdraw[r])
        active = [p for p in field if p not in gone]
        if len(active) < 2:
            return
        table = standings(field, score)
        rp = swiss_round(r, table, games, byes, seed=seed, withdrawn=gone)
        check_round(rp, active)
        met = meetings(games)
        repeats = [p for p in rp.pairings if frozenset(p.players) in met]
        if repeats:
            had = bye_counts(byes)
            fewest = min(had[p] for p in active)
            eligible = [p for p in active if had[p] == fewest]
            assert not repeat_free_round_exists(active, met, eligible), (r, repeats)
        apart = met | clashes(games, active)  # rules 1 and 2
        if rp.byes:
            had = bye_counts(byes)
            ranked = [s.player_id for s in table if s.player_id in active]
            fewest = min(had[p] for p in active)
            if not repeats:
                # The bye goes to the lowest-ranked player with the fewest byes, unless
                # that would force a repeat or a dealing clash.
                lowest = [p for p in ranked if had[p] == fewest][-1]
                assert rp.byes == (lowest,) or not repeat_free_round_exists(
                    [p for p in active if p != lowest], apart, ()
                )
            assert had[rp.byes[0]] == fewest or repeats
        if check_top:
            check_top_group(rp, table, apart)
        for p, pts in record(rp, rng, games, byes).items():
            score[p] += pts


@pytest.mark.parametrize("n", range(2, 129))
def test_every_field_size_pairs_every_round(n: int) -> None:
    run(n, recommended_rounds(n) + 1, seed=n)


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 9, 12, 17, 33, 64, 101, 128])
def test_withdrawn_players_are_not_paired_from_the_next_round(n: int) -> None:
    field = players(n)
    run(n, recommended_rounds(n) + 1, seed=n, withdraw={2: field[0], 3: field[-1]})


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_small_fields_play_a_full_round_robin_without_repeats(n: int) -> None:
    # As many rounds as a round robin: late rounds get tight, and a repeat is allowed
    # only when no repeat-free round exists (we do not look ahead to later rounds).
    run(n, n - 1 + n % 2, seed=3)


def test_round_one_is_top_half_against_bottom_half() -> None:
    rp = swiss_round(1, [Standing(p, 0) for p in players(8)])
    assert [p.players for p in rp.pairings] == [
        ("p001", "p005"),
        ("p002", "p006"),
        ("p003", "p007"),
        ("p004", "p008"),
    ]


def test_score_groups_pair_inside_and_float_the_odd_one_down() -> None:
    score = {"a": 2, "b": 2, "c": 2, "d": 1, "e": 1, "f": 1}
    rp = swiss_round(3, [Standing(p, s) for p, s in score.items()])
    assert [p.players for p in rp.pairings] == [("a", "b"), ("c", "d"), ("e", "f")]


def pairs_of(rp: RoundPairing) -> set[frozenset[str]]:
    return {frozenset(p.players) for p in rp.pairings}


def met(*pairs: str) -> list[Game]:
    """Round-1 games between the players of each two-letter pair ("sa": s v a)."""
    return [Game(1, a, b, a, a) for a, b in pairs]


# Rule 4 then rule 5: the reviewer's round 5. Three players on 4-0; the lowest of them
# has already met the top of the 3-point group. The two leaders must still meet, and the
# lowest leader floats (to the best 3-pointer he has not met), not the second leader.
LEADERS = {"g": 4, "i": 4, "s": 4, "a": 3, "b": 3, "c": 3, "d": 3, "e": 3}


def test_the_two_leaders_meet_and_the_lowest_leader_floats_past_a_repeat() -> None:
    rp = swiss_round(5, [Standing(p, s) for p, s in LEADERS.items()], met("sa"))
    assert frozenset("gi") in pairs_of(rp)
    assert frozenset("sb") in pairs_of(rp)  # the top 3-pointer he has not met


def test_the_top_group_stays_complete_before_the_in_group_order() -> None:
    # Rule 4 over rule 6: 1 v 3 and 2 v 4 are repeats, so 1 v 4 and 2 v 3; nobody floats.
    score = {"a": 2, "b": 2, "c": 2, "d": 2, "e": 1, "f": 1}
    rp = swiss_round(3, [Standing(p, s) for p, s in score.items()], met("ac", "bd"))
    assert pairs_of(rp) == {frozenset("ad"), frozenset("bc"), frozenset("ef")}


def test_the_floater_is_the_lowest_player_who_leaves_no_repeat_in_his_group() -> None:
    # Rule 5: a has met b, so a v c and b floats; c, the lowest, floating would force a v b.
    score = {"a": 2, "b": 2, "c": 2, "d": 1, "e": 1, "f": 1}
    rp = swiss_round(3, [Standing(p, s) for p, s in score.items()], met("ab"))
    assert pairs_of(rp) == {frozenset("ac"), frozenset("bd"), frozenset("ef")}


def test_a_leader_who_met_the_whole_group_below_floats_on_and_nobody_repeats() -> None:
    # Rule 1 over everything: s met every 3-pointer, so he floats two groups down.
    score = {**LEADERS, "x": 2, "y": 2}
    rp = swiss_round(
        5, [Standing(p, s) for p, s in score.items()], met(*("s" + p for p in "abcde"))
    )
    assert frozenset("gi") in pairs_of(rp)
    assert not pairs_of(rp) & {frozenset(g.players) for g in met(*("s" + p for p in "abcde"))}
    assert any(pair in pairs_of(rp) for pair in (frozenset("sx"), frozenset("sy")))


def test_leaders_who_all_met_each_other_float_as_they_must() -> None:
    rp = swiss_round(4, [Standing(p, s) for p, s in LEADERS.items()], met("gi", "gs", "is"))
    assert not pairs_of(rp) & {frozenset("gi"), frozenset("gs"), frozenset("is")}


def test_a_repeat_is_avoided_by_the_next_best_opponent() -> None:
    field = players(8)
    met = [Game(1, "p001", "p005", "p001", "p001")]
    rp = swiss_round(2, [Standing(p, 0) for p in field], met)
    pairs = {frozenset(p.players) for p in rp.pairings}
    assert frozenset(("p001", "p005")) not in pairs
    assert frozenset(("p001", "p006")) in pairs  # stays in the other half


def test_bye_goes_to_the_lowest_ranked_player_without_a_bye() -> None:
    table = [Standing(p, 0) for p in ("a", "b", "c", "d", "e")]
    assert swiss_round(2, table, byes=[Bye(1, "e")]).byes == ("d",)
    walkover = [Game(1, "d", "x", winner="d", forfeit=True)]
    assert swiss_round(2, table, walkover, byes=[Bye(1, "e")]).byes == ("c",)


def table(score: dict[str, float]) -> list[Standing]:
    """The standings in the order given."""
    return [Standing(p, s) for p, s in score.items()]


def dealt(**balance: int) -> list[Game]:
    """Round-1 games against players outside the field that give each player the dealing
    balance wanted (+2: dealt first twice; -1: dealt second once)."""
    out = []
    for p, b in balance.items():
        for i in range(abs(b)):
            other = f"{p}-opponent-{i}"
            out.append(Game(1, p, other, p if b > 0 else other, p))
    return out


# Rule 7, who deals first.
def test_rule_7_the_player_with_the_lower_dealing_balance_deals_first() -> None:
    games = [Game(1, "a", "c", "a", "a"), Game(1, "b", "d", "d", "b")]
    rp = swiss_round(
        2, [Standing("a", 1), Standing("b", 1), Standing("c", 0), Standing("d", 0)], games
    )
    dealer = {frozenset(p.players): p.first_dealer for p in rp.pairings}
    assert dealer[frozenset(("a", "b"))] == "b"
    assert dealer[frozenset(("c", "d"))] == "c"


def test_rule_7_on_equal_balances_who_did_not_deal_first_last_time_deals_first() -> None:
    # a: first then second (0, latest second); b: second then first (0, latest first).
    games = [
        Game(1, "a", "x", "a", "a"),
        Game(2, "a", "y", "y", "a"),
        Game(1, "b", "z", "z", "b"),
        Game(2, "b", "w", "b", "b"),
    ]
    rp = swiss_round(3, table({"a": 2, "b": 2}), games)
    assert rp.pairings[0].first_dealer == "a"


def test_rule_7_a_tie_in_everything_is_drawn_from_the_seed() -> None:
    dealers = {
        swiss_round(1, table({"a": 0, "b": 0}), seed=s).pairings[0].first_dealer for s in range(20)
    }
    assert dealers == {"a", "b"}
    assert swiss_round(1, table({"a": 0, "b": 0}), seed=7) == swiss_round(
        1, table({"a": 0, "b": 0}), seed=7
    )


# Rule 2, the dealing limit: nobody goes beyond +-2.
def test_rule_2_two_players_on_plus_two_never_meet_even_if_their_group_stays_incomplete() -> None:
    rp = swiss_round(5, table({"a": 3, "b": 3, "c": 2, "d": 2}), dealt(a=2, b=2))
    assert pairs_of(rp) == {frozenset("ac"), frozenset("bd")}


def test_rule_2_two_players_on_minus_two_never_meet_either() -> None:
    rp = swiss_round(5, table({"a": 3, "b": 3, "c": 2, "d": 2}), dealt(a=-2, b=-2))
    assert pairs_of(rp) == {frozenset("ac"), frozenset("bd")}


def test_rule_1_a_repeat_is_worse_than_a_dealing_clash() -> None:
    # c and d have met both leaders: the only round without a repeat has a v b.
    history = dealt(a=2, b=2) + met("ac", "ad", "bc", "bd")
    rp = swiss_round(5, table({"a": 3, "b": 3, "c": 2, "d": 2}), history)
    assert pairs_of(rp) == {frozenset("ab"), frozenset("cd")}


def test_rule_2_the_bye_moves_up_when_the_lowest_players_bye_would_force_a_clash() -> None:
    # With the bye for c (the lowest), a and b (both +2) would have to meet.
    rp = swiss_round(3, table({"a": 1, "b": 1, "c": 1}), dealt(a=2, b=2))
    assert rp.byes == ("b",)
    assert pairs_of(rp) == {frozenset("ac")}


def test_rule_2_holds_when_every_ideal_game_of_a_large_field_is_a_clash() -> None:
    # 300 players on one score, alternately on +2 and -2: the ideal 1 v 151, 2 v 152, ...
    # always pairs two on the same side, and yet everybody meets one of the other side.
    field = players(300)
    high, low = field[0::2], field[1::2]
    history = dealt(**dict.fromkeys(high, 2)) + dealt(**dict.fromkeys(low, -2))
    rp = swiss_round(5, [Standing(p, 0) for p in field], history)
    check_round(rp, field)
    assert all((p.player_a in high) != (p.player_b in high) for p in rp.pairings)


# Rule 6, the dealing preference: below rules 4 and 5, above the in-group order.
def test_rule_6_players_who_both_dealt_first_more_often_are_paired_apart_in_their_group() -> None:
    # The ideal a v c and b v d would take a or c to +2 and b or d to -2.
    rp = swiss_round(2, table({"a": 1, "b": 1, "c": 1, "d": 1}), dealt(a=1, b=-1, c=1, d=-1))
    assert pairs_of(rp) == {frozenset("ad"), frozenset("bc")}
    assert {p.first_dealer for p in rp.pairings} == {"d", "b"}  # everybody back to 0


def test_rule_5_the_lowest_player_still_floats_when_a_higher_one_would_even_out_dealing() -> None:
    # Floating b instead of c would give a v c (no clash), but c is the lowest of the group.
    score = {"a": 2, "b": 2, "c": 2, "d": 1, "e": 1, "f": 1}
    rp = swiss_round(3, table(score), dealt(a=1, b=1, c=-1))
    assert pairs_of(rp) == {frozenset("ab"), frozenset("cd"), frozenset("ef")}


def test_rule_4_the_dealing_preference_never_breaks_up_a_score_group() -> None:
    score = {"a": 2, "b": 2, "c": 1, "d": 1}
    rp = swiss_round(3, table(score), dealt(a=1, b=1, c=-1, d=-1))
    assert pairs_of(rp) == {frozenset("ab"), frozenset("cd")}


def test_with_another_first_dealer_rule_the_pairing_leaves_dealing_alone() -> None:
    # The domain's higher_seed, seeded_draw or as_entered: the dealer is not ours to pick.
    rp = swiss_round(
        5, table({"a": 3, "b": 3, "c": 2, "d": 2}), dealt(a=2, b=2), balance_dealing=False
    )
    assert pairs_of(rp) == {frozenset("ab"), frozenset("cd")}


# Rule 5: a floater received is paired before any player of the group floats.
def test_rule_5_a_floater_from_above_is_paired_before_a_player_of_the_group_floats() -> None:
    # L (alone on 3) may only play d; a may play only d among the 2-pointers. Floating L on
    # would let the 2-pointers pair among themselves, but a floater received comes first:
    # L v d, and a (who then has nobody left) floats.
    score = {"L": 3, "a": 2, "b": 2, "c": 2, "d": 2, "x": 1, "y": 1, "z": 1}
    history = [Game(1, u, v) for u, v in ("La", "Lb", "Lc", "ab", "ac")]  # dealers unknown
    rp = swiss_round(4, table(score), history)
    assert pairs_of(rp) == {frozenset("Ld"), frozenset("bc"), frozenset("ax"), frozenset("yz")}


def test_the_dealing_history_leaves_out_games_not_decided_at_the_table() -> None:
    # A no-show, a double no-show, a walkover after a withdrawal (all forfeits) and a game
    # dropped after a withdrawal count for neither player, whatever was dealt before.
    history = [
        Game(1, "a", "b", "a", "a"),  # counts: a +1, b -1
        Game(2, "a", "c", "a", "c", forfeit=True),  # a no-show
        Game(3, "a", "d", "a", None, forfeit=True),  # both absent
        Game(4, "a", "e", "a", "a", forfeit=True),  # e withdrew: a walkover
        Game(5, "a", "f", "a", dropped=True),  # f withdrew, the game was dropped
    ]
    balance, latest = first_deal_balance(history)
    assert (balance["a"], balance["b"], balance["c"], balance["f"]) == (1, -1, 0, 0)
    assert latest == {"a": "a", "b": "a"}
    assert meetings(history) == {frozenset("ab")}


@pytest.mark.parametrize("n", [10, 64])
def test_first_deals_stay_balanced_over_a_tournament(n: int) -> None:
    rng = random.Random(n)
    field = players(n)
    score = dict.fromkeys(field, 0.0)
    games: list[Game] = []
    byes: list[Bye] = []
    for r in range(1, 8):
        rp = swiss_round(r, standings(field, score), games, byes, seed=1)
        for p, pts in record(rp, rng, games, byes).items():
            score[p] += pts
    first = Counter(g.first_dealer for g in games)
    played = Counter(p for g in games for p in g.players)
    assert all(abs(2 * first[p] - played[p]) <= 2 for p in field)


def test_same_input_same_round() -> None:
    table = [Standing(p, i % 3) for i, p in enumerate(players(51))]
    assert swiss_round(1, table, seed=5) == swiss_round(1, table, seed=5)


def test_errors_name_the_field() -> None:
    with pytest.raises(FormatError, match=r"standings\[1\]"):
        swiss_round(1, [Standing("a", 0), Standing("a", 0)])
    with pytest.raises(FormatError, match="round_no"):
        swiss_round(0, [Standing("a", 0), Standing("b", 0)])
    with pytest.raises(FormatError, match=r"games\[0\]\.round_no"):
        swiss_round(1, [Standing("a", 0), Standing("b", 0)], [Game(1, "a", "b")])
    with pytest.raises(FormatError, match="standings"):
        swiss_round(1, [Standing("a", 0)])


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[str], list[frozenset[str]], list[str], list[int]]:
    n = draw(st.integers(2, 11))
    field = players(n)
    all_pairs = [frozenset((a, b)) for i, a in enumerate(field) for b in field[i + 1 :]]
    met = draw(st.lists(st.sampled_from(all_pairs), unique=True, max_size=len(all_pairs)))
    had_bye = draw(st.lists(st.sampled_from(field), unique=True, max_size=n))
    scores = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    return field, met, had_bye, scores


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_no_repeat_while_a_repeat_free_round_exists(
    h: tuple[list[str], list[frozenset[str]], list[str], list[int]],
) -> None:
    field, met, had_bye, scores = h
    games = [Game(1, min(m), max(m)) for m in met]
    byes = [Bye(1, p) for p in had_bye]
    table = sorted(
        (Standing(p, s) for p, s in zip(field, scores, strict=True)), key=lambda s: -s.score
    )
    rp = swiss_round(2, table, games, byes)
    check_round(rp, field)
    repeats = [p for p in rp.pairings if frozenset(p.players) in set(met)]
    fewest = min(1 if p in had_bye else 0 for p in field)
    eligible = [p for p in field if (1 if p in had_bye else 0) == fewest]
    if repeats:
        assert not repeat_free_round_exists(field, met, eligible)
    assert not rp.byes or rp.byes[0] in eligible or repeats


def top_group_leftovers(pairs: set[frozenset[str]], top: list[str]) -> tuple[int, int]:
    """Players of the top score group (best first) who play outside it: how many, and how
    high up they are (summed places from the bottom of the group; 0 = the lowest)."""
    out = [p for pair in pairs if len(pair & set(top)) == 1 for p in pair if p in top]
    return len(out), sum(len(top) - 1 - top.index(p) for p in out)


def fewest_top_leftovers(
    people: list[str], met: set[frozenset[str]], top: list[str]
) -> tuple[int, int] | None:
    """Brute force: the best `top_group_leftovers` of any repeat-free round of `people`
    (None: there is no repeat-free round)."""
    height = {p: len(top) - 1 - i for i, p in enumerate(top)}
    bonus = 2 * sum(height.values()) + 1  # a game inside the group beats any choice of who
    graph = nx.Graph()
    graph.add_nodes_from(people)
    for i, u in enumerate(people):
        for v in people[i + 1 :]:
            if frozenset((u, v)) not in met:
                inside = u in height and v in height
                weight = 1 + (bonus + height[u] + height[v] if inside else 0)
                graph.add_edge(u, v, weight=weight)
    mate = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(mate) < len(people):
        return None
    return top_group_leftovers({frozenset(m) for m in mate}, top)


def clashes(games: list[Game], active: list[str]) -> set[frozenset[str]]:
    """Rule 2: pairs of players on +2 or more (or both on -2 or less)."""
    balance, _ = first_deal_balance(games)
    high = [p for p in active if balance[p] >= 2]
    low = [p for p in active if balance[p] <= -2]
    return {frozenset((u, v)) for side in (high, low) for u in side for v in side if u < v}


def check_top_group(rp: RoundPairing, table: list[Standing], met: set[frozenset[str]]) -> None:
    """Rules 4 and 5 for the players with the maximum score: as few as possible play
    outside their group, and those who must are the lowest possible. `met`: the pairs
    rules 1 and 2 keep apart."""
    playing = [s for s in table if s.player_id in rp.players_in_round()]
    best = max(s.score for s in playing)
    top = [s.player_id for s in playing if s.score == best and s.player_id not in rp.byes]
    people = [s.player_id for s in playing if s.player_id not in rp.byes]
    fewest = fewest_top_leftovers(people, met, top)
    if fewest is not None:  # rules 1 and 2 can hold with this bye: they do
        assert not pairs_of(rp) & met
        assert top_group_leftovers(pairs_of(rp), top) == fewest


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_the_top_score_group_leaves_out_no_more_players_than_necessary(
    h: tuple[list[str], list[frozenset[str]], list[str], list[int]],
) -> None:
    field, met, had_bye, scores = h
    games = [Game(1, min(m), max(m)) for m in met]
    table = sorted(
        (Standing(p, s) for p, s in zip(field, scores, strict=True)), key=lambda s: -s.score
    )
    rp = swiss_round(2, table, games, [Bye(1, p) for p in had_bye])
    check_top_group(rp, table, set(met))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 40), st.integers(0, 10**6))
def test_every_round_of_a_tournament_pairs_the_top_group_as_completely_as_possible(
    n: int, seed: int
) -> None:
    # More rounds than recommended, so that late rounds get tight.
    run(n, recommended_rounds(n) + 2, seed=seed, check_top=True)

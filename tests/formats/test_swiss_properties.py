"""Swiss rules 1-5 hold in every round of generated tournaments, by brute force.

Each tournament (tests/formats/swiss_sim.py) has 6-64 players and 5-9 rounds with random
results, one-sided and double no-shows, withdrawals before and during rounds (forfeit and
drop) and a late entry. Every round is compared with the exact optimum computed
independently: no avoidable repeat (rule 1), nobody beyond +-2 in dealing balance while a
round without it exists (rule 2), the documented bye (rule 3), and the score groups
filled top-down as completely as possible with the lowest floaters (rules 4 and 5: the
vector D equals the optimum). Fields past the exact fallback (130-400 players) are checked
for rules 1 and 2. A bigger run of the same checks, with its figures, is
`bench/pairing.py --check 300`.
"""

from __future__ import annotations

import random

import pytest

from tournament.formats.model import first_deal_balance

from .swiss_sim import Round, Tournament, check, play


def assert_rules_hold(rnd: Round) -> None:
    v = check(rnd)
    where = f"round {rnd.number} of {len(rnd.table)} players"
    assert v.repeats == v.best_repeats, f"{where}: {v.repeats} repeats, {v.best_repeats} needed"
    assert (v.repeats, v.clashes) == (v.best_repeats, v.best_clashes), f"{where}: clashes"
    assert v.bye_ok, f"{where}: bye {rnd.pairing.byes}"
    assert v.d == v.best_d, f"{where}: D {v.d}, optimum {v.best_d}"


def assert_dealing_within_two(t: Tournament) -> None:
    """Rule 2 as the players see it: after every round, every balance within +-2."""
    for rnd in t.rounds:
        balance, _ = first_deal_balance(g for g in t.games if g.round_no <= rnd.number)
        worst = max((abs(b) for b in balance.values()), default=0)
        assert worst <= 2, f"after round {rnd.number}: a dealing balance of {worst}"


def generated(seed: int, sizes: tuple[int, int]) -> Tournament:
    rng = random.Random(seed)
    return play(rng, rng.randint(*sizes), rng.randint(5, 9), each_round=assert_rules_hold)


@pytest.mark.parametrize("seed", range(48))
def test_rules_1_to_5_hold_in_every_round_of_generated_tournaments(seed: int) -> None:
    assert_dealing_within_two(generated(seed, (6, 64)))


@pytest.mark.parametrize("seed", range(2000, 2004))
def test_large_fields_never_repeat_and_never_go_beyond_two(seed: int) -> None:
    # 130-400 players: past the exact whole-field fallback; realistic histories always
    # have a round without repeats and clashes, so none may appear.
    def hard_rules(rnd: Round) -> None:
        met = {frozenset(g.players) for g in rnd.games_before if g.at_table}
        assert not [p for p in rnd.pairing.pairings if frozenset(p.players) in met]

    rng = random.Random(seed)
    t = play(rng, rng.randint(130, 400), rng.randint(7, 11), each_round=hard_rules)
    assert_dealing_within_two(t)

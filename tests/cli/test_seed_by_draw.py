"""`players seed --by draw` (trial 3 #12): a random seed order from a seed recorded in the
`players.seeded` event, derived from the tournament's master seed, that anybody can draw
again as docs/formats.md says."""

from __future__ import annotations

import hashlib
import random

from tests.cli.helpers import create_cup, state, stored


def eight(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "single_elimination")  # master seed 3
    for name in "ABCDEFGH":
        cli("players", "add", name)


def recomputed(seed: int) -> list[int]:
    """The order as docs/formats.md tells anybody to draw it again."""
    numbers = list(range(1, 9))  # start numbers in order of registration
    random.Random(f"seed-order:{seed}").shuffle(numbers)
    return numbers


def test_seeding_by_draw_records_its_seed_and_anybody_can_draw_it_again(cli) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    out = cli("players", "seed", "--by", "draw").output
    seeded = stored()[-1]
    assert seeded.type == "players.seeded"
    seed = seeded.payload["seed"]
    # Derived from the master seed: the first 4 bytes of SHA-256 of "seeding:3".
    assert seed == int.from_bytes(hashlib.sha256(b"seeding:3").digest()[:4], "big")
    assert seeded.payload["method"] == "draw"
    assert seeded.payload["order"] == recomputed(seed) != list(range(1, 9))
    assert out == f"seeded: {', '.join(map(str, recomputed(seed)))} (drawn with seed {seed})\n"
    assert [p.seed for p in sorted(state().players.values(), key=lambda p: p.seed or 0)] == list(
        range(1, 9)
    )
    assert seeded.metadata["source"] == "system"  # worked out by the program


def test_the_drawn_order_seeds_the_bracket(cli) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    cli("players", "seed", "--by", "draw")
    order = stored()[-1].payload["order"]
    cli("round", "start")
    assert state().rounds[0].info["seeds"] == [str(p) for p in order]


def test_a_seed_given_by_hand_is_recorded_and_used(cli) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    cli("players", "seed", "--by", "draw", "--seed", "2026")
    assert stored()[-1].payload["seed"] == 2026
    assert stored()[-1].payload["order"] == recomputed(2026)


def test_a_seed_for_another_seeding_is_refused_and_nothing_is_stored(cli) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    before = len(stored())
    out = cli("players", "seed", "--by", "rating", "--seed", "5", ok=False)
    assert out.exit_code == 1
    assert out.output == "Error: seed: a seed is for seeding by draw, not by rating (T-seeding)\n"
    assert len(stored()) == before


def test_seeding_by_draw_is_fixed_once_round_one_has_started(cli) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    cli("round", "start")
    out = cli("players", "seed", "--by", "draw", ok=False)
    assert out.exit_code == 1
    assert "seeding is fixed once round 1 has started (T-seeding)" in out.output


def test_a_withdrawn_player_is_not_in_the_draw_of_the_seeds(cli) -> None:  # type: ignore[no-untyped-def]
    eight(cli)
    cli("players", "withdraw", "4")
    cli("players", "seed", "--by", "draw")
    seeded = stored()[-1].payload
    numbers = [1, 2, 3, 5, 6, 7, 8]  # registration order, without the withdrawn player
    random.Random(f"seed-order:{seeded['seed']}").shuffle(numbers)
    assert seeded["order"] == numbers

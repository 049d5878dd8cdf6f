"""The read benches' tournament (bench/standings_get.py, bench/pages_cpu.py): a Swiss of
200 players, 9 rounds of best of 3, 7 rounds played at random and round 8 drawn -- the
field of trial 9's section 7 -- stored through the domain as one command."""

from __future__ import annotations

import random

from tournament.app.service import TournamentService
from tournament.domain.commands.registration import register_player
from tournament.domain.commands.rounds import start_round
from tournament.domain.testing import Builder, random_match


def tournament(
    service: TournamentService, tid: str, players: int = 200, *, played: int = 7, seed: int = 1
) -> int:
    """``tid`` with ``players`` players, ``played`` rounds played and the next drawn;
    its version."""
    rounds = max(played + 2, 3)
    service.create(
        tid,
        {"name": "Bench Open", "format": "swiss", "best_of": 3, "seed": seed,
         "options": {"rounds": rounds}},
    )  # fmt: skip
    b = Builder(list(service.events(tid)))  # type: ignore[arg-type]  # folds stored ones too
    done = len(b.events)
    for number in range(1, players + 1):
        rating = 4000 * (players - number) // players
        b.add(register_player(b.state, f"Player {number}", club=f"Club {number % 17}",
                              rating=rating))  # fmt: skip
    rng = random.Random(seed)
    for _ in range(played):
        b.add(start_round(b.state))
        for mid in b.state.rounds[-1].matches:
            random_match(b, b.state.matches[mid], rng)
    b.add(start_round(b.state))
    new = b.events[done:]
    return service.execute(tid, lambda t: new)[-1].version

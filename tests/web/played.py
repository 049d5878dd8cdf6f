"""Tournaments with players, rounds and results, for the tests of the read routes.

The routes that register players, draw rounds and enter results are being built beside
these (issue 9), so these tests set a tournament up by calling the domain's commands
through the app's own :class:`~tournament.app.service.TournamentService` -- the
service, store and cached state the routes read -- and then read everything over HTTP.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from tests.web.conftest import Web
from tournament.app.services import services
from tournament.domain.commands.registration import register_player
from tournament.domain.commands.results import record_forfeit, record_tally
from tournament.domain.commands.rounds import start_round
from tournament.domain.model.state import Tournament
from tournament.domain.testing import random_tally
from tournament.eventstore.api import NewEvent


def run(web: Web, tid: str, command: Callable[[Tournament], list[NewEvent]]) -> list[Any]:
    """``command`` decided and stored by the app's service, as a route would."""
    with web.app.app_context():
        return services().tournaments.execute(tid, command)


def state(web: Web, tid: str) -> Tournament:
    with web.app.app_context():
        return services().tournaments.state(tid)


def register(web: Web, tid: str, players: Sequence[tuple[str, str]]) -> None:
    """Players by name and category, rated from 1900 down in the order given."""
    for number, (name, category) in enumerate(players):
        run(
            web,
            tid,
            lambda t, n=name, c=category, r=1900 - number: register_player(
                t, n, category=c, rating=r
            ),
        )


def play_round(web: Web, tid: str, rng: random.Random, *, forfeits: bool = False) -> None:
    """Draw the next round and play every match of it: random Bummerl tallies, or (with
    ``forfeits``) the lower start number wins by forfeit."""
    run(web, tid, lambda t: start_round(t))
    for mid in state(web, tid).rounds[-1].matches:
        while not (match := state(web, tid).matches[mid]).decided and not match.dropped:
            if forfeits:
                winner = min(match.players)
                run(web, tid, lambda t, m=mid, w=winner: record_forfeit(t, m, winner=w))
                continue
            first, second, _ = random_tally(rng)
            tally = {"columns": [first, second]}
            run(web, tid, lambda t, m=mid, x=tally: record_tally(t, m, x))


NAMES = (
    ("Anna Huber", "W"), ("Bernd Maier", ""), ("Carla Gruber", "W"), ("Dieter Wagner", ""),
    ("Eva Pichler", "W"), ("Franz Steiner", "S"), ("Gerda Moser", "W"), ("Hans Hofer", "S"),
)  # fmt: skip


def swiss(web: Web, tid: str = "club", *, rounds: int = 2, seed: int = 7, **settings: Any) -> str:
    """A Swiss of eight, best of 3, with ``rounds`` rounds played."""
    web.tournament(tid, format="swiss", best_of=3, seed=seed, options={"rounds": 3}, **settings)
    register(web, tid, NAMES)
    rng = random.Random(seed)
    for _ in range(rounds):
        play_round(web, tid, rng)
    return tid

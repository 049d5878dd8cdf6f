"""Setting up tournaments for the web tests of rounds and matches.

Players and results are entered through the app's own tournament service, not over HTTP:
their routes (players, results) are built on other branches and are not here yet. Each
call is the domain command the routes will call, on the same store the app serves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.web.conftest import Web
from tournament.app.services import services
from tournament.domain import commands as c
from tournament.domain.model.state import Tournament


def execute(web: Web, tid: str, command: Callable[[Tournament], list[Any]]) -> list[Any]:
    """``command`` through the app's service (as the missing routes will run it)."""
    with web.app.app_context():
        return services().tournaments.execute(tid, command, metadata={"account": "desk@club.at"})


def register(web: Web, tid: str, count: int) -> None:
    """``count`` players, ``Player 1`` ... with ratings falling with the start number."""
    for i in range(1, count + 1):
        execute(
            web,
            tid,
            lambda t, i=i: c.register_player(t, f"Player {i}", rating=2000 - i, actor="desk"),
        )


def state(web: Web, tid: str) -> Tournament:
    with web.app.app_context():
        return services().tournaments.state(tid)


def version(web: Web, tid: str) -> int:
    return int(web.ok("GET", f"/api/v1/tournaments/{tid}")["version"])


def tally(web: Web, tid: str, match_id: str, *sheets: str, actor: str = "desk") -> list[Any]:
    """The sheet's Bummerl of ``match_id`` as tallies (``tournament results enter
    --tally``)."""
    return execute(web, tid, lambda t: c.record_tallies(t, match_id, list(sheets), actor=actor))


def win_all(web: Web, tid: str) -> None:
    """Every open match of the current round won by its player A, 2:0."""
    t = state(web, tid)
    for mid in t.rounds[-1].matches:
        if not t.settled(t.matches[mid]):
            tally(web, tid, mid, "7 4 1 0 / 7 5 2", "7 4 2 0 / 7 6")

"""Builders of event lists for tests, doctests and benchmarks (no store involved).

>>> from tournament.domain.model.state import fold
>>> t = played(players=6, rounds=2, seed=5)
>>> t.current_round, all(m.decided for m in t.matches.values())
(2, True)
"""

from __future__ import annotations

import random
from typing import Any

from tournament.domain.commands.registration import create_tournament, register_player
from tournament.domain.commands.results import record_hand, record_tally
from tournament.domain.commands.rounds import start_round
from tournament.domain.model.matchstate import MatchState
from tournament.domain.model.state import Tournament, fold
from tournament.eventstore.api import NewEvent


class Builder:
    """Appends command results to an event list and keeps the folded state in step."""

    def __init__(self, events: list[NewEvent] | None = None) -> None:
        self.events: list[NewEvent] = list(events or [])
        self.state: Tournament = fold(self.events)

    def add(self, new: list[NewEvent]) -> list[NewEvent]:
        for event in new:
            self.events.append(event)
            self.state.apply(event)
        return new


def registered(players: int, *, seed: int = 1, **settings: Any) -> list[NewEvent]:
    """A tournament (Swiss, best of 1 unless told) with ``players`` registered players."""
    config = {"name": "Test", "format": "swiss", "best_of": 1, "seed": seed, **settings}
    b = Builder(create_tournament("test", config))
    for i in range(1, players + 1):
        b.add(register_player(b.state, f"Player {i}", rating=_rating(i, players)))
    return b.events


def _rating(number: int, players: int) -> int:
    """Ratings falling with the start number: 1999, 1998, ... for up to 1,999 players (what
    the tests were written against), spread over 4000-0 for bigger fields, since a rating
    is between 0 and 4000 (T-player) and 2000 - i would fall below 0 after 2,000 players."""
    if players < 2000:
        return 2000 - number
    return 4000 * (players - number) // (players - 1)


def paired(players: int = 2, **settings: Any) -> list[NewEvent]:
    """As :func:`registered`, with round 1 drawn."""
    b = Builder(registered(players, **settings))
    b.add(start_round(b.state))
    return b.events


def random_hands(b: Builder, match: MatchState, rng: random.Random) -> None:
    """Enter random paper hands (with the dealer) until the match is decided."""
    while not match.decided and not match.dropped:
        seat = rng.randrange(2)
        dealer = match.engine.next_dealer
        b.add(
            record_hand(
                b.state,
                match.match_id,
                winner=match.players[seat],
                game_points=rng.choice((1, 1, 2, 2, 3)),
                dealer=None
                if dealer is None or match.first_dealer is None
                else match.players[dealer],
            )
        )


def play_round(b: Builder, rng: random.Random) -> None:
    """Draw the next round and play every match of it with random hands."""
    b.add(start_round(b.state))
    for mid in b.state.rounds[-1].matches:
        random_hands(b, b.state.matches[mid], rng)


def played(players: int, rounds: int, *, seed: int = 1, **settings: Any) -> Tournament:
    """A tournament with ``rounds`` rounds drawn and every match played at random."""
    b = Builder(registered(players, seed=seed, **settings))
    rng = random.Random(seed)
    for _ in range(rounds):
        play_round(b, rng)
    return b.state


def random_tally(rng: random.Random) -> tuple[list[int], list[int], int]:
    """A finished Bummerl as two scoresheet columns (winner's first) and the winner seat."""
    counts = [[7], [7]]
    while True:
        seat = rng.randrange(2)
        column = counts[seat]
        column.append(max(0, column[-1] - rng.choice((1, 1, 2, 2, 3))))
        if column[-1] == 0:
            return counts[0], counts[1], seat


def random_match(b: Builder, match: MatchState, rng: random.Random) -> None:
    """Play a match with random Bummerl tallies (one event per Bummerl: fast)."""
    from tournament.domain.commands.results import record_tally

    while not match.decided and not match.dropped:
        first, second, _ = random_tally(rng)
        b.add(record_tally(b.state, match.match_id, {"columns": [first, second]}))


def won_by(b: Builder, match_id: str, winner: int) -> dict[str, Any]:
    """A Bummerl tally (seat order) that ``winner`` wins 7:0."""
    seat = b.state.matches[match_id].seat_of(winner)
    return {"columns": [[7, 4, 1, 0], [7]][:: 1 if seat == 0 else -1]}


def win(b: Builder, match_id: str, winner: int) -> str:
    """``winner`` takes the match (best of 1) by a tally; its result id."""
    new = b.add(record_tally(b.state, match_id, won_by(b, match_id, winner)))
    return str(new[-1].payload["result_id"])

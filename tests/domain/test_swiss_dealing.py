"""Swiss dealing history through the domain (docs/formats.md, Swiss, "The dealing
history"): only matches decided at the table count, the same way for every way a match can
end without being played out (a no-show, both absent, a walkover or a dropped match after a
withdrawal), even when hands had been dealt before it ended."""

from __future__ import annotations

import random

import pytest

from tournament.domain import commands as c
from tournament.domain.model.state import Tournament
from tournament.domain.standings.pairing import games
from tournament.domain.testing import Builder, random_hands, registered
from tournament.formats.model import first_deal_balance, meetings


def balances(t: Tournament) -> dict[int, int]:
    balance, _ = first_deal_balance(games(t))
    return {pid: balance[str(pid)] for pid in t.players}


def first_round(players: int = 8, **settings: object) -> Builder:
    b = Builder(registered(players, best_of=3, **settings))
    b.add(c.start_round(b.state))
    return b


def test_only_matches_decided_at_the_table_count_in_the_dealing_history() -> None:
    b = first_round()
    played, no_show, both_absent, dropped = b.state.rounds[0].matches
    random_hands(b, b.state.matches[played], random.Random(1))
    winner = b.state.matches[no_show].players[0]
    b.add(c.record_forfeit(b.state, no_show, winner=winner))
    b.add(c.record_forfeit(b.state, both_absent, winner=None))
    quitter = b.state.matches[dropped].players[0]
    b.add(c.withdraw(b.state, quitter, policy="drop"))
    at_table = set(b.state.matches[played].players)
    assert {pid for pid, balance in balances(b.state).items() if balance} == at_table
    assert meetings(games(b.state)) == {frozenset(str(p) for p in at_table)}


@pytest.mark.parametrize("policy", ["forfeit", "drop"])
def test_a_match_ended_by_a_withdrawal_never_counts_even_after_hands_were_dealt(
    policy: str,
) -> None:
    # The residual cases of the formats trial: a walkover (policy forfeit) and a dropped
    # match (policy drop) now count the same, not at all, for the player who stays.
    b = first_round()
    match = b.state.matches[b.state.rounds[0].matches[0]]
    stays, quitter = match.players
    dealer = match.players[match.engine.next_dealer or 0]
    b.add(c.record_hand(b.state, match.match_id, winner=stays, game_points=2, dealer=dealer))
    b.add(c.withdraw(b.state, quitter, policy=policy))
    assert balances(b.state)[stays] == 0
    assert frozenset((str(stays), str(quitter))) not in meetings(games(b.state))

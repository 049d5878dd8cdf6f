"""The seat page names who made a false claim (trial 5, P10): "won 3 game points (false
claim)" read as if the winner had claimed falsely; the claimer is the other player (R15)."""

from __future__ import annotations

import re

from tests.pages.test_play_page import legal_play, online_match, page, played
from tests.web.conftest import Web
from tests.web.played import state
from tournament.web.live import play_service


def test_the_last_hand_names_the_player_whose_claim_was_false_R15(web: Web, club: str) -> None:
    mid, a, b = online_match(web, club)
    with web.app.app_context():
        service = play_service()
        now = service.moment(club, mid)
        for _ in range(2):  # one trick: its winner leads next and may claim (R12)
            assert now.state is not None
            seat = now.state.to_act[0]
            now = service.act(club, mid, seat, played(legal_play(now.state, seat)), now.version)
        assert now.state is not None
        claimer = now.state.to_act[0]
        service.act(club, mid, claimer, "claim", now.version)  # one trick: under 66 (R15)
    t = state(web, club)
    names = [t.players[p].name for p in t.matches[mid].players]
    winner, claimer_name = names[1 - claimer], names[claimer]
    english = page(web, (a, b)[claimer], "en")
    said = f"Last hand: {winner} won [23] game points: {claimer_name}'s false claim"
    assert re.search(said, english), "the claimer named, not the winner"
    german = page(web, (a, b)[1 - claimer], "de")
    said = (
        f"Letztes Spiel: {winner} hat [23] Spielpunkte gewonnen: falsche Ansage von {claimer_name}"
    )
    assert re.search(said, german)

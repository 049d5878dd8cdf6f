"""Correcting a player (T-player, T-seeding): name, club and category at any time, the
rating before round 1; undoing a check-in before the draw; manual seeding without the
withdrawn. Each is an event: nothing is edited in place."""

from __future__ import annotations

import pytest

from tournament.domain import commands as c
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.domain.testing import Builder, registered


def field(players: int = 4) -> Builder:
    return Builder(registered(players=players, seed=3))


def test_a_name_club_and_category_can_be_corrected_after_round_one() -> None:
    b = field()
    b.add(c.start_round(b.state))
    [edit] = b.add(
        c.edit_player(b.state, 2, {"name": "  Berta   Huber ", "club": "SC Ried", "category": "W"})
    )
    assert edit.type == "player.edited"
    assert edit.payload["previous"] == {"name": "Player 2", "club": "", "category": ""}
    p = b.state.players[2]
    assert (p.name, p.club, p.category) == ("Berta Huber", "SC Ried", "W")
    # The drawn match names the player by the corrected name, in every printout and message.
    [mid] = b.state.player_matches[2]
    assert "Berta Huber (2)" in b.state.matches[mid].labels


def test_a_corrected_name_is_checked_like_a_registration() -> None:
    b = field()
    with pytest.raises(DomainError, match="a player needs a name"):
        c.edit_player(b.state, 2, {"name": "   "})
    with pytest.raises(ConflictError, match="player 1 is already registered as player 1"):
        c.edit_player(b.state, 2, {"name": "player 1"})
    # Its own name, differently typed, is no duplicate of itself.
    assert c.edit_player(b.state, 2, {"name": "Player 2"}) == []


def test_the_rating_is_fixed_once_round_one_is_drawn() -> None:
    b = field()
    b.add(c.start_round(b.state))
    with pytest.raises(ConflictError) as refused:
        c.edit_player(b.state, 2, {"rating": 1234})
    assert refused.value.field == "rating" and refused.value.rule == "T-seeding"
    assert "fixed once round 1 is drawn" in refused.value.message
    assert "name, club and category can still be corrected" in refused.value.message


def test_a_rating_correction_before_round_one_seeds_again_by_rating() -> None:
    b = field()
    b.add(c.seed_players(b.state, "rating"))
    assert b.state.players[4].seed == 4
    events = b.add(c.edit_player(b.state, 4, {"rating": 2500}))
    assert [e.type for e in events] == ["player.edited", "players.seeded"]
    assert b.state.players[4].seed == 1  # the seeding follows the corrected rating


def test_a_rating_correction_leaves_a_manual_seeding_as_typed() -> None:
    b = field()
    b.add(c.seed_players(b.state, "manual", [4, 3, 2, 1]))
    events = b.add(c.edit_player(b.state, 1, {"rating": 2500}))
    assert [e.type for e in events] == ["player.edited"]
    assert b.state.players[4].seed == 1


def test_a_check_in_is_undone_before_the_draw_and_the_player_is_not_drawn() -> None:
    b = field()
    for pid in (1, 2, 3):
        b.add(c.check_in(b.state, pid))
    [out] = b.add(c.check_out(b.state, 3))
    assert out.type == "player.checked_out" and not b.state.players[3].checked_in
    b.add(c.start_round(b.state))
    drawn = {p for mid in b.state.rounds[0].matches for p in b.state.matches[mid].players}
    assert drawn == {1, 2}
    assert c.check_out(b.state, 4) == []  # never checked in: nothing to undo


def test_a_check_in_cannot_be_undone_once_the_player_is_drawn() -> None:
    b = field()
    for pid in (1, 2, 3, 4):
        b.add(c.check_in(b.state, pid))
    b.add(c.start_round(b.state))
    with pytest.raises(ConflictError) as refused:
        c.check_out(b.state, 3)
    assert "was drawn in round 1" in refused.value.message
    assert "tournament players withdraw 3" in refused.value.message


def test_manual_seeding_skips_withdrawn_players() -> None:
    b = field()
    b.add(c.withdraw(b.state, 2, reason="duplicate registration"))
    [seeded] = b.add(c.seed_players(b.state, "manual", [1, 3, 4]))
    assert seeded.payload["order"] == [1, 3, 4]
    # Listed anyway, the withdrawn player is left out, not refused.
    assert c.seed_players(b.state, "manual", [4, 2, 3, 1])[0].payload["order"] == [4, 3, 1]
    assert c.seed_players(b.state, "rating")[0].payload["order"] == [1, 3, 4]
    with pytest.raises(DomainError, match="missing: 4"):
        c.seed_players(b.state, "manual", [1, 3])

"""Format options that cannot give a tournament are refused when it is created, or at the
draw of round 1, never after a whole stage has been played (T-settings, T-format)."""

from __future__ import annotations

import random

import pytest

from tournament.domain import commands as c
from tournament.domain.model.errors import DomainError
from tournament.domain.testing import Builder, play_round, registered


@pytest.mark.parametrize(
    ("fmt", "options", "said"),
    [
        ("groups_knockout", {"advance": 0}, "advance must be 1 or more"),
        ("groups_knockout", {"groups": 1, "advance": 1}, "a knockout needs 2 or more"),
        ("lives", {"final_players": 1}, "final_players must be 2 or more"),
        ("lives", {"final_players": 0}, "final_players must be 2 or more"),
    ],
)
def test_options_that_give_no_tournament_are_refused_at_create(
    fmt: str, options: dict[str, int], said: str
) -> None:
    with pytest.raises(DomainError) as caught:
        registered(players=4, format=fmt, options=options)
    assert caught.value.rule == "T-settings" and said in caught.value.message


def test_groups_smaller_than_advance_are_refused_at_round_1() -> None:
    b = Builder(registered(players=5, format="groups_knockout", options={"advance": 3}))
    with pytest.raises(DomainError) as caught:
        c.start_round(b.state)
    assert caught.value.rule == "T-format"
    assert "the smallest has 2, but 3 of each group advance" in caught.value.message
    assert b.state.current_round == 0
    b.add(c.register_player(b.state, "Sixth"))  # 2 groups of 3: the draw goes ahead
    b.add(c.start_round(b.state))
    assert b.state.current_round == 1


def test_a_manual_round_beyond_the_format_is_warned() -> None:
    b = Builder(registered(players=4, options={"rounds": 1}))
    play_round(b, random.Random(1))
    with pytest.raises(DomainError):  # the format itself draws no round 2
        c.start_round(b.state)
    new = c.start_round(b.state, pairings=[(1, 2), (3, 4)])
    warnings = new[0].payload["warnings"]
    assert warnings[0].startswith("T-round: round 2 is beyond the format's draw: ")
    assert "1 rounds" in warnings[0] or "all are drawn" in warnings[0]


def test_a_manual_round_the_format_would_draw_has_no_such_warning() -> None:
    b = Builder(registered(players=4, options={"rounds": 3}))
    play_round(b, random.Random(1))
    new = c.start_round(b.state, pairings=[(1, 2), (3, 4)])
    assert not any("beyond" in w for w in new[0].payload.get("warnings", []))

"""round.cancelled: the fold treats the latest round as never drawn (T-round)."""

from __future__ import annotations

import pytest

from tournament.domain import commands as c
from tournament.domain.model.errors import ConflictError
from tournament.domain.model.state import fold
from tournament.domain.standings.pairing import lives_now
from tournament.domain.testing import Builder, registered


def test_redraw_is_deterministic_and_has_a_fresh_seed() -> None:
    b = Builder(registered(6, seed=7))
    first = b.add(c.start_round(b.state))[0]
    b.add(c.cancel_round(b.state, why="wrong check-in", by="anna"))
    again = c.start_round(b.state)[0]
    assert again.payload["seed"] != first.payload["seed"]
    assert c.start_round(fold(b.events))[0].payload == again.payload
    b.add([again])
    t = fold(b.events)
    assert t.current_round == 1 and len(t.matches) == 3
    assert t.cancellations == [
        {"round": 1, "why": "wrong check-in", "by": "anna", "cancellation": 1}
    ]
    assert fold(b.events, upto=len(b.events) - 2).current_round == 1  # as of before


def test_a_result_blocks_cancel() -> None:
    b = Builder(registered(2, seed=7))
    b.add(c.start_round(b.state))
    mid = b.state.rounds[0].matches[0]
    b.add(c.record_forfeit(b.state, mid, winner=1))
    with pytest.raises(ConflictError) as error:
        c.cancel_round(b.state, why="x")
    assert error.value.rule == "T-round" and mid in error.value.message


def test_lives_count_as_if_the_cancelled_round_was_never_drawn() -> None:
    b = Builder(registered(4, seed=7, format="lives", lives=2))
    b.add(c.start_round(b.state))
    for mid in b.state.rounds[0].matches:
        b.add(c.record_forfeit(b.state, mid, winner=min(b.state.matches[mid].players)))
    before = lives_now(b.state, 2).lives
    b.add(c.start_round(b.state))
    b.add(c.cancel_round(b.state, why="late arrival"))
    assert b.state.current_round == 1
    assert lives_now(b.state, 2).lives == before
    b.add(c.start_round(b.state))
    assert fold(b.events).current_round == 2

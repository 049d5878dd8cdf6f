"""The lives final read off stored events (docs/formats.md): finals drawn before the
finalists were recorded, and buy-backs an older version accepted during the final."""

from __future__ import annotations

import dataclasses

from tournament.domain import commands as c
from tournament.domain import events as ev
from tournament.domain.lives import final_start, lives_left, lives_places
from tournament.domain.state import fold
from tournament.domain.testing import Builder, registered
from tournament.eventstore.api import NewEvent

#: Trial 3 #2's rounds 1-3 (seed 101): the final of 3, 5 and 6 is drawn in round 4.
TRIAL_2 = ({"1.1": 4, "1.2": 1, "1.3": 5}, {"2.1": 3, "2.2": 5, "2.3": 6}, {"3.1": 6, "3.2": 5})


def into_final(**options: object) -> Builder:
    b = Builder(
        registered(6, format="lives", seed=101, options={"lives": 2, "final_players": 3, **options})
    )
    for winners in TRIAL_2:
        b.add(c.start_round(b.state))
        for mid, winner in winners.items():
            b.add(c.record_forfeit(b.state, mid, winner=winner))
    b.add(c.start_round(b.state))
    return b


def without_finalists(events: list[NewEvent]) -> list[NewEvent]:
    """The events as a version that did not record ``info.finalists`` stored them."""
    out = []
    for e in events:
        if e.type == ev.ROUND_STARTED and "finalists" in e.payload.get("info", {}):
            info = {k: v for k, v in e.payload["info"].items() if k != "finalists"}
            e = dataclasses.replace(e, payload={**e.payload, "info": info})
        out.append(e)
    return out


def test_the_finalists_are_recorded_when_the_final_is_drawn() -> None:
    b = into_final()
    assert b.events[-1].payload["info"]["finalists"] == ["3", "5", "6"]
    assert final_start(b.state) == (4, ("3", "5", "6"))


def test_a_final_drawn_before_finalists_were_recorded_reads_them_from_its_first_round() -> None:
    b = into_final()
    b.add(c.record_forfeit(b.state, "4.1", winner=5))
    old = fold(without_finalists(b.events))
    assert final_start(old) == (4, ("3", "5", "6"))
    assert lives_places(old) == lives_places(b.state)
    assert c.start_round(old)[0].payload["matches"] == c.start_round(b.state)[0].payload["matches"]


def test_a_buy_back_an_older_version_stored_during_the_final_does_not_join_it() -> None:
    b = into_final(buy_backs=1)
    b.add(c.record_forfeit(b.state, "4.1", winner=5))
    # Trial 3 #3: accepted then; refused now, but such an event may be in a store.
    b.add([ev.make_event(ev.LIFE_BOUGHT, {"player_id": 1, "before_round": 5})])
    assert lives_left(b.state)[1] == 0  # lives stand as the final was drawn
    places = lives_places(b.state)
    assert max(places[p] for p in (3, 5, 6)) < places[1]  # the finalists stay in front
    drawn = c.start_round(b.state)[0].payload
    assert {p for row in drawn["matches"] for p in row[2:4]} | set(drawn["byes"]) == {3, 5, 6}

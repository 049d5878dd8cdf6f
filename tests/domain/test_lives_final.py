"""The lives final read off stored events (docs/formats.md): finals drawn before the
finalists were recorded, and buy-backs an older version accepted during the final."""

from __future__ import annotations

import dataclasses

from tournament.domain import commands as c
from tournament.domain.model import events as ev
from tournament.domain.model.state import fold
from tournament.domain.standings.lives import final_start, lives_left, lives_places
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


def test_a_manual_pairing_of_an_eliminated_player_does_not_break_the_lives_count() -> None:
    b = Builder(registered(8, format="lives", seed=3, options={"lives": 2}))
    for _ in range(2):
        b.add(c.start_round(b.state))
        for mid in b.state.rounds[-1].matches:
            b.add(c.record_forfeit(b.state, mid, winner=min(b.state.matches[mid].players)))
    left = lives_left(b.state)
    out = [p for p, n in left.items() if n == 0]
    alive = [p for p, n in left.items() if n > 0]
    pairs = [(out[0], alive[0]), *zip(alive[1::2], alive[2::2], strict=False)]
    b.add(c.start_round(b.state, pairings=pairs))
    assert any(w.startswith("eliminated_paired") for w in b.state.rounds[-1].warnings)
    b.add(c.record_forfeit(b.state, b.state.rounds[-1].matches[0], winner=out[0]))
    after = lives_left(b.state)  # replays without an error; the win brings no life back
    assert after[out[0]] == 0 and after[alive[0]] == left[alive[0]] - 1
    assert lives_places(b.state)[out[0]] > lives_places(b.state)[alive[0]]


def test_a_double_no_show_stored_before_it_cost_a_life_still_folds() -> None:
    # Trial 3 #4: older versions let a double no-show keep both lives, so such a player
    # may have played on with lives the recount now takes away.
    b = Builder(registered(8, format="lives", seed=3, options={"lives": 2}))
    absent: set[int] = set()
    for _ in range(2):
        b.add(c.start_round(b.state))
        for mid in b.state.rounds[-1].matches:
            m = b.state.matches[mid]
            if not absent or absent & set(m.players):  # the same two never show up
                absent |= set(m.players)
                b.add(c.record_forfeit(b.state, mid, winner=None))
            else:
                b.add(c.record_forfeit(b.state, mid, winner=min(m.players)))
    gone = [p for p, n in lives_left(b.state).items() if n == 0]
    assert set(gone) >= set(list(absent)[:2])
    # As an older version drew round 3: the absentees still in, each against a player in.
    others = [p for p, n in lives_left(b.state).items() if n > 0]
    pairs = list(zip(gone, others, strict=False))
    b.add(c.start_round(b.state, pairings=pairs))
    for mid in b.state.rounds[-1].matches:
        b.add(c.record_forfeit(b.state, mid, winner=min(b.state.matches[mid].players)))
    left = lives_left(b.state)  # folds without an error, and nobody comes back
    assert all(left[p] == 0 for p in gone)


def test_the_draw_of_the_final_names_its_players_not_start_numbers_only() -> None:
    """O-L10: the stage the draw records (and the desk shows after the draw) reads
    "final, round 1 of 3: Player 3 (3), ...", as the rounds list says it later."""
    b = into_final()
    stage = b.events[-1].payload["stage"]
    assert stage == "final, round 1 of 3: Player 3 (3), Player 5 (5), Player 6 (6)"

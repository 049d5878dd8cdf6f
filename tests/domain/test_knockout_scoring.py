"""Bracket byes and walkovers score (docs/standings.md "Byes and forfeits", trial 3 #11):
a bracket bye like a Swiss bye, a later walkover as a forfeit win, the same in single
and double elimination and groups -> knockout; knockouts drawn before keep the old rule."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from tests.domain.test_formats_end_to_end import run
from tournament.domain import commands as c
from tournament.domain.model.state import Tournament, fold
from tournament.domain.standings import standings
from tournament.domain.standings.knockout import bracket_of, bracket_view, knockout_places
from tournament.domain.standings.pairing import withdrawn
from tournament.domain.testing import Builder, random_match, registered
from tournament.eventstore.api import NewEvent

KNOCKOUTS = ["single_elimination", "double_elimination", "groups_knockout"]


def bye_slots(t: Tournament) -> list[tuple[str, int]]:
    """The bracket byes recorded, with their bracket match (knockout rounds only)."""
    return [
        (slot, pid)
        for r in t.rounds
        if "bye_slots" in r.info
        for slot, pid in zip(r.info["bye_slots"], r.byes, strict=True)
    ]


@pytest.mark.parametrize("fmt", KNOCKOUTS)
@pytest.mark.parametrize("players", [5, 11, 23])
def test_every_bracket_bye_and_walkover_scores_once(fmt: str, players: int) -> None:
    b = run(fmt, players, seed=players, withdrawals=2, best_of=1)
    t = b.state
    view = bracket_view(t)
    assert view is not None
    state, _ = view
    recorded = bye_slots(t)
    assert len(recorded) == len({slot for slot, _ in recorded})  # each bye once
    byes = {m.match_id: m.winner for m in state.matches.values() if m.status == "bye"}
    for slot, pid in recorded:
        assert byes[slot] == str(pid)
    gone = withdrawn(t)
    for slot, winner in byes.items():  # a bye not scored went to a withdrawn player
        assert (slot, int(winner or 0)) in recorded or winner in gone
    group_byes = [p for r in t.rounds if "bye_slots" not in r.info for p in r.byes]
    for pid, stats in t.stats.items():
        assert stats.byes == [p for _, p in recorded].count(pid) + group_byes.count(pid)
    # A walkover the bracket shows was recorded as a forfeit win at no table, or scores
    # nothing because both players had withdrawn.
    for m in state.matches.values():
        if m.status == "walkover":
            assert m.winner in gone


def test_a_top_seed_with_a_round_one_bye_is_level_on_points_with_the_round_one_winners() -> None:
    b = Builder(registered(6, format="single_elimination", seed=3))
    b.add(c.start_round(b.state))
    t = b.state
    assert t.rounds[0].byes == [1, 2] and t.rounds[0].info["bye_slots"] == ["R1-1", "R1-3"]
    for mid in t.rounds[0].matches:
        b.add(c.record_forfeit(t, mid, winner=min(t.matches[mid].players)))
    points = {r.player_id: r.points for r in standings(b.state)}
    assert points == {1: 1, 2: 1, 3: 1, 4: 1, 5: 0, 6: 0}
    assert b.state.stats[1].bummerl_won == b.state.settings.bye_score[0]  # type: ignore[union-attr]


def old_style(events: list[NewEvent]) -> list[NewEvent]:
    """The events as a knockout drawn before byes and walkovers scored recorded them: no
    bracket byes in its rounds and no ``bye_slots``."""
    out = []
    for e in events:
        if e.type == "round.started" and "bye_slots" in e.payload.get("info", {}):
            info = {k: v for k, v in e.payload["info"].items() if k != "bye_slots"}
            e = dataclasses.replace(e, payload={**e.payload, "info": info, "byes": []})
        out.append(e)
    return out


def test_a_knockout_drawn_before_byes_scored_keeps_its_standings() -> None:
    b = Builder(old_style(registered(6, format="double_elimination", seed=3)))
    rng = random.Random(1)
    b.add(old_style(c.start_round(b.state)))
    for mid in b.state.rounds[0].matches:
        random_match(b, b.state.matches[mid], rng)
    b.add(c.withdraw(b.state, 3))
    later = c.start_round(b.state)  # the old rule: no byes, no walkover rows
    assert later[0].payload["byes"] == [] and "info" not in later[0].payload
    assert all(row[1] != 0 for row in later[0].payload["matches"])  # nothing at no table
    assert all(s.byes == 0 for s in fold(b.events).stats.values())


def test_a_knockout_round_with_byes_and_walkovers_can_be_cancelled_and_drawn_again() -> None:
    b = Builder(registered(5, format="single_elimination", seed=3))
    b.add(c.start_round(b.state))  # R1-2 4 v 5 and R2-2 2 v 3; byes for 1, 2 and 3
    b.add(c.withdraw(b.state, 4))  # 4 v 5 was open: 5 wins by forfeit now
    b.add(c.record_forfeit(b.state, "R2-2", winner=2))
    b.add(c.withdraw(b.state, 1))  # R2-1 (1 v 5) will be a walkover for 5
    b.add(c.start_round(b.state))
    # The walkover R2-1 is recorded at no table, and its winner plays the final at once.
    assert [(r[0], r[1]) for r in b.events[-2].payload["matches"]] == [("R3-1", 1), ("R2-1", 0)]
    before: dict[int, Any] = {p: dataclasses.asdict(s) for p, s in b.state.stats.items()}
    b.add(c.cancel_round(b.state, why="wrong table"))
    assert b.state.current_round == 1
    b.add(c.start_round(b.state))
    assert {p: dataclasses.asdict(s) for p, s in b.state.stats.items()} == before
    assert bracket_of(b.state) is not None


def test_in_groups_then_knockout_semi_final_losers_rank_below_the_finalists() -> None:
    # The knockout of groups -> knockout is a single-elimination bracket: same rule (#6).
    options = {"groups": 2, "advance": 2, "third_place": True}
    b = Builder(registered(8, format="groups_knockout", seed=5, options=options))
    b.add(c.start_round(b.state))
    while "seeds" not in b.state.rounds[-1].info:
        for mid in b.state.rounds[-1].matches:  # the lower start number wins every game
            b.add(c.record_forfeit(b.state, mid, winner=min(b.state.matches[mid].players)))
        b.add(c.start_round(b.state))
    semis = b.state.rounds[-1].matches
    for mid in semis:  # the group winners lose their semi-finals
        m = b.state.matches[mid]
        b.add(c.record_forfeit(b.state, mid, winner=max(m.players)))
    finalists = {max(b.state.matches[mid].players) for mid in semis}
    losers = {min(b.state.matches[mid].players) for mid in semis}
    places = knockout_places(b.state)
    assert {places[p] for p in finalists} == {0} and {places[p] for p in losers} == {1}
    top = [r.player_id for r in standings(b.state, places=places)]
    assert set(top[:2]) == finalists and set(top[2:4]) == losers
    # The group winners have as many points as the finalists: only the place ranks them.
    points = {r.player_id: r.points for r in standings(b.state)}
    assert min(points[p] for p in losers) >= max(points[p] for p in finalists)


def test_a_recorded_bye_a_correction_would_move_stays_and_the_next_draw_says_so() -> None:
    # Six players in double elimination: the loser of W1-2 gets the losers-bracket bye L1-1.
    b = Builder(registered(6, format="double_elimination", seed=3))
    b.add(c.start_round(b.state))
    rids = {}
    for _ in range(2):
        for mid in b.state.rounds[-1].matches:
            m = b.state.matches[mid]
            b.add(c.record_forfeit(b.state, mid, winner=min(m.players)))
            rids[mid] = b.events[-1].payload["result_id"]
        if b.state.current_round == 1:
            b.add(c.start_round(b.state))
    assert bye_slots(b.state)[-2:] == [("L1-1", 5), ("L1-2", 6)]
    # W1-2 corrected (5 won it), so 4 should have had the bye; the organiser voids W2-1
    # (1 v 4), which no longer fits, and draws on.
    b.add(c.correct_result(b.state, rids["W1-2"], {"winner": 5}, by="referee", reason="swap"))
    b.add(c.correct_result(b.state, rids["W2-1"], None, by="referee", reason="no longer fits"))
    drawn = c.start_round(b.state)
    warnings = drawn[0].payload.get("warnings", [])
    assert [w for w in warnings if w.startswith("bye_moved")] == [
        "bye_moved: the bye of L1-1 was recorded for Player 5 (5) in round 2; after a "
        "correction the bracket gives it to Player 4 (4): the recorded bye stays where it was"
    ]
    b.add(drawn)
    assert b.state.stats[5].byes == 1 and b.state.stats[4].byes == 0  # it stays
    # Said once: the draws after it do not repeat it.
    for mid in b.state.rounds[-1].matches:
        m = b.state.matches[mid]
        if not b.state.settled(m):
            b.add(c.record_forfeit(b.state, mid, winner=min(m.players)))
    later = c.start_round(b.state)[0].payload.get("warnings", [])
    assert not [w for w in later if w.startswith("bye_moved")]

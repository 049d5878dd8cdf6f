"""Late entries (T-late-entry): what the rounds a late entry missed score is the
organiser's choice (0 by default, or a bye each), and a late entry is the last choice for
the next bye, not the first just because it has none."""

from __future__ import annotations

import random

import pytest

from tournament.domain import commands as c
from tournament.domain.model.errors import DomainError
from tournament.domain.model.settings import Settings
from tournament.domain.standings import standings
from tournament.domain.testing import Builder, play_round, registered


def after_round_one(players: int = 6, **settings: object) -> Builder:
    b = Builder(registered(players=players, seed=7, **settings))
    play_round(b, random.Random(7))
    return b


def test_missed_rounds_score_zero_by_default() -> None:
    b = after_round_one()
    [entry] = b.add(c.register_player(b.state, "Max Late"))
    assert entry.payload["missed_rounds"] == 1 and entry.payload["missed_rounds_score"] == "zero"
    s = b.state.stats[7]
    assert (s.points, s.byes, s.bummerl_won) == (0, 0, 0)


def test_the_tournament_may_score_each_missed_round_as_a_bye() -> None:
    b = after_round_one(late_entry_score="bye")
    b.add(c.start_round(b.state))  # round 2 drawn: the late entry misses rounds 1 and 2
    b.add(c.register_player(b.state, "Max Late"))
    s = b.state.stats[7]
    bye = b.state.settings.bye_score if b.state.settings else (0, 0)
    assert (s.points, s.byes, s.played) == (2, 2, 0)
    assert (s.bummerl_won, s.bummerl_lost) == (2 * bye[0], 2 * bye[1])
    [row] = [r for r in standings(b.state) if r.player_id == 7]
    assert row.points == 2 and row.byes == 2


def test_one_late_entry_may_score_otherwise_than_the_setting_says() -> None:
    b = after_round_one()
    b.add(c.register_player(b.state, "Max Late", missed_rounds_score="bye"))
    assert b.state.stats[7].points == 1
    with pytest.raises(DomainError, match="not a late entry"):
        c.register_player(Builder(registered(players=2)).state, "Early", missed_rounds_score="0")


def test_a_late_entry_is_not_the_first_choice_for_the_bye() -> None:
    b = after_round_one()  # 6 players: no bye in round 1
    b.add(c.register_player(b.state, "Max Late"))  # 7 now: round 2 has a bye
    points = {pid: s.points for pid, s in b.state.stats.items()}
    [started] = b.add(c.start_round(b.state))[:1]
    [bye] = started.payload["byes"]
    assert bye != 7  # lowest on points and without a bye, but it has sat out round 1
    assert points[bye] == 0  # the bye still goes to the bottom score group


def test_a_cancelled_round_is_no_longer_missed() -> None:
    b = after_round_one(late_entry_score="bye")
    b.add(c.start_round(b.state))
    b.add(c.register_player(b.state, "Max Late"))
    assert b.state.players[7].missed == 2
    b.add(c.cancel_round(b.state, why="late arrival"))
    assert b.state.players[7].missed == 1 and b.state.stats[7].points == 1
    b.add(c.start_round(b.state))  # the redraw includes the late entry
    assert any(7 in b.state.matches[m].players for m in b.state.rounds[1].matches) or (
        7 in b.state.rounds[1].byes
    )


def test_only_a_swiss_scores_missed_rounds_and_only_as_0_or_bye() -> None:
    with pytest.raises(DomainError, match="only a Swiss takes late entries"):
        Settings.from_payload({"name": "KO", "format": "lives", "late_entry_score": "bye"})
    with pytest.raises(DomainError, match="'half' is not 0 or bye"):
        Settings.from_payload({"name": "S", "late_entry_score": "half"})
    assert Settings.from_payload({"name": "S", "late_entry_score": "0"}).late_entry_score == "zero"

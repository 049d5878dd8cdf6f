"""Corrections, strikes, flags on later matches, previews and time travel."""

from __future__ import annotations

import io
import random

import pytest

from tournament.domain import commands as c
from tournament.domain.commands.csvio import CsvImportError, import_players, import_results
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.domain.model.state import fold
from tournament.domain.standings import pairing, standings
from tournament.domain.testing import Builder, paired, play_round, registered, win, won_by
from tournament.domain.views.preview import preview


def decided_match() -> tuple[Builder, list[str]]:
    b = Builder(paired(players=2, best_of=3))
    ids = []
    for _ in range(3):  # 2 wins a Schneiderbummerl: 2:0
        new = b.add(c.record_hand(b.state, "1.1", winner=2, game_points=3))
        ids.append(new[-1].payload["result_id"])
    return b, ids


def test_a_correction_needs_who_and_why() -> None:
    b, ids = decided_match()
    with pytest.raises(DomainError) as caught:
        c.correct_result(b.state, ids[0], {"game_points": 2}, by="", reason="x")
    assert caught.value.field == "by"
    with pytest.raises(DomainError):
        c.correct_result(b.state, ids[0], {"game_points": 2}, by="ref", reason=" ")


def test_a_correction_that_leaves_later_hands_after_the_end_is_refused() -> None:
    b = Builder(paired(players=2, best_of=1))
    first = b.add(c.record_hand(b.state, "1.1", winner=2, game_points=2))[-1].payload
    for _ in range(2):
        b.add(c.record_hand(b.state, "1.1", winner=2, game_points=2))
    b.add(c.record_hand(b.state, "1.1", winner=2, game_points=1))
    with pytest.raises(DomainError) as caught:
        c.correct_result(b.state, first["result_id"], {"game_points": 3}, by="ref", reason="x")
    assert caught.value.rule in ("R17", "R20")


def test_a_correction_changes_the_result_and_its_reversal_restores_it() -> None:
    b, ids = decided_match()
    before = [r.to_json() for r in standings(b.state)]
    b.add(c.correct_result(b.state, ids[0], {"winner": 1}, by="ref", reason="misread"))
    m = b.state.matches["1.1"]
    assert not m.decided and m.summary.game_points[m.seat_of(2)] == 6
    b.add(c.reversal(b.state, ids[0], by="ref", reason="it was right"))
    assert [r.to_json() for r in standings(b.state)] == before


def test_a_correction_refuses_what_the_kind_of_result_has_not() -> None:
    """A hand's game points for a tally, a tally for a hand, points for a forfeit: merged
    in, they would count for nothing while the log said "corrected"."""
    b = Builder(paired(players=2, best_of=3))
    tally = b.add(c.record_tally(b.state, "1.1", "7 4 1 0 / 7 5"))[-1].payload["result_id"]
    hand = b.add(c.record_hand(b.state, "1.1", winner=2, game_points=2))[-1].payload["result_id"]
    for rid, changes, field in (
        (tally, {"game_points": 3}, "game_points"),
        (tally, {"winner": 2}, "winner"),
        (hand, {"tally": "7 6 / 7 4 2 0"}, "tally"),
    ):
        with pytest.raises(DomainError) as caught:
            c.correct_result(b.state, rid, changes, by="ref", reason="x")
        assert caught.value.field == field and caught.value.rule == "T-correction"
        assert "cannot be corrected on it" in caught.value.message
    b2 = Builder(paired(players=2, best_of=3))
    forfeit = b2.add(c.record_forfeit(b2.state, "1.1", winner=1))[-1].payload["result_id"]
    with pytest.raises(DomainError, match="a forfeit takes winner"):
        c.correct_result(b2.state, forfeit, {"game_points": 2}, by="ref", reason="x")
    assert c.correct_result(b2.state, forfeit, {"winner": 2}, by="ref", reason="x")


def test_striking_a_hand_removes_it_and_is_recorded_with_who_and_why() -> None:
    b = Builder(paired(players=2, best_of=1))
    rid = b.add(c.record_tally(b.state, "1.1", "7 5 4 1 0 / 7 6 3"))[-1].payload["result_id"]
    assert b.state.matches["1.1"].decided
    new = b.add(c.strike_hand(b.state, rid, 6, by="organiser", reason="unreadable"))
    assert new[0].payload["by"] == "organiser"
    m = b.state.matches["1.1"]
    assert not m.decided and m.engine.current.scores[m.seat_of(1)] == 1
    with pytest.raises(DomainError):
        c.strike_hand(b.state, rid, 6, by="organiser", reason="again")
    with pytest.raises(DomainError):
        c.strike_hand(b.state, rid, 9, by="organiser", reason="no such hand")


def test_R18_a_struck_hand_was_still_dealt_so_the_deal_passes_on() -> None:
    b = Builder(paired(players=2, best_of=3))
    m = b.state.matches["1.1"]
    a, z = m.players
    for winner, gp in ((a, 3), (z, 1), (a, 3), (a, 1)):  # Bummerl 1 to a, 7:1 -- no Schneider
        b.add(c.record_hand(b.state, "1.1", winner=winner, game_points=gp))

    def dealer() -> int:
        seat = m.engine.next_dealer
        assert seat is not None
        return m.players[seat]

    first = dealer()
    dealt = []
    for _ in range(3):  # Bummerl 2: dealt by first, other, first
        new = b.add(c.record_hand(b.state, "1.1", winner=z, game_points=1, dealer=dealer()))
        dealt.append(new[-1].payload["result_id"])
    b.add(c.strike_hand(b.state, dealt[0], by="organiser", reason="unreadable"))
    other = next(p for p in m.players if p != first)
    # The fourth deal of Bummerl 2 is the other player's, struck hand or not.
    b.add(c.record_hand(b.state, "1.1", winner=z, game_points=1, dealer=other))
    assert m.problems == []
    assert m.engine.current.scores[m.seat_of(z)] == 4  # 7 minus 3 counted hands of 1


def test_a_corrected_winner_flags_later_matches_and_the_preview_says_so() -> None:
    b = Builder(registered(players=4, seed=2))
    rng = random.Random(2)
    play_round(b, rng)
    play_round(b, rng)
    m = b.state.matches["1.1"]
    loser = m.players[1 - m.summary.winner]
    last_hand = m.entries[-1].result_id
    fix = c.correct_result(
        b.state, last_hand, {"winner": loser, "game_points": 3}, by="r", reason="x"
    )
    p = preview(b.events, fix)
    if not p.matches:  # the swap did not change the winner; nothing else to check
        return
    assert p.flagged and all("1.1" in f for f in p.flagged)
    assert any(s["rank_before"] != s["rank_after"] for s in p.standings) or p.standings
    b.add(fix)
    flagged = [x for x in b.state.matches.values() if x.flags]
    assert flagged and all(x.round == 2 for x in flagged)
    b.add(c.clear_flag(b.state, flagged[0].match_id))
    assert not flagged[0].flags


def test_standings_as_of_any_past_event_are_the_fold_of_that_prefix() -> None:
    b = Builder(registered(players=6, seed=9))
    play_round(b, random.Random(9))
    middle = len(b.events) // 2
    then = fold(b.events, upto=middle)
    assert then.version == middle
    assert sum(r.played for r in standings(then)) < sum(r.played for r in standings(b.state))


def test_player_import_is_all_or_nothing_with_every_bad_line() -> None:
    events = registered(players=1)
    rows = io.StringIO("name,club,rating\nAnna,SC,1500\n,SC,1\nBerti,,x\nPlayer 1,,\n")
    with pytest.raises(CsvImportError) as caught:
        import_players(events, rows)
    assert [line for line, _ in caught.value.problems] == [3, 4, 5]
    good = import_players(events, io.StringIO("name,category\nAnna,W\nBerti,\n"))
    assert [e.payload["name"] for e in good] == ["Anna", "Berti"]


def test_result_import_checks_each_row_against_the_rows_before() -> None:
    events = paired(players=2, best_of=1)
    text = "match,winner,game_points,tally,forfeit\n" + "1.1,1,3,,\n" * 4 + "1.1,9,1,,\n"
    with pytest.raises(CsvImportError) as caught:
        import_results(events, io.StringIO(text))
    assert caught.value.problems[0][0] == 5 and "R20" in caught.value.problems[0][1]
    assert caught.value.problems[1][0] == 6 and "winner" in caught.value.problems[1][1]
    ok = import_results(events, io.StringIO("match,tally\n1.1,7 4 1 0 / 7 5\n"))
    assert fold([*events, *ok]).matches["1.1"].decided


def test_result_import_reports_unknown_columns() -> None:
    with pytest.raises(CsvImportError) as caught:
        import_results(paired(), io.StringIO("match,winer\n1.1,1\n"))
    assert "winer" in str(caught.value)


# --- corrections after a knockout bracket advanced ------------------------------------------
def finished_knockout() -> tuple[Builder, str, tuple[int, int]]:
    """16 players, single elimination with a third-place match, played to the end: the
    favourites win up to the semi-finals, the underdog wins semi-final R3-1 and the final,
    and the third-place match is a forfeit (R3-1's loser did not show). Returns the
    builder, the result id of semi-final R3-1 and its (winner, loser)."""
    b = Builder(registered(16, format="single_elimination", options={"third_place": True}))
    for _ in range(2):
        b.add(c.start_round(b.state))
        for mid in b.state.rounds[-1].matches:
            win(b, mid, min(b.state.matches[mid].players))
    b.add(c.start_round(b.state))
    underdog, favourite = sorted(b.state.matches["R3-1"].players, reverse=True)
    semi = win(b, "R3-1", underdog)
    win(b, "R3-2", min(b.state.matches["R3-2"].players))
    b.add(c.start_round(b.state))
    win(b, "R4-1", underdog)
    third = b.state.matches["3P"]
    other = next(p for p in third.players if p != favourite)
    b.add(c.record_forfeit(b.state, "3P", winner=other))
    return b, semi, (underdog, favourite)


def void_all(b: Builder, match_id: str) -> None:
    for e in b.state.matches[match_id].entries:
        if e.payload is not None:
            b.add(c.correct_result(b.state, e.result_id, None, by="ref", reason="replay"))


def test_a_correction_after_the_bracket_advanced_flags_later_matches_and_rewrites_none() -> None:
    b, semi, (_, favourite) = finished_knockout()
    final = b.state.matches["R4-1"]
    recorded = (final.players, final.winner)
    fix = c.correct_result(
        b.state, semi, {"tally": won_by(b, "R3-1", favourite)}, by="ref", reason="misread"
    )
    said = "\n".join(preview(b.events, fix).lines())
    assert "R4-1" in said and "3P" in said and "void" in said and "R4-1b" in said
    b.add(fix)
    t = b.state
    # What was played stays as played, with its players, and is flagged for the organiser.
    assert (t.matches["R4-1"].players, t.matches["R4-1"].winner) == recorded
    assert t.matches["R4-1"].flags and t.matches["3P"].flags
    view = pairing.bracket_view(t)
    assert view is not None and set(view[1]) == {"R4-1", "3P"}
    assert view[0].champion is None  # the final no longer fits: nobody is champion yet
    with pytest.raises(ConflictError) as caught:
        c.start_round(t)
    assert "R4-1" in caught.value.message and "--void" in caught.value.message


def test_voiding_the_misfit_frees_its_slot_for_a_redraw_under_a_new_match_id() -> None:
    b, semi, (underdog, favourite) = finished_knockout()
    fix = {"tally": won_by(b, "R3-1", favourite)}
    b.add(c.correct_result(b.state, semi, fix, by="ref", reason="misread"))
    void_all(b, "R4-1")
    void_all(b, "3P")
    b.add(c.start_round(b.state))
    t = b.state
    assert sorted(t.rounds[-1].matches) == ["3Pb", "R4-1b"]
    assert favourite in t.matches["R4-1b"].players and underdog in t.matches["3Pb"].players
    assert t.matches["R4-1b"].bracket == {"id": "R4-1"}
    assert underdog in t.matches["R4-1"].players  # the voided final keeps its players
    win(b, "R4-1b", favourite)
    win(b, "3Pb", underdog)
    top = standings(b.state, places=pairing.places(b.state))
    assert top[0].player_id == favourite and top[2].player_id == underdog
    assert pairing.finished(b.state)


def test_striking_a_hand_of_a_tally_names_the_hand() -> None:
    b = Builder(paired(players=2, best_of=3))
    rid = b.add(c.record_tally(b.state, "1.1", "7 5 4 1 0 / 7 6 3"))[-1].payload["result_id"]
    with pytest.raises(DomainError) as caught:
        c.strike_hand(b.state, rid, by="organiser", reason="unreadable")
    assert caught.value.field == "hand" and "holds 6 hands" in caught.value.message
    single = b.add(c.record_hand(b.state, "1.1", winner=1, game_points=1))
    assert c.strike_hand(b.state, single[-1].payload["result_id"], by="organiser", reason="x")

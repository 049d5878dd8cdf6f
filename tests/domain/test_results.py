"""Paper results into a match: hands, tallies, forfeits, each refused with hand and rule."""

from __future__ import annotations

import pytest

from tournament.domain import commands as c
from tournament.domain.model.errors import DomainError
from tournament.domain.testing import Builder, paired


def match_builder(best_of: int = 3, **settings: object) -> Builder:
    return Builder(paired(players=2, best_of=best_of, **settings))


def test_a_match_is_decided_at_n_plus_one_over_two_bummerl_and_takes_nothing_after() -> None:
    b = match_builder(best_of=3, first_dealer="as_entered")
    for _ in range(3):  # 3+3+1: a Schneiderbummerl for player 1 counts 2 (R19, R20)
        b.add(c.record_hand(b.state, "1.1", winner=1, game_points=3))
    m = b.state.matches["1.1"]
    assert m.decided and m.winner == 1 and m.summary.bummerl == (2, 0)
    with pytest.raises(DomainError) as caught:
        c.record_hand(b.state, "1.1", winner=2, game_points=1)
    assert caught.value.rule == "R20"
    # 2:0 after one Bummerl and one hand: the message says why the score is right.
    assert (
        "match 1.1 is decided: Player 1 (1) won 2:0 Bummerl (a Schneiderbummerl counts 2, R19)"
        in caught.value.message
    )


def test_the_deal_must_alternate_once_the_first_dealer_is_known() -> None:
    b = match_builder(first_dealer="higher_seed")
    m = b.state.matches["1.1"]
    first = m.players[m.first_dealer]
    other = m.players[1 - m.first_dealer]
    b.add(c.record_hand(b.state, "1.1", winner=1, game_points=1, dealer=first))
    with pytest.raises(DomainError) as caught:
        c.record_hand(b.state, "1.1", winner=1, game_points=1, dealer=first)
    assert caught.value.rule == "R18"
    assert caught.value.field == "dealer"
    should, did = m.labels[1 - m.first_dealer], m.labels[m.first_dealer]
    assert (
        f"hand 2 of Bummerl 1 is dealt by {should}, not {did} (R18: the deal alternates every hand)"
        in caught.value.message
    )
    b.add(c.record_hand(b.state, "1.1", winner=1, game_points=1, dealer=other))


def test_as_entered_first_dealer_comes_from_the_first_hand() -> None:
    b = match_builder(first_dealer="as_entered")
    assert b.state.matches["1.1"].first_dealer is None
    new = b.add(c.record_hand(b.state, "1.1", winner=1, game_points=2, dealer=2))
    assert [e.type for e in new] == ["match.first_dealer_set", "result.hand_recorded"]
    assert b.state.matches["1.1"].players[b.state.matches["1.1"].first_dealer] == 2
    with pytest.raises(DomainError):
        c.record_hand(b.state, "1.1", winner=1, game_points=2, dealer=2)


@pytest.mark.parametrize(
    ("kwargs", "field", "rule"),
    [
        ({"winner": 1, "game_points": 4}, "game_points", "R13"),
        ({"winner": 1, "game_points": 0}, "game_points", "R13"),
        ({"winner": 9, "game_points": 1}, "winner", "T-match"),
        ({"winner": 1, "game_points": 2, "reason": "last_trick"}, "game_points", "R16"),
        ({"winner": 1, "game_points": 1, "reason": "false_claim"}, "game_points", "R15"),
        (
            {"winner": 1, "game_points": 2, "reason": "claim", "card_points": [60, 50]},
            "card_points",
            "R13",
        ),
        ({"winner": 1, "game_points": 1, "reason": "whatever"}, "reason", "T-result"),
    ],
)
def test_bad_hands_name_field_and_rule(kwargs: dict, field: str, rule: str) -> None:
    b = match_builder()
    with pytest.raises(DomainError) as caught:
        c.record_hand(b.state, "1.1", **kwargs)
    assert (caught.value.field, caught.value.rule) == (field, rule)


def test_false_claim_mirror_allows_one_game_point() -> None:
    # false-claim-mirror: the opponent gets what a correct claim would have given the
    # claimer, so a false claim can be worth 1 (instead of R15's 2 or 3).
    b = match_builder(variants=["false-claim-mirror"])
    new = b.add(c.record_hand(b.state, "1.1", winner=1, game_points=1, reason="false_claim"))
    assert [e.type for e in new] == ["result.hand_recorded"]
    assert {k: new[0].payload[k] for k in ("winner", "game_points", "reason")} == {
        "winner": 1,
        "game_points": 1,
        "reason": "false_claim",
    }
    m = b.state.matches["1.1"]
    seat = m.seat_of(1)
    assert m.engine.current.scores[seat] == 6  # 7 less the one game point (R17)
    assert m.summary.game_points[seat] == 1 and m.summary.game_points[1 - seat] == 0


def test_a_tally_fills_a_whole_bummerl_and_only_a_fresh_one() -> None:
    b = match_builder()
    b.add(c.record_tally(b.state, "1.1", "7 5 4 1 0 / 7 6 3", order=[1, 2]))
    m = b.state.matches["1.1"]
    assert m.engine.bummerl_wins == (1, 0) and m.summary.game_points == (7, 4)
    b.add(c.record_hand(b.state, "1.1", winner=2, game_points=1))
    with pytest.raises(DomainError) as caught:
        c.record_tally(b.state, "1.1", "7 4 1 0 / 7 6")
    assert caught.value.rule == "R17" and "already has 1 hand" in caught.value.message


def test_tally_columns_in_the_other_order_are_swapped_to_the_seats() -> None:
    b = match_builder()
    b.add(c.record_tally(b.state, "1.1", "7 5 2 0 / 7 6", order=[2, 1]))
    m = b.state.matches["1.1"]
    assert m.engine.bummerl_wins[m.seat_of(2)] == 1


def test_forfeit_scores_the_configured_result_and_decides_the_match() -> None:
    b = match_builder(best_of=5)
    b.add(c.record_forfeit(b.state, "1.1", winner=2))
    m = b.state.matches["1.1"]
    assert m.winner == 2 and m.summary.bummerl[m.seat_of(2)] == 3
    assert b.state.stats[2].forfeit_wins == 1 and b.state.stats[2].wins == 0
    with pytest.raises(DomainError) as caught:
        c.record_hand(b.state, "1.1", winner=1, game_points=1)
    assert caught.value.rule == "R20"


def test_double_no_show_is_a_loss_for_both() -> None:
    b = match_builder()
    b.add(c.record_forfeit(b.state, "1.1", winner=None))
    assert b.state.stats[1].losses == b.state.stats[2].losses == 1


def test_both_players_sign_the_finished_sheet_once() -> None:
    b = match_builder(best_of=1)
    with pytest.raises(DomainError) as caught:
        c.sign_sheet(b.state, "1.1", 1)
    assert caught.value.rule == "T-sheet"
    assert "match 1.1 is not decided yet (Bummerl 0:0" in caught.value.message
    b.add(c.record_tally(b.state, "1.1", "7 4 1 0 / 7 6", order=[1, 2]))
    b.add(c.sign_sheet(b.state, "1.1", 1))
    assert c.sign_sheet(b.state, "1.1", 1) == []
    b.add(c.sign_sheet(b.state, "1.1", 2))
    assert b.state.matches["1.1"].signed_by == {1, 2}


def test_a_result_and_its_signatures_go_in_together() -> None:
    b = match_builder(best_of=1)
    tally = c.record_tally(b.state, "1.1", "7 4 1 0 / 7 6", order=[1, 2])
    signed = [e for p in (1, 2) for e in c.sign_sheet(b.state, "1.1", p, new=tally)]
    b.add([*tally, *signed])
    assert b.state.matches["1.1"].signed_by == {1, 2}


def test_a_correction_or_strike_after_signing_voids_the_signatures() -> None:
    for change in ("correct", "strike"):
        b = match_builder(best_of=1)
        rid = b.add(c.record_tally(b.state, "1.1", "7 4 1 0 / 7 6", order=[1, 2]))[-1].payload[
            "result_id"
        ]
        b.add([*c.sign_sheet(b.state, "1.1", 1), *c.sign_sheet(b.state, "1.1", 2)])
        if change == "correct":
            b.add(c.correct_result(b.state, rid, {"tally": "7 4 1 0 / 7 5"}, by="r", reason="x"))
        else:
            b.add(c.strike_hand(b.state, rid, 2, by="referee", reason="unreadable"))
        m = b.state.matches["1.1"]
        assert m.signed_by == set()
        assert [pid for pid, _ in m.void_signatures] == [1, 2]
        assert all("after signing" in why for _, why in m.void_signatures)


def test_signatures_stored_before_the_match_was_decided_count_as_void() -> None:
    from tournament.domain.model import events as ev

    b = match_builder(best_of=1)
    b.add([ev.make_event(ev.SHEET_SIGNED, {"match_id": "1.1", "player_id": p}) for p in (1, 2)])
    b.add(c.record_tally(b.state, "1.1", "7 4 1 0 / 7 6", order=[1, 2]))
    m = b.state.matches["1.1"]
    assert m.signed_by == set() and len(m.void_signatures) == 2


def test_both_players_recorded_as_scorer_in_one_match_is_warned_about() -> None:
    from tournament.domain.views.notices import scorer_warning

    b = match_builder()
    b.add(c.record_hand(b.state, "1.1", winner=1, game_points=1, scorer=1))
    assert scorer_warning(b.state.matches["1.1"]) is None
    b.add(c.record_hand(b.state, "1.1", winner=1, game_points=1, scorer=2))
    warning = scorer_warning(b.state.matches["1.1"])
    assert warning is not None and "both Player 1 (1) and Player 2 (2)" in warning


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"winner": 1, "game_points": 4}, "1, 2 or 3 game points, not 4 (R13)"),
        ({"winner": 9, "game_points": 1}, "player 9 does not play here"),
        (
            {"winner": 1, "game_points": 2, "reason": "last_trick"},
            "last trick is worth 1 game point (R16",
        ),
        ({"winner": 1, "game_points": 1, "reason": "false_claim"}, "2 or 3 game points (R15"),
        (
            {"winner": 1, "game_points": 2, "reason": "claim", "card_points": [40, 50]},
            "a correct claim needs 66 points",
        ),
        ({"winner": 1, "game_points": 1, "scorer": 9}, "player 9 does not play here"),
    ],
)
def test_every_refused_hand_names_the_match_the_bummerl_and_the_hand(
    kwargs: dict, says: str
) -> None:
    # Two hands are on the sheet already, so the refused one would be hand 3 of Bummerl 1.
    b = match_builder(first_dealer="as_entered")
    for _ in range(2):
        b.add(c.record_hand(b.state, "1.1", winner=2, game_points=1))
    with pytest.raises(DomainError) as caught:
        c.record_hand(b.state, "1.1", **kwargs)
    assert caught.value.message.startswith("match 1.1, Bummerl 1 hand 3: ")
    assert says in caught.value.line()
    assert f"({caught.value.rule}" in caught.value.line()  # the rule, once
    assert caught.value.line().count(f"({caught.value.rule}") == 1


def test_a_refused_correction_names_the_hand_it_corrects() -> None:
    b = match_builder(first_dealer="as_entered")
    first = b.add(c.record_hand(b.state, "1.1", winner=2, game_points=1))
    rid = first[-1].payload["result_id"]
    b.add(c.record_hand(b.state, "1.1", winner=2, game_points=1))
    with pytest.raises(DomainError) as caught:
        c.correct_result(b.state, rid, {"game_points": 5}, by="referee", reason="misread")
    assert caught.value.message.startswith(f"match 1.1, result {rid} (Bummerl 1 hand 1): ")
    assert caught.value.rule == "R13"


def test_a_refused_tally_names_the_match_and_the_bummerl() -> None:
    b = match_builder()
    b.add(c.record_tally(b.state, "1.1", "7 5 2 0 / 7 6", order=[1, 2]))
    with pytest.raises(DomainError) as caught:
        c.record_tally(b.state, "1.1", "7 5 1 0 / 7")
    assert caught.value.message.startswith("match 1.1, Bummerl 2: hand 2: ")
    assert caught.value.rule == "R13"

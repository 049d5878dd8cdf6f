"""One test (or a few) per rule id of docs/rules.md, R0-R16, on hand-made deals.

Seat 0 deals in every test unless said otherwise, so seat 1 is forehand and leads first.
"""

from __future__ import annotations

import pytest

from engine import Action, HandState, IllegalActionError, RecordFormatError
from engine.cards import ALL_CARDS, Card, mask_points

from .decks import codes, deal, play


def play_out(state: HandState) -> HandState:
    """Play the first legal card, declaring nothing, until all cards are played."""
    while not state.is_over:
        state = state.apply(next(a for a in state.legal_actions() if a.card and not a.marriage))
    return state


def refused(state: HandState, action: str, rule: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Action.parse(action))
    assert caught.value.rule == rule, caught.value
    return caught.value


# A plain deal used by several tests: trumps are hearts (turn-up AH).
PLAIN = dict(forehand="AS KS QD JC TD", dealer="TS QS AD KC JH", turnup="AH")


# --- R0: who may act, with what -------------------------------------------------------------
def test_R0_only_a_seat_allowed_to_act_may_act() -> None:
    state = deal(**PLAIN)
    error = refused(state, "0:TS", "R0")
    assert "seat 1 is to lead" in error.message
    state = play(state, "1:KS")
    refused(state, "1:AS", "R0")  # the leader does not answer its own lead


def test_R0_a_card_must_be_held() -> None:
    state = deal(**PLAIN)
    error = refused(state, "1:AH", "R0")
    assert "does not hold AH" in error.message


def test_R0_nothing_after_the_hand_ended() -> None:
    state = play(deal(**MARRY), "1:KS+marriage 1:claim")
    assert state.outcome().complete
    refused(state, "0:AS", "R0")


def test_R0_an_action_must_have_the_record_form() -> None:
    with pytest.raises(RecordFormatError) as caught:
        Action.from_json({"seat": 1, "action": "play", "card": "KS", "mariage": True})
    assert caught.value.rule == "R0" and "mariage" in caught.value.message
    with pytest.raises(RecordFormatError):
        Action.from_json({"seat": 2, "action": "play", "card": "KS"})
    with pytest.raises(RecordFormatError):
        Action.from_json({"seat": 1, "action": "play", "card": "9S"})
    with pytest.raises(RecordFormatError):
        Action.from_json({"seat": 1, "action": "claim", "card": "KS"})


# --- R1: the deck ---------------------------------------------------------------------------
def test_R1_twenty_cards_worth_120_points_ranked_A_T_K_Q_J() -> None:
    assert len(ALL_CARDS) == 20
    assert sum(c.points for c in ALL_CARDS) == 120
    assert mask_points((1 << 20) - 1) == 120
    assert [Card.parse(f"{r}H").points for r in "ATKQJ"] == [11, 10, 4, 3, 2]


def test_R1_card_codes_read_in_three_spellings_and_write_one() -> None:
    assert Card.parse("10H") is Card.parse("TH") is Card.parse("♥10") is Card.parse("th")
    assert str(Card.parse("♠A")) == "AS"
    assert eval(repr(Card.parse("QD"))) is Card.parse("QD")
    with pytest.raises(ValueError, match="R1"):
        Card.parse("9H")


@pytest.mark.parametrize(
    "deck, fragment",
    [
        (["AH"] * 20, "appears twice"),
        ([c.code for c in ALL_CARDS][:19], "20 cards"),
        (["XX", *(c.code for c in ALL_CARDS[1:])], "unknown card code"),
    ],
)
def test_R1_a_deck_is_the_twenty_distinct_cards(deck: list[str], fragment: str) -> None:
    with pytest.raises(RecordFormatError) as caught:
        HandState.deal(deck, 0)
    assert caught.value.rule == "R1" and fragment in caught.value.message


# --- R2: the deal ---------------------------------------------------------------------------
def test_R2_deal_3_3_turnup_2_2_and_a_talon_of_ten() -> None:
    deck = [c.code for c in ALL_CARDS]  # AC TC KC QC JC AD TD KD QD JD AH TH ... JS
    state = HandState.deal(deck, dealer=0)
    assert codes(state.cards_of(1)) == codes(["AC", "TC", "KC", "KD", "QD"])  # forehand
    assert codes(state.cards_of(0)) == codes(["QC", "JC", "AD", "JD", "AH"])  # dealer
    assert str(state.turnup) == "TD" and state.trump.letter == "D"
    assert state.talon_count == 10
    assert [c.code for c in state.talon] == [*deck[11:], "TD"]  # turn-up is the last card


def test_R2_the_dealer_can_be_either_seat() -> None:
    deck = [c.code for c in ALL_CARDS]
    state = HandState.deal(deck, dealer=1)
    assert codes(state.cards_of(0)) == codes(["AC", "TC", "KC", "KD", "QD"])
    assert state.to_act == (0,)
    with pytest.raises(RecordFormatError) as caught:
        HandState.deal(deck, dealer=2)
    assert caught.value.rule == "R2"


# --- R3: who leads --------------------------------------------------------------------------
def test_R3_forehand_leads_the_first_trick_and_the_winner_leads_the_next() -> None:
    state = deal(**PLAIN)
    assert state.to_act == (1,) and state.leader == 1
    state = play(state, "1:KS 0:TS")  # the dealer wins with the higher spade
    assert state.leader == 0 and state.to_act == (0,)


# --- R4: who wins a trick -------------------------------------------------------------------
@pytest.mark.parametrize(
    "lead, reply, winner",
    [
        ("1:KS", "0:TS", 0),  # higher card of the suit led
        ("1:AS", "0:TS", 1),  # lower card of the suit led
        ("1:AS", "0:JH", 0),  # a trump to a non-trump lead
        ("1:KS", "0:AD", 1),  # another non-trump suit loses
        ("1:TD", "0:AD", 0),  # higher of the same (non-trump) suit
    ],
)
def test_R4_higher_card_of_the_suit_led_or_a_trump_wins(lead: str, reply: str, winner: int) -> None:
    state = play(deal(**PLAIN), f"{lead} {reply}")
    assert state.tricks[0].winner == winner


def test_R4_a_trump_lead_is_beaten_only_by_a_higher_trump() -> None:
    state = deal("JH KS QD JC TD", "TS QS AD KC QH", turnup="AH")
    assert play(state, "1:JH 0:QH").tricks[0].winner == 0
    assert play(state, "1:JH 0:AD").tricks[0].winner == 1


# --- R5: open talon -------------------------------------------------------------------------
def test_R5_while_the_talon_is_open_any_card_may_answer() -> None:
    state = deal(**PLAIN)
    answers = {str(a) for a in play(state, "1:KS").legal_actions()}
    assert answers == {"0:TS", "0:QS", "0:AD", "0:KC", "0:JH"}
    play(state, "1:KS 0:KC")  # no need to follow spades or to trump


# --- R6: strict play ------------------------------------------------------------------------
STRICT = dict(forehand="AS KS QD JC TC", dealer="TS QS JH KD QH", turnup="AH")


def test_R6a_a_higher_card_of_the_suit_led_if_the_player_has_one() -> None:
    state = play(deal(**STRICT), "1:close 1:KS")
    assert {str(a) for a in state.legal_actions()} == {"0:TS"}
    error = refused(state, "0:QS", "R6")
    assert "R6a" in error.message and "allowed: TS" in error.message
    refused(state, "0:JH", "R6")


def test_R6b_else_a_lower_card_of_the_suit_led() -> None:
    state = play(deal(**STRICT), "1:close 1:AS")
    assert {str(a) for a in state.legal_actions()} == {"0:TS", "0:QS"}
    refused(state, "0:KD", "R6")


def test_R6c_else_a_trump() -> None:
    state = play(deal(**STRICT), "1:close 1:JC")
    assert {str(a) for a in state.legal_actions()} == {"0:JH", "0:QH"}
    error = refused(state, "0:KD", "R6")
    assert "R6c" in error.message


def test_R6d_else_any_card() -> None:
    state = play(deal("AS KS QD JC TC", "TS QS JD KD QC", turnup="AH"), "1:close 1:AS 0:QS")
    state = play(state, "1:QD")  # the dealer must beat with KD (R6a)
    assert {str(a) for a in state.legal_actions()} == {"0:KD"}
    state = play(state, "0:KD 0:TS 1:KS")  # now the dealer leads spades
    # Forehand: no diamond, no trump left for hearts: anything goes after a heart-less lead.
    state = play(state, "0:JD")
    assert {str(a) for a in state.legal_actions()} == {"1:JC", "1:TC"}


def test_R6_a_trump_lead_must_be_beaten_with_a_higher_trump_if_possible() -> None:
    state = play(deal("JH KS QD JC TC", "TS QS QH KD AD", turnup="AH"), "1:close 1:JH")
    assert {str(a) for a in state.legal_actions()} == {"0:QH"}


def test_R6_strict_play_also_applies_once_the_talon_is_exhausted() -> None:
    state = _five_tricks_by_forehand()
    assert state.is_exhausted and state.strict and not state.is_closed
    assert codes(state.cards_of(0)) == codes(["AD", "TD", "KD", "AC", "QH"])
    assert {str(a) for a in play(state, "1:TC").legal_actions()} == {"0:AC"}  # R6a
    assert {str(a) for a in play(state, "1:JH").legal_actions()} == {"0:QH"}  # trump lead


# --- R7: drawing ----------------------------------------------------------------------------
# Forehand holds the trumps and leads the spades it draws; the dealer has neither spades nor
# hearts, so forehand wins the first five tricks and draws first each time.
RUN = dict(
    forehand="AH TH KH JH AS",
    dealer="JC QC KC JD QD",
    turnup="QH",
    talon="TS AD KS TD QS KD JS AC TC",
)


def _five_tricks_by_forehand(**extra: object) -> HandState:
    state = deal(**RUN, **extra)  # type: ignore[arg-type]
    for lead, reply in [("AS", "JC"), ("TS", "QC"), ("KS", "KC"), ("QS", "JD"), ("JS", "QD")]:
        state = play(state, f"1:{lead} 0:{reply}")
    return state


def test_R7_the_winner_draws_first_then_the_loser_and_the_loser_of_trick_five_gets_the_turnup() -> (
    None
):
    state = deal(**RUN)
    counts = [state.talon_count]
    state = play(state, "1:AS 0:JC")
    assert "TS" in codes(state.cards_of(1)) and "AD" in codes(state.cards_of(0))
    counts.append(state.talon_count)
    for lead, reply in [("TS", "QC"), ("KS", "KC"), ("QS", "JD"), ("JS", "QD")]:
        state = play(state, f"1:{lead} 0:{reply}")
        counts.append(state.talon_count)
    assert counts == [10, 8, 6, 4, 2, 0]
    assert "QH" in codes(state.cards_of(0))  # the loser of the fifth trick took the turn-up
    assert "TC" in codes(state.cards_of(1))
    assert state.turnup is None and state.is_exhausted


# --- R8: trump jack exchange ----------------------------------------------------------------
def test_R8_the_leader_swaps_the_trump_jack_for_the_turnup() -> None:
    state = deal("JH KS QD JC TD", "TS QS AD KC QH", turnup="AH")
    state = play(state, "1:exchange")
    assert "AH" in codes(state.cards_of(1)) and "JH" not in codes(state.cards_of(1))
    assert str(state.turnup) == "JH" and state.talon[-1].code == "JH"
    assert state.to_act == (1,)  # still to lead


def test_R8_only_with_the_trump_jack_and_only_by_the_leader() -> None:
    refused(deal(**PLAIN), "1:exchange", "R8")  # forehand has no JH
    refused(deal(**PLAIN), "0:exchange", "R0")  # the dealer holds JH but does not lead


def test_R8_not_after_closing() -> None:
    state = play(deal("JH KS QD JC TD", "TS QS AD KC QH", turnup="AH"), "1:close")
    error = refused(state, "1:exchange", "R8")
    assert "closed" in error.message
    play(deal("JH KS QD JC TD", "TS QS AD KC QH", turnup="AH"), "1:exchange 1:close")


def test_R8_not_once_the_talon_is_exhausted() -> None:
    state = _five_tricks_by_forehand()
    assert "JH" in codes(state.cards_of(1))
    refused(state, "1:exchange", "R8")


def test_R8_variant_no_first_trick_exchange() -> None:
    hands = dict(forehand="JH KS QD JC TD", dealer="TS QS AD KC QH", turnup="AH")
    state = deal(**hands, variants=["no-first-trick-exchange"])
    assert "no-first-trick-exchange" in refused(state, "1:exchange", "R8").message
    state = play(state, "1:KS 0:QS")  # forehand wins the first trick with KS over QS
    play(state, "1:exchange")


def test_R8_variant_no_exchange_at_two() -> None:
    def four_tricks(variants: list[str]) -> HandState:
        state = deal(**RUN, variants=variants)
        for lead, reply in [("AS", "JC"), ("TS", "QC"), ("KS", "KC"), ("QS", "JD")]:
            state = play(state, f"1:{lead} 0:{reply}")
        assert state.talon_count == 2
        return state

    play(four_tricks([]), "1:exchange")
    refused(four_tricks(["no-exchange-at-two"]), "1:exchange", "R8")


# --- R9: closing ----------------------------------------------------------------------------
def test_R9_closing_stops_drawing_and_freezes_the_opponent() -> None:
    state = play(deal(**RUN), "1:AS 0:JC 1:TS 0:QC 1:close")
    assert state.closed_by == 1 and state.frozen_opponent == (0, 0)
    state = play(state, "1:KS 0:KC")
    assert len(state.cards_of(0)) == 4 and len(state.cards_of(1)) == 4  # nothing drawn
    assert state.talon_count == 6


def test_R9_the_frozen_state_is_the_opponents_tricks_and_points() -> None:
    state = play(deal(**PLAIN), "1:KS 0:TS 0:close")
    assert state.closed_by == 0 and state.frozen_opponent == (0, 0)
    state = play(deal(**PLAIN), "1:AS 0:QS 1:close")
    assert state.frozen_opponent == (0, 0)
    state = play(deal(**PLAIN), "1:KS 0:TS 0:QS 1:AS 1:close")  # seat 0 has one trick (14)
    assert state.frozen_opponent == (1, 14)


def test_R9_only_while_open_once_and_by_the_leader() -> None:
    state = play(deal(**PLAIN), "1:close")
    assert "already closed" in refused(state, "1:close", "R9").message
    refused(deal(**PLAIN), "0:close", "R0")
    refused(_five_tricks_by_forehand(), "1:close", "R9")


def test_R9_variant_no_close_at_two() -> None:
    def four_tricks(variants: list[str]) -> HandState:
        state = deal(**RUN, variants=variants)
        for lead, reply in [("AS", "JC"), ("TS", "QC"), ("KS", "KC"), ("QS", "JD")]:
            state = play(state, f"1:{lead} 0:{reply}")
        return state

    play(four_tricks([]), "1:close")
    assert "no-close-at-two" in refused(four_tricks(["no-close-at-two"]), "1:close", "R9").message


# --- R10: marriages -------------------------------------------------------------------------
MARRY = dict(forehand="KS QS KH QH JC", dealer="AS TS AC TC JS", turnup="AH")


def test_R10_a_marriage_is_20_or_40_in_trumps() -> None:
    state = play(deal(**MARRY), "1:KS+marriage")
    assert state.marriages[0].value == 20 and state.lead_is_marriage
    state = play(deal(**MARRY), "1:QH+marriage")
    assert state.marriages[0].value == 40 and str(state.marriages[0].shown) == "KH"


def test_R10_marriage_points_are_pending_until_the_first_trick() -> None:
    state = play(deal(**MARRY), "1:KS+marriage 0:AS")  # the dealer takes it
    assert state.points == (15, 0) and state.pending_marriage_points == (0, 20)
    state = play(state, "0:JS 1:QS")  # forehand takes a trick: the 20 now count
    assert state.points == (15, 5 + 20) and state.pending_marriage_points == (0, 0)


def test_R10_marriage_points_are_lost_without_a_trick() -> None:
    # Forehand's 20 are pending; the dealer takes the trick and ends the hand with a
    # (false) claim before forehand ever wins a trick.
    state = play(deal(**MARRY), "1:KS+marriage 0:AS 0:claim")
    assert state.outcome().points == (15, 0)


def test_R10_needs_both_cards_and_a_king_or_queen() -> None:
    assert (
        "does not hold"
        in refused(play(deal(**MARRY), "1:JC 0:JS 1:QS 0:AC"), "1:KS+marriage", "R10").message
    )
    refused(deal(**MARRY), "1:JC+marriage", "R10")


def test_R10_only_the_leader_declares() -> None:
    state = play(deal("AS JC QD JD TD", "KS QS AD KC JH", turnup="AH"), "1:AS")
    refused(state, "0:KS+marriage", "R10")


def test_R10_allowed_after_closing() -> None:
    state = play(deal(**MARRY), "1:close 1:KH+marriage")
    assert state.marriages[0].value == 40


def test_R10_variant_no_first_trick_marriage() -> None:
    state = deal(**MARRY, variants=["no-first-trick-marriage"])
    refused(state, "1:KS+marriage", "R10")
    play(state, "1:JC 0:JS 1:KS+marriage")  # forehand won the first trick; now it may


def test_R10_variant_marriage_king_lead() -> None:
    state = deal(**MARRY, variants=["marriage-king-lead"])
    assert "lead the king KS" in refused(state, "1:QS+marriage", "R10").message
    play(state, "1:KS+marriage")


def test_R10_a_play_without_the_flag_declares_nothing() -> None:
    state = play(deal(**MARRY), "1:KS")
    assert state.marriages == () and not state.lead_is_marriage


# --- R11: points ----------------------------------------------------------------------------
def test_R11_points_are_trick_points_plus_counting_marriages() -> None:
    state = play(deal(**MARRY), "1:QH+marriage 0:JS")
    assert state.card_points == (0, 5) and state.points == (0, 45)


# --- R12: claims ----------------------------------------------------------------------------
def test_R12_no_claim_before_a_trick_or_a_marriage() -> None:
    refused(deal(**PLAIN), "1:claim", "R12")
    refused(deal(**PLAIN), "0:claim", "R12")


def test_R12a_a_claim_is_the_first_action_after_winning_a_trick() -> None:
    state = play(deal(**PLAIN), "1:AS 0:QS")
    assert Action.claim(1) in state.legal_actions()
    refused(state, "0:claim", "R12")  # the loser may not
    assert play(state, "1:claim").outcome().reason == "false_claim"


def test_R12a_not_after_another_action() -> None:
    state = play(deal("AS KS QD JC TD", "TS QS AD KC QH", turnup="AH", talon="JH"), "1:AS 0:QS")
    assert "JH" in codes(state.cards_of(1))
    state = play(state, "1:exchange")
    refused(state, "1:claim", "R12")


def test_R12b_right_after_leading_a_marriage_both_seats_may_act() -> None:
    state = play(deal(**MARRY), "1:KS+marriage")
    assert state.to_act == (0, 1)
    assert {str(a) for a in state.legal_actions()} >= {"1:claim", "0:AS"}
    refused(state, "0:claim", "R12")
    state = play(state, "0:AS")  # after the reply the chance is gone
    refused(state, "1:claim", "R12")


def test_R12_reaching_66_ends_nothing_without_a_claim() -> None:
    state = play(deal(**SCORE_3), "1:KH+marriage 0:JC 1:AH 0:QC 1:TH 0:KC")
    assert state.points[1] >= 66 and not state.is_over and state.to_act == (1,)
    play(state, "1:QH")  # play simply goes on


# --- R13: correct claims --------------------------------------------------------------------
SCORE_3 = dict(forehand="KH QH AH TH AS", dealer="JC QC KC JD QD", turnup="JH")
SCORE_2 = dict(forehand="KH QH AH TH JS", dealer="AS JC QC KC JD", turnup="JH")
SCORE_1 = dict(forehand="KH QH AH TH JS", dealer="AS KC QC JD JC", turnup="JH")


def test_R13_three_game_points_if_the_opponent_has_no_trick() -> None:
    state = play(deal(**SCORE_3), "1:KH+marriage 0:JC 1:AH 0:QC 1:TH 0:KC 1:claim")
    assert state.outcome().to_json() == {
        "complete": True,
        "winner": 1,
        "game_points": 3,
        "reason": "claim",
        "points": [0, 74],
        "tricks": [0, 3],
    }


def test_R13_two_if_the_opponent_has_fewer_than_33() -> None:
    state = play(deal(**SCORE_2), "1:JS 0:AS 0:JC 1:AH 1:KH+marriage 0:QC 1:TH 0:KC 1:claim")
    outcome = state.outcome()
    assert outcome.points == (13, 74) and (outcome.winner, outcome.game_points) == (1, 2)


def test_R13_one_if_the_opponent_has_33_or_more() -> None:
    state = play(
        deal(**SCORE_1), "1:JS 0:AS 0:KC+marriage 1:AH 1:KH+marriage 0:JD 1:TH 0:QC 1:claim"
    )
    outcome = state.outcome()
    assert outcome.points == (33, 74) and (outcome.winner, outcome.game_points) == (1, 1)


# --- R14: closed talon ----------------------------------------------------------------------
CLOSE = dict(forehand="KH QH AH TH JS", dealer="AS JC QC KC TC", turnup="JH")


def test_R14_the_closer_is_judged_on_the_opponent_when_closing() -> None:
    state = play(deal(**CLOSE), "1:close 1:KH+marriage 0:JC 1:JS 0:AS 0:TC 1:AH 1:claim")
    outcome = state.outcome()
    assert outcome.tricks == (1, 2) and outcome.points == (13, 67)  # seat 0 took a trick since
    assert (outcome.winner, outcome.game_points, outcome.reason) == (1, 3, "claim")


def test_R14_a_false_claim_by_the_closer_gives_the_opponent_3_or_2() -> None:
    state = play(deal(**CLOSE), "1:close 1:KH+marriage 0:JC 1:claim")
    assert (state.outcome().winner, state.outcome().game_points) == (0, 3)
    assert state.outcome().reason == "false_claim"


def test_R14_a_false_claim_by_the_closers_opponent_is_scored_by_R15() -> None:
    state = play(deal(**PLAIN), "1:KS 0:TS 0:QS 1:AS 1:close 1:JC 0:KC 0:claim")
    outcome = state.outcome()
    assert (outcome.reason, outcome.winner, outcome.game_points) == ("false_claim", 1, 2)


def test_R14_the_opponent_claiming_correctly_first_makes_the_closer_fail() -> None:
    hands = dict(forehand="JS JC QC KC TC", dealer="KH QH AH TH AS", turnup="JH")
    state = play(deal(**hands), "1:close 1:JC 0:AH 0:KH+marriage 1:QC 0:TH 1:KC 0:claim")
    outcome = state.outcome()
    assert (outcome.winner, outcome.game_points, outcome.reason) == (0, 3, "claim")


def test_R14_all_cards_played_without_a_correct_claim_is_closer_failed() -> None:
    state = play(deal(**PLAIN), "1:close")
    state = play_out(state)
    outcome = state.outcome()
    assert state.trick_count == 5  # nothing was drawn after closing
    assert (outcome.reason, outcome.winner, outcome.game_points) == ("closer_failed", 0, 3)


def test_R14_closer_failed_is_worth_2_if_the_opponent_had_a_trick_at_closing() -> None:
    state = play(deal(**PLAIN), "1:KS 0:TS 0:QS 1:AS 1:close")
    state = play_out(state)
    assert state.outcome().reason == "closer_failed" and state.outcome().game_points == 2


# --- R15: false claims ----------------------------------------------------------------------
def test_R15_a_false_claim_gives_the_opponent_2_or_3_without_a_trick() -> None:
    state = play(deal(**PLAIN), "1:AS 0:QS 1:claim")
    assert (state.outcome().winner, state.outcome().game_points) == (0, 3)
    state = play(deal(**PLAIN), "1:KS 0:TS 0:QS 1:AS 1:claim")
    assert (state.outcome().winner, state.outcome().game_points) == (0, 2)


def test_R15_variant_false_claim_mirror() -> None:
    state = play(deal(**PLAIN, variants=["false-claim-mirror"]), "1:KS 0:TS 0:QS 1:AS 1:claim")
    # The opponent has a trick and 14 points: a correct claim would have given 2.
    assert (state.outcome().winner, state.outcome().game_points) == (0, 2)
    state = play(
        deal(**SCORE_1, variants=["false-claim-mirror"]), "1:JS 0:AS 0:KC+marriage 1:AH 1:claim"
    )
    # Seat 0 has one trick and 33 points: a correct claim by seat 1 would have given 1.
    assert (state.outcome().winner, state.outcome().game_points) == (0, 1)


# --- R16: last trick ------------------------------------------------------------------------
def test_R16_no_claim_and_no_close_the_last_trick_wins_one_game_point() -> None:
    state = play_out(deal(**PLAIN))
    outcome = state.outcome()
    assert state.trick_count == 10 and outcome.reason == "last_trick"
    assert outcome.winner == state.tricks[-1].winner and outcome.game_points == 1
    assert sum(outcome.points) == 120


def test_R16_the_last_trick_winner_may_still_claim() -> None:
    state = play_out(deal(**PLAIN))
    last = state.tricks[-1].winner
    assert state.legal_actions() == [Action.claim(last)]
    refused(state, f"{1 - last}:claim", "R12")
    claimed = state.apply(Action.claim(last)).outcome()
    if state.points[last] >= 66:
        assert claimed.reason == "claim"
    else:
        assert claimed.reason == "false_claim" and claimed.winner == 1 - last

"""Online tables (T-online, T-clock) as the rules read: hands dealt by the server follow
R17-R20 by themselves and count exactly like paper results; moves are refused with the
rule they break; the clock, an abandoned hand and a stop behave as the organiser expects.

Everything here is pure domain: events folded by :class:`~tournament.domain.testing.Builder`,
hand streams kept in memory by :class:`tests.domain.online_table.Table`.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest

from engine import Action, HandState, Kind
from engine.randomplay import random_deck
from tests.domain.online_table import (
    Table,
    hand_won_by,
    later,
    marriage_claim_hand,
    random_hand,
    take_both,
    ten_tricks_hand,
)
from tournament.domain.commands import online
from tournament.domain.commands.live import abandon_live_hand
from tournament.domain.commands.results import record_forfeit, record_hand, record_tally
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.domain.standings import standings
from tournament.domain.testing import Builder, paired, random_hands
from tournament.domain.views.onlineview import TableMoment, seat_view, spectator_view

MATCH = "1.1"


def online_table(move_seconds: int | None = None, *, joined: bool = True, **settings: Any) -> Table:
    """Match 1.1 online; with ``joined`` both players opened their seats (T-online)."""
    b = Builder(paired(2, best_of=settings.pop("best_of", 3), **settings))
    b.add(online.start_online(b.state, MATCH, move_seconds=move_seconds))
    if joined:
        take_both(b, MATCH)
    return Table(b, MATCH)


def play_random_hand(table: Table, rng: random.Random) -> str:
    state = table.b.state
    dealer = state.matches[MATCH].engine.next_dealer
    assert dealer is not None
    variants = state.settings.variants if state.settings else ()
    deck, actions, _ = random_hand(rng, dealer, variants)
    return table.play(deck, actions)


def refusal(error: pytest.ExceptionInfo[DomainError]) -> tuple[str, str | None]:
    return error.value.rule, error.value.code


# --- starting online (T-online) ------------------------------------------------------------


def test_a_decided_match_is_not_started_online_R20() -> None:
    b = Builder(paired(2, best_of=1))
    random_hands(b, b.state.matches[MATCH], random.Random(1))
    with pytest.raises(ConflictError) as error:
        online.start_online(b.state, MATCH)
    assert error.value.rule == "R20"


def test_a_match_without_a_known_first_dealer_is_not_started_online_R18() -> None:
    b = Builder(paired(2, best_of=3, first_dealer="as_entered"))
    assert b.state.matches[MATCH].first_dealer is None
    with pytest.raises(ConflictError) as error:
        online.start_online(b.state, MATCH)
    assert error.value.rule == "R18"


def test_a_table_already_online_is_not_started_again() -> None:
    table = online_table()
    with pytest.raises(ConflictError) as error:
        online.start_online(table.b.state, MATCH)
    assert refusal(error) == ("T-online", "online.already_online")


@pytest.mark.parametrize("seconds", [0, 9, 3601, -5, 30.5, True, "60"])
def test_the_time_per_move_is_10_to_3600_whole_seconds_T_clock(seconds: Any) -> None:
    b = Builder(paired(2, best_of=3))
    with pytest.raises(DomainError) as error:
        online.start_online(b.state, MATCH, move_seconds=seconds)
    assert error.value.field == "move_seconds"
    assert refusal(error) == ("T-clock", "online.move_seconds_range")
    for fine in (10, 3600, None):
        assert online.start_online(b.state, MATCH, move_seconds=fine)


def test_the_first_hand_waits_for_its_deal_and_only_then() -> None:
    table = online_table()
    assert table.needs_deal()
    table.deal(random_deck(random.Random(1)))
    assert not table.needs_deal()
    with pytest.raises(ConflictError) as error:
        table.deal(random_deck(random.Random(2)))
    assert refusal(error) == ("T-online", "online.no_deal_now")


# --- hand after hand: R17-R20 by themselves --------------------------------------------------


def test_the_deal_alternates_every_hand_and_the_first_dealer_every_bummerl_R18() -> None:
    table = online_table(best_of=5, variants=["no-schneiderbummerl"])
    match = table.b.state.matches[MATCH]
    first = match.first_dealer
    assert first is not None
    rng = random.Random(18)
    dealers: list[tuple[int, int, int]] = []  # (bummerl, hand in it, dealer seat)
    while not table.b.state.matches[MATCH].decided:
        engine = table.b.state.matches[MATCH].engine
        bummerl, hand = len(engine.bummerls), len(engine.current.hands)
        if engine.current.is_over:
            bummerl, hand = bummerl + 1, 0
        stream = play_random_hand(table, rng)
        dealers.append((bummerl, hand, table.fold(stream).dealer))
    assert len({b for b, _, _ in dealers}) >= 3  # at least three Bummerl were played
    for bummerl, hand, dealer in dealers:
        first_of_bummerl = first if bummerl % 2 == 1 else 1 - first
        assert dealer == first_of_bummerl ^ (hand % 2), (bummerl, hand)


def test_a_hand_s_result_strikes_off_its_game_points_R17() -> None:
    table = online_table()
    rng = random.Random(17)
    dealer = table.b.state.matches[MATCH].engine.next_dealer
    assert dealer is not None
    deck, actions, _ = hand_won_by(rng, dealer, winner=1, game_points=2)
    table.play(deck, actions)
    assert table.b.state.matches[MATCH].engine.current.scores == (7, 5)


def schneider_bummerl(table: Table, rng: random.Random, winner: int) -> None:
    """``winner`` wins three hands in a row and the Bummerl with the loser still at 7."""
    bummerl = len(table.b.state.matches[MATCH].engine.bummerls)
    while not table.b.state.matches[MATCH].decided:
        engine = table.b.state.matches[MATCH].engine
        if len(engine.bummerls) > bummerl:
            return
        assert engine.current.scores[1 - winner] == 7
        dealer = engine.next_dealer
        assert dealer is not None
        variants = table.b.state.settings.variants if table.b.state.settings else ()
        deck, actions, _ = hand_won_by(rng, dealer, winner, variants=variants)
        table.play(deck, actions)


def test_a_schneiderbummerl_counts_two_and_decides_a_best_of_three_R19_R20() -> None:
    table = online_table()
    schneider_bummerl(table, random.Random(19), winner=0)
    match = table.b.state.matches[MATCH]
    assert match.engine.bummerl_wins == (2, 0)
    assert match.decided and match.winner == match.players[0]
    assert not table.needs_deal()  # R20: no further deal
    with pytest.raises(ConflictError) as error:
        table.deal(random_deck(random.Random(3)))
    assert error.value.code == "online.no_deal_now"


def test_with_no_schneiderbummerl_it_counts_one_and_play_goes_on() -> None:
    table = online_table(variants=["no-schneiderbummerl"])
    schneider_bummerl(table, random.Random(19), winner=0)
    match = table.b.state.matches[MATCH]
    assert match.engine.bummerl_wins == (1, 0)
    assert not match.decided
    assert table.needs_deal()


def test_the_match_stops_when_decided_and_counts_like_paper_R20() -> None:
    """Each online hand becomes a result exactly as the same hand entered on paper."""
    table = online_table()
    paper = Builder(paired(2, best_of=3))
    rng = random.Random(20)
    hands = 0
    while not table.b.state.matches[MATCH].decided:
        stream = play_random_hand(table, rng)
        state = table.fold(stream)
        outcome = state.outcome()
        assert outcome.winner is not None and outcome.game_points is not None
        players = paper.state.matches[MATCH].players
        paper.add(
            record_hand(
                paper.state, MATCH, winner=players[outcome.winner],
                game_points=outcome.game_points, dealer=players[state.dealer],
                reason=outcome.reason, card_points=list(outcome.points),
                closed=state.closed_by is not None,
            )
        )  # fmt: skip
        hands += 1
    assert not table.needs_deal()
    online_match, paper_match = table.b.state.matches[MATCH], paper.state.matches[MATCH]
    assert paper_match.decided and online_match.winner == paper_match.winner
    assert online_match.engine.to_json() == paper_match.engine.to_json()
    assert len(online_match.entries) == hands
    rows = [r.to_json() for r in standings(table.b.state)]
    assert rows == [r.to_json() for r in standings(paper.state)]


# --- R16 and R12: claims after the last trick and after a marriage lead ---------------------


def last_trick_table(accept: Any, move_seconds: int | None = None) -> tuple[Table, HandState]:
    table = online_table(move_seconds)
    dealer = table.b.state.matches[MATCH].engine.next_dealer
    assert dealer is not None
    deck, actions, state = ten_tricks_hand(random.Random(16), dealer, accept)
    table.play(deck, actions, decline=False)
    return table, state


def test_after_the_tenth_trick_nothing_counts_until_the_winner_claims_or_declines_R16() -> None:
    table, state = last_trick_table(lambda s: True)
    winner = state.legal_actions()[0].seat
    match = table.b.state.matches[MATCH]
    assert match.entries == [] and match.engine.current.scores == (7, 7)  # no result yet
    assert not table.needs_deal()  # the claim window is open
    with pytest.raises(DomainError) as error:
        table.decline(1 - winner)  # the opponent may not decline for the winner
    assert refusal(error) == ("R16", "online.not_yours_to_close")
    table.decline(winner)  # no claim: the last trick's winner, 1 game point
    assert table.needs_deal()
    assert table.b.state.matches[MATCH].engine.current.scores[winner] == 6


def test_a_claim_after_the_tenth_trick_is_the_hand_s_one_result_R16_R15() -> None:
    # The winner of the last trick has fewer than 66: its claim is false (R15), the
    # opponent wins 2 or 3; the 1 of R16 was never recorded, so nothing is replaced.
    table, state = last_trick_table(lambda s: s.points[s.legal_actions()[0].seat] < 66)
    winner = state.legal_actions()[0].seat
    assert table.b.state.matches[MATCH].entries == []
    with pytest.raises(DomainError) as error:
        table.move(1 - winner, "claim")  # the opponent may not claim (R12a)
    assert error.value.rule in ("R0", "R12")
    after = table.move(winner, "claim")
    outcome = after.outcome()
    assert outcome.reason == "false_claim" and outcome.winner == 1 - winner
    match = table.b.state.matches[MATCH]
    assert len(match.entries) == 1
    scores = match.engine.current.scores
    assert scores[winner] == 7 and scores[1 - winner] == 7 - (outcome.game_points or 0)
    assert table.needs_deal()


def test_the_winner_s_decline_is_refused_when_its_time_ran_out_T_clock() -> None:
    table, state = last_trick_table(lambda s: True, move_seconds=60)
    winner = state.legal_actions()[0].seat
    stream = table.stream
    assert stream is not None
    later(table, 61)
    events = table.streams[stream]
    with pytest.raises(ConflictError) as error:
        online.decline_claim(
            table.b.state, MATCH, stream, events, seat=winner, clock_now=table.clock()
        )
    assert refusal(error) == ("T-clock", "online.time_ran_out")
    assert table.b.state.matches[MATCH].entries == []  # nothing stored
    table.b.add(online.restart_clock(table.b.state, MATCH, now=table.now, by="organiser"))
    table.b.add(
        online.decline_claim(
            table.b.state, MATCH, stream, events, seat=winner, clock_now=table.clock()
        )
    )
    assert table.needs_deal()


def test_no_paper_result_slips_in_while_the_winner_may_still_claim_T_online_R16() -> None:
    """A paper hand entered in the claim window would come before the hand still being
    decided: refused until online play stops."""
    table, _ = last_trick_table(lambda s: True)
    match = table.b.state.matches[MATCH]
    dealer = match.engine.next_dealer
    assert dealer is not None
    with pytest.raises(ConflictError) as error:
        record_hand(
            table.b.state, MATCH, winner=match.players[0], game_points=1,
            dealer=match.players[dealer],
        )  # fmt: skip
    assert refusal(error) == ("T-online", "results.match_played_online")
    assert table.b.state.matches[MATCH].entries == []


def test_stopping_in_the_claim_window_abandons_the_hand_like_any_hand_in_play() -> None:
    """T-online, R16: the last trick's winner had not chosen, so the hand had no result;
    stopping abandons it (it never counts), and no decline or late claim follows."""
    table, state = last_trick_table(lambda s: True)
    winner = state.legal_actions()[0].seat
    stream = table.stream
    assert stream is not None
    table.b.add(online.stop_online(table.b.state, MATCH, by="organiser", reason="screens"))
    with pytest.raises(ConflictError) as declined:
        table.decline(winner)
    assert declined.value.code == "online.not_online"
    assert stream in table.b.state.live_abandoned and online.hand_final(
        table.b.state, stream, state
    )
    assert table.b.state.matches[MATCH].entries == []
    # Online again: the abandoned hand is over for good; its dealer deals again (R18).
    table.b.add(online.start_online(table.b.state, MATCH))
    assert table.needs_deal()
    nxt = table.deal(random_deck(random.Random(7)))
    assert table.fold(nxt).dealer == state.dealer


def test_a_claim_right_after_a_marriage_lead_ends_the_hand_R12b() -> None:
    table = online_table()
    dealer = table.b.state.matches[MATCH].engine.next_dealer
    assert dealer is not None
    deck, actions = marriage_claim_hand(random.Random(12), dealer)
    table.deal(deck)
    for action in actions:
        table.move(action.seat, action)
    leader = actions[-1].seat
    state = table.state
    assert state is not None and state.to_act == (0, 1)  # the reply, or the leader's claim
    after = table.move(leader, "claim")
    outcome = after.outcome()
    assert outcome.reason == "claim" and outcome.winner == leader
    entry = table.b.state.matches[MATCH].entries[-1]
    assert entry.payload is not None and entry.payload["reason"] == "claim"
    assert table.needs_deal()


# --- refusals: double clicks, out of turn, illegal cards -------------------------------------


def dealt_table(seed: int = 1) -> Table:
    table = online_table(move_seconds=60)
    table.deal(random_deck(random.Random(seed)))
    return table


def test_a_double_click_is_refused_and_stores_nothing() -> None:
    table = dealt_table()
    state = table.state
    assert state is not None
    seen = table.version
    first, second = state.legal_actions()[:2]
    table.move(first.seat, first, expected=seen)
    stored = list(table.streams[table.stream or ""])
    events = len(table.b.events)
    with pytest.raises(ConflictError) as error:
        table.move(second.seat, second, expected=seen)
    assert refusal(error) == ("T-online", "online.table_moved_on")
    assert table.streams[table.stream or ""] == stored and len(table.b.events) == events


def test_a_move_out_of_turn_is_refused_R0_R3() -> None:
    table = dealt_table()
    state = table.state
    assert state is not None
    (leader,) = state.to_act
    card = state.cards_of(1 - leader)[0].code
    with pytest.raises(DomainError) as error:
        table.move(1 - leader, card)
    assert refusal(error) == ("R0", "online.engine_refused")
    assert "R3" in error.value.message
    version = table.version
    with pytest.raises(DomainError) as seat_error:  # a move in the other seat's name
        table.move(1 - leader, Action.parse(f"{leader}:{state.cards_of(leader)[0].code}"))
    assert refusal(seat_error) == ("R0", "online.not_your_seat")
    assert table.version == version


def test_after_closing_the_reply_must_follow_suit_R6() -> None:
    rng = random.Random(6)
    for _ in range(500):
        table = dealt_table(rng.randrange(10**6))
        state = table.state
        assert state is not None
        (leader,) = state.to_act
        if Action(leader, Kind.CLOSE) not in state.legal_actions():
            continue
        table.move(leader, "close")
        state = table.state
        assert state is not None
        for lead in state.cards_of(leader):
            after_lead = state.apply(Action.play(leader, lead))
            allowed = {a.card for a in after_lead.legal_actions() if a.kind == Kind.PLAY}
            refused = [c for c in after_lead.cards_of(1 - leader) if c not in allowed]
            if refused:
                table.move(leader, lead.code)
                with pytest.raises(DomainError) as error:
                    table.move(1 - leader, refused[0].code)
                assert error.value.rule == "R6"
                assert table.state is not None and table.state.to_act == (1 - leader,)
                return
    pytest.fail("no deal where strict play refuses a reply")


# --- the clock (T-clock), abandoning a hand, stopping online play ---------------------------


def test_when_the_clock_runs_out_the_seat_to_act_is_refused_and_a_restart_gives_time_again() -> (
    None
):
    table = dealt_table()
    state = table.state
    assert state is not None
    (seat,) = state.to_act
    action = state.legal_actions()[-1]
    later(table, 59)
    assert not table.clock().expired
    later(table, 1)
    clock = table.clock()
    assert clock.expired and clock.deadline == table.last_at() + timedelta(seconds=60)
    with pytest.raises(ConflictError) as error:
        table.move(seat, action)
    assert refusal(error) == ("T-clock", "online.time_ran_out")
    table.b.add(online.restart_clock(table.b.state, MATCH, now=table.now, by="organiser"))
    assert not table.clock().expired
    later(table, 59)
    table.move(seat, action)  # within the time given again
    later(table, 30)
    assert not table.clock().expired  # the next move's time starts from the last move


def test_without_a_time_per_move_there_is_no_clock_to_restart() -> None:
    table = online_table()
    table.deal(random_deck(random.Random(4)))
    later(table, 10**6)
    assert table.clock().deadline is None and not table.clock().expired
    with pytest.raises(ConflictError) as error:
        online.restart_clock(table.b.state, MATCH, now=table.now, by="organiser")
    assert refusal(error) == ("T-clock", "online.no_clock")


def test_an_abandoned_hand_never_counts_and_the_same_dealer_deals_again_R18() -> None:
    table = dealt_table()
    abandoned = table.stream
    assert abandoned is not None
    dealer = table.fold(abandoned).dealer
    state = table.state
    assert state is not None
    table.move(state.to_act[0], state.legal_actions()[-1])
    from tournament.domain.commands.live import abandon_live_hand

    table.b.add(abandon_live_hand(table.b.state, abandoned, by="organiser", reason="time"))
    match = table.b.state.matches[MATCH]
    assert match.entries == [] and match.engine.current.scores == (7, 7)
    assert table.needs_deal()
    again = table.deal(random_deck(random.Random(5)))
    assert table.fold(again).dealer == dealer
    assert online.hand_number(table.b.state, MATCH, again) == 2
    with pytest.raises(ConflictError) as error:  # the abandoned hand takes no move
        online.check_move(
            table.b.state, MATCH, abandoned, table.fold(abandoned),
            table.fold(abandoned).legal_actions()[0], seat=table.fold(abandoned).to_act[0],
            expected_version=2, version=2, clock_now=online.Clock(None, None, False),
        )  # fmt: skip
    assert error.value.code == "online.not_current_hand"


def test_stopping_abandons_the_hand_and_paper_results_are_accepted_again() -> None:
    table = dealt_table()
    players = table.b.state.matches[MATCH].players
    dealer = table.b.state.matches[MATCH].engine.next_dealer
    assert dealer is not None
    with pytest.raises(ConflictError) as error:  # the table plays the match
        record_hand(table.b.state, MATCH, winner=players[0], game_points=1)
    assert refusal(error) == ("T-online", "results.match_played_online")
    with pytest.raises(ConflictError) as tally:
        record_tally(table.b.state, MATCH, {"columns": [[7, 4, 1, 0], [7]]})
    assert refusal(tally) == ("T-online", "results.match_played_online")
    with pytest.raises(DomainError) as why:
        online.stop_online(table.b.state, MATCH, by="organiser", reason=" ")
    assert why.value.code == "online.stop_says_who_why"
    table.b.add(online.stop_online(table.b.state, MATCH, by="organiser", reason="screens"))
    assert not table.needs_deal()
    table.b.add(
        record_hand(table.b.state, MATCH, winner=players[0], game_points=1, dealer=players[dealer])
    )
    assert table.b.state.matches[MATCH].engine.current.scores == (6, 7)
    state = table.fold(table.stream or "")
    with pytest.raises(ConflictError) as stopped:
        online.check_move(
            table.b.state, MATCH, table.stream or "", state, state.legal_actions()[0],
            seat=state.to_act[0], expected_version=1, version=1,
            clock_now=online.Clock(None, None, False),
        )  # fmt: skip
    assert stopped.value.code == "online.not_online"


def test_a_hand_in_play_when_the_match_is_decided_otherwise_is_played_no_further_R20() -> None:
    """A forfeit (or a withdrawal, or a correction) decides the match while a hand is in
    play: the hand never counts, no move is taken, nothing more is dealt."""
    table = dealt_table()
    stream, state = table.stream, table.state
    assert stream is not None and state is not None
    table.move(state.to_act[0], state.legal_actions()[-1])
    players = table.b.state.matches[MATCH].players
    table.b.add(record_forfeit(table.b.state, MATCH, winner=players[1]))
    state = table.state
    assert state is not None and table.b.state.matches[MATCH].decided
    with pytest.raises(ConflictError) as error:
        table.move(state.to_act[0], state.legal_actions()[-1])
    assert refusal(error) == ("R20", "live.match_decided_hand_played")
    assert online.halted(table.b.state, stream)
    # Halted, not over for good: its record (the deck) stays unserved, since striking
    # the forfeit would let the hand go on.
    assert not online.hand_final(table.b.state, stream, state)
    assert not table.needs_deal()
    moment = TableMoment(table.b.state, MATCH, stream, state, table.version, 1, table.clock())
    assert seat_view(moment, 0)["status"] == "over" == spectator_view(moment)["status"]
    assert seat_view(moment, state.to_act[0])["view"]["legal_actions"] == []
    assert table.clock().deadline is None


# --- the deck comes from a secure generator --------------------------------------------------


def test_deals_come_from_the_operating_system_s_secure_generator() -> None:
    """200 deals are all different, and none is what ``random.Random(seed)`` shuffles for a
    small seed (a deal that could be predicted from a seed could be cheated)."""
    table = online_table()
    decks = []
    for _ in range(200):  # deal_next without a deck, as the server deals
        _, dealt, _ = online.deal_next(table.b.state, MATCH, None)
        decks.append(tuple(dealt[0].payload["deck"]))
    assert len(set(decks)) == 200
    assert all(sorted(d) == sorted(decks[0]) and len(d) == 20 for d in decks)
    predictable = {tuple(random_deck(random.Random(seed))) for seed in range(10_000)}
    assert predictable.isdisjoint(decks)


# --- who decides and why: plain words, not too long (T-online, T-clock, T-live) ---------


def test_who_and_why_are_limited_and_refused_naming_the_field_nothing_stored() -> None:
    """The organiser's name (100 characters) and reason (500) are checked as every name
    is: too long or with a control character, the refusal names the field and the rule,
    and nothing is stored."""
    table = dealt_table()
    before = len(table.b.state.matches[MATCH].entries)
    long_name, long_reason = "A" * 101, "screen " * 80
    with pytest.raises(DomainError) as who:
        online.stop_online(table.b.state, MATCH, by=long_name, reason="screens")
    assert (who.value.field, refusal(who)) == ("by", ("T-online", "text.longer_characters"))
    with pytest.raises(DomainError) as why:
        online.stop_online(table.b.state, MATCH, by="organiser", reason=long_reason)
    assert (why.value.field, refusal(why)) == ("reason", ("T-online", "text.longer_characters"))
    with pytest.raises(DomainError) as clock:
        online.restart_clock(table.b.state, MATCH, now=table.now, by="x\x1b[2J")
    assert clock.value.field == "by" and clock.value.rule == "T-clock"
    stream = table.stream
    assert stream is not None
    with pytest.raises(DomainError) as live_why:
        abandon_live_hand(table.b.state, stream, by="organiser", reason=long_reason)
    assert (live_why.value.field, live_why.value.rule) == ("reason", "T-live")
    assert len(table.b.state.matches[MATCH].entries) == before
    assert online.current_hand(table.b.state, MATCH) == stream  # still in play


def test_abandoning_says_who_and_why_apart_without_command_line_flags_R18() -> None:
    table = dealt_table()
    stream = table.stream
    assert stream is not None
    with pytest.raises(DomainError) as who:
        abandon_live_hand(table.b.state, stream, by=" ", reason="a misdeal")
    assert (who.value.field, who.value.code) == ("by", "live.abandoning_says_who")
    with pytest.raises(DomainError) as why:
        abandon_live_hand(table.b.state, stream, by="organiser", reason="")
    assert (why.value.field, why.value.code) == ("reason", "live.abandoning_says_why")
    assert "--" not in who.value.message + why.value.message


def test_abandoning_a_recorded_hand_is_refused_in_words_for_people_R18() -> None:
    table = online_table()
    stream = play_random_hand(table, random.Random(3))
    with pytest.raises(DomainError) as error:
        abandon_live_hand(table.b.state, stream, by="organiser", reason="too late")
    table_no = table.b.state.matches[MATCH].table
    assert error.value.code == "live.live_hand_already_recorded"
    assert f"the hand of table {table_no} is already over and recorded" in error.value.message
    assert stream not in error.value.message


# --- seats and devices (T-online), the clock from the second join (T-clock) ---------------

PHONE_A, PHONE_B = "a" * 64, "b" * 64  # devices, as the hashes of their tokens


def test_the_first_device_takes_a_seat_and_another_is_refused_T_online() -> None:
    table = online_table(joined=False)
    t = table.b.state
    assert not online.seat_device_ok(t, MATCH, 0, PHONE_A)
    table.b.add(online.take_seat(t, MATCH, 0, PHONE_A, now=table.now))
    t = table.b.state
    assert online.seat_device_ok(t, MATCH, 0, PHONE_A)
    assert online.take_seat(t, MATCH, 0, PHONE_A, now=table.now) == []  # already its own
    with pytest.raises(ConflictError) as refused:
        online.take_seat(t, MATCH, 0, PHONE_B, now=table.now)
    assert refusal(refused) == ("T-online", "online.seat_taken")
    assert not online.seat_device_ok(t, MATCH, 0, PHONE_B)
    assert not online.seat_device_ok(t, MATCH, 0, None)
    assert online.joined(t, MATCH) == [True, False]


def test_a_released_seat_goes_to_the_next_device_and_the_clock_goes_on_T_online() -> None:
    table = online_table(move_seconds=30)
    table.deal(random_deck(random.Random(2)))
    deadline = table.clock().deadline
    assert deadline is not None
    with pytest.raises(DomainError) as nobody:
        online.release_seat(table.b.state, MATCH, 1, by=" ")
    assert refusal(nobody) == ("T-online", "online.release_says_who")
    table.b.add(online.release_seat(table.b.state, MATCH, 1, by="Eva"))
    t = table.b.state
    assert online.joined(t, MATCH) == [True, False]
    assert table.clock().deadline == deadline  # a released seat does not stop the clock
    with pytest.raises(ConflictError) as twice:
        online.release_seat(t, MATCH, 1, by="Eva")
    assert refusal(twice) == ("T-online", "online.seat_not_taken")
    table.b.add(online.take_seat(t, MATCH, 1, PHONE_B, now=table.now))
    assert online.seat_device_ok(table.b.state, MATCH, 1, PHONE_B)


def test_no_move_and_no_clock_until_both_seats_are_taken_T_clock() -> None:
    table = online_table(move_seconds=30, joined=False)
    table.deal(random_deck(random.Random(1)))
    state = table.state
    assert state is not None
    later(table, 3600)  # an hour after the deal, nobody there yet
    assert table.clock().deadline is None and not table.clock().expired
    moment = TableMoment(table.b.state, MATCH, table.stream, state, 1, 1, table.clock())
    assert seat_view(moment, state.to_act[0])["status"] == "joining"
    assert spectator_view(moment)["status"] == "joining"
    with pytest.raises(ConflictError) as empty_chair:
        table.move(state.to_act[0], state.legal_actions()[0])
    assert refusal(empty_chair) == ("T-online", "online.waiting_for_players")
    table.b.add(online.take_seat(table.b.state, MATCH, 0, PHONE_A, now=table.now))
    second = table.now + timedelta(seconds=5)
    table.b.add(online.take_seat(table.b.state, MATCH, 1, PHONE_B, now=second))
    assert table.clock().deadline == second + timedelta(seconds=30)  # from the second join

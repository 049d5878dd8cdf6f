"""The pure check behind ``results enter`` (and the web API): a hand or tally that is
exactly its match's last entry again is a repeat (T-repeat); anything else is not."""

from __future__ import annotations

import pytest

from tournament.domain.commands.corrections import correct_result
from tournament.domain.commands.repeats import check_not_repeated, repeated_entry
from tournament.domain.commands.results import record_forfeit, record_hand, record_tally
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError
from tournament.domain.model.state import Tournament, fold
from tournament.domain.testing import paired
from tournament.eventstore.api import NewEvent

TALLY = "7 5 4 1 0 / 7 6 3"


def after(*commands: object) -> tuple[list[NewEvent], Tournament]:
    """Round 1 of two players, best of 3, then each command's events in turn."""
    events = paired(players=2, best_of=3)
    for command in commands:
        events += command(fold(events))  # type: ignore[operator]
    return events, fold(events)


def test_the_same_hand_again_is_the_last_entry_repeated() -> None:
    _, t = after(lambda t: record_hand(t, "1.1", winner=1, game_points=2, reason="claim"))
    again = record_hand(t, "1.1", winner=1, game_points=2, reason="claim")
    match, entry = repeated_entry(t, again) or (None, None)
    assert match is t.matches["1.1"] and entry is t.matches["1.1"].entries[-1]


@pytest.mark.parametrize(
    "other",
    [
        {"winner": 2, "game_points": 2, "reason": "claim"},
        {"winner": 1, "game_points": 3, "reason": "claim"},
        {"winner": 1, "game_points": 2},
        {"winner": 1, "game_points": 2, "reason": "claim", "card_points": (66, 20)},
    ],
)
def test_a_hand_that_differs_in_anything_is_no_repeat(other: dict[str, object]) -> None:
    _, t = after(lambda t: record_hand(t, "1.1", winner=1, game_points=2, reason="claim"))
    assert repeated_entry(t, record_hand(t, "1.1", **other)) is None  # type: ignore[arg-type]


def test_only_the_last_entry_counts() -> None:
    _, t = after(
        lambda t: record_hand(t, "1.1", winner=1, game_points=2),
        lambda t: record_hand(t, "1.1", winner=2, game_points=1),
    )
    assert repeated_entry(t, record_hand(t, "1.1", winner=1, game_points=2)) is None


def test_the_same_tally_again_is_a_repeat_and_a_hand_after_a_tally_is_not() -> None:
    _, t = after(lambda t: record_tally(t, "1.1", TALLY))
    assert repeated_entry(t, record_tally(t, "1.1", TALLY)) is not None
    assert repeated_entry(t, record_hand(t, "1.1", winner=1, game_points=1)) is None


def test_a_voided_last_entry_is_nothing_to_repeat() -> None:
    events, t = after(lambda t: record_hand(t, "1.1", winner=1, game_points=2))
    rid = t.matches["1.1"].entries[-1].result_id
    events += correct_result(t, rid, None, by="referee", reason="wrong table")
    t = fold(events)
    assert repeated_entry(t, record_hand(t, "1.1", winner=1, game_points=2)) is None


def test_forfeits_and_other_events_are_never_repeats() -> None:
    _, t = after()
    assert repeated_entry(t, record_forfeit(t, "1.1", winner=1)) is None
    assert repeated_entry(t, [ev.make_event(ev.FLAG_CLEARED, {"match_id": "1.1"})]) is None


def test_the_refusal_names_the_earlier_result_where_it_fell_and_when() -> None:
    _, t = after(lambda t: record_hand(t, "1.1", winner=1, game_points=2))
    rid = t.matches["1.1"].entries[-1].result_id
    asked: list[str] = []

    def entered_when(result_id: str) -> str:
        asked.append(result_id)
        return "21:14"

    with pytest.raises(ConflictError) as refused:
        check_not_repeated(t, record_hand(t, "1.1", winner=1, game_points=2), entered_when)
    assert (refused.value.field, refused.value.rule) == ("result", "T-repeat")
    assert refused.value.message == (
        f"match 1.1: this hand is exactly the match's last entry, result {rid} (Bummerl 1 "
        "hand 1: Player 1 (1) wins 2), entered at 21:14; nothing stored; if it really is "
        "another hand with the same result, enter it with --again"
    )
    assert asked == [rid]  # the time is looked up only for a refusal
    check_not_repeated(t, record_hand(t, "1.1", winner=2, game_points=2), entered_when)
    assert asked == [rid]


def test_a_later_hand_of_a_sheet_that_reads_like_the_last_entry_is_no_repeat() -> None:
    from tournament.domain.commands.entry import Hand, record_hands

    _, t = after(lambda t: record_hand(t, "1.1", winner=1, game_points=2))
    sheet = record_hands(t, "1.1", [Hand(2, 1), Hand(1, 2)])
    assert repeated_entry(t, sheet) is None


def test_a_sheet_whose_first_hand_is_the_last_entry_again_is_a_repeat() -> None:
    from tournament.domain.commands.entry import Hand, record_hands

    _, t = after(lambda t: record_hand(t, "1.1", winner=1, game_points=2))
    assert repeated_entry(t, record_hands(t, "1.1", [Hand(1, 2), Hand(2, 1)])) is not None


def test_a_whole_sheet_sent_twice_is_a_repeat() -> None:
    from tournament.domain.commands.entry import Hand, record_hands

    hands = [Hand(1, 2), Hand(2, 1), Hand(1, 1)]
    _, t = after(lambda t: record_hands(t, "1.1", hands))
    match, entry = repeated_entry(t, record_hands(t, "1.1", hands)) or (None, None)
    assert match is t.matches["1.1"] and entry is t.matches["1.1"].entries[-1]

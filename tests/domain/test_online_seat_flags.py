"""Seats taken in a way that proves no second person, flagged for the organiser (T-online).

One device is refused the table's other seat; what the service cannot refuse it flags, as
a paper report's confirmation from the reporting phone is flagged (O-M2, the same origin:
the device's hash and a keyed hash of the address): both seats taken from one address (a
private tab or a second browser on one phone, or two phones on one Wi-Fi), and a seat
taken again after the organiser released it during a hand in play (its new device saw
that hand). Old events without an origin fold as before and flag nothing."""

from __future__ import annotations

import random

from engine.randomplay import random_deck
from tests.domain.online_table import Table
from tests.domain.test_online import MATCH, online_table
from tournament.domain.commands import online
from tournament.domain.model import events as ev
from tournament.domain.model.parts import SeatFlag
from tournament.domain.views.onlineview import TableMoment, seat_view

PHONE_A, PHONE_B, PHONE_C = "a" * 64, "b" * 64, "c" * 64
HOME, CLUB_WIFI = "1111111111111111", "2222222222222222"  # keyed hashes of two addresses


def take(table: Table, seat: int, device: str, address: str | None) -> dict[str, object]:
    """``device`` takes ``seat`` from ``address``: the event's payload."""
    origin = {"device": device, **({"address": address} if address else {})}
    events = online.take_seat(table.b.state, MATCH, seat, device, now=table.now, origin=origin)
    table.b.add(events)
    assert [e.type for e in events] == [ev.ONLINE_SEAT_TAKEN]
    return dict(events[0].payload)


def seat_moment(table: Table) -> TableMoment:
    state = table.state
    assert state is not None
    return TableMoment(table.b.state, MATCH, table.stream, state, 1, 1, table.clock())


def test_both_seats_taken_from_one_address_are_flagged_not_refused_P1() -> None:
    table = online_table(joined=False)
    first = take(table, 0, PHONE_A, HOME)
    assert first["origin"] == {"device": PHONE_A, "address": HOME} and "flags" not in first
    second = take(table, 1, PHONE_B, HOME)  # a private tab: a fresh cookie, the same address
    assert second["flags"] == [online.BOTH_SEATS_SAME_ADDRESS]
    assert online.joined(table.b.state, MATCH) == [True, True]  # flagged, not refused
    assert online.seat_flags(table.b.state, MATCH) == [SeatFlag(1, online.BOTH_SEATS_SAME_ADDRESS)]


def test_seats_taken_from_two_addresses_are_not_flagged() -> None:
    table = online_table(joined=False)
    take(table, 0, PHONE_A, HOME)
    assert "flags" not in take(table, 1, PHONE_B, CLUB_WIFI)
    assert online.seat_flags(table.b.state, MATCH) == []


def test_a_released_seat_is_compared_with_its_new_origin_not_the_old_one() -> None:
    table = online_table(joined=False)
    take(table, 0, PHONE_A, HOME)
    take(table, 1, PHONE_B, CLUB_WIFI)
    table.b.add(online.release_seat(table.b.state, MATCH, 0, by="Eva"))  # before any deal
    assert "flags" not in take(table, 0, PHONE_C, HOME)  # the seat's own phone, back again
    assert take_after_release_from(table, seat=0, address=CLUB_WIFI) == [
        online.BOTH_SEATS_SAME_ADDRESS
    ]


def take_after_release_from(table: Table, *, seat: int, address: str) -> object:
    table.b.add(online.release_seat(table.b.state, MATCH, seat, by="Eva"))
    return take(table, seat, "d" * 64, address).get("flags")


def test_seat_events_without_an_origin_still_fold_and_flag_nothing() -> None:
    """Events stored before origins were kept (and the command line's joins) fold as
    before: the seats are held, and nothing is compared."""
    table = online_table(joined=False)
    for seat, device in ((0, PHONE_A), (1, PHONE_B)):
        payload = {"match_id": MATCH, "seat": seat, "device": device, "at": table.now.isoformat()}
        table.b.add([ev.make_event(ev.ONLINE_SEAT_TAKEN, payload, source=ev.LIVE)])
    t = table.b.state
    assert online.joined(t, MATCH) == [True, True] and t.online[MATCH].origins == {}
    assert online.seat_flags(t, MATCH) == []
    # the other seat's holder has no origin on record: nothing to compare, nothing flagged
    assert take_after_release_from(table, seat=1, address=HOME) is None


def test_a_seat_released_during_a_hand_and_taken_again_is_flagged_and_told_to_the_other_seat() -> (
    None
):
    """The next device to take a released seat sees that seat's hand in play: taken again,
    it is flagged with who released it, and the other seat is told so (T-online)."""
    table = online_table()
    table.deal(random_deck(random.Random(5)))
    released = online.release_seat(table.b.state, MATCH, 1, by="Organiser Eva")
    assert released[0].payload["in_hand"] == table.stream
    table.b.add(released)
    assert online.seat_flags(table.b.state, MATCH) == []  # released, not yet taken
    taken = take(table, 1, PHONE_C, CLUB_WIFI)
    assert taken["flags"] == [online.RETAKEN_IN_HAND]
    assert taken["released_by"] == "Organiser Eva"
    assert online.seat_flags(table.b.state, MATCH) == [
        SeatFlag(1, online.RETAKEN_IN_HAND, "Organiser Eva")
    ]
    moment = seat_moment(table)
    assert seat_view(moment, 0)["opponent_seat_released_by"] == ["Organiser Eva"]
    assert seat_view(moment, 1)["opponent_seat_released_by"] == []


def test_a_seat_released_between_hands_is_not_flagged_as_retaken() -> None:
    """Before the first deal no hand is in play: the new phone sees nothing of the old."""
    table = online_table()
    released = online.release_seat(table.b.state, MATCH, 1, by="Eva")
    assert "in_hand" not in released[0].payload
    table.b.add(released)
    assert "flags" not in take(table, 1, PHONE_C, CLUB_WIFI)
    assert online.seat_flags(table.b.state, MATCH) == []

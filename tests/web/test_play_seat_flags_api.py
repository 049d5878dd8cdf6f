"""Seat flags through the JSON API (T-online), on SQLite and PostgreSQL: an API client
names its device with its Seat-Token, and its address is kept as a report's is. Both seats
taken from one address are flagged in the organiser's ``seat_flags`` (not refused); a seat
released during a hand and taken again is flagged, and the other seat's view says who
released it (``opponent_seat_released_by``)."""

from __future__ import annotations

import pytest

from tests.web.conftest import Web
from tests.web.test_play_api import Table


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request: pytest.FixtureRequest) -> Web:
    found: Web = request.getfixturevalue("web" if request.param == "sqlite" else "web_pg")
    return found


def at(address: str) -> dict[str, dict[str, str]]:
    return {"environ_base": {"REMOTE_ADDR": address}}


def test_two_clients_at_one_address_take_both_seats_flagged_for_the_organiser(app: Web) -> None:
    table = Table(app)  # the test client: both seats from one address (127.0.0.1)
    status = app.ok("GET", f"{table.base}/online")
    assert status["joined"] == [True, True]
    assert status["seat_flags"] == [{"seat": 1, "flag": "seats_same_address", "released_by": None}]


def test_clients_at_two_addresses_are_not_flagged(app: Web) -> None:
    table = Table(app, join=False)
    for seat, address in ((0, "10.0.0.7"), (1, "10.0.0.8")):
        app.ok("POST", f"/api/v1/play/{table.codes[seat]}/seat", {}, token=None, **at(address))
    assert app.ok("GET", f"{table.base}/online")["seat_flags"] == []


def test_a_seat_released_in_a_hand_and_taken_again_is_flagged_and_the_other_seat_told(
    app: Web,
) -> None:
    table = Table(app, join=False)
    tokens = [
        app.ok("POST", f"/api/v1/play/{table.codes[s]}/seat", {}, token=None, **at(a))[
            "device_token"
        ]
        for s, a in ((0, "10.0.0.7"), (1, "10.0.0.8"))
    ]
    table.tokens = tokens
    assert table.view(0)["opponent_seat_released_by"] == []
    app.ok("POST", f"{table.base}/online/release", {"seat": 1, "by": "Organiser Eva"})
    taken = app.ok("POST", f"/api/v1/play/{table.codes[1]}/seat", {}, token=None, **at("10.0.0.9"))
    assert taken["view"]["hand"]  # the new device sees the seat's hand: hence the flag
    flags = app.ok("GET", f"{table.base}/online")["seat_flags"]
    assert flags == [{"seat": 1, "flag": "seat_retaken_in_hand", "released_by": "Organiser Eva"}]
    assert table.view(0)["opponent_seat_released_by"] == ["Organiser Eva"]

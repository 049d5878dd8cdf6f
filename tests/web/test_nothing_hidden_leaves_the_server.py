"""Nothing hidden leaves the server (F2, F9; rules.md "What a player may see" and "What
the room may see", T-watch): random online matches are played through the real service
-- the seats' own routes, random legal moves, marriages, exchanges, closes, claims true
and false, "no claim" after the last trick -- and at every state every read route is
asked and its answer checked against what its reader may see at that state:

- the room (no account): the table's JSON, page, projector page and both streams, its
  hands list, the tournament's public pages (its page, pairings, a player's page, the
  rotating projector and its screens): only what both players at the table may see
  (the turn-up, the card led, the last trick while it lies open, declared marriages),
  every trick only once the hand is over; the hand in play's replay and record: 409;
- each seat: that and its own view (its hand, its pile as the variant lets it); the
  OTHER seat's code with this seat's token is 409 without a card;
- the organiser: the export holds the hand in play only withheld, the events API, the
  audit page and the desk's online page hold no card at all.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import HandState
from engine.views import player_view, table_view
from tests.pages.table_cards import cards_in
from tests.web.conftest import Web
from tests.web.test_play_api import Table
from tests.web.test_sign_in import sign_in
from tournament.app.services import services
from tournament.web import tablecodes

#: What a player may look at in its own pile (rules.md, "What a player may see").
VARIANTS: tuple[tuple[str, ...], ...] = ((), ("own-tricks-hidden",), ("first-tricks-visible",))
_ids = itertools.count(1)


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Web:
    found: Web = request.getfixturevalue("web" if request.param == "sqlite" else "web_pg")
    found.app.config["LIVE_KEEPALIVE"] = 0.2
    # Each example makes a tournament: its codes are known at once, not a while later.
    monkeypatch.setattr(tablecodes, "TOURNAMENTS_FRESH", -1.0)
    return found


def first_message(client: Any, path: str, headers: dict[str, str] | None = None) -> str:
    """The first data message of a live stream (what a screen gets on connecting)."""
    reply = client.get(path, headers=headers or {}, buffered=False)
    assert reply.status_code == 200, (path, reply.status_code)
    buffer = ""
    try:
        for chunk in reply.response:
            buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
            while "\n\n" in buffer:
                message, buffer = buffer.split("\n\n", 1)
                data = [line[6:] for line in message.split("\n") if line.startswith("data: ")]
                if data:
                    return "\n".join(data)
    finally:
        reply.close()
    raise AssertionError(f"{path}: the stream ended without a message")


def room_may_see(state: HandState) -> set[str]:
    """What both players at the table may see (engine.views.table_view: the turn-up, the
    card led, the last trick while it lies open, declared marriages), every trick once
    the hand is over and nobody may act on it."""
    seen = cards_in(json.dumps(table_view(state).to_json()))
    if not state.to_act:
        seen |= {c.code for t in state.tricks for c in (t.lead, t.reply)}
    return seen


def seat_may_see(state: HandState, seat: int) -> set[str]:
    return room_may_see(state) | cards_in(json.dumps(player_view(state, seat).to_json()))


class Readers:
    """Every read route of one online table, by reader."""

    def __init__(self, table: Table) -> None:
        self.table = table
        web = table.web
        self.room = web.app.test_client()  # no account, no seat
        desk = Web(web.app)
        web.admin()
        assert sign_in(desk) == 303
        self.desk = desk.client
        tid, mid = table.tid, table.mid
        self.room_routes = [
            f"/api/v1/tournaments/{tid}/matches/{mid}/table",
            f"/t/{tid}/matches/{mid}/table?lang=en",
            f"/t/{tid}/matches/{mid}/table?lang=de",
            f"/t/{tid}/matches/{mid}/table/projector?lang=de",
            f"/t/{tid}?lang=en",
            f"/t/{tid}/pairings?lang=de",
            f"/t/{tid}/players/1?lang=en",
            f"/t/{tid}/projector?lang=de",
            f"/t/{tid}/projector/screens?lang=de",
            f"/api/v1/tournaments/{tid}/matches/{mid}/hands",
        ]
        self.room_streams = [
            f"/api/v1/tournaments/{tid}/matches/{mid}/table/live",
            f"/t/{tid}/matches/{mid}/table/events?lang=en",
        ]

    def room_answers(self) -> Iterator[tuple[str, str]]:
        for path in self.room_routes:
            reply = self.room.get(path)
            assert reply.status_code == 200, (path, reply.status_code)
            yield path, reply.get_data(as_text=True)
        for path in self.room_streams:
            yield path, first_message(self.room, path)

    def seat_answers(self, seat: int) -> Iterator[tuple[str, str]]:
        t = self.table
        own = f"/api/v1/play/{t.codes[seat]}"
        yield own, json.dumps(t.view(seat))
        yield own + "/live", first_message(t.web.client, own + "/live", t.device(seat))

    def organiser_answers(self) -> Iterator[tuple[str, str]]:
        tid = self.table.tid
        yield "events", json.dumps(self.table.web.ok("GET", f"/api/v1/tournaments/{tid}/events"))
        for path in (f"/desk/t/{tid}/audit", f"/desk/t/{tid}/online"):
            reply = self.desk.get(path)
            assert reply.status_code == 200, (path, reply.status_code)
            yield path, reply.get_data(as_text=True)


def check_every_reader(readers: Readers) -> None:
    """Every reader at this state of the table."""
    table = readers.table
    hand = table.hand()
    stream = table.stream_id()
    for path, text in readers.room_answers():
        leaked = cards_in(text) - room_may_see(hand)
        assert not leaked, f"the room got {sorted(leaked)} from {path}"
    if hand.to_act:  # in play: its replay and record are refused, without a card
        number = table.view(0)["hand_number"]
        tid, mid = table.tid, table.mid
        for path in (f"/t/{tid}/matches/{mid}/hands/{number}?lang=en",
                     f"/api/v1/tournaments/{tid}/matches/{mid}/hands/{number}/record"):  # fmt: skip
            refused = readers.room.get(path)
            assert refused.status_code == 409, (path, refused.status_code)
            assert not cards_in(refused.get_data(as_text=True)), path
    for seat in (0, 1):
        for path, text in readers.seat_answers(seat):
            leaked = cards_in(text) - seat_may_see(hand, seat)
            assert not leaked, f"seat {seat} got {sorted(leaked)} from {path}"
        other = table.codes[1 - seat]
        refused = table.web.get(f"/api/v1/play/{other}", token=None, headers=table.device(seat))
        assert refused.status_code == 409 and not cards_in(refused.get_data(as_text=True))
    for path, text in readers.organiser_answers():
        assert not cards_in(text), f"the organiser's {path} holds {sorted(cards_in(text))}"
    backup = [json.loads(line) for line in table.web.get(
        f"/api/v1/tournaments/{table.tid}/export").get_data().splitlines()]  # fmt: skip
    if hand.to_act:  # in play: the hand's events only withheld, no card of it
        lines = [line for line in backup if line.get("stream_id") == stream]
        assert lines and all(set(line["payload"]) == {"withheld"} for line in lines)
        assert not cards_in(json.dumps(lines))


def play_at_random(table: Table, rng: random.Random, moves: int) -> Iterator[bool]:
    """Up to ``moves`` random legal moves by the seat that may act, from its own code:
    any legal action (a close, an exchange, a marriage, a claim true or false), and in
    the R16 window a claim or "no claim"; yields after each whether the match is over."""
    for _ in range(moves):
        views = [table.view(seat) for seat in (0, 1)]
        acting = [v for v in views if v["status"] in ("turn", "claim", "wait") and v["view"]
                  and v["view"]["legal_actions"]]  # fmt: skip
        if not acting:
            return
        view = rng.choice(acting)
        seat = view["seat"]
        if view["status"] == "claim" and rng.random() < 0.5:
            reply = table.web.post(
                f"/api/v1/play/{table.codes[seat]}/no-claim", {"version": view["version"]},
                token=None, headers=table.device(seat),
            )  # fmt: skip
        else:
            action = rng.choice(view["view"]["legal_actions"])
            body = {k: v for k, v in action.items() if k != "seat"}
            reply = table.move(seat, body, view["version"])
        assert reply.status_code == 200, reply.get_data(as_text=True)
        over = reply.get_json()["status"] == "over"
        yield over
        if over:
            return


@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    moves=st.integers(3, 24),
    variants=st.sampled_from(VARIANTS),
)
def test_no_hidden_card_reaches_anyone_but_its_holder_on_any_read_route(
    app: Web, seed: int, moves: int, variants: tuple[str, ...]
) -> None:
    rng = random.Random(seed)
    table = Table(app, tid=f"t{next(_ids)}", variants=variants)
    readers = Readers(table)
    check_every_reader(readers)
    for _ in play_at_random(table, rng, moves):
        check_every_reader(readers)
    with app.app.app_context():
        assert services().store.stream_version(table.stream_id()) >= 1

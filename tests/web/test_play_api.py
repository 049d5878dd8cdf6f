"""Online play through the JSON API (T-online, T-code, T-clock): two seats by their table
codes play whole hands choosing legal actions; a double click makes one move; refused
moves name their rule and store nothing; a seat never sees a hidden card; a hand's record
is served only once the hand is over for good; the streams wake the other screen; the
organiser's routes need the organiser."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from engine.cards import ALL_CARDS
from engine.hand import HandState
from engine.record import GameRecord
from engine.views import player_view, table_view
from tests.web.conftest import Web, make_web
from tests.web.played import register, run, state
from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain.commands.reports import revoke_codes
from tournament.domain.commands.rounds import start_round
from tournament.domain.commands.tablecodes import match_codes
from tournament.domain.model.hands import fold_hand
from tournament.web.live import KEY as LIVE
from tournament.web.live import play_service

SECRET = b"test-secret"
PLAYERS = (("Anna Huber", "W"), ("Bernd Maier", ""), ("Carla Gruber", "W"), ("Dieter Wagner", ""))


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request: pytest.FixtureRequest) -> Web:
    found: Web = request.getfixturevalue("web" if request.param == "sqlite" else "web_pg")
    found.app.config["LIVE_KEEPALIVE"] = 0.2  # a quiet stream says so often: tests end soon
    return found


class Table:
    """One online match of a tournament of four in round 1, and its two codes."""

    def __init__(
        self,
        web: Web,
        tid: str = "club",
        move_seconds: int | None = None,
        join: bool = True,
        variants: tuple[str, ...] = (),
    ) -> None:
        web.tournament(
            tid, format="swiss", best_of=1, options={"rounds": 3}, variants=list(variants)
        )
        register(web, tid, PLAYERS)
        run(web, tid, lambda t: start_round(t))
        t = state(web, tid)
        self.web, self.tid = web, tid
        self.mid = t.rounds[-1].matches[0]
        self.codes = match_codes(SECRET, t, t.matches[self.mid])
        self.base = f"/api/v1/tournaments/{tid}/matches/{self.mid}"
        self.started = web.ok("POST", f"{self.base}/online", {"move_seconds": move_seconds})
        # Each player takes their seat on their own phone: the POST takes the seat and
        # gives the device its token (T-online).
        self.tokens = [self.join(seat) for seat in (0, 1)] if join else []

    def join(self, seat: int, headers: dict[str, str] | None = None) -> str:
        taken = self.web.ok(
            "POST", f"/api/v1/play/{self.codes[seat]}/seat", {}, token=None, headers=headers
        )
        token: str = taken["device_token"]
        return token

    def device(self, seat: int) -> dict[str, str]:
        """The header the seat's device sends on every call."""
        return {"Seat-Token": self.tokens[seat]}

    def view(self, seat: int) -> dict[str, Any]:
        found: dict[str, Any] = self.web.ok(
            "GET", f"/api/v1/play/{self.codes[seat]}", token=None, headers=self.device(seat)
        )
        assert "device_token" not in found  # only the answer that took the seat has it
        return found

    def move(self, seat: int, action: Any, version: int) -> Any:
        body = {"action": action, "version": version}
        return self.web.post(
            f"/api/v1/play/{self.codes[seat]}/actions", body, token=None, headers=self.device(seat)
        )

    def stream_id(self) -> str:
        return state(self.web, self.tid).online[self.mid].hands[-1]

    def events(self) -> list[Any]:
        with self.web.app.app_context():
            return services().store.read_stream(self.stream_id())

    def hand(self) -> HandState:
        return fold_hand(self.events())

    def seat_to_act(self) -> int:
        return next(s for s in (0, 1) if self.view(s)["status"] in ("turn", "claim"))


def played_cards(hand: HandState) -> set[str]:
    cards = {c.code for t in hand.tricks for c in (t.lead, t.reply)}
    if hand.lead_card is not None:
        cards.add(hand.lead_card.code)
    return cards


def hidden_from(hand: HandState, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: the room) may not see: the deck less its own hand, the
    cards played, the turn-up and a declared marriage's shown card."""
    table = table_view(hand)
    seen = played_cards(hand)
    if seat is not None:
        seen |= {c.code for c in player_view(hand, seat).hand}
    if table.turnup is not None:
        seen.add(table.turnup.code)
    seen |= {m.shown.code for m in table.marriages if m.shown is not None}
    return {c.code for c in ALL_CARDS} - seen


def assert_shows_nothing_hidden(body: dict[str, Any], hand: HandState, seat: int | None) -> None:
    text = json.dumps(body)
    shown = sorted(c for c in hidden_from(hand, seat) if f'"{c}"' in text)
    assert not shown, f"seat {seat} sees hidden cards {shown}"


def play_hand(table: Table, check: bool = True) -> None:
    """Both seats play the current hand out from their codes: each plays its first legal
    card (never closing or claiming early), and the last trick's winner claims nothing
    (R16); every view on the way is checked for hidden cards."""
    number = table.view(0)["hand_number"]
    for _ in range(40):
        seat = table.seat_to_act()
        view = table.view(seat)
        if check:
            hand = table.hand()
            assert_shows_nothing_hidden(view, hand, seat)
            assert_shows_nothing_hidden(table.view(1 - seat), hand, 1 - seat)
            assert table.codes[1 - seat] not in json.dumps(view)
        if view["status"] == "claim":
            path = f"/api/v1/play/{table.codes[seat]}/no-claim"
            after = table.web.ok(
                "POST", path, {"version": view["version"]}, token=None, headers=table.device(seat)
            )
        else:
            legal = view["view"]["legal_actions"]
            action = next((a for a in legal if a["action"] == "play"), legal[0])
            reply = table.move(
                seat, {k: v for k, v in action.items() if k != "seat"}, view["version"]
            )
            assert reply.status_code == 200, reply.get_json()
            after = reply.get_json()
        if after["hand_number"] != number or after["status"] == "over":
            return
    raise AssertionError("the hand did not end within 40 moves")


def test_both_seats_play_a_whole_hand_from_their_codes_and_the_next_is_dealt(app: Web) -> None:
    table = Table(app)
    first = table.view(0)
    assert first["hand_number"] == 1 and first["seat"] == 0
    assert len(first["view"]["hand"]) == 5  # R2: five cards each
    assert table.started["view"] is not None and "hand" not in table.started["view"]
    play_hand(table)
    hands = app.ok("GET", f"{table.base}/hands", token=None)
    assert hands[0]["number"] == 1 and hands[0]["final"] and not hands[0]["abandoned"]
    assert hands[0]["outcome"]["complete"] is True
    match = state(app, table.tid).matches[table.mid]
    assert len(match.entries) == 1  # the hand's result went into the match as a result
    if not match.decided:
        assert hands[1]["outcome"] is None and not hands[1]["final"]
        assert table.view(1)["hand_number"] == 2


def test_a_double_click_makes_one_move_the_second_is_409(app: Web) -> None:
    table = Table(app)
    seat = table.seat_to_act()
    view = table.view(seat)
    action = view["view"]["legal_actions"][0]
    before = len(table.events())
    assert table.move(seat, action, view["version"]).status_code == 200
    again = table.move(seat, action, view["version"])
    assert again.status_code == 409
    problem = again.get_json()
    assert problem["code"] == "online.table_moved_on" and problem["rule"] == "T-online"
    assert again.mimetype == "application/problem+json"
    assert len(table.events()) == before + 1  # one move stored, not two


def test_out_of_turn_and_illegal_moves_are_refused_with_their_rule_and_store_nothing(
    app: Web,
) -> None:
    table = Table(app)
    seat = table.seat_to_act()
    version = table.view(seat)["version"]
    before = len(table.events())
    # The seat not to act plays a card of its own hand: not its turn.
    waiting = table.view(1 - seat)
    assert waiting["status"] == "wait" and waiting["view"]["legal_actions"] == []
    late = table.move(1 - seat, waiting["view"]["hand"][0], version)
    assert late.status_code == 422, late.get_json()
    assert late.get_json()["code"] == "online.engine_refused"
    assert late.get_json()["rule"].startswith("R")
    # The seat to act plays a card it does not hold (R0: one's own cards only).
    other = waiting["view"]["hand"][0]
    wrong = table.move(seat, {"action": "play", "card": other}, version)
    assert wrong.status_code == 422 and wrong.get_json()["rule"].startswith("R")
    # An action for the other seat: R0.
    theirs = table.move(seat, {"seat": 1 - seat, "action": "play", "card": other}, version)
    assert theirs.status_code == 422
    assert (theirs.get_json()["code"], theirs.get_json()["rule"]) == ("online.not_your_seat", "R0")
    # Nonsense, and a body that is no move at all.
    assert table.move(seat, "not a card", version).status_code == 422
    bad = app.post(
        f"/api/v1/play/{table.codes[seat]}/actions", {"version": "x"}, token=None,
        headers=table.device(seat),
    )  # fmt: skip
    assert bad.status_code == 422 and bad.get_json()["field"].startswith("body")
    assert len(table.events()) == before  # nothing stored by any of them


def test_a_code_opens_only_its_own_seat_of_an_online_table(app: Web) -> None:
    table = Table(app)
    unknown = app.get("/api/v1/play/ACDEFH", token=None)
    assert unknown.status_code == 404 and unknown.get_json()["rule"] == "T-code"
    # A match of the round not played online.
    t = state(app, table.tid)
    other = t.rounds[-1].matches[1]
    code = match_codes(SECRET, t, t.matches[other])[0]
    paper = app.get(f"/api/v1/play/{code}", token=None)
    assert paper.status_code == 404 and paper.get_json()["code"] == "online.not_online"
    room = app.get(f"/api/v1/tournaments/{table.tid}/matches/{other}/table", token=None)
    assert room.status_code == 404 and room.get_json()["rule"] == "T-online"
    # Revoked codes (T-code) are refused; the new ones open the seat.
    run(app, table.tid, lambda t: revoke_codes(t, match_id=table.mid))
    revoked = app.get(f"/api/v1/play/{table.codes[0]}", token=None)
    assert revoked.status_code == 409 and revoked.get_json()["code"] == "tablecodes.revoked"
    t = state(app, table.tid)
    fresh = match_codes(SECRET, t, t.matches[table.mid])
    # The seat stays with its device (T-online): a new code is the same seat.
    again = app.ok("GET", f"/api/v1/play/{fresh[1]}", token=None, headers=table.device(1))
    assert again["seat"] == 1


def test_the_room_sees_the_table_without_any_hand_or_the_talon(app: Web) -> None:
    table = Table(app)
    for _ in range(3):
        seat = table.seat_to_act()
        view = table.view(seat)
        action = next(a for a in view["view"]["legal_actions"] if a["action"] == "play")
        assert table.move(seat, action, view["version"]).status_code == 200
        room = app.ok("GET", f"{table.base}/table", token=None)
        assert "hand" not in room["view"] and "legal_actions" not in room["view"]
        assert "seat" not in room
        assert_shows_nothing_hidden(room, table.hand(), None)
        assert not any(code in json.dumps(room) for code in table.codes)
        # While the hand is played no won trick but the last (T-watch), no points.
        assert room["view"]["tricks"] == [] and room["view"]["points"] is None
        assert room["view"]["tricks_shown"] is False
    assert room["view"]["tricks_won"] != [0, 0]


def test_a_hands_record_is_refused_while_it_runs_and_replays_to_its_outcome_after(
    app: Web,
) -> None:
    table = Table(app)
    early = app.get(f"{table.base}/hands/1/record", token=None)
    assert early.status_code == 409 and early.get_json()["rule"] == "T-online"
    assert '"deck"' not in early.get_data(as_text=True)
    assert app.get(f"{table.base}/hands/9/record", token=None).status_code == 404
    play_hand(table, check=False)
    reply = app.get(f"{table.base}/hands/1/record", token=None)
    assert reply.status_code == 200
    assert reply.headers["Content-Disposition"].startswith("attachment; filename=")
    assert reply.headers["Content-Disposition"].endswith('.json"')
    data = reply.get_json()
    assert data["format"] == "schnapsen-record/1"
    record = GameRecord.from_json(data)
    outcome = app.ok("GET", f"{table.base}/hands", token=None)[0]["outcome"]
    assert record.outcome().to_json() == outcome
    with app.app.app_context():
        first = services().store.read_stream(state(app, table.tid).online[table.mid].hands[0])
    assert data["deck"] == first[0].payload["deck"]  # the deck as dealt, from the store


class Client:
    """A screen reading an SSE response in a thread of its own (the whole response lives
    there, as under a real server): each message into ``got`` until ``stop``."""

    def __init__(self, web: Web, path: str, headers: dict[str, str] | None = None) -> None:
        self.web, self.path, self.headers = web, path, headers or {}
        self.got: queue.Queue[str] = queue.Queue()
        self.status: queue.Queue[tuple[int, str]] = queue.Queue()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        self.code, self.mimetype = self.status.get(timeout=10)

    def _read(self) -> None:
        client = self.web.app.test_client()
        response = client.get(self.path, buffered=False, headers=self.headers)
        self.status.put((response.status_code, response.mimetype))
        try:
            for chunk in response.response:
                self.got.put(chunk.decode() if isinstance(chunk, bytes) else chunk)
                if self.stop.is_set():
                    break
        finally:
            response.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        assert not self.thread.is_alive()


def table_events_of(into: queue.Queue[str], timeout: float) -> Iterator[dict[str, Any]]:
    while True:
        try:
            text = into.get(timeout=timeout)
        except queue.Empty:
            return
        if text.startswith("event: table"):
            data = "".join(
                line[len("data: ") :] for line in text.splitlines() if line.startswith("data: ")
            )
            yield json.loads(data)


def test_the_opponents_stream_gets_a_new_table_event_after_a_move(app: Web) -> None:
    table = Table(app)
    seat = table.seat_to_act()
    screen = Client(app, f"/api/v1/play/{table.codes[1 - seat]}/live", table.device(1 - seat))
    assert screen.code == 200 and screen.mimetype == "text/event-stream"
    try:
        events = table_events_of(screen.got, timeout=5)
        first = next(events)
        assert first["seat"] == 1 - seat and first["status"] == "wait"
        view = table.view(seat)
        action = next(a for a in view["view"]["legal_actions"] if a["action"] == "play")
        assert table.move(seat, action, view["version"]).status_code == 200
        after = next(events)
        assert after["version"] == view["version"] + 1
        assert after["view"]["table"]["lead"] == action["card"]  # the card led, shown
        assert_shows_nothing_hidden(after, table.hand(), 1 - seat)
    finally:
        screen.close()


def test_the_rooms_stream_and_the_cap_of_streams(app: Web) -> None:
    table = Table(app)
    hub = app.app.extensions[LIVE].hub
    cap = hub.cap
    hub.cap = hub.streams  # full
    try:
        full = app.client.get(f"{table.base}/table/live")
        assert full.status_code == 503 and int(full.headers["Retry-After"]) > 0
        live = app.client.get(f"/api/v1/play/{table.codes[0]}/live", headers=table.device(0))
        assert live.status_code == 503
    finally:
        hub.cap = cap
    screen = Client(app, f"{table.base}/table/live")
    try:
        first = next(table_events_of(screen.got, timeout=5))
        assert "hand" not in first["view"] and first["hand_number"] == 1
        assert hub.streams == 1  # the stream holds a place under the cap
    finally:
        screen.close()
    assert hub.streams == 0


def test_the_organisers_routes_need_the_organiser(app: Web) -> None:
    table = Table(app)
    scorer = app.caller(Role.SCORER, table.tid)
    organiser = app.caller(Role.ORGANISER, table.tid)
    for method, path, body in [
        ("GET", f"{table.base}/online", None),
        ("POST", f"{table.base}/online/clock", {"by": "Eva"}),
        ("POST", f"{table.base}/online/abandon", {"by": "Eva", "reason": "screen broke"}),
        ("POST", f"{table.base}/online/stop", {"by": "Eva", "reason": "screen broke"}),
        ("POST", f"{table.base}/online/release", {"seat": 0, "by": "Eva"}),
    ]:
        assert app.call(method, path, body, token=None).status_code == 401, path
        assert app.call(method, path, body, token=scorer).status_code == 403, path
    status = app.ok("GET", f"{table.base}/online", token=organiser)
    assert status["hand_number"] == 1 and status["move_seconds"] is None
    assert not any(key in json.dumps(status) for key in ("deck", 'hand"', "legal_actions"))
    # No clock to restart without a time per move (T-clock).
    none = app.post(f"{table.base}/online/clock", {"by": "Eva"}, token=organiser)
    assert none.status_code == 409 and none.get_json()["code"] == "online.no_clock"


def test_an_abandoned_hand_never_counts_and_the_same_dealer_deals_again(app: Web) -> None:
    table = Table(app)
    dealer = table.view(0)["view"]["table"]["dealer"]
    abandoned = app.ok(
        "POST", f"{table.base}/online/abandon", {"by": "Eva", "reason": "screen broke"}
    )
    assert abandoned["hand_number"] == 2 and abandoned["hands"] == 2
    assert table.view(0)["view"]["table"]["dealer"] == dealer  # R18
    hands = app.ok("GET", f"{table.base}/hands", token=None)
    assert hands[0]["abandoned"] and hands[0]["final"] and hands[0]["outcome"] is None
    assert app.get(f"{table.base}/hands/1/record", token=None).status_code == 200
    assert not state(app, table.tid).matches[table.mid].entries
    stopped = app.ok("POST", f"{table.base}/online/stop", {"by": "Eva", "reason": "paper"})
    assert stopped["stopped"] and stopped["status"] == "stopped"
    view = table.view(0)
    assert view["status"] == "stopped" and view["view"]["legal_actions"] == []


def test_when_the_clock_runs_out_moves_are_refused_until_the_organiser_restarts_it(
    app: Web,
) -> None:
    table = Table(app, move_seconds=10)
    seat = table.seat_to_act()
    view = table.view(seat)
    assert view["clock"]["move_seconds"] == 10 and view["clock"]["deadline"]
    with app.app.app_context():
        play = play_service()
        real = play.now
        play.now = lambda: real() + timedelta(seconds=11)
    try:
        late = table.view(seat)
        assert late["status"] == "time" and late["view"]["legal_actions"] == []
        action = view["view"]["legal_actions"][0]
        refused = table.move(seat, action, view["version"])
        assert refused.status_code == 409
        assert (refused.get_json()["code"], refused.get_json()["rule"]) == (
            "online.time_ran_out", "T-clock"
        )  # fmt: skip
        restarted = app.ok("POST", f"{table.base}/online/clock", {"by": "Eva"})
        assert restarted["clock"]["expired"] is False
        assert table.move(seat, action, view["version"]).status_code == 200
    finally:
        play.now = real


def test_wrong_codes_are_rate_limited_then_every_code_is_refused(tmp_path: Path) -> None:
    """T-code: six letters cannot be guessed by trying; the limit is the report pages'
    (one per address over both)."""
    web = make_web(
        f"sqlite:///{tmp_path / 'limit.sqlite3'}", tmp_path, REPORT_CODE_RATE_LIMIT="3 per minute"
    )
    table = Table(web)
    assert table.view(0)["seat"] == 0  # a right code uses up nothing
    for _ in range(3):
        assert web.get("/api/v1/play/ACDEFH", token=None).status_code == 404
    over = web.get(f"/api/v1/play/{table.codes[0]}", token=None)
    assert over.status_code == 429 and over.mimetype == "application/problem+json"
    assert "wrong codes" in over.get_json()["detail"]
    move = table.move(0, "AH", 1)
    assert move.status_code == 429


# --- a seat is held by the first device that opens it (T-online) --------------------------


def test_the_opponent_with_the_code_is_refused_and_sees_no_card(app: Web) -> None:
    """The table card lies between the players: the other's code alone opens nothing."""
    table = Table(app)
    cards = set(table.view(0)["view"]["hand"])
    for headers in ({}, {"Seat-Token": table.tokens[1]}, {"Seat-Token": "guessed"}):
        path = f"/api/v1/play/{table.codes[0]}"
        for reply in (
            app.get(path, token=None, headers=headers),
            app.post(f"{path}/actions", {"action": "AH", "version": 1}, token=None,
                     headers=headers),
            app.post(f"{path}/no-claim", {"version": 1}, token=None, headers=headers),
            app.get(f"{path}/live", token=None, headers=headers),
        ):  # fmt: skip
            assert reply.status_code == 409, reply.get_data(as_text=True)
            problem = reply.get_json()
            assert (problem["code"], problem["rule"]) == ("online.seat_taken", "T-online")
            text = reply.get_data(as_text=True)
            assert not any(f'"{card}"' in text for card in cards)
    assert table.view(0)["view"]["hand"]  # the seat's own device still plays


def test_a_get_of_a_seat_nobody_holds_takes_nothing_and_names_the_post(app: Web) -> None:
    """AE-1: a GET changes nothing (a link preview, a prefetch, an old client's first
    call): 409 ``online.take_seat_first``, no card, no event; the POST takes the seat."""
    table = Table(app, join=False)
    t = state(app, table.tid)
    before = t.version
    reply = app.get(f"/api/v1/play/{table.codes[0]}", token=None)
    assert reply.status_code == 409, reply.get_data(as_text=True)
    problem = reply.get_json()
    assert (problem["code"], problem["rule"]) == ("online.take_seat_first", "T-online")
    assert "POST /api/v1/play/{code}/seat" in problem["detail"]
    assert '"hand"' not in reply.get_data(as_text=True)
    assert (
        state(app, table.tid).version == before
        and not state(app, table.tid).online[table.mid].devices
    )
    token = table.join(0)
    assert app.ok("POST", f"/api/v1/play/{table.codes[0]}/seat", {}, token=None,
                  headers={"Seat-Token": token})["device_token"] == token  # fmt: skip
    assert state(app, table.tid).version == before + 1, "taking it again changes nothing"


def test_one_client_is_refused_the_other_seat_when_it_sends_its_seat_token(app: Web) -> None:
    """P1: the client names its device with the Seat-Token of the seat it holds; the
    table's other seat is refused to it (409 ``online.both_seats``), nothing stored."""
    table = Table(app, join=False)
    mine = table.join(0)
    before = state(app, table.tid).version
    reply = app.post(
        f"/api/v1/play/{table.codes[1]}/seat", {}, token=None, headers={"Seat-Token": mine}
    )
    assert reply.status_code == 409, reply.get_data(as_text=True)
    problem = reply.get_json()
    assert (problem["code"], problem["rule"]) == ("online.both_seats", "T-online")
    assert '"hand"' not in reply.get_data(as_text=True)
    assert state(app, table.tid).version == before
    made_up = app.post(
        f"/api/v1/play/{table.codes[1]}/seat", {}, token=None, headers={"Seat-Token": "x"}
    )
    assert made_up.status_code == 422 and made_up.get_json()["field"] == "Seat-Token"
    table.tokens = [mine, table.join(1)]  # the opponent's own client
    assert table.view(1)["seat"] == 1


def test_a_seat_s_token_is_refused_the_room_view_of_its_own_table(app: Web) -> None:
    """The room's view shows more than a seat may see: refused to a caller sending the
    Seat-Token of a seat at the table (409 ``online.own_table``)."""
    table = Table(app)
    for path in (f"{table.base}/table", f"{table.base}/table/live"):
        reply = app.get(path, token=None, headers=table.device(0))
        assert reply.status_code == 409 and reply.get_json()["code"] == "online.own_table"
    assert app.ok("GET", f"{table.base}/table", token=None)["status"]


def test_the_organiser_releases_a_seat_and_the_next_device_takes_it(app: Web) -> None:
    table = Table(app)
    status = app.ok("GET", f"{table.base}/online")
    assert status["joined"] == [True, True]
    released = app.ok("POST", f"{table.base}/online/release", {"seat": 1, "by": "Eva"})
    assert released["joined"] == [True, False]
    again = app.post(f"{table.base}/online/release", {"seat": 1, "by": "Eva"})
    assert again.status_code == 409 and again.get_json()["code"] == "online.seat_not_taken"
    old = app.get(f"/api/v1/play/{table.codes[1]}/live", token=None, headers=table.device(1))
    assert old.status_code == 409  # the lost phone's token is worth nothing now
    new = table.join(1)  # the new phone takes the seat
    assert new != table.tokens[1]
    table.tokens[1] = new
    assert table.view(1)["seat"] == 1


def test_moves_wait_until_both_seats_are_taken_and_the_clock_with_them(app: Web) -> None:
    """T-online: nobody plays against an empty chair; T-clock: the clock of the first hand
    runs from the second join, not from the deal."""
    table = Table(app, move_seconds=30, join=False)
    table.tokens = [table.join(0)]
    view = table.view(0)
    assert view["status"] == "joining" and view["clock"]["deadline"] is None
    assert view["view"]["legal_actions"] == []
    room = app.ok("GET", f"{table.base}/table", token=None)
    assert room["status"] == "joining"
    before = len(table.events())
    move = table.move(0, view["view"]["hand"][0], view["version"])
    assert move.status_code == 409
    assert (move.get_json()["code"], move.get_json()["rule"]) == (
        "online.waiting_for_players",
        "T-online",
    )
    assert len(table.events()) == before
    table.tokens.append(table.join(1))
    seat = table.seat_to_act()
    started = table.view(seat)
    assert started["status"] == "turn" and started["clock"]["deadline"] is not None


def test_an_open_stream_of_a_released_seat_stops_showing_it_once_another_device_took_it(
    app: Web,
) -> None:
    table = Table(app)
    screen = Client(app, f"/api/v1/play/{table.codes[1]}/live", table.device(1))
    try:
        assert next(table_events_of(screen.got, timeout=5))["seat"] == 1
        app.ok("POST", f"{table.base}/online/release", {"seat": 1, "by": "Eva"})
        table.tokens[1] = table.join(1)  # the new phone
        deadline = time.monotonic() + 10
        seen = ""
        while "event: seat_taken" not in seen and time.monotonic() < deadline:
            try:
                seen += screen.got.get(timeout=1)
            except queue.Empty:
                continue
        assert "event: seat_taken" in seen
        after = seen.split("event: seat_taken", 1)[1]
        assert '"hand"' not in after and "online.seat_taken" in after
    finally:
        screen.close()


def test_the_code_index_works_the_codes_out_again_only_when_they_change(app: Web) -> None:
    """Speed P5: a seat taken or a move played moves the tournament's version but no
    code, so the index of codes is not worked out again (200 tables' seats taken one
    after the other made 400 HMACs each); a revocation changes them, and is seen."""
    from tournament.web.tablecodes import index

    table = Table(app)
    with app.app.test_request_context():
        assert index().tournament_of(table.codes[0]) == table.tid
        known = index()._codes[table.tid]
    seat = table.seat_to_act()
    view = table.view(seat)
    assert table.move(seat, view["view"]["legal_actions"][0], view["version"]).status_code == 200
    with app.app.test_request_context():
        assert index().tournament_of(table.codes[1]) == table.tid
        assert index()._codes[table.tid] is known  # the same codes, not worked out again
    run(app, table.tid, lambda t: revoke_codes(t, match_id=table.mid))
    with app.app.test_request_context():
        index().tournament_of(table.codes[0])  # still known: revoked, which resolve() tells
        assert index()._codes[table.tid] is not known
    refused = app.get(f"/api/v1/play/{table.codes[0]}", token=None, headers=table.device(0))
    assert refused.status_code in (404, 409)

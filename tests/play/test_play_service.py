"""Online tables at the edge (T-online, T-clock) on the real databases: moves through
:class:`PlayService` stored as ``hand.action`` events at the version the player saw, the
results in the match and its standings, wake-ups through the hub and Redis, and the SSE
loop that the pages and the API share.
"""

from __future__ import annotations

import functools
import json
import random
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engine import Kind
from engine.randomplay import choose_action
from engine.views import player_view
from tournament.app.play import PlayService
from tournament.app.service import TournamentService
from tournament.domain.commands import online
from tournament.domain.commands.registration import register_player
from tournament.domain.commands.results import record_forfeit, record_hand
from tournament.domain.commands.rounds import start_round
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.domain.model.hands import action_event
from tournament.domain.standings import standings
from tournament.domain.views.onlineview import TableMoment, seat_view, spectator_view
from tournament.eventstore import SQLEventStore
from tournament.live.bus import RedisSubscriber
from tournament.live.hub import LiveHub
from tournament.play.hub import CHANNEL, RedisAnnouncer, TableHub, table_key
from tournament.play.stream import table_events
from tournament.play.sweep import OnlineSweep

TID, MID = "cup", "1.1"
KEY = table_key(TID, MID)


class FakeClock:
    """The edge's ``now``, moved on by the test (the store's times stay real)."""

    def __init__(self) -> None:
        self.at = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.at

    def later(self, seconds: float) -> None:
        # From the real time if that is later: a deadline runs from the last move's stored
        # (real) time, and on a busy machine the moves before may take more than a second.
        self.at = max(self.at, datetime.now(UTC)) + timedelta(seconds=seconds)


def tournament(store: SQLEventStore, **settings: Any) -> TournamentService:
    service = TournamentService(store)
    service.create(TID, {"name": "Cup", "format": "swiss", "best_of": 3, "seed": 1, **settings})
    for name in ("Anna", "Berta"):
        service.execute(TID, functools.partial(register_player, name=name))
    service.execute(TID, start_round)
    return service


def online_table(
    store: SQLEventStore, *, move_seconds: int | None = None, joined: bool = True,
    **settings: Any,
) -> tuple[PlayService, list[str], FakeClock]:  # fmt: skip
    """A table started online; with ``joined`` both players opened their seats (T-online)."""
    announced: list[str] = []
    clock = FakeClock()
    play = PlayService(tournament(store, **settings), announce=announced.append, now=clock)
    play.start(TID, MID, move_seconds=move_seconds)
    if joined:
        for seat in (0, 1):
            play.join(TID, MID, seat, None)
        del announced[1:]  # (each join wakes the table's screens too)
    return play, announced, clock


def join_both(play: PlayService) -> None:
    """Both players open their seats (T-online): the table plays, the clock runs."""
    for seat in (0, 1):
        play.join(TID, MID, seat, None)


def one_move(play: PlayService, rng: random.Random) -> TableMoment:
    """A random legal move of whoever is to act; after the tenth trick its winner
    claims or declines (R16) at random."""
    moment = play.moment(TID, MID)
    state = moment.state
    assert state is not None
    legal = state.legal_actions()
    if state.is_over:  # the claim window (R16)
        (claim,) = legal
        if rng.random() < 0.5:
            return play.decline_claim(TID, MID, claim.seat, moment.version)
        return play.act(TID, MID, claim.seat, "claim", moment.version)
    action = choose_action(state, rng)
    return play.act(TID, MID, action.seat, action.to_json(), moment.version)


def hand_stream_length(play: PlayService, stream: str) -> int:
    return len(play.store.read_stream(stream))


def test_a_best_of_three_played_online_ends_decided_and_counts_in_the_standings(
    store: SQLEventStore,
) -> None:
    play, announced, _ = online_table(store)
    rng = random.Random(3)
    moves = 0
    # Until decided and its last hand over for good (a claim after the tenth trick may
    # still change that hand's result, R16).
    while not ((moment := play.moment(TID, MID)).match.decided and moment.final):
        one_move(play, rng)
        moves += 1
        assert announced[-1] == KEY  # every move wakes the table's screens
        assert len(announced) == moves + 1  # (one for the start)
    t = play.tournaments.state(TID)
    match = t.matches[MID]
    assert match.decided and match.winner is not None
    wins = match.engine.bummerl_wins
    assert max(wins) >= 2 > min(wins)  # R20: first to 2 of 3 (a Schneiderbummerl counts 2)
    assert seat_view(moment, 0)["status"] == "over" == spectator_view(moment)["status"]
    table = online.table_of(t, MID)
    counted = [s for s in table.hands if s in t.live_results]
    assert len(match.entries) == len(counted)
    # Every counted hand's result is the engine's outcome of its stream, in deal order.
    for stream, entry in zip(counted, match.entries, strict=True):
        outcome = play.hands.read(store, stream).state.outcome()
        assert entry.payload is not None
        assert entry.payload["winner"] == match.players[outcome.winner or 0]
        assert entry.payload["game_points"] == outcome.game_points
    rows = {row.player_id: row for row in standings(play.tournaments.state(TID))}
    winner, loser = match.winner, match.players[1 - match.players.index(match.winner)]
    assert rows[winner].wins == 1 and rows[loser].losses == 1
    assert rows[winner].rank == 1
    with pytest.raises(ConflictError):  # R20: nothing more is dealt or played
        play.act(TID, MID, 0, "claim", moment.version)


def test_two_clicks_at_the_same_version_at_once_store_exactly_one_move(
    store: SQLEventStore,
) -> None:
    play, _, _ = online_table(store)
    moment = play.moment(TID, MID)
    assert moment.state is not None and moment.stream is not None
    seat = moment.state.to_act[0]
    plays = [a for a in moment.state.legal_actions() if a.kind == Kind.PLAY][:2]
    second = PlayService(TournamentService(store))  # another process's service
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def click(service: PlayService, move: dict[str, Any]) -> None:
        barrier.wait()
        try:
            service.act(TID, MID, seat, move, moment.version)
            outcomes.append("stored")
        except DomainError as error:
            outcomes.append(str(error.code))

    threads = [
        threading.Thread(target=click, args=(service, move.to_json()))
        for service, move in zip((play, second), plays, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes) == ["online.table_moved_on", "stored"]
    assert hand_stream_length(play, moment.stream) == moment.version + 1
    # And one after the other: the second click is refused, nothing stored.
    after = play.moment(TID, MID)
    assert after.state is not None
    action = after.state.legal_actions()[0]
    play.act(TID, MID, action.seat, action.to_json(), after.version)
    with pytest.raises(ConflictError) as error:
        play.act(TID, MID, action.seat, action.to_json(), after.version)
    assert error.value.code == "online.table_moved_on"
    assert hand_stream_length(play, moment.stream) == after.version + 1


def test_a_reload_continues_where_the_table_is(store: SQLEventStore) -> None:
    play, _, _ = online_table(store)
    rng = random.Random(5)
    for _ in range(7):
        one_move(play, rng)
    before = play.moment(TID, MID)
    fresh = PlayService(TournamentService(store))
    again = fresh.moment(TID, MID)
    assert (again.stream, again.version, again.number) == (
        before.stream,
        before.version,
        before.number,
    )
    assert seat_view(again, 0)["view"] == seat_view(before, 0)["view"]
    assert again.state is not None
    action = choose_action(again.state, rng)
    after = fresh.act(TID, MID, action.seat, action.to_json(), again.version)
    assert after.version == again.version + 1 or after.number == again.number + 1
    assert play.moment(TID, MID).version == after.version  # the first service reads it too


def test_a_move_out_of_turn_or_against_the_rules_is_refused_with_the_rule(
    store: SQLEventStore,
) -> None:
    play, announced, _ = online_table(store)
    moment = play.moment(TID, MID)
    assert moment.state is not None and moment.stream is not None
    (leader,) = moment.state.to_act
    other = moment.state.cards_of(1 - leader)[0].code
    with pytest.raises(DomainError) as error:
        play.act(TID, MID, 1 - leader, other, moment.version)
    assert error.value.rule == "R0"
    with pytest.raises(DomainError) as bad:
        play.act(TID, MID, leader, {"action": "dance"}, moment.version)
    assert bad.value.rule == "R0" and bad.value.field == "action"
    with pytest.raises(DomainError) as nothing:
        play.act(TID, MID, leader, 42, moment.version)
    assert nothing.value.rule == "R0"
    assert hand_stream_length(play, moment.stream) == moment.version
    assert announced == [KEY]  # only the start: a refusal wakes nobody


def test_the_clock_abandoning_and_stopping(store: SQLEventStore) -> None:
    play, _, clock = online_table(store, move_seconds=30)
    moment = play.moment(TID, MID)
    assert moment.state is not None and moment.stream is not None
    dealer = moment.state.dealer
    action = moment.state.legal_actions()[-1]
    clock.later(31)
    assert play.moment(TID, MID).clock.expired
    assert spectator_view(play.moment(TID, MID))["status"] == "time"
    with pytest.raises(ConflictError) as error:
        play.act(TID, MID, action.seat, action.to_json(), moment.version)
    assert (error.value.rule, error.value.code) == ("T-clock", "online.time_ran_out")
    play.restart_clock(TID, MID, by="Turnierleitung")
    assert not play.moment(TID, MID).clock.expired
    play.act(TID, MID, action.seat, action.to_json(), moment.version)
    clock.later(31)
    abandoned = play.abandon_hand(TID, MID, by="Turnierleitung", reason="time ran out")
    assert abandoned.number == 2 and abandoned.stream != moment.stream
    assert abandoned.state is not None and abandoned.state.dealer == dealer  # R18
    dealt_at = play.hands.read(store, abandoned.stream or "").last_at
    assert abandoned.clock.deadline == dealt_at + timedelta(seconds=30)  # time starts anew
    t = play.tournaments.state(TID)
    assert t.matches[MID].entries == [] and moment.stream in t.live_abandoned
    play.stop(TID, MID, by="Turnierleitung", reason="the screens failed")
    t = play.tournaments.state(TID)
    assert spectator_view(play.moment(TID, MID))["status"] == "stopped"
    players = t.matches[MID].players
    play.tournaments.execute(
        TID, lambda t: record_hand(t, MID, winner=players[0], game_points=2,
                                   dealer=players[dealer])
    )  # fmt: skip
    assert play.tournaments.state(TID).matches[MID].engine.current.scores == (5, 7)


def test_a_hand_whose_result_a_crash_kept_from_the_match_is_recorded_by_the_sweep_not_a_reader(
    store: SQLEventStore,
) -> None:
    """The last move was stored and the process died before the result went into the
    match: a reader writes nothing (AE-1); the background sweep records it and deals on,
    as it deals a hand a crash kept back."""
    play, _, _ = online_table(store)
    rng = random.Random(9)
    moment = play.moment(TID, MID)
    assert moment.state is not None and moment.stream is not None
    state, version = moment.state, moment.version
    while True:
        action = choose_action(state, rng)
        after = state.apply(action)
        if after.is_over:
            break
        play.act(TID, MID, action.seat, action.to_json(), version)
        version += 1
        state = after
    store.append(moment.stream, [action_event(action)], version)  # ... and then the crash
    reader = PlayService(TournamentService(store))
    before = len(store.read_all())
    assert reader.moment(TID, MID).number == 1
    assert len(store.read_all()) == before, "a read wrote nothing"
    reader.sweep()
    now = reader.moment(TID, MID)
    t = reader.tournaments.state(TID)
    if not after.legal_actions():  # over for good: recorded, and the next hand is dealt
        assert moment.stream in t.live_results
        assert now.number == 2
    else:  # the claim window stays open for the last trick's winner (R16): no result yet
        assert moment.stream not in t.live_results
        assert now.number == 1 and seat_view(now, after.to_act[0])["status"] == "claim"


def test_the_background_sweep_repairs_a_table_a_crash_interrupted(store: SQLEventStore) -> None:
    """AE-1: the sweep thread of a process that showed the table makes good, within
    seconds, a claim stored without its result: nobody has to move or reload."""
    play, _, _ = online_table(store)
    rng = random.Random(5)
    while True:  # play until a seat may claim 66 (R12a): its claim ends the hand
        moment = play.moment(TID, MID)
        assert moment.state is not None and moment.stream is not None
        claims = [a for a in moment.state.legal_actions() if a.kind == Kind.CLAIM]
        if claims:
            break
        action = choose_action(moment.state, rng)
        play.act(TID, MID, action.seat, action.to_json(), moment.version)
    store.append(moment.stream, [action_event(claims[0])], moment.version)  # ... the crash
    restarted = PlayService(TournamentService(store))
    assert restarted.moment(TID, MID).number == 1  # a screen reconnects and reads it
    sweep = OnlineSweep(restarted, every=0.05)
    sweep.start()
    try:
        deadline = time.monotonic() + 20
        while moment.stream not in restarted.tournaments.state(TID).live_results:
            assert time.monotonic() < deadline, "the sweep never repaired the table"
            time.sleep(0.05)
    finally:
        sweep.stop()
    assert restarted.moment(TID, MID).number == 2  # and dealt the next hand


def test_a_claim_window_declined_after_the_clock_ran_out_is_refused_T_clock(
    store: SQLEventStore,
) -> None:
    play, _, clock = online_table(store, move_seconds=60)
    rng = random.Random(16)
    while True:  # play hands until one goes to the tenth trick (the claim window)
        moment = play.moment(TID, MID)
        assert moment.state is not None
        if moment.state.is_over:
            break
        legal = [a for a in moment.state.legal_actions() if a.kind not in (Kind.CLAIM, Kind.CLOSE)]
        action = rng.choice(legal)
        play.act(TID, MID, action.seat, action.to_json(), moment.version)
    (claim,) = moment.state.legal_actions()
    clock.later(61)
    with pytest.raises(ConflictError) as error:
        play.decline_claim(TID, MID, claim.seat, moment.version)
    assert (error.value.rule, error.value.code) == ("T-clock", "online.time_ran_out")
    assert play.moment(TID, MID).number == moment.number
    play.restart_clock(TID, MID, by="Turnierleitung")
    after = play.decline_claim(TID, MID, claim.seat, play.moment(TID, MID).version)
    assert after.number == moment.number + 1


# --- wake-ups: the hub, Redis, and the SSE loop ----------------------------------------------


def test_a_move_wakes_a_listener_in_another_process_s_hub_through_redis(
    store: SQLEventStore, redis_url: str
) -> None:
    here, there = TableHub(), TableHub()
    subscriber = RedisSubscriber(redis_url, LiveHub(), others={CHANNEL: there.deliver})
    subscriber.start()
    try:
        announcer = RedisAnnouncer(redis_url)

        def announce(key: str) -> None:
            here.deliver(key)
            announcer(key)

        play = PlayService(tournament(store), announce=announce)
        play.start(TID, MID, move_seconds=None)
        join_both(play)
        with there.subscribe(KEY) as listener, there.subscribe("cup/9.9") as elsewhere:
            listener.wait(0.01)  # forget the start's wake-up
            moment = play.moment(TID, MID)
            assert moment.state is not None
            action = moment.state.legal_actions()[0]
            play.act(TID, MID, action.seat, action.to_json(), moment.version)
            assert listener.wait(5)
            assert not elsewhere.wait(0.2)  # another table's screens sleep on
        assert there.watching == 0
    finally:
        subscriber.stop()


def render(moment: TableMoment) -> tuple[str, str]:
    return "table", json.dumps(spectator_view(moment), sort_keys=True)


def test_the_stream_sends_each_change_keeps_alive_and_shows_when_time_runs_out(
    store: SQLEventStore,
) -> None:
    tables = TableHub()
    clock = FakeClock()
    play = PlayService(tournament(store), announce=tables.deliver, now=clock)
    play.start(TID, MID, move_seconds=None)
    join_both(play)
    events = table_events(play, tables, TID, MID, render, keepalive=0.1)
    assert next(events) == "retry: 2000\n\n"
    first = next(events)
    assert first.startswith("event: table\nid: 1.1\ndata: ")
    assert next(events) == ": keep-alive\n\n"  # a quiet table
    moment = play.moment(TID, MID)
    assert moment.state is not None
    action = next(a for a in moment.state.legal_actions() if a.kind == Kind.PLAY)
    started = time.monotonic()
    play.act(TID, MID, action.seat, action.to_json(), moment.version)
    moved = next(events)
    assert time.monotonic() - started < 5
    assert moved.startswith("event: table\nid: 1.2\n")
    data = json.loads(moved.split("data: ", 1)[1])
    assert data["version"] == 2 and data["view"]["lead"] == action.card.code  # type: ignore[union-attr]
    tables.close()
    assert list(events) == []  # the hub closed: the stream ends
    assert tables.watching == 0


def test_the_stream_shows_time_up_without_a_move(store: SQLEventStore) -> None:
    tables = TableHub()
    clock = FakeClock()
    play = PlayService(tournament(store), announce=tables.deliver, now=clock)
    play.start(TID, MID, move_seconds=10)
    join_both(play)
    events = table_events(play, tables, TID, MID, render, keepalive=30)
    next(events)
    first = json.loads(next(events).split("data: ", 1)[1])
    assert first["status"] == "turn" or first["status"] == "wait"
    assert first["clock"]["expired"] is False
    clock.later(11)
    started = time.monotonic()
    shown = json.loads(next(events).split("data: ", 1)[1])
    assert time.monotonic() - started < 5  # not after the 30 s keep-alive
    assert shown["status"] == "time" and shown["clock"]["expired"] is True
    tables.close()
    assert list(events) == []


def next_within(events: Iterator[str], seconds: float) -> str | None:
    """The stream's next message, or None if it sends nothing for ``seconds``."""
    got: list[str] = []
    thread = threading.Thread(target=lambda: got.append(next(events)), daemon=True)
    thread.start()
    thread.join(seconds)
    return got[0] if got else None


def test_a_quiet_table_with_a_clock_running_is_kept_alive(store: SQLEventStore) -> None:
    """A move may take minutes (T-clock up to an hour): the connection must not starve."""
    tables = TableHub()
    play = PlayService(tournament(store), announce=tables.deliver, now=FakeClock())
    play.start(TID, MID, move_seconds=600)
    join_both(play)
    events = table_events(play, tables, TID, MID, render, keepalive=0.1)
    next(events)
    next(events)
    try:
        assert next_within(events, 3) == ": keep-alive\n\n"
    finally:
        tables.close()


def test_a_late_claim_a_crash_kept_from_the_match_replaces_the_result_at_the_next_write(
    store: SQLEventStore,
) -> None:
    """R16: the claim after the tenth trick was stored, its result not: the table's next
    write (here the sweep's repair) records the claim's result before dealing on."""
    play, _, _ = online_table(store)
    rng = random.Random(10)
    while True:
        moment = play.moment(TID, MID)
        assert moment.state is not None and moment.stream is not None
        if moment.state.is_over:
            break
        legal = [a for a in moment.state.legal_actions() if a.kind not in (Kind.CLAIM, Kind.CLOSE)]
        action = rng.choice(legal)
        play.act(TID, MID, action.seat, action.to_json(), moment.version)
    (claim,) = moment.state.legal_actions()
    claimed = moment.state.apply(claim).outcome()
    store.append(moment.stream, [action_event(claim)], moment.version)  # ... the crash
    reader = PlayService(TournamentService(store))
    assert reader.repair(TID, MID)
    now = reader.moment(TID, MID)
    t = reader.tournaments.state(TID)
    _, entry = t.entry(t.live_results[moment.stream])
    assert entry.payload is not None and entry.payload["reason"] == claimed.reason != "last_trick"
    assert len(t.matches[MID].entries) == 1
    assert now.number == 2  # and the next hand is dealt


def test_a_forfeit_during_a_hand_ends_the_table_R20(store: SQLEventStore) -> None:
    play, _, _ = online_table(store)
    moment = play.moment(TID, MID)
    assert moment.state is not None and moment.stream is not None
    players = play.tournaments.state(TID).matches[MID].players
    play.tournaments.execute(TID, lambda t: record_forfeit(t, MID, winner=players[0]))
    after = play.moment(TID, MID)
    assert (after.stream, after.number) == (moment.stream, 1)  # nothing more is dealt
    assert seat_view(after, 0)["status"] == "over" == spectator_view(after)["status"]
    action = moment.state.legal_actions()[0]
    with pytest.raises(ConflictError) as error:
        play.act(TID, MID, action.seat, action.to_json(), moment.version)
    assert error.value.rule == "R20"
    assert hand_stream_length(play, moment.stream) == moment.version


# --- seats and devices (T-online), the clock from the second join (T-clock) ---------------


def test_the_first_device_keeps_its_seat_and_another_is_refused(store: SQLEventStore) -> None:
    play, _, _ = online_table(store, joined=False)
    token = play.join(TID, MID, 0, None)
    assert play.join(TID, MID, 0, token) == token  # the same device: the same token
    play.check_seat(TID, MID, 0, token)
    for other in (None, "a-guessed-token"):
        with pytest.raises(ConflictError) as refused:
            play.join(TID, MID, 0, other)
        assert refused.value.code == "online.seat_taken" and refused.value.rule == "T-online"
        with pytest.raises(ConflictError):
            play.check_seat(TID, MID, 0, other)
    table = play.tournaments.state(TID).online[MID]
    assert token not in json.dumps(table.devices)  # only the token's hash is kept
    assert list(table.devices) == [0]


def test_one_device_never_holds_both_seats_of_a_table(store: SQLEventStore) -> None:
    """P1: both codes lie on one card; the device that holds one seat is refused the
    other (T-online), so one player can neither see nor play the opponent's hand."""
    play, _, _ = online_table(store, joined=False)
    device = play.join(TID, MID, 0, None)
    before = len(store.read_all())
    with pytest.raises(ConflictError) as refused:
        play.join(TID, MID, 1, device)
    assert (refused.value.code, refused.value.rule) == ("online.both_seats", "T-online")
    assert len(store.read_all()) == before, "nothing stored"
    assert list(play.tournaments.state(TID).online[MID].devices) == [0]
    other = play.join(TID, MID, 1, None)  # the opponent's own phone takes it
    play.check_seat(TID, MID, 1, other)
    play.release_seat(TID, MID, 0, by="Organiser")
    with pytest.raises(ConflictError) as again:  # released seat 0: still not seat 0 for 1's
        play.join(TID, MID, 0, other)
    assert again.value.code == "online.both_seats"


def test_a_released_seat_is_taken_by_the_next_device(store: SQLEventStore) -> None:
    play, _, _ = online_table(store)
    with pytest.raises(ConflictError):
        play.join(TID, MID, 1, None)
    play.release_seat(TID, MID, 1, by="Organiser")
    fresh = play.join(TID, MID, 1, None)
    play.check_seat(TID, MID, 1, fresh)
    with pytest.raises(DomainError) as refused:
        play.release_seat(TID, MID, 5, by="Organiser")
    assert refused.value.code == "online.no_such_seat"
    with pytest.raises(DomainError) as no_name:
        play.release_seat(TID, MID, 1, by=" ")
    assert no_name.value.code == "online.release_says_who"


def test_no_move_before_both_seats_are_taken(store: SQLEventStore) -> None:
    play, _, _ = online_table(store, joined=False)
    play.join(TID, MID, 0, None)
    moment = play.moment(TID, MID)
    assert moment.state is not None
    assert seat_view(moment, 0)["status"] == "joining"
    assert seat_view(moment, 0)["view"]["legal_actions"] == []
    action = moment.state.legal_actions()[0]
    with pytest.raises(ConflictError) as refused:
        play.act(TID, MID, action.seat, action.to_json(), moment.version)
    assert refused.value.code == "online.waiting_for_players"
    assert hand_stream_length(play, moment.stream or "") == 1  # only the deal


def test_the_clock_runs_from_the_second_join_not_from_the_deal(store: SQLEventStore) -> None:
    play, _, clock = online_table(store, move_seconds=30, joined=False)
    clock.later(3600)  # an hour before anybody opens the table
    play.join(TID, MID, 0, None)
    clock.later(600)
    moment = play.moment(TID, MID)
    assert moment.clock.deadline is None and not moment.clock.expired
    assert spectator_view(moment)["status"] == "joining"
    play.join(TID, MID, 1, None)
    joined_at = clock.at
    moment = play.moment(TID, MID)
    assert moment.clock.deadline == joined_at + timedelta(seconds=30)
    assert spectator_view(moment)["status"] == "wait"
    clock.later(31)
    assert play.moment(TID, MID).clock.expired  # it does run once both are there
    play.release_seat(TID, MID, 0, by="Organiser")  # a released seat does not stop it
    assert play.moment(TID, MID).clock.expired


def test_a_move_in_a_request_s_snapshot_reads_the_tournament_and_its_hand_once_speed_P5(
    store: SQLEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move (its seat's check, the repair look, the move, the table it answers) asked
    the store for new events five times; inside :meth:`PlayService.snapshot` twice: the
    tournament once and the hand once, the hand then folded on from what was appended."""
    play, _, _ = online_table(store)
    moment = play.moment(TID, MID)
    assert moment.state is not None and moment.stream is not None
    action = choose_action(moment.state, random.Random(5))
    asked = counting_reads(store, monkeypatch)
    with play.snapshot():
        assert play.holds(TID, MID, 0, ()) is False  # (no token: a look at the seats)
        after = play.act(TID, MID, action.seat, action.to_json(), moment.version)
    assert sorted(asked) == sorted([ev.stream_id(TID), moment.stream])
    monkeypatch.undo()
    fresh = play.moment(TID, MID)  # the answer is the table as stored
    assert (after.version, after.number, after.state) == (fresh.version, fresh.number, fresh.state)
    assert after.version == moment.version + 1


def test_a_match_played_move_by_move_in_snapshots_is_the_same_as_without_them(
    store: SQLEventStore,
) -> None:
    """Every move and decline in a snapshot of its own (as the API makes them): hands end,
    results go into the match and the next hands are dealt as without snapshots (the
    snapshot forgets what it read at every command through the tournament's lock)."""
    play, _, _ = online_table(store)
    rng = random.Random(3)
    while not ((moment := play.moment(TID, MID)).match.decided and moment.final):
        with play.snapshot():
            answered = one_move(play, rng)
        stored = play.moment(TID, MID)
        assert (answered.stream, answered.version, answered.state) == (
            stored.stream, stored.version, stored.state,
        )  # fmt: skip
    match = play.tournaments.state(TID).matches[MID]
    assert match.decided and match.winner is not None


# --- one read per table, shared by its screens (speed P5) ---------------------------------


def seat_render(seat: int) -> Any:
    def show(moment: TableMoment) -> tuple[str, str]:
        return "table", json.dumps(seat_view(moment, seat), sort_keys=True)

    return show


def data_of(message: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(message.split("data: ", 1)[1])
    return found


def cards_of(view: dict[str, Any]) -> set[str]:
    return {card for card in view["view"]["hand"]} if view.get("view") else set()


def screens(play: PlayService, tables: TableHub) -> list[Iterator[str]]:
    """Both seats' streams and two of the room's, each past its first view."""
    shown = [
        table_events(play, tables, TID, MID, show, keepalive=30)
        for show in (seat_render(0), seat_render(1), render, render)
    ]
    for events in shown:
        assert next(events) == "retry: 2000\n\n"
        next(events)
    return shown


def counting_reads(store: SQLEventStore, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    asked: list[str] = []
    real = store.read_stream

    def counted(stream: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(stream)
        return real(stream, *args, **kwargs)

    monkeypatch.setattr(store, "read_stream", counted)
    return asked


def test_a_move_hands_its_table_to_every_screen_which_read_nothing_speed_P5(
    store: SQLEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both seats and the room wake on a move and show it without asking the store: the
    move hands the table as it left it to the hub, and each screen shows only its own
    reader's part of it (a seat its own cards, never the other's; the room neither)."""
    tables = TableHub()
    play = PlayService(tournament(store), now=FakeClock(), tables=tables)
    play.start(TID, MID, move_seconds=None)
    join_both(play)
    shown = screens(play, tables)
    moment = play.moment(TID, MID)
    assert moment.state is not None
    action = next(a for a in moment.state.legal_actions() if a.kind == Kind.PLAY)
    asked = counting_reads(store, monkeypatch)
    with play.snapshot():
        after = play.act(TID, MID, action.seat, action.to_json(), moment.version)
    by_move = len(asked)
    views = [data_of(next(events)) for events in shown]
    assert len(asked) == by_move  # the screens read nothing
    assert [v["version"] for v in views] == [after.version] * 4
    assert after.state is not None
    hands = [{c.code for c in player_view(after.state, seat).hand} for seat in (0, 1)]
    for seat in (0, 1):
        assert cards_of(views[seat]) == hands[seat]
        text = json.dumps(views[seat])
        assert not [c for c in hands[1 - seat] if f'"{c}"' in text]
    for room in views[2:]:
        text = json.dumps(room)
        assert not [c for c in hands[0] | hands[1] if f'"{c}"' in text]
    tables.close()


def test_an_announced_change_is_read_once_for_all_the_table_s_screens_speed_P5(
    store: SQLEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change announced without the table (another process's move on Redis, the
    organiser's decision): the first screen to wake reads the tournament and the hand,
    the other three share what it read."""
    tables = TableHub()
    play = PlayService(tournament(store), now=FakeClock(), tables=tables)
    play.start(TID, MID, move_seconds=None)
    join_both(play)
    shown = screens(play, tables)
    moment = play.moment(TID, MID)
    assert moment.state is not None and moment.stream is not None
    action = next(a for a in moment.state.legal_actions() if a.kind == Kind.PLAY)
    elsewhere = PlayService(play.tournaments)  # another process: its hub is not this one
    elsewhere.act(TID, MID, action.seat, action.to_json(), moment.version)
    asked = counting_reads(store, monkeypatch)
    tables.deliver(KEY)  # the announcement, as Redis hands it on
    views = [data_of(next(events)) for events in shown]
    assert sorted(asked) == sorted([ev.stream_id(TID), moment.stream])
    assert [v["version"] for v in views] == [moment.version + 1] * 4
    tables.close()


def test_a_table_handed_over_is_not_kept_when_another_change_came_in_between() -> None:
    """A writer's table is kept for the screens only if nothing else about the table
    was announced after the writer began reading: else it may be older than the store,
    and the first screen reads again."""
    tables = TableHub()
    with tables.subscribe(KEY):
        mark = tables.mark()
        tables.deliver(KEY)  # someone else's change, announced meanwhile
        tables.deliver(KEY, "the writer's table", mark)
        assert tables.moment(KEY, lambda: "read") == "read"
        mark = tables.mark()
        tables.deliver(KEY, "the writer's table", mark)
        assert tables.moment(KEY, lambda: "read again") == "the writer's table"
        tables.deliver(KEY, "older", mark)  # (a mark from before the last change)
        assert tables.moment(KEY, lambda: "read at last") == "read at last"
    assert tables.moment(KEY, lambda: "nobody watches") == "nobody watches"


def test_a_hub_hearing_its_own_announcement_back_on_redis_wakes_nobody_speed_P5(
    redis_url: str,
) -> None:
    """The process that moved woke its screens and handed them the table; its own
    announcement, heard back on Redis, would only make them read it again. The other
    processes' hubs wake."""
    here, there = TableHub(), TableHub()
    subscribers = [
        RedisSubscriber(redis_url, LiveHub(), others={CHANNEL: hub.heard}) for hub in (here, there)
    ]
    for subscriber in subscribers:
        subscriber.start()
    try:
        announce = RedisAnnouncer(redis_url, origin=here.origin)
        anyone = RedisAnnouncer(redis_url)  # (no origin: every hub hears it)
        with here.subscribe(KEY) as mine, there.subscribe(KEY) as theirs:
            up, deadline = [False, False], time.monotonic() + 10
            while not all(up):  # until both subscriptions are up
                assert time.monotonic() < deadline
                anyone(KEY)
                up = [up[0] or mine.wait(0.1), up[1] or theirs.wait(0.1)]
            mine.wait(0.5)  # (forget what the loop may have sent since)
            theirs.wait(0.5)
            announce(KEY)
            assert theirs.wait(5)
            assert not mine.wait(0.5)
    finally:
        for subscriber in subscribers:
            subscriber.stop()


def test_the_sweep_reads_a_table_s_tournament_once_speed_P5(
    store: SQLEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every few seconds the sweep looks at every table shown here (200 at a big
    tournament): the tournament and the hand once each per table, not the tournament
    twice."""
    play, _, _ = online_table(store)
    moment = play.moment(TID, MID)  # (shown: the sweep's round)
    assert moment.stream is not None
    asked = counting_reads(store, monkeypatch)
    assert play.sweep() == []
    assert sorted(asked) == sorted([ev.stream_id(TID), moment.stream])

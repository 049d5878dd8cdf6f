"""An online table driven through the domain alone (no store): the tests' hands and clocks.

:class:`Table` deals through :func:`tournament.domain.commands.online.deal_next`, checks each move
with :func:`~tournament.domain.commands.online.check_move`, keeps the hand streams as the store
would (``StoredEvent`` with versions and times) and records finished hands with
:func:`~tournament.domain.commands.live.record_live_hand`, as the PlayService does.

The ``*_hand`` functions search seeded random hands for a deck and actions that end a
given way (a winner, a claim after a marriage lead, all ten tricks), so a test can play a
hand whose outcome it knows in advance.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

from engine import Action, HandState, Kind, Ruleset
from engine.outcome import Outcome
from engine.randomplay import choose_action, random_deck
from tournament.domain.commands import online
from tournament.domain.commands.live import record_live_hand
from tournament.domain.model.hands import action_event, apply_hand_event
from tournament.domain.testing import Builder
from tournament.eventstore.api import NewEvent, StoredEvent

T0 = datetime(2026, 3, 1, 19, 0, tzinfo=UTC)


def take_both(b: Builder, match_id: str, at: datetime = T0) -> None:
    """Both players open their seats, each on a device of its own (T-online)."""
    for seat in (0, 1):
        device = hashlib.sha256(f"device {seat}".encode()).hexdigest()
        b.add(online.take_seat(b.state, match_id, seat, device, now=at))


def stored(stream: str, version: int, event: NewEvent, at: datetime) -> StoredEvent:
    digest = hashlib.sha256(f"{stream}/{version}".encode()).hexdigest()
    return StoredEvent(
        uuid.uuid4(), stream, version, version, event.type, 1, dict(event.payload),
        dict(event.metadata), at, "0" * 64, digest,
    )  # fmt: skip


@dataclasses.dataclass
class Table:
    """One match played online, its hand streams kept in memory."""

    b: Builder
    match_id: str
    streams: dict[str, list[StoredEvent]] = dataclasses.field(default_factory=dict)
    now: datetime = T0

    @property
    def stream(self) -> str | None:
        return online.current_hand(self.b.state, self.match_id)

    @property
    def state(self) -> HandState | None:
        stream = self.stream
        return None if stream is None else self.fold(stream)

    def fold(self, stream: str) -> HandState:
        state: HandState | None = None
        for event in self.streams[stream]:
            state = apply_hand_event(state, event)
        assert state is not None
        return state

    @property
    def version(self) -> int:
        stream = self.stream
        return 0 if stream is None else len(self.streams[stream])

    def last_at(self) -> datetime:
        stream = self.stream
        assert stream is not None
        return self.streams[stream][-1].recorded_at

    def clock(self) -> online.Clock:
        stream, state = self.stream, self.state
        assert stream is not None and state is not None
        return online.clock(self.b.state, self.match_id, stream, state, self.last_at(), self.now)

    def needs_deal(self) -> bool:
        return online.needs_deal(self.b.state, self.match_id, self.state)

    def deal(self, deck: Sequence[str]) -> str:
        stream, dealt, started = online.deal_next(
            self.b.state, self.match_id, self.state, deck=deck
        )
        self.streams[stream] = [stored(stream, 1, dealt[0], self.now)]
        self.b.add(started)
        return stream

    def move(self, seat: int, action: str | Action, *, expected: int | None = None) -> HandState:
        """``seat``'s move as the PlayService makes it: checked, appended, and the
        hand's result recorded in the match once the engine says it is over and no claim
        is left to choose (R16)."""
        stream, state = self.stream, self.state
        assert stream is not None and state is not None
        move = action if isinstance(action, Action) else Action.parse(f"{seat}:{action}")
        after = online.check_move(
            self.b.state, self.match_id, stream, state, move, seat=seat,
            expected_version=self.version if expected is None else expected,
            version=self.version, clock_now=self.clock(),
        )  # fmt: skip
        events = self.streams[stream]
        events.append(stored(stream, len(events) + 1, action_event(move), self.now))
        if after.is_over and not online.claim_window(after):
            self.b.add(record_live_hand(self.b.state, stream, events))
        return after

    def decline(self, seat: int) -> None:
        stream, state = self.stream, self.state
        assert stream is not None and state is not None
        events = self.streams[stream]
        self.b.add(online.decline_claim(self.b.state, self.match_id, stream, events, seat=seat))

    def play(self, deck: Sequence[str], actions: Sequence[Action], *, decline: bool = True) -> str:
        """Deal ``deck`` and play ``actions``; after all ten tricks with no claim, the
        winner of the last trick declines to claim (R16) unless told not to."""
        stream = self.deal(deck)
        for action in actions:
            self.move(action.seat, action)
        state = self.fold(stream)
        if decline and state.outcome().complete and state.legal_actions():
            self.decline(state.legal_actions()[0].seat)
        return stream


Policy = Callable[[HandState, random.Random], Action]


def no_claims(state: HandState, rng: random.Random) -> Action:
    """Random play that never claims or closes: the hand goes to the tenth trick (R16)."""
    legal = [a for a in state.legal_actions() if a.kind not in (Kind.CLAIM, Kind.CLOSE)]
    return rng.choice(legal)


def random_hand(
    rng: random.Random, dealer: int, variants: Sequence[str] = (), policy: Policy = choose_action
) -> tuple[list[str], list[Action], HandState]:
    deck = random_deck(rng)
    state = HandState.deal(deck, dealer, Ruleset.from_names(variants))
    actions: list[Action] = []
    while not state.is_over:
        action = policy(state, rng)
        state = state.apply(action)
        actions.append(action)
    return deck, actions, state


def hand_won_by(
    rng: random.Random, dealer: int, winner: int, game_points: int | None = None,
    variants: Sequence[str] = (),
) -> tuple[list[str], list[Action], Outcome]:  # fmt: skip
    """A complete hand (no claim left open) that ``winner`` wins (by ``game_points``)."""
    while True:
        deck, actions, state = random_hand(rng, dealer, variants)
        outcome = state.outcome()  # after ten tricks: the provisional result (R16)
        if outcome.winner == winner and game_points in (None, outcome.game_points):
            return deck, actions, outcome


def marriage_claim_hand(rng: random.Random, dealer: int) -> tuple[list[str], list[Action]]:
    """A deck and the actions up to a marriage lead after which the leader has 66 with
    the marriage (it has a trick): the claim before the reply is R12b."""
    while True:
        deck = random_deck(rng)
        state = HandState.deal(deck, dealer)
        actions: list[Action] = []
        while not state.is_over:
            legal = state.legal_actions()
            for a in legal:
                if a.kind == Kind.PLAY and a.marriage and state.tricks_won[a.seat]:
                    after = state.apply(a)
                    if after.points[a.seat] >= 66:
                        return deck, [*actions, a]
            plays = [a for a in legal if a.kind != Kind.CLAIM]
            action = rng.choice(plays)
            state = state.apply(action)
            actions.append(action)


def ten_tricks_hand(
    rng: random.Random, dealer: int, accept: Callable[[HandState], bool]
) -> tuple[list[str], list[Action], HandState]:
    """A hand played to the tenth trick without claim or close that ``accept`` likes."""
    while True:
        deck, actions, state = random_hand(rng, dealer, policy=no_claims)
        if accept(state):
            return deck, actions, state


def later(table: Table, seconds: float) -> None:
    table.now += timedelta(seconds=seconds)

"""What each screen of an online table shows (T-online): a seat's view and the spectators'.

Both are plain JSON built from the engine's views (:mod:`engine.views`), which never
hold the opponent's hand or the talon's order, plus what the match and the clock say.
Nothing here adds a card: the only cards in a seat's view are its own, the turn-up, the
cards on the table, its visible tricks and a declared marriage's shown card; a
spectator's hold no hand at all. The previous hand is summed up by its outcome only
(no card), and a hand's record is served apart, once the hand is over for good.

    status   what the seat (or spectator) waits for
    -------  --------------------------------------------------------------------
    joining  a seat was never opened yet: the table waits for both players (T-online)
    waiting  no hand dealt yet (the server deals at once; a reload finds it)
    turn     the seat may act (``legal_actions`` lists what)
    wait     the other seat is to act (after a marriage lead the leader waits for the
             reply, yet may still claim 66 at once, R12b: its ``legal_actions`` keep it)
    claim    after the last trick: claim ("66") or no claim (R16), the winner only
    over     the match is decided (R20)
    stopped  the organiser ended online play: the rest is on paper
    time     the clock ran out: the organiser decides (T-clock)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable
from typing import Any, Final, TypeVar

from engine import HandState
from engine.outcome import Outcome
from engine.views import player_view, table_view
from tournament.domain.commands import online
from tournament.domain.commands.online import Clock, hand_final, table_of
from tournament.domain.model.matchstate import MatchState
from tournament.domain.model.state import Tournament

T = TypeVar("T")


@dataclasses.dataclass(frozen=True)
class TableMoment:
    """An online table at one moment, as the edge read it: the tournament, the current
    hand (None before the first deal) with its stream version, the clock, and the
    outcome of the hand before (None for the first)."""

    t: Tournament
    match_id: str
    stream: str | None
    state: HandState | None
    version: int  # the hand stream's version: a move names it (expected version)
    number: int  # the hand's place at this table (1-based; 0 before the first deal)
    clock: Clock
    previous: Outcome | None = None
    previous_dealer: int | None = None
    #: What screens made of this moment (:meth:`shown`).
    _shown: dict[Hashable, Any] = dataclasses.field(
        default_factory=dict, compare=False, repr=False, hash=False
    )

    def shown(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, made once per ``key`` for this moment: the screens of a table share
        one moment (speed P5), and two of them showing the same reader the same thing (a
        seat's stream and the answer to its move) make it once. The key names the reader
        (a seat, the room): one reader's view is never handed to another."""
        found = self._shown.get(key, _NOTHING)
        if found is _NOTHING:
            found = self._shown.setdefault(key, make())
        return found  # type: ignore[no-any-return]

    @property
    def match(self) -> MatchState:
        return self.t.matches[self.match_id]

    @property
    def final(self) -> bool:
        return (
            self.state is not None
            and self.stream is not None
            and hand_final(self.t, self.stream, self.state)
        )


_NOTHING: Final = object()


def status(moment: TableMoment, seat: int | None) -> str:
    """The word for what ``seat`` (None: a spectator) waits for (the module's table)."""
    table = table_of(moment.t, moment.match_id)
    match = moment.match
    halted = moment.stream is not None and online.halted(moment.t, moment.stream)
    if (match.decided or match.dropped) and (moment.state is None or moment.final or halted):
        return "over"  # (a hand in play when a forfeit decided the match is halted, R20)
    if table.stopped:
        return "stopped"
    if table.joined_at is None:
        return "joining"
    state = moment.state
    if state is None or moment.final:
        return "waiting"
    if moment.clock.expired:
        return "time"
    if state.is_over:  # after the last trick: its winner may still claim (R16)
        return "claim" if seat in state.to_act else "wait"
    return "turn" if seat == to_play(state) else "wait"


def to_play(state: HandState) -> int | None:
    """Whose turn it is: after a marriage lead both seats may act (the reply, or the
    leader's claim, R12b), but the turn is the replier's; None once the hand is over."""
    seats = state.to_act
    if len(seats) > 1:
        return 1 - state.leader
    return seats[0] if seats else None


def _match_json(moment: TableMoment) -> dict[str, Any]:
    match = moment.match
    engine = match.engine
    current = engine.current
    summary = match.summary
    return {
        "match_id": match.match_id,
        "round": match.round,
        "table": match.table,
        "players": list(match.labels),
        "best_of": engine.best_of,
        "bummerl_wins": list(summary.bummerl),
        "bummerl": len(engine.bummerls),  # the one in play, or the last one played
        "scores": list(current.scores),  # game points still to strike off (R17)
        "next_dealer": engine.next_dealer,
        "decided": match.decided,
        "winner": summary.winner,  # a seat, None while undecided
    }


def _previous_json(moment: TableMoment) -> dict[str, Any] | None:
    before = moment.previous
    if before is None or not before.complete:
        return None
    return {
        "winner": before.winner,
        "game_points": before.game_points,
        "reason": before.reason,
        "points": list(before.points),
        "tricks": list(before.tricks),
        "dealer": moment.previous_dealer,
    }


def _common(moment: TableMoment, seat: int | None) -> dict[str, Any]:
    return {
        "tournament": moment.t.id,
        "match": _match_json(moment),
        "hand_number": moment.number,
        "version": moment.version,
        "status": status(moment, seat),
        "final": moment.final,
        "clock": moment.clock.to_json(),
        "previous": _previous_json(moment),
        "to_play": to_play(moment.state) if moment.state is not None else None,
    }


def seat_view(moment: TableMoment, seat: int) -> dict[str, Any]:
    """What ``seat`` sees: its own cards and legal actions, never the other's; and who
    released the other seat during a hand before another device took it (the player
    may be playing against someone else now, T-online)."""
    body = _common(moment, seat)
    body["seat"] = seat
    body["opponent_seat_released_by"] = online.retaken_by(moment.t, moment.match_id, 1 - seat)
    state = moment.state
    if state is None:
        body["view"] = None
        return body
    view = player_view(state, seat).to_json()
    if body["status"] == "wait" and seat in state.to_act and not state.is_over:
        # the leader of a marriage waits for the reply but may claim at once (R12b)
        view["legal_actions"] = [a for a in view["legal_actions"] if a["action"] == "claim"]
    elif body["status"] not in ("turn", "claim"):
        view["legal_actions"] = []  # the clock ran out, or the hand is done
    body["view"] = view
    return body


#: The room's views show during a hand only what both players at the table may see
#: (docs/rules.md, "What the room may see"): a player must not follow both piles, and so
#: both scores, on a phone beside the seat (F9).
WATCH_RULE: Final = "T-watch"


def spectator_view(moment: TableMoment) -> dict[str, Any]:
    """What the room sees (T-watch): while the hand is in play only what both players may
    see -- the turn-up, the talon's count, the card led, the last trick while it lies
    open, declared marriages, how many tricks each seat won -- and no won trick beyond
    the last, no points: ``tricks`` is [] and ``points`` None (``tricks_shown`` false).
    Once the hand is over, every trick, the points and the outcome: no outcome while
    anyone may still act (the R16 window after the last trick, F3). Never a hand, never
    the talon."""
    body = _common(moment, None)
    state = moment.state
    if state is None:
        body["view"] = None
        return body
    view = table_view(state).to_json()
    over = moment.final or (state.is_over and not state.to_act)
    view["tricks"] = [
        {"leader": t.leader, "lead": t.lead.code, "reply": t.reply.code, "winner": t.winner}
        for t in (state.tricks if over else ())
    ]
    view["tricks_shown"] = over
    view["points"] = list(state.points) if over else None
    if not over:  # after the last trick its winner may still claim (R16): no outcome yet
        view["outcome"] = None
    body["view"] = view
    return body

"""Matches played online (T-online): the server deals, two players play at two screens,
every move an event in the hand's stream, and hand after hand follows R17-R20 by itself.

A match of a round becomes an *online table* with ``match.online_started`` (the organiser,
optionally with a time per move). From then on each hand is a live hand
(:mod:`tournament.domain.commands.live`): dealt by the server from a cryptographically secure
shuffle into its own ``hand-<uuid>`` stream, played action by action through the engine,
and recorded in the match as a paper result would be, so standings, brackets and the
live pages need nothing of their own. When a hand is over the next is dealt, with the
dealer the match says (R18), until the match is decided (R20).

A hand is *over for good* (:func:`hand_final`) when it was abandoned, or its result is
recorded and no action remains. After the tenth trick without a claim the hand's winner
may still claim (R12a, R16): nothing is recorded until that player claims or says "no
claim" (``match.live_hand_closed``, with the result in the same command), so a match is
never decided by a result that could still change, and a round never closes on one.

The clock (T-clock): with ``move_seconds`` set, the seat to act has that long from the
hand's last event (or the organiser's restart). When it runs out, that seat's moves are
refused and the organiser decides: restart the clock, abandon the hand (the same dealer
deals again, R18), or stop online play (the match goes on on paper). Times come from the
edge (``now``): the domain stays pure.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Final, NoReturn

from engine import Action, EngineError, HandState
from tournament.domain.commands.live import (
    abandon_live_hand,
    deal_live_hand,
    record_live_hand,
    who_and_why,
)
from tournament.domain.commands.reports import SAME_ADDRESS, SAME_DEVICE, Origin, origin_flags
from tournament.domain.commands.results import find_match, takes_results
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.model.hands import fold_hand
from tournament.domain.model.matchstate import MatchState
from tournament.domain.model.parts import OnlineTable, SeatFlag
from tournament.domain.model.state import Tournament
from tournament.eventstore.api import NewEvent, StoredEvent

RULE: Final = "T-online"
CLOCK_RULE: Final = "T-clock"
#: The time per move an organiser may set, in seconds.
MOVE_SECONDS: Final = (10, 3600)


def table_of(t: Tournament, match_id: str) -> OnlineTable:
    """The online table of ``match_id``, or a refusal naming T-online."""
    table = t.online.get(match_id)
    if table is None:
        find_match(t, match_id)
        raise NotFoundError("match", RULE, code="online.not_online", params={"match_id": match_id})
    return table


def start_online(
    t: Tournament, match_id: str, *, move_seconds: int | None = None, actor: str | None = None
) -> list[NewEvent]:
    """Make ``match_id`` an online table; its first hand is dealt by :func:`deal_next`."""
    match = find_match(t, match_id)
    takes_results(t, match)
    table = t.online.get(match_id)
    if table is not None and not table.stopped:
        raise ConflictError(
            "match", RULE, code="online.already_online", params={"match_id": match_id}
        )
    if match.decided or match.dropped:
        raise ConflictError(
            "match", "R20", code="live.match_decided_hand_played", params={"match_id": match_id}
        )
    if match.first_dealer is None:
        raise ConflictError(
            "match", "R18", code="live.match_enter_who_deals", params={"match_id": match_id}
        )
    if t.live_in_progress(match_id) is not None:
        raise ConflictError(
            "match", RULE, code="online.hand_in_progress", params={"match_id": match_id}
        )
    low, high = MOVE_SECONDS
    if move_seconds is not None and (
        type(move_seconds) is not int or not low <= move_seconds <= high  # not True, not 30.5
    ):
        raise DomainError(
            "move_seconds",
            CLOCK_RULE,
            code="online.move_seconds_range",
            params={"low": low, "high": high, "given": move_seconds},
        )
    payload = {"match_id": match_id, "move_seconds": move_seconds}
    return [ev.make_event(ev.ONLINE_STARTED, payload, actor=actor, source=ev.LIVE)]


def stop_online(
    t: Tournament, match_id: str, *, by: str, reason: str, actor: str | None = None
) -> list[NewEvent]:
    """End online play of a match (the screens failed, the organiser decided after a
    timeout): a hand in progress is abandoned and never counts; the results so far stay,
    and the rest of the match is entered from paper."""
    table = table_of(t, match_id)
    if table.stopped:
        raise ConflictError("match", RULE, code="online.not_online", params={"match_id": match_id})
    by, reason = who_and_why(by, reason, RULE)  # plain text, not too long (T-online)
    if not by or not reason:
        raise DomainError("reason", RULE, code="online.stop_says_who_why")
    events: list[NewEvent] = []
    running = t.live_in_progress(match_id)
    if running is not None:
        events += abandon_live_hand(t, running, by=by, reason=reason, actor=actor)
    latest = current_hand(t, match_id)
    if latest is not None and latest in t.live_results and latest not in table.closed:
        # After the tenth trick, its winner's claim window (R16) closes with online play:
        # the provisional result stays like the results before it, and a claim can no
        # longer replace it once paper results follow it (or online play resumes).
        closed = {"match_id": match_id, "hand_stream": latest, "seat": None, "by": by.strip()}
        events.append(ev.make_event(ev.LIVE_HAND_CLOSED, closed, actor=actor, source=ev.LIVE))
    payload = {"match_id": match_id, "by": by.strip(), "reason": reason.strip()}
    events.append(ev.make_event(ev.ONLINE_STOPPED, payload, actor=actor, source=ev.LIVE))
    return events


def current_hand(t: Tournament, match_id: str) -> str | None:
    """The stream of the online table's latest hand (None before the first deal)."""
    table = t.online.get(match_id)
    return table.hands[-1] if table is not None and table.hands else None


def hand_final(t: Tournament, stream: str, state: HandState) -> bool:
    """Whether the hand is over for good: abandoned, or recorded with no action left
    (after the tenth trick its winner may still claim, R16, unless it said no claim)."""
    if stream in t.live_abandoned:
        return True
    if stream not in t.live_results:
        return False
    table = t.online.get(t.live_hands.get(stream, ""))
    closed = table is not None and stream in table.closed
    return closed or not state.legal_actions()


def halted(t: Tournament, stream: str) -> bool:
    """Whether the hand, dealt and not recorded, is halted because its match was decided
    without it (a forfeit, a withdrawal, a correction): no hand is played after that
    (R20). Not over for good: its record stays unserved, since a struck forfeit would
    let it go on."""
    if stream in t.live_results or stream in t.live_abandoned:
        return False
    match = t.matches.get(t.live_hands.get(stream, ""))
    return match is not None and (match.decided or match.dropped)


def needs_deal(t: Tournament, match_id: str, state: HandState | None) -> bool:
    """Whether the online table waits for its next hand: online, the match undecided and
    taking results, and its latest hand (``state``, None before the first) over for good."""
    table = t.online.get(match_id)
    if table is None or table.stopped:
        return False
    match = t.matches.get(match_id)
    if match is None or match.decided or match.dropped or not _takes_results(t, match):
        return False
    stream = current_hand(t, match_id)
    if stream is None:
        return True
    return state is not None and hand_final(t, stream, state)


def deal_next(
    t: Tournament, match_id: str, state: HandState | None, *, deck: Sequence[str] | None = None,
    actor: str | None = None,
) -> tuple[str, list[NewEvent], list[NewEvent]]:  # fmt: skip
    """Deal the online table's next hand (``state``: its latest hand, None before the
    first): the new hand stream, its ``hand.dealt`` and the tournament's events. The deck
    is a secure shuffle unless one is given (tests). Refused unless :func:`needs_deal`."""
    table_of(t, match_id)
    if not needs_deal(t, match_id, state):
        raise ConflictError("match", RULE, code="online.no_deal_now", params={"match_id": match_id})
    # Without a deck, deal_live_hand shuffles with the operating system's secure
    # generator: no deal can be predicted from earlier ones.
    return deal_live_hand(t, match_id, deck=deck, actor=actor)


@dataclasses.dataclass(frozen=True)
class Clock:
    """The time the seat to act has (T-clock): ``deadline`` None without a time per move."""

    move_seconds: int | None
    deadline: datetime | None
    expired: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "move_seconds": self.move_seconds,
            "deadline": None if self.deadline is None else self.deadline.isoformat(),
            "expired": self.expired,
        }


def clock(
    t: Tournament, match_id: str, stream: str, state: HandState, last_at: datetime, now: datetime
) -> Clock:
    """The clock of the hand ``stream`` whose last event was recorded ``last_at``."""
    table = table_of(t, match_id)
    seconds = table.move_seconds
    if seconds is None or hand_final(t, stream, state) or table.stopped or halted(t, stream):
        return Clock(seconds, None, False)
    if table.joined_at is None:  # the clock runs once both seats are taken
        return Clock(seconds, None, False)
    restarted = table.clock_from.get(stream)
    start = max(last_at, datetime.fromisoformat(table.joined_at))
    if restarted:
        start = max(start, datetime.fromisoformat(restarted))
    deadline = start + timedelta(seconds=seconds)
    return Clock(seconds, deadline, now >= deadline)


def check_move(
    t: Tournament, match_id: str, stream: str, state: HandState, action: Action, *,
    seat: int, expected_version: int, version: int, clock_now: Clock,
) -> HandState:  # fmt: skip
    """The hand after ``seat``'s ``action``, or a refusal: not this table's current hand,
    the hand over, another seat's action (R0), a move against a version the table left
    (a second click), the clock run out (T-clock), or the engine's rule (R0-R16)."""
    table = table_of(t, match_id)
    if table.stopped:
        raise ConflictError("match", RULE, code="online.not_online", params={"match_id": match_id})
    if stream != current_hand(t, match_id):
        raise ConflictError(
            "hand", RULE, code="online.not_current_hand", params={"match_id": match_id}
        )
    if halted(t, stream):
        raise ConflictError(
            "match", "R20", code="live.match_decided_hand_played", params={"match_id": match_id}
        )
    if hand_final(t, stream, state):
        raise ConflictError("hand", RULE, code="online.hand_over", params={"match_id": match_id})
    if expected_version != version:
        raise ConflictError(
            "version",
            RULE,
            code="online.table_moved_on",
            params={"expected": expected_version, "version": version},
        )
    if action.seat != seat:
        raise DomainError("action", "R0", code="online.not_your_seat", params={"seat": seat})
    if table.joined_at is None:  # nobody plays against an empty chair
        raise ConflictError(
            "seat", RULE, code="online.waiting_for_players", params={"match_id": match_id}
        )
    if clock_now.expired and seat in state.to_act:
        raise ConflictError("clock", CLOCK_RULE, code="online.time_ran_out")
    try:
        return state.apply(action)
    except EngineError as error:
        raise DomainError(
            "action",
            error.rule,
            code="online.engine_refused",
            params={"action": str(action), "why": error.message, "rule": error.rule},
        ) from None


def claim_window(state: HandState) -> bool:
    """Whether the hand waits for its last trick's winner: claim or no claim (R12a, R16).
    Nothing of it is recorded before that choice, so no result can change afterwards."""
    return state.is_over and bool(state.legal_actions())


def close_hand(
    t: Tournament, match_id: str, stream: str, state: HandState, *, seat: int,
    actor: str | None = None, clock_now: Clock | None = None,
) -> list[NewEvent]:  # fmt: skip
    """The last trick's winner claims nothing (R16): the hand is won by that player, 1
    game point. Refused, as a move is, once online play stopped, or when the clock
    (``clock_now``) ran out for that seat (T-clock). The caller records the hand's result
    with it, in the same command (:func:`decline_claim`)."""
    table = table_of(t, match_id)
    if table.stopped:
        raise ConflictError("match", RULE, code="online.not_online", params={"match_id": match_id})
    if (
        stream != current_hand(t, match_id)
        or stream in table.closed
        or hand_final(t, stream, state)
        or not claim_window(state)
    ):
        raise ConflictError(
            "hand", "R16", code="online.no_claim_window", params={"match_id": match_id}
        )
    if state.legal_actions()[0].seat != seat:
        raise DomainError("action", "R16", code="online.not_yours_to_close", params={"seat": seat})
    if table.joined_at is None:
        raise ConflictError(
            "seat", RULE, code="online.waiting_for_players", params={"match_id": match_id}
        )
    if clock_now is not None and clock_now.expired:
        raise ConflictError("clock", CLOCK_RULE, code="online.time_ran_out")
    payload = {"match_id": match_id, "hand_stream": stream, "seat": seat}
    return [ev.make_event(ev.LIVE_HAND_CLOSED, payload, actor=actor, source=ev.LIVE)]


def decline_claim(
    t: Tournament, match_id: str, stream: str, events: Sequence[StoredEvent], *, seat: int,
    actor: str | None = None, clock_now: Clock | None = None,
) -> list[NewEvent]:  # fmt: skip
    """No claim after the tenth trick (R16): the window closes and the hand's result (the
    last trick's winner, 1 game point) goes into the match, in one command."""
    state = fold_hand(events)
    closed = close_hand(t, match_id, stream, state, seat=seat, actor=actor, clock_now=clock_now)
    return closed + record_live_hand(t, stream, events, actor=actor)


def restart_clock(
    t: Tournament, match_id: str, *, now: datetime, by: str, actor: str | None = None
) -> list[NewEvent]:
    """The organiser lets play go on after a timeout: the seat to act has its time again."""
    table = table_of(t, match_id)
    stream = current_hand(t, match_id)
    if table.move_seconds is None or stream is None or table.stopped:
        raise ConflictError(
            "clock", CLOCK_RULE, code="online.no_clock", params={"match_id": match_id}
        )
    by = who_and_why(by, None, CLOCK_RULE)[0]  # a name, not too long (T-clock)
    if not by:
        raise DomainError("by", CLOCK_RULE, code="online.restart_says_who")
    payload = {"match_id": match_id, "hand_stream": stream, "at": now.isoformat(), "by": by.strip()}
    return [ev.make_event(ev.ONLINE_CLOCK_RESTARTED, payload, actor=actor, source=ev.LIVE)]


def hand_number(t: Tournament, match_id: str, stream: str) -> int:
    """The hand's place among the online table's hands (1-based), abandoned ones included."""
    table = table_of(t, match_id)
    if stream not in table.hands:
        raise NotFoundError("hand", RULE, code="online.no_such_hand", params={"match_id": match_id})
    return table.hands.index(stream) + 1


# --- seats and devices (T-online) ------------------------------------------------------------
#: Flags on a seat taken (``match.online_seat_taken``'s ``flags``): both seats of a table
#: taken from one device or one address prove no second person (the same browser is
#: refused; a private tab, a second browser or the club's Wi-Fi share the address), and a
#: seat taken again after a release during a hand in play showed that hand to its taker.
BOTH_SEATS_SAME_DEVICE: Final = "seats_same_device"
BOTH_SEATS_SAME_ADDRESS: Final = "seats_same_address"
RETAKEN_IN_HAND: Final = "seat_retaken_in_hand"
BOTH_SEATS_FLAGS: Final = {
    SAME_DEVICE: BOTH_SEATS_SAME_DEVICE,
    SAME_ADDRESS: BOTH_SEATS_SAME_ADDRESS,
}
# A table code is printed on the card between the players, so the code alone is no proof of
# whose seat it is: the first device that opens a seat keeps it. The edge gives that device
# a random token and the domain keeps only the token's SHA-256 (``device``); every later
# view and move of the seat names the same token. The organiser releases a seat whose
# device is gone; the next device to open the code takes it. Both codes lie on one card, so
# one device never holds both seats of a table: the device that holds one is refused the
# other (``online.both_seats``), or one player could see and play the opponent's hand.


def _seat_number(seat: int) -> int:
    if type(seat) is not int or seat not in (0, 1):
        raise DomainError("seat", RULE, code="online.no_such_seat", params={"seat": seat})
    return seat


def seat_device_ok(t: Tournament, match_id: str, seat: int, device_hash: str | None) -> bool:
    """Whether ``device_hash`` is the device that holds ``seat`` (False when nobody does)."""
    table = table_of(t, match_id)
    held = table.devices.get(seat)
    return (
        held is not None and device_hash is not None and secrets.compare_digest(held, device_hash)
    )


def take_seat(
    t: Tournament, match_id: str, seat: int, device_hash: str, *, now: datetime,
    actor: str | None = None, origin: Origin | None = None,
) -> list[NewEvent]:  # fmt: skip
    """The device ``device_hash`` takes ``seat``: nothing when it holds it already, a
    refusal when another device does (``online.seat_taken``) or when it holds the table's
    other seat (``online.both_seats``). The event carries ``at`` (``now``): when the
    second seat is taken, the first hand's clock starts (T-clock).

    ``origin`` (the device's and the address's hashes, as a report keeps them) is kept
    with the seat. What is not refused is flagged for the organiser (:func:`seat_flags`):
    both seats taken from one address -- a private tab or a second browser on one phone,
    or two phones on the club's Wi-Fi -- and a seat taken again after the organiser
    released it during a hand in play (its new device sees that hand)."""
    table = table_of(t, match_id)
    _seat_number(seat)
    held = table.devices.get(seat)
    if held is not None:
        if secrets.compare_digest(held, device_hash):
            return []
        raise ConflictError("seat", RULE, code="online.seat_taken")
    other = table.devices.get(1 - seat)
    if other is not None and secrets.compare_digest(other, device_hash):
        raise ConflictError("seat", RULE, code="online.both_seats", params={"seat": 1 - seat})
    payload: dict[str, Any] = {
        "match_id": match_id, "seat": seat, "device": device_hash, "at": now.isoformat(),
    }  # fmt: skip
    flags = []
    if origin:
        payload["origin"] = dict(origin)
        if other is not None:
            shared = origin_flags(table.origins.get(1 - seat), origin)
            flags += [BOTH_SEATS_FLAGS[f] for f in shared]
    released_by = table.released_in_hand.get(seat)
    if released_by is not None:
        flags.append(RETAKEN_IN_HAND)
        payload["released_by"] = released_by
    if flags:
        payload["flags"] = flags
    return [ev.make_event(ev.ONLINE_SEAT_TAKEN, payload, actor=actor, source=ev.LIVE)]


def release_seat(
    t: Tournament, match_id: str, seat: int, *, by: str, actor: str | None = None
) -> list[NewEvent]:
    """The organiser frees ``seat`` (its device is gone): the next device to open the
    code takes it -- and sees the seat's cards of the hand in play, so a release during a
    hand is marked (``in_hand``) and the seat's next taker is flagged for the organiser,
    and named to the other seat (:func:`retaken_by`). The clock goes on (T-clock)."""
    table = table_of(t, match_id)
    _seat_number(seat)
    if not by.strip():
        raise DomainError("by", RULE, code="online.release_says_who")
    if seat not in table.devices:
        raise ConflictError(
            "seat", RULE, code="online.seat_not_taken", params={"seat": seat, "match_id": match_id}
        )
    payload: dict[str, Any] = {"match_id": match_id, "seat": seat, "by": by.strip()}
    running = t.live_in_progress(match_id)
    if running is not None and not table.stopped:
        payload["in_hand"] = running
    return [ev.make_event(ev.ONLINE_SEAT_RELEASED, payload, actor=actor, source=ev.LIVE)]


def seat_flags(t: Tournament, match_id: str) -> list[SeatFlag]:
    """What the organiser should look at in how ``match_id``'s seats were taken (the desk's
    online page and queue show it; the audit log shows the events' ``flags``)."""
    table = t.online.get(match_id)
    return list(table.flags) if table is not None else []


def retaken_by(t: Tournament, match_id: str, seat: int) -> list[str]:
    """Who released ``seat`` during a hand in play before another device took it: the
    names the *other* seat's page shows (it plays against whoever holds the seat now)."""
    return [
        f.by or "" for f in seat_flags(t, match_id) if f.seat == seat and f.flag == RETAKEN_IN_HAND
    ]


def seat_of_device(t: Tournament, match_id: str, device_hash: str | None) -> int | None:
    """The seat of the table ``device_hash`` holds (None: none, or not an online table):
    such a device is refused the room's view of its own table, which shows more than a
    seat may see."""
    table = t.online.get(match_id)
    if table is None or device_hash is None:
        return None
    for seat, held in table.devices.items():
        if secrets.compare_digest(held, device_hash):
            return seat
    return None


def refuse_own_table(t: Tournament, match_id: str, device_hash: str | None) -> None:
    """The room's view of a table shows more than a seat may see: refused (409
    ``online.own_table``) to a device that holds a seat at it (P1)."""
    if seat_of_device(t, match_id, device_hash) is not None:
        raise ConflictError("seat", RULE, code="online.own_table")


def refuse_seat_not_held(t: Tournament, match_id: str, seat: int) -> NoReturn:
    """A device that does not hold ``seat`` reads nothing of it: 409
    ``online.take_seat_first`` while nobody holds it (a read takes no seat: taking one is a
    POST, AE-1), else ``online.seat_taken``."""
    if table_of(t, match_id).devices.get(seat) is None:
        raise ConflictError("seat", RULE, code="online.take_seat_first")
    raise ConflictError("seat", RULE, code="online.seat_taken")


def joined(t: Tournament, match_id: str) -> list[bool]:
    """Per seat, whether a device holds it now (the desk shows it; no token, no code)."""
    table = table_of(t, match_id)
    return [0 in table.devices, 1 in table.devices]


def _takes_results(t: Tournament, match: MatchState) -> bool:
    try:
        takes_results(t, match)
    except DomainError:
        return False
    return True

"""Online tables at the edge (T-online): read a table, make a move, deal the next hand.

The rules are the domain's (:mod:`tournament.domain.commands.online`, the engine); this module does
the I/O around them. A move is appended to the hand's stream with the version the player
saw as the expected version, so a double click or a second tab never makes two moves:
the second finds the stream moved on and is refused (409). When the engine says the hand
is over, its result goes into the match through the tournament's lock
(:meth:`TournamentService.execute`) exactly like a paper result, and the next hand is
dealt there and then, until the match is decided.

Hands are folded once per process and version (:class:`HandCache`): a screen that wakes
reads only the events appended since. Each change wakes every screen of the table in
this process's ``tables`` hub (:class:`tournament.play.hub.TableHub`) -- a move or a
claim handing it the table as it left it, which the screens share instead of reading
it (speed P5) -- and calls ``announce`` with the table's key
(:func:`tournament.play.hub.table_key`: other processes' screens, on Redis).
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import hashlib
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from engine import Action, EngineError, HandState
from tournament.app.service import TournamentService
from tournament.domain.commands import online
from tournament.domain.commands.live import abandon_live_hand, record_live_hand
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.domain.model.hands import action_event, apply_hand_event
from tournament.domain.model.state import Tournament
from tournament.domain.views.onlineview import TableMoment
from tournament.eventstore.api import NO_STREAM, ConcurrencyError, StoredEvent
from tournament.play.hub import UNWATCHED, TableHub, table_key

log = logging.getLogger(__name__)

Metadata = Mapping[str, Any]
NOT_A_MOVE = "a move is an action object or its notation"
#: Sweeps in a row a table may fail (its store away) before the sweep forgets it.
SWEEP_TRIES = 3


@dataclasses.dataclass(frozen=True)
class Hand:
    """A hand stream folded up to ``version``; ``last_at``: when its last event was stored."""

    stream: str
    version: int
    state: HandState
    last_at: datetime
    events: tuple[StoredEvent, ...]


class HandCache:
    """Folded hands by stream, refreshed from the events appended since (bounded LRU)."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._hands: OrderedDict[str, Hand] = OrderedDict()
        self._lock = threading.Lock()

    def read(self, store: Any, stream: str, *, settled: bool = False) -> Hand:
        """The hand now; ``settled``: the caller knows it can no longer change (a hand
        before the table's current one), so a cached one is returned without a query."""
        with self._lock:
            known = self._hands.get(stream)
        if known is not None and (settled or not known.state.to_act):
            # Over for good (no seat may act: ended, or a hand the table has left):
            # nothing can be appended to it any more (T-online refuses a move there).
            return known
        start = known.version + 1 if known else 1
        new = store.read_stream(stream, start)
        if known is not None and not new:
            return known
        return self.extend(stream, known, new)

    def extend(self, stream: str, known: Hand | None, new: Sequence[StoredEvent]) -> Hand:
        """``known`` (None: the hand from its start) with ``new``, its next events, folded
        in and kept."""
        if known is not None and not new:
            return known
        state = known.state if known else None
        for event in new:
            state = apply_hand_event(state, event)
        if state is None:
            raise ConflictError(
                "hand", online.RULE, code="online.no_such_hand", params={"match_id": stream}
            )
        events = (known.events if known else ()) + tuple(new)
        hand = Hand(stream, events[-1].version, state, events[-1].recorded_at, events)
        with self._lock:
            current = self._hands.get(stream)
            if current is None or current.version < hand.version:
                self._hands[stream] = hand
            self._hands.move_to_end(stream)
            while len(self._hands) > self.size:
                self._hands.popitem(last=False)
        return hand


@dataclasses.dataclass
class _Snapshot:
    """What one request read of the store, and the hands it moved (:meth:`PlayService.snapshot`)."""

    states: dict[str, Tournament] = dataclasses.field(default_factory=dict)
    hands: dict[str, Hand] = dataclasses.field(default_factory=dict)
    #: The table hub's mark before anything was read (:meth:`PlayService._since`).
    mark: int = UNWATCHED


_SNAPSHOT: contextvars.ContextVar[_Snapshot | None] = contextvars.ContextVar(
    "play_snapshot", default=None
)


class PlayService:
    """Online tables of the tournaments in ``tournaments``' store."""

    def __init__(
        self,
        tournaments: TournamentService,
        announce: Callable[[str], object] | None = None,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        tables: TableHub | None = None,
    ) -> None:
        self.tournaments = tournaments
        self.store = tournaments.store
        self.announce = announce or (lambda key: None)
        #: This process's screens, woken (and handed the table) before ``announce``.
        self.tables = tables
        self.now = now
        self.hands = HandCache()
        #: The tables this process has shown or moved (the sweep's round): a table in play
        #: has its phones' live streams open here, which reconnect after a crash.
        self._tables: dict[tuple[str, str], None] = {}
        self._tables_lock = threading.Lock()
        self._failures: dict[tuple[str, str], int] = {}

    # --- reading ------------------------------------------------------------------------
    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """Within it (one request: a move, its seat's check and the table it answers),
        the tournament and each hand are read from the store once, not at every look
        (a move asked the store five times for new events, speed P5); a hand this
        service appends to is folded on from what it appended, and every command through
        the tournament's lock forgets what was read (the next look reads again)."""
        token = _SNAPSHOT.set(_Snapshot(mark=self._mark()))
        try:
            yield
        finally:
            _SNAPSHOT.reset(token)

    def seen(self, t: Tournament) -> None:
        """``t``, the tournament as the caller just read it from the store (inside this
        request's :meth:`snapshot`, after it began): the snapshot's, not read again.
        Outside a snapshot, nothing."""
        held = _SNAPSHOT.get()
        if held is not None:
            held.states.setdefault(t.id, t)

    def _state(self, tournament_id: str) -> Tournament:
        held = _SNAPSHOT.get()
        if held is not None and tournament_id in held.states:
            return held.states[tournament_id]
        t = self.tournaments.state(tournament_id)
        if held is not None:
            held.states[tournament_id] = t
        return t

    def _hand(self, stream: str, *, settled: bool = False) -> Hand:
        held = _SNAPSHOT.get()
        if held is not None and stream in held.hands:
            return held.hands[stream]
        hand = self.hands.read(self.store, stream, settled=settled)
        if held is not None:
            held.hands[stream] = hand
        return hand

    def _execute(
        self, tournament_id: str, command: Callable[[Tournament], Any], *, metadata: Metadata
    ) -> None:
        """A command through the tournament's lock; what the request read is forgotten,
        before (the command decides on what the store holds under the lock, as without a
        snapshot) and after (its events are read on the next look)."""
        self._forget()
        try:
            self.tournaments.execute(tournament_id, command, metadata=metadata)
        finally:
            self._forget()

    @staticmethod
    def _forget() -> None:
        held = _SNAPSHOT.get()
        if held is not None:
            held.states.clear()
            held.hands.clear()

    def _mark(self) -> int:
        return UNWATCHED if self.tables is None else self.tables.mark()

    def _since(self) -> int:
        """The hub's mark before this write read anything (its snapshot's, which may
        hold a tournament read before the write began): the table it answers is shared
        with the screens only if nothing else was announced meanwhile
        (:meth:`TableHub.deliver`)."""
        held = _SNAPSHOT.get()
        return held.mark if held is not None else self._mark()

    def _announce(
        self, tournament_id: str, match_id: str, moment: TableMoment | None = None,
        since: int = UNWATCHED,
    ) -> None:  # fmt: skip
        """The table changed: this process's screens wake (handed ``moment``, the table
        as the write left it, if given) and ``announce`` tells the others."""
        key = table_key(tournament_id, match_id)
        if self.tables is not None:
            self.tables.deliver(key, moment, since)
        self.announce(key)

    def moment(self, tournament_id: str, match_id: str) -> TableMoment:
        """The table now, as stored. A read never writes: a hand a crash left unrecorded,
        or a deal it kept back, is made good by the table's next write (:meth:`repair`
        first thing in every move and decision) or by the background sweep
        (:meth:`sweep`), never by a reader (a link preview must change nothing)."""
        t = self._state(tournament_id)
        online.table_of(t, match_id)
        with self._tables_lock:
            self._tables[(tournament_id, match_id)] = None
        return self._moment(t, match_id, self._current(t, match_id))

    def repair(self, tournament_id: str, match_id: str, metadata: Metadata | None = None) -> bool:
        """Make good what a crash interrupted at the table: the hand's last move stored
        and its result not (recorded now, as the move's own request would have), or the
        next hand not dealt (dealt now). Whether it wrote anything. Refused (the match
        moved on meanwhile), the table is left as it is."""
        return self._repair(tournament_id, match_id, metadata)[0]

    def _repair(
        self, tournament_id: str, match_id: str, metadata: Metadata | None = None
    ) -> tuple[bool, Tournament, Hand | None]:
        """:meth:`repair`, and the tournament and hand it read last (when it wrote
        nothing, they are the table now: a move needs no second look, speed P5)."""
        meta = {"source": ev.LIVE, "match_id": match_id, **(metadata or {})}
        t = self._state(tournament_id)
        online.table_of(t, match_id)
        hand = self._current(t, match_id)
        wrote = False
        if hand is not None and _unsettled(t, hand):
            try:
                self._settle(tournament_id, match_id, hand.stream, meta)
                wrote = True
            except DomainError as error:
                log.warning("play: hand %s not recorded: %s", hand.stream, error)
            t = self._state(tournament_id)
            hand = self._current(t, match_id)
        if online.needs_deal(t, match_id, hand.state if hand else None):
            self._deal(tournament_id, match_id, hand, meta)
            wrote = True
        if wrote:
            self._announce(tournament_id, match_id)
        return wrote, t, hand

    def sweep(self) -> list[str]:
        """Repair every online table this process has shown that is still in play (the
        background sweep, every few seconds: a hand a crash interrupted is never left
        waiting for a write that cannot come, as when the hand is over and nobody may
        move). After a restart a table is known again as soon as a screen reads it (the
        phones' live streams reconnect by themselves). The tables repaired, as
        ``tournament/match``; finished ones are forgotten."""
        with self._tables_lock:
            tables = list(self._tables)
        repaired = []
        for tid, mid in tables:
            try:
                with self.snapshot():  # the tournament read once per table, not twice
                    t = self._state(tid)
                    table = online.table_of(t, mid)
                    match = t.matches[mid]
                    if table.stopped or match.decided:
                        with self._tables_lock:
                            self._tables.pop((tid, mid), None)
                        continue
                    if self.repair(tid, mid, {"via": "sweep"}):
                        repaired.append(f"{tid}/{mid}")
            except Exception as error:  # the store away, the tournament gone: try again,
                # a few times; then forget it until a screen reads it again
                failed = self._failures.get((tid, mid), 0) + 1
                self._failures[(tid, mid)] = failed
                if failed >= SWEEP_TRIES:
                    with self._tables_lock:
                        self._tables.pop((tid, mid), None)
                    self._failures.pop((tid, mid), None)
                log.warning("play: table %s/%s not repaired: %s", tid, mid, error)
            else:
                self._failures.pop((tid, mid), None)
        return repaired

    def hand_at(self, tournament_id: str, match_id: str, number: int) -> tuple[Tournament, Hand]:
        """Hand ``number`` (1-based) of the table, for its record and replay."""
        t = self._state(tournament_id)
        table = online.table_of(t, match_id)
        if not 1 <= number <= len(table.hands):
            raise ConflictError(
                "hand", online.RULE, code="online.no_such_hand", params={"match_id": match_id}
            )
        return t, self._hand(table.hands[number - 1])

    def _current(self, t: Tournament, match_id: str) -> Hand | None:
        stream = online.current_hand(t, match_id)
        return None if stream is None else self._hand(stream)

    def _moment(self, t: Tournament, match_id: str, hand: Hand | None) -> TableMoment:
        table = online.table_of(t, match_id)
        now = self.now()
        if hand is None:
            clock = online.Clock(table.move_seconds, None, False)
            return TableMoment(t, match_id, None, None, 0, 0, clock)
        clock = online.clock(t, match_id, hand.stream, hand.state, hand.last_at, now)
        number = table.hands.index(hand.stream) + 1
        previous = previous_dealer = None
        if number > 1:
            before = self._hand(table.hands[number - 2], settled=True)
            previous, previous_dealer = before.state.outcome(), before.state.dealer
        return TableMoment(
            t, match_id, hand.stream, hand.state, hand.version, number, clock,
            previous, previous_dealer,
        )  # fmt: skip

    # --- the players' moves -------------------------------------------------------------
    def act(
        self, tournament_id: str, match_id: str, seat: int, action: Any, expected_version: int,
        metadata: Metadata | None = None,
    ) -> TableMoment:  # fmt: skip
        """``seat`` plays ``action`` (a record action object, or its notation ``1:AH``)
        on the hand at ``expected_version``; the table afterwards."""
        meta = {"source": ev.LIVE, "match_id": match_id, **(metadata or {})}
        since = self._since()
        wrote, t, hand = self._repair(tournament_id, match_id, meta)  # a crash made good
        if wrote:
            since = UNWATCHED  # (announced: the screens read the table themselves)
        if wrote:
            moment = self.moment(tournament_id, match_id)
        else:  # the table as the repair read it
            with self._tables_lock:
                self._tables[(tournament_id, match_id)] = None
            moment = self._moment(t, match_id, hand)
        if moment.stream is None or moment.state is None:
            raise ConflictError(
                "hand", online.RULE, code="online.no_deal_now", params={"match_id": match_id}
            )
        move = parse_action(action, seat)
        after = online.check_move(
            moment.t, match_id, moment.stream, moment.state, move, seat=seat,
            expected_version=expected_version, version=moment.version, clock_now=moment.clock,
        )  # fmt: skip
        try:
            stored = self.store.append(moment.stream, [action_event(move, meta)], moment.version)
        except ConcurrencyError:
            raise ConflictError(
                "version", online.RULE, code="online.table_moved_on",
                params={"expected": expected_version, "version": moment.version + 1},
            ) from None  # fmt: skip
        held = _SNAPSHOT.get()
        if held is not None:  # the hand as this move left it, without reading it back
            known = held.hands.get(moment.stream)
            if known is not None and known.version == moment.version:
                held.hands[moment.stream] = self.hands.extend(moment.stream, known, stored)
        if after.is_over and not online.claim_window(after):
            self._settle(tournament_id, match_id, moment.stream, meta)
        answer = self.moment(tournament_id, match_id)
        self._announce(tournament_id, match_id, answer, since)
        return answer

    def decline_claim(
        self, tournament_id: str, match_id: str, seat: int, expected_version: int,
        metadata: Metadata | None = None,
    ) -> TableMoment:  # fmt: skip
        """After the last trick its winner claims nothing (R16): the next hand is dealt."""
        meta = {"source": ev.LIVE, **(metadata or {})}
        since = self._since()
        if self.repair(tournament_id, match_id, meta):
            since = UNWATCHED
        moment = self.moment(tournament_id, match_id)
        stream, state = moment.stream, moment.state
        if stream is None or state is None:
            raise ConflictError(
                "hand", "R16", code="online.no_claim_window", params={"match_id": match_id}
            )
        if expected_version != moment.version:
            raise ConflictError(
                "version", online.RULE, code="online.table_moved_on",
                params={"expected": expected_version, "version": moment.version},
            )  # fmt: skip
        self._execute(
            tournament_id,
            lambda t: online.decline_claim(
                t, match_id, stream, self._hand(stream).events, seat=seat,
                clock_now=moment.clock,
            ),
            metadata=meta,
        )  # fmt: skip
        hand = self._hand(stream)
        self._deal(tournament_id, match_id, hand, meta)
        answer = self.moment(tournament_id, match_id)
        self._announce(tournament_id, match_id, answer, since)
        return answer

    def _settle(self, tournament_id: str, match_id: str, stream: str, meta: Metadata) -> None:
        """The hand's result into the match (as a paper result), then the next deal."""
        self._execute(
            tournament_id,
            lambda t: record_live_hand(t, stream, self._hand(stream).events),
            metadata=meta,
        )
        self._deal(tournament_id, match_id, self._hand(stream), meta)

    def _deal(self, tournament_id: str, match_id: str, hand: Hand | None, meta: Metadata) -> None:
        t = self._state(tournament_id)
        state = hand.state if hand else None
        if not online.needs_deal(t, match_id, state):
            return
        stream, dealt, started = online.deal_next(t, match_id, state)
        self.store.append(stream, ev.stamped(dealt, meta), NO_STREAM)

        def start(now: Tournament) -> list[Any]:
            # Checked again under the lock: another screen may have dealt meanwhile; its
            # hand counts and this stream stays an orphan nobody plays.
            latest = self._current(now, match_id)
            if not online.needs_deal(now, match_id, latest.state if latest else None):
                return []
            return started

        self._execute(tournament_id, start, metadata=meta)

    # --- seats and devices (T-online) -----------------------------------------------------
    def join(
        self, tournament_id: str, match_id: str, seat: int, token: str | None,
        metadata: Metadata | None = None, *, address: str | None = None,
    ) -> str:  # fmt: skip
        """The device with ``token`` (None: a device new here, given a fresh one) takes
        ``seat`` if nobody holds it (the tournament keeps only the token's hash), or
        proves it holds it. Refused: another device holds it (409 ``online.seat_taken``),
        or this device holds the table's other seat (409 ``online.both_seats``). Only a
        write calls this (a POST): opening a link takes nothing. The token to keep.

        ``address`` is the keyed hash of the caller's network address (as a report's
        origin keeps it): both seats taken from one address are flagged, not refused."""
        t = self._state(tournament_id)
        if token is not None and online.seat_device_ok(t, match_id, seat, device_hash(token)):
            return token
        mine = token or secrets.token_urlsafe(24)
        origin = {"device": device_hash(mine), **({"address": address} if address else {})}
        now = self.now()
        meta = {"source": ev.LIVE, **(metadata or {})}
        self.repair(tournament_id, match_id, meta)
        self._execute(
            tournament_id,
            lambda t: online.take_seat(
                t, match_id, seat, device_hash(mine), now=now, origin=origin
            ),
            metadata=meta,
        )
        self._announce(tournament_id, match_id)
        return mine

    def holds(
        self, tournament_id: str, match_id: str, seat: int, tokens: Sequence[str | None]
    ) -> bool:
        """Whether one of ``tokens`` (a device may send its device token and an older
        seat token) is the device that holds ``seat``."""
        t = self._state(tournament_id)
        return any(
            online.seat_device_ok(t, match_id, seat, device_hash(token))
            for token in tokens
            if token
        )

    def check_seat(
        self, tournament_id: str, match_id: str, seat: int, token: str | None,
        *more: str | None,
    ) -> None:  # fmt: skip
        """Refused (409 ``online.seat_taken``) unless ``token`` (or one of ``more``) is
        the device holding ``seat``."""
        if not self.holds(tournament_id, match_id, seat, (token, *more)):
            raise ConflictError("seat", online.RULE, code="online.seat_taken")

    def release_seat(
        self, tournament_id: str, match_id: str, seat: int, *, by: str,
        metadata: Metadata | None = None, actor: str | None = None,
    ) -> None:  # fmt: skip
        """The organiser frees ``seat``: the next device that opens its code takes it."""
        self._execute(
            tournament_id,
            lambda t: online.release_seat(t, match_id, seat, by=by, actor=actor),
            metadata=dict(metadata or {}),
        )
        self._announce(tournament_id, match_id)

    # --- the organiser's decisions --------------------------------------------------------
    def start(
        self, tournament_id: str, match_id: str, *, move_seconds: int | None,
        metadata: Metadata | None = None, actor: str | None = None,
    ) -> TableMoment:  # fmt: skip
        meta = dict(metadata or {})
        self._execute(
            tournament_id,
            lambda t: online.start_online(t, match_id, move_seconds=move_seconds, actor=actor),
            metadata=meta,
        )
        self._deal(tournament_id, match_id, None, meta)
        self._announce(tournament_id, match_id)
        return self.moment(tournament_id, match_id)

    def stop(
        self, tournament_id: str, match_id: str, *, by: str, reason: str,
        metadata: Metadata | None = None, actor: str | None = None,
    ) -> None:  # fmt: skip
        self._execute(
            tournament_id,
            lambda t: online.stop_online(t, match_id, by=by, reason=reason, actor=actor),
            metadata=dict(metadata or {}),
        )
        self._announce(tournament_id, match_id)

    def restart_clock(
        self, tournament_id: str, match_id: str, *, by: str,
        metadata: Metadata | None = None, actor: str | None = None,
    ) -> None:  # fmt: skip
        now = self.now()
        self._execute(
            tournament_id,
            lambda t: online.restart_clock(t, match_id, now=now, by=by, actor=actor),
            metadata=dict(metadata or {}),
        )
        self._announce(tournament_id, match_id)

    def abandon_hand(
        self, tournament_id: str, match_id: str, *, by: str, reason: str,
        metadata: Metadata | None = None, actor: str | None = None,
    ) -> TableMoment:  # fmt: skip
        """The hand in play never counts; the same dealer deals again (R18)."""
        meta = dict(metadata or {})
        t = self._state(tournament_id)
        if online.table_of(t, match_id).stopped:  # the rest is on paper: nothing to abandon
            raise ConflictError(
                "match", online.RULE, code="online.not_online", params={"match_id": match_id}
            )
        stream = online.current_hand(t, match_id)
        if stream is None:
            raise ConflictError(
                "hand", online.RULE, code="online.no_deal_now", params={"match_id": match_id}
            )
        self._execute(
            tournament_id,
            lambda now: abandon_live_hand(now, stream, by=by, reason=reason, actor=actor),
            metadata=meta,
        )
        self._deal(tournament_id, match_id, self._hand(stream), meta)
        self._announce(tournament_id, match_id)
        return self.moment(tournament_id, match_id)


def device_hash(token: str) -> str:
    """What the tournament keeps of a device token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def _unsettled(t: Tournament, hand: Hand) -> bool:
    """Whether the match lacks the result the hand's stream says: over and not recorded,
    or a claim after the tenth trick (R16) stored while a provisional result stands (a
    hand recorded before the claim window was kept open unrecorded)."""
    state = hand.state
    if not state.is_over or hand.stream in t.live_abandoned:
        return False
    if online.claim_window(state) and hand.stream not in t.live_results:
        return False  # the last trick's winner has not chosen yet (R16): nothing to record
    result = t.live_results.get(hand.stream)
    if result is None:  # unless the match was decided without it (R20)
        return not online.halted(t, hand.stream)
    try:
        _, entry = t.entry(result)
    except (KeyError, StopIteration):  # struck or voided since: not ours to redo
        return False
    recorded = (entry.payload or {}).get("reason")
    return recorded == "last_trick" and state.outcome().reason != "last_trick"


def parse_action(action: Any, seat: int) -> Action:
    """A move as sent: a record action object, or its notation (``AH`` plays for the
    sender's seat, ``1:AH`` names it); a clear refusal (R0) for anything else."""
    try:
        if isinstance(action, str):
            text = action.strip()
            return Action.parse(text if ":" in text else f"{seat}:{text}")
        if isinstance(action, Mapping):
            return Action.from_json({"seat": seat, **action})
    except EngineError as error:
        raise DomainError(
            "action", error.rule, code="online.engine_refused",
            params={"action": str(action)[:40], "why": error.message, "rule": error.rule},
        ) from None  # fmt: skip
    raise DomainError(
        "action", "R0", code="online.engine_refused",
        params={"action": str(action)[:40], "why": NOT_A_MOVE, "rule": "R0"},
    )  # fmt: skip

"""Which online seat a table code opens (T-code, T-online), at the edge.

The players of an online table open it with the code printed on their table card, the
same code that reports a paper result (:mod:`tournament.web.tablecodes`). A code of a
closed round still opens its seat here, read-only in effect: the match is over, and the
players still see how it ended. Found seats are kept per tournament version, so a move
costs one dictionary look-up, not an HMAC per table of the round.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from flask import current_app

from tournament.app.services import services
from tournament.domain.commands.online import table_of
from tournament.domain.commands.tablecodes import TableSeat, code_for, normalized, resolve
from tournament.domain.model.reportbook import draw_of
from tournament.domain.model.state import Tournament
from tournament.web.tablecodes import codes_stamp, index, secret

KEY = "play_codes"


class SeatCache:
    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._seats: OrderedDict[str, tuple[str, int, TableSeat]] = OrderedDict()
        self._codes: dict[str, tuple[tuple[object, ...], dict[str, TableSeat]]] = {}

    def get(self, code: str) -> tuple[str, int, TableSeat] | None:
        """The tournament, its :func:`_stamp` when found, and the seat of ``code``."""
        with self._lock:
            return self._seats.get(code)

    def codes(self, secret: bytes, t: Tournament) -> dict[str, TableSeat]:
        """Every code that opens a seat of ``t`` now (the current generation of each
        match of the latest two rounds, as :func:`resolve` with ``open_only=False``
        accepts), worked out once per drawing and revocation: a seat's first visit
        costs a look-up, not an HMAC per code of the round (400 at 200 tables)."""
        key = codes_stamp(t)
        with self._lock:
            known = self._codes.get(t.id)
        if known is not None and known[0] == key:
            return known[1]
        found: dict[str, TableSeat] = {}
        latest = t.current_round
        for number in (latest - 1, latest):  # the latest round's codes win a clash
            if number < 1:
                continue
            draw = draw_of(t, number)
            for mid in t.rounds[number - 1].matches:
                generation = t.reports.generations.get(mid, 0)
                match = t.matches[mid]
                for seat in (0, 1):
                    code = code_for(secret, t.id, mid, seat=seat, draw=draw, generation=generation)
                    found[code] = TableSeat(mid, seat, match.players[seat])
        with self._lock:
            self._codes[t.id] = (key, found)
        return found

    def put(self, code: str, tid: str, stamp: int, seat: TableSeat) -> None:
        with self._lock:
            self._seats[code] = (tid, stamp, seat)
            self._seats.move_to_end(code)
            while len(self._seats) > self.size:
                self._seats.popitem(last=False)


def _cache() -> SeatCache:
    found = current_app.extensions.get(KEY)
    if found is None:
        found = current_app.extensions.setdefault(KEY, SeatCache())
    assert isinstance(found, SeatCache)
    return found


def online_seat(code: str) -> tuple[str, Tournament, TableSeat]:
    """The tournament, its state and the seat ``code`` opens at an online table; a
    DomainError (T-code: unknown, revoked; T-online: the match is not played online)."""
    wanted = normalized(code)
    cache = _cache()
    service = services().tournaments
    known = cache.get(wanted)
    if known is not None:  # still good while no round was drawn and no code revoked since
        tid = known[0]
        t = service.state(tid)
        if _stamp(t, known[2]) == known[1] and known[2].match_id in t.online:
            return tid, t, known[2]
    tid = index().tournament_of(wanted)
    t = service.state(tid)
    with service.reading():
        seat = cache.codes(secret(), t).get(wanted)
        if seat is None:  # unknown or revoked: resolve() says which (T-code)
            seat = resolve(secret(), t, wanted, open_only=False)
        table_of(t, seat.match_id)
        cache.put(wanted, tid, _stamp(t, seat), seat)
    return tid, t, seat


def _stamp(t: Tournament, seat: TableSeat) -> int:
    """What a code's seat depends on, in one number: the rounds drawn (a cancelled and
    redrawn round counts again) and the match's code generation (T-code)."""
    draws = len(t.rounds) + len(t.cancellations)
    return draws * 1_000_003 + t.reports.generations.get(seat.match_id, 0)

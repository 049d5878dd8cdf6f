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

from tournament.domain.online import table_of
from tournament.domain.state import Tournament
from tournament.domain.tablecodes import TableSeat, normalized, resolve
from tournament.web.services import services
from tournament.web.tablecodes import index, secret

KEY = "play_codes"


class SeatCache:
    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._seats: OrderedDict[str, tuple[str, int, TableSeat]] = OrderedDict()

    def get(self, code: str) -> tuple[str, int, TableSeat] | None:
        """The tournament, its version when found, and the seat of ``code``, if known."""
        with self._lock:
            return self._seats.get(code)

    def put(self, code: str, tid: str, version: int, seat: TableSeat) -> None:
        with self._lock:
            self._seats[code] = (tid, version, seat)
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
    if known is not None:  # still good while the tournament has not changed since
        tid = known[0]
        t = service.state(tid)
        if t.version == known[1]:
            return tid, t, known[2]
    tid = index().tournament_of(wanted)
    t = service.state(tid)
    with service.reading():
        seat = resolve(secret(), t, wanted, open_only=False)
        table_of(t, seat.match_id)
    cache.put(wanted, tid, t.version, seat)
    return tid, t, seat

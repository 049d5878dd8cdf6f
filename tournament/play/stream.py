"""One screen's Server-Sent Events of an online table: what it shows, each time it changes.

The page and the API share this loop and differ only in ``render`` (HTML to swap, or the
JSON view). Each message is the whole screen for that reader, worked out from the table
afresh, so a reconnect or a reload continues where the table is, and a phone that slept
through ten moves gets the newest state once. A wake-up that changes nothing for this
reader sends nothing (a spectator's screen does not move when a seat's clock is
restarted, say); a quiet table sends a comment every ``keepalive`` seconds, and the
screen is worked out again when the clock runs out, so "time is up" shows without a move.

The table itself is read once per change for all its screens (:meth:`TableHub.moment`,
speed P5): both seats and the room's screens share one snapshot, and each screen's
``render`` shows only what its reader may see (a seat's own cards, never the other's;
the room none). A screen that was quiet for its whole ``keepalive`` looks at the store
again (a change nobody announced shows within that).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime

from tournament.app.play import PlayService
from tournament.domain.model.errors import DomainError
from tournament.domain.views.onlineview import TableMoment
from tournament.live.departure import Departure
from tournament.play.hub import TableHub, table_key

#: Seconds a table's snapshot serves a screen that was not woken for it (its first look,
#: or one after a quiet keep-alive or a clock's deadline).
FRESH = 1.0

#: A reader's screen as SSE: the event's name and its data (any text, lines split here).
Render = Callable[[TableMoment], tuple[str, str]]


def sse(event: str, data: str, event_id: str | None = None) -> str:
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines += [f"data: {line}" for line in data.split("\n")]
    return "\n".join(lines) + "\n\n"


def table_events(
    play: PlayService,
    tables: TableHub,
    tournament_id: str,
    match_id: str,
    render: Render,
    *,
    keepalive: float = 15.0,
    now: Callable[[], datetime] | None = None,
    departure: Departure | None = None,
) -> Iterator[str]:
    """The stream (a generator for a streamed response); ends when the hub closes, or
    when ``departure`` says the reader left (:mod:`tournament.live.departure`; where the
    server cannot tell, the next write to a closed connection ends it): a closed tab
    frees its place at once under gevent, within a second under threads."""
    clock = now or play.now
    departure = departure or Departure()
    gone = departure.gone
    key = table_key(tournament_id, match_id)
    listener = tables.subscribe(key)
    stop_watching = departure.watch(listener.wake)
    if departure.look_every is not None:  # the server tells only when asked: the hub's
        # one lookout asks for every stream (a thread waking a second per stream was
        # most of a quiet table's cost, speed P5)
        stop_looking = tables.look_after(gone, listener.wake, departure.look_every)
    else:
        stop_looking = _nothing

    def read() -> TableMoment:
        return play.moment(tournament_id, match_id)

    def usable(moment: TableMoment) -> bool:  # a kept snapshot whose clock ran out since
        deadline = moment.clock.deadline
        return deadline is None or moment.clock.expired or clock() < deadline

    try:
        yield "retry: 2000\n\n"
        last: tuple[str, str] | None = None
        # The first look, and one after a quiet ``keepalive``, takes a snapshot only
        # if it is fresh (another screen's of a moment ago); a wake-up takes the one
        # of the table's generation, however old.
        max_age: float | None = FRESH
        while not tables.closed and not gone():
            try:
                moment: TableMoment = tables.moment(key, read, max_age=max_age, usable=usable)
            except DomainError as error:  # the table is gone (round cancelled, say)
                yield sse("gone", error.message)
                return
            shown = render(moment)
            if shown != last:
                yield sse(*shown, event_id=f"{moment.number}.{moment.version}")
                last = shown
            wait = keepalive
            deadline = moment.clock.deadline
            if deadline is not None and not moment.clock.expired:
                wait = max(0.05, min(wait, (deadline - clock()).total_seconds() + 0.05))
            woke = listener.wait(wait)
            if gone():
                return
            max_age = None if woke else FRESH
            # Quiet for a whole ``keepalive``: a comment, also while a clock runs (a
            # deadline minutes away must not starve the connection); woken by the
            # deadline instead, the screen is worked out again at once.
            if not woke and wait >= keepalive:
                yield ": keep-alive\n\n"
    finally:
        stop_looking()
        stop_watching()
        listener.close()


def _nothing() -> None:
    pass

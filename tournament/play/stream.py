"""One screen's Server-Sent Events of an online table: what it shows, each time it changes.

The page and the API share this loop and differ only in ``render`` (HTML to swap, or the
JSON view). Each message is the whole screen for that reader, worked out from the table
afresh, so a reconnect or a reload continues where the table is, and a phone that slept
through ten moves gets the newest state once. A wake-up that changes nothing for this
reader sends nothing (a spectator's screen does not move when a seat's clock is
restarted, say); a quiet table sends a comment every ``keepalive`` seconds, and the
screen is worked out again when the clock runs out, so "time is up" shows without a move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime

from tournament.app.play import PlayService
from tournament.domain.model.errors import DomainError
from tournament.domain.views.onlineview import TableMoment
from tournament.live.departure import Departure
from tournament.play.hub import TableHub, TableListener, table_key

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
    listener = tables.subscribe(table_key(tournament_id, match_id))
    stop_watching = departure.watch(listener.wake)
    try:
        yield "retry: 2000\n\n"
        last: tuple[str, str] | None = None
        while not tables.closed and not gone():
            try:
                moment = play.moment(tournament_id, match_id)
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
            woke = _wait(listener, wait, departure)
            if gone():
                return
            # Quiet for a whole ``keepalive``: a comment, also while a clock runs (a
            # deadline minutes away must not starve the connection); woken by the
            # deadline instead, the screen is worked out again at once.
            if not woke and wait >= keepalive:
                yield ": keep-alive\n\n"
    finally:
        stop_watching()
        listener.close()


def _wait(listener: TableListener, seconds: float, departure: Departure) -> bool:
    """Wait for a wake-up, looking as often as ``departure`` needs whether the reader
    is still there."""
    if departure.look_every is None:
        return listener.wait(seconds)
    left = seconds
    while left > 0:
        step = min(departure.look_every, left)
        if listener.wait(step):
            return True
        if departure.gone():
            return False
        left -= step
    return False

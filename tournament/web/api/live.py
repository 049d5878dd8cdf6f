"""``GET /api/v1/tournaments/{tid}/live``: the tournament's changes as Server-Sent Events.

Each event says what changed and the version it is at (``id:``), never the table itself:
a client fetches what it shows (``GET .../standings`` with its ``ETag``: a 304 if it has
it). Event types: ``round`` (a round drawn, its tables listed, or cancelled), ``result``
(a result entered, corrected, struck, signed; ``matches`` names them), ``bracket`` (the
knockout bracket moved) and ``standings`` (the table moved: every change). A client that
reconnects with ``Last-Event-ID`` at the current version resumes without a repeat; one
that is behind (or new) first gets a snapshot: ``standings`` (and ``bracket``) at the
current version. A quiet stream gets a comment every 15 s, so proxies and phones keep it
open. Each stream holds a thread (a greenlet under gevent): over the process's cap the
route answers 503 with ``Retry-After``, and the pages fall back to asking.

While announcements do not arrive (Redis away), each stream looks at the projection
itself every two seconds, so nothing is missed; it says ``"stale": true`` while the
projection is behind the log.
"""

from __future__ import annotations

import functools
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app, request
from flask_openapi3.models.tag import Tag

from tournament.domain.model.errors import NotFoundError
from tournament.live.change import KINDS, Change
from tournament.live.departure import Departure, departure_of
from tournament.live.hub import Full, LiveHub
from tournament.web.api.blueprint import APIBlueprint
from tournament.web.api.models import TournamentPath, event_stream_schema
from tournament.web.live import live
from tournament.web.problems import Problem, documented
from tournament.web.projected_reads import versions
from tournament.web.streaming import event_stream

api = APIBlueprint(
    "live",
    __name__,
    url_prefix="/api/v1",
    abp_tags=[Tag(name="live", description="live updates as Server-Sent Events (public)")],
)

STREAM = "text/event-stream"
#: Seconds between looks at the projection while announcements do not arrive.
POLL_WHILE_CUT_OFF = 2.0
RETRY_AFTER = 10


@api.get(
    "/tournaments/<tid>/live",
    summary="The tournament's changes as they happen (Server-Sent Events)",
    description="`text/event-stream`: events `round`, `result`, `bracket` and `standings`, "
    "each with `id:` the tournament's version and JSON data `{tournament, version, "
    "log_version, stale, matches, href}`. Reconnect with `Last-Event-ID` to resume; a "
    "client behind the current version first gets a snapshot (`standings`, and `bracket` "
    "when there is one). A comment every 15 s keeps a quiet stream open. Over the "
    "process's cap of streams: 503 with `Retry-After`. Public.",
    responses={
        200: event_stream_schema("round, result, bracket or standings"),
        **documented([404, 503]),
    },
)
@event_stream
def live_stream(path: TournamentPath) -> Response:
    tid = path.tid
    state = live()
    where = _where_on_connect(state.hub, tid)
    if where is None:
        raise NotFoundError("tournament", "T-settings", f"there is no tournament {tid!r}")
    try:
        listener = state.hub.subscribe(tid)
    except Full as error:
        raise Problem(
            503,
            "Too many live streams",
            f"{error}: ask for the standings instead, or try again in {RETRY_AFTER} s",
            headers={"Retry-After": str(RETRY_AFTER)},
            kind="live-full",
        ) from None
    if state.hub.announced(tid) > where[0]:  # announced before this one listened: read again
        where = versions(tid) or where
    state.listen()
    last = _last_event_id()
    keepalive = float(current_app.config.get("LIVE_KEEPALIVE", 15))
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    # A client gone frees its place under the cap (and its thread) within a second, not
    # at the next keep-alive (tournament.live.departure).
    departure = departure_of(request.environ)

    def stream() -> Iterator[str]:
        with listener, app.app_context():
            stop_watching = departure.watch(listener.wake)
            try:
                yield f"retry: {2000}\n\n"
                version, newest, has_bracket = where
                if last != version:
                    kinds = ("bracket", "standings") if has_bracket else ("standings",)
                    yield from _events(tid, version, newest, kinds, ())
                yield from _follow(state.hub, listener, tid, version, keepalive, departure)
            finally:
                stop_watching()

    response = Response(stream(), mimetype=STREAM)
    response.call_on_close(listener.close)  # also when the stream never started
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _follow(
    hub: LiveHub,
    listener: Any,
    tid: str,
    version: int,
    keepalive: float,
    departure: Departure,
) -> Iterator[str]:
    """Events from the hub as they come, comments when quiet, and the projection looked
    at while the hub is cut off; until the client is gone or the hub closes."""
    quiet_since = time.monotonic()
    was_cut_off = False
    # Look for a client gone as often as the server needs (a watcher that wakes the
    # listener needs no looks); else a failing write ends the stream.
    tick = min(keepalive, departure.look_every or 5.0)
    while not hub.closed and not departure.gone():
        cut_off = hub.down_since is not None
        changes = listener.get(POLL_WHILE_CUT_OFF if cut_off else tick)
        if cut_off or was_cut_off:  # while cut off, and once after: look
            found = _where_shared(tid)
            if found is not None and found[0] > version:
                kinds = ("standings",) + (("bracket",) if found[2] else ())
                changes.append(Change(tid, found[0], kinds, log_version=found[1]))
        was_cut_off = cut_off
        fresh = [c for c in changes if c.version > version]
        if fresh:
            log_version = max(c.log_version or c.version for c in fresh)
            for change in fresh:
                yield from _events(tid, change.version, log_version, change.kinds, change.matches)
            version = fresh[-1].version
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= keepalive:
            yield ": keep-alive\n\n"
            quiet_since = time.monotonic()


#: How long a connecting stream may take another's reading of the versions, while no
#: announcement of the tournament came in between: a room of phones connecting at once
#: (2,000 after a restart) costs one query, not one each (trial 9, P6).
CONNECT_READING_SECONDS = 1.0
READINGS = "schnapsen_live_readings"


def _where_on_connect(hub: LiveHub, tid: str) -> tuple[int, int, bool] | None:
    """:func:`~tournament.web.projected.versions` for a stream that connects, shared by
    the streams of the same second. A reading is taken again once an announcement of a
    newer version came (``hub.announced``), and always while announcements do not arrive
    (Redis away). Per app (its own store, its own hub)."""
    if hub.down_since is not None:
        return versions(tid)
    readings: dict[str, tuple[int, float, tuple[int, int, bool] | None]]
    readings = current_app.extensions.setdefault(READINGS, {})
    # One reading at a time per tournament: the others wait for it, then take it.
    with _lock_for(f"connect:{tid}"):
        announced = hub.announced(tid)
        found = readings.get(tid)
        if (
            found is not None
            and found[0] == announced
            and time.monotonic() - found[1] < CONNECT_READING_SECONDS
        ):
            return found[2]
        taken = time.monotonic()
        where = versions(tid)
        if len(readings) > 10_000:
            readings.clear()
        readings[tid] = (announced, taken, where)
        return where


_shared: dict[str, tuple[float, tuple[int, int, bool] | None]] = {}
_shared_locks: dict[str, threading.Lock] = {}
_shared_guard = threading.Lock()


def _lock_for(key: str) -> threading.Lock:
    """The lock of one tournament's shared reading. Bounded: any id can be asked for
    (a stream of an unknown tournament asks before its 404), so past 10,000 the locks
    are forgotten; a lock dropped while held costs one more reading, nothing else."""
    with _shared_guard:
        if len(_shared_locks) > 10_000 and key not in _shared_locks:
            _shared_locks.clear()
        return _shared_locks.setdefault(key, threading.Lock())


def _where_shared(tid: str) -> tuple[int, int, bool] | None:
    """:func:`~tournament.web.projected.versions`, asked once a second per tournament by
    all of this process's streams together (while the hub is cut off, every stream looks
    every 2 s: 2,000 streams of one tournament make one query, not 2,000)."""
    with _lock_for(tid):
        found = _shared.get(tid)
        if found is not None and time.monotonic() - found[0] < 1.0:
            return found[1]
        answer = versions(tid)
        if len(_shared) > 10_000:
            _shared.clear()
        _shared[tid] = (time.monotonic(), answer)
        return answer


def _events(
    tid: str, version: int, log_version: int, kinds: tuple[str, ...], matches: tuple[str, ...]
) -> Iterator[str]:
    yield from _event_texts(tid, version, log_version, kinds, matches)


@functools.lru_cache(maxsize=1024)
def _event_texts(
    tid: str, version: int, log_version: int, kinds: tuple[str, ...], matches: tuple[str, ...]
) -> tuple[str, ...]:
    """A change's events as sent, made once for all the streams of its tournament (one
    announcement reaches thousands of them at once)."""
    return tuple(_event_lines(tid, version, log_version, kinds, matches))


def _event_lines(
    tid: str, version: int, log_version: int, kinds: tuple[str, ...], matches: tuple[str, ...]
) -> Iterator[str]:
    base = f"/api/v1/tournaments/{tid}"
    hrefs = {
        "standings": f"{base}/standings",
        "bracket": f"{base}/bracket",
        "round": f"{base}/rounds/current",
        "result": f"{base}/matches",
    }
    for kind in KINDS:
        if kind not in kinds:
            continue
        data = {
            "tournament": tid,
            "version": version,
            "log_version": max(log_version, version),
            "stale": version < log_version,
            "matches": list(matches) if kind == "result" else [],
            "href": hrefs[kind],
        }
        yield f"id: {version}\nevent: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _last_event_id() -> int | None:
    text = request.headers.get("Last-Event-ID") or request.args.get("last_event_id") or ""
    text = text.strip()
    return int(text) if text.isdigit() and len(text) < 12 else None

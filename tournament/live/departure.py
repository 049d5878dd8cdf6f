"""Whether a stream's client has gone, as soon as the server can tell.

A Server-Sent Events stream mostly waits: for an announcement, or for its next
keep-alive (15 s). A client that left is noticed by a write failing, so without more a
stream whose reader closed the tab holds its place under the process's cap (and, under a
thread server, its thread) until the next keep-alive; a refused page then waits that
long for a place (operator F1). So each stream asks its server:

- waitress says it (``waitress.client_disconnected``, with ``channel_request_lookahead``):
  the stream looks every second;
- gunicorn hands the connection's socket (``gunicorn.socket``): the client closing it
  makes it readable with nothing to read (EOF; an SSE client sends nothing after its
  request). Under gevent a greenlet per stream waits for that and wakes the stream at
  once, which costs nothing while the client stays; under threads (gthread) the stream
  looks every second (a select with no wait and a peek);
- any other server: the next write that fails ends the stream.

Behind nginx the proxy closes its connection to the app as soon as its client's goes
(``proxy_ignore_client_abort off``, the default), so the same holds through the proxy.
"""

from __future__ import annotations

import contextlib
import socket
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tournament.readable import readable_now

Wake = Callable[[], None]
#: Seconds between a waiting stream's looks when nothing wakes it.
LOOK_EVERY = 1.0


def _never() -> bool:
    return False


def _no_watch(wake: Wake) -> Callable[[], None]:
    return lambda: None


@dataclass(frozen=True)
class Departure:
    """How a stream learns that its client left."""

    #: True once the client is known to have gone.
    gone: Callable[[], bool] = _never
    #: Seconds between the looks at :attr:`gone` a waiting stream takes; None: it need not
    #: look, :attr:`watch` wakes it (or nothing can tell before a write fails).
    look_every: float | None = None
    #: ``watch(wake)`` calls ``wake()`` when the client goes; returns what stops watching.
    watch: Callable[[Wake], Callable[[], None]] = field(default=_no_watch)


def departure_of(environ: Mapping[str, Any]) -> Departure:
    """What the server of this request can tell (see the module's docstring)."""
    told = environ.get("waitress.client_disconnected")
    if callable(told):
        return Departure(told, LOOK_EVERY)
    sock = environ.get("gunicorn.socket")
    if not isinstance(sock, socket.socket) or sock.fileno() < 0:
        return Departure()
    if _gevent_patched():
        return _under_gevent(sock)
    return Departure(lambda: closed(sock), LOOK_EVERY)


def closed(sock: socket.socket) -> bool:
    """Whether the peer closed ``sock``: readable now, and at its end (EOF) or broken.
    Bytes waiting to be read (a pipelined request) are no end; TLS in gunicorn itself
    cannot be peeked into, so it never says gone (a write failing still ends it)."""
    try:
        if not readable_now(sock):  # poll: select() refuses descriptors from 1024 on
            return False
        return sock.recv(1, socket.MSG_PEEK) == b""
    except ValueError:  # an SSL socket takes no flags
        return False
    except OSError:  # reset, or the socket closed under us
        return True


def _gevent_patched() -> bool:
    if "gevent" not in sys.modules:
        return False
    from gevent import monkey  # type: ignore[import-untyped]

    return bool(monkey.is_module_patched("socket"))


def _under_gevent(sock: socket.socket) -> Departure:
    left: list[bool] = []

    def gone() -> bool:
        return bool(left)  # the watcher looks: nothing to ask the socket here

    def watch(wake: Wake) -> Callable[[], None]:
        import gevent
        from gevent.socket import wait_read  # type: ignore[import-untyped]

        def wait() -> None:
            with contextlib.suppress(Exception):  # the socket closed under us: nothing to tell
                wait_read(sock.fileno())
                if closed(sock):
                    left.append(True)
                    wake()
                # else bytes came (never from an SSE client): stop watching, the next
                # failing write tells

        waiter = gevent.spawn(wait)
        return lambda: waiter.kill(block=False)

    return Departure(gone, None, watch)

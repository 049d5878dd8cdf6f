"""Waitress's I/O loop on epoll, for a server holding many open connections (speed P5).

Waitress's own loop (``wasyncore.poll2``) builds a new ``poll`` set on every turn: it asks
every connection whether it is ``readable()`` and ``writable()`` and registers it again.
With 200 online tables (400 live streams and their seats' sockets) and a turn for every
response written, that was a quarter of the server's CPU, in the one thread every byte
goes through. Here the set is kept in an epoll object, and a turn looks only at the
connections that may have changed (:class:`EpollLoop`): those with events, and those
the server's connections marked (``tournament.web.serve_limits.LimitedChannel``).

It answers the same question as waitress's loop, turn by turn, and hands events to the
same ``wasyncore.readwrite``; without epoll (macOS, Windows) waitress's loop runs.
"""

from __future__ import annotations

import select
import time
from typing import Any

from waitress import wasyncore
from waitress.channel import HTTPChannel

READ = select.POLLIN | select.POLLPRI
WRITE = select.POLLOUT
#: How often every connection is looked at, whether marked or not.
SWEEP_SECONDS = 1.0


def interest(obj: Any, lookahead: int) -> int:
    """The poll flags waitress's loop would register ``obj`` with."""
    kind = type(obj)
    if (
        isinstance(obj, HTTPChannel)
        and kind.readable is HTTPChannel.readable
        and kind.writable is HTTPChannel.writable
    ):
        # HTTPChannel.readable() and .writable(), read from the fields they read.
        closing = obj.will_close or obj.close_when_flushed
        pending = obj.total_outbufs_len
        if closing or pending:
            return WRITE
        return 0 if len(obj.requests) > lookahead else READ
    flags = READ if obj.readable() else 0
    if obj.writable() and not obj.accepting:
        flags |= WRITE
    return flags


class EpollLoop:
    """``wasyncore.loop(timeout, map, use_poll=True)``, with the poll set kept.

    A turn looks again only at the connections in ``touched`` -- marked by the server's
    connections whenever what they wait for may have changed, always before waitress
    wakes the loop for it -- and at those that had events; once a second at all of them
    (a safety net, and the closed sockets' numbers forgotten)."""

    def __init__(self, socket_map: dict[int, Any], lookahead: int, touched: set[Any]) -> None:
        self.map = socket_map
        self.lookahead = lookahead
        self.touched = touched
        self.poller = select.epoll()
        #: fd -> (the object registered for it, its flags): a closed socket's number may
        #: come back for a new connection, which is registered afresh.
        self.known: dict[int, tuple[Any, int]] = {}
        self.others: list[Any] = []  # the listener and waitress's trigger: every turn
        self.next_sweep = 0.0

    def run(self, timeout: float) -> None:
        try:
            while self.map:
                self.turn(timeout)
        finally:
            self.poller.close()

    def turn(self, timeout: float) -> None:
        looked: list[Any] = []
        touched = self.touched
        while touched:
            try:
                looked.append(touched.pop())
            except KeyError:
                break
        now = time.monotonic()
        if now >= self.next_sweep:
            self.next_sweep = now + SWEEP_SECONDS
            looked = list(self.map.values())
            self.others = [one for one in looked if not isinstance(one, HTTPChannel)]
            for gone in [fd for fd in self.known if fd not in self.map]:
                self._change(gone, 0)
                del self.known[gone]
        else:
            looked += self.others
        known = self.known
        for obj in looked:
            fd: int | None = getattr(obj, "_fileno", None)
            if fd is None or self.map.get(fd) is not obj:
                continue  # closed meanwhile
            flags = interest(obj, self.lookahead)
            was = known.get(fd)
            if was is not None and was[0] is obj and was[1] == flags:
                continue
            self._change(fd, flags)
            known[fd] = (obj, flags)
        try:
            events = self.poller.poll(timeout)
        except InterruptedError:
            events = []
        for number, happened in events:
            obj = self.map.get(number)
            if obj is not None:
                wasyncore.readwrite(obj, happened)
                touched.add(obj)

    def _change(self, fd: int, flags: int) -> None:
        try:
            if flags:
                try:
                    self.poller.modify(fd, flags)
                except FileNotFoundError:
                    self.poller.register(fd, flags)
            else:
                self.poller.unregister(fd)
        except OSError:
            pass  # closed meanwhile: epoll forgot it with the socket


def loop(socket_map: dict[int, Any], timeout: float, lookahead: int, touched: set[Any]) -> None:
    """Serve ``socket_map`` until it is empty (or Ctrl-C); ``touched``: see
    :class:`EpollLoop` (the server's connections must mark themselves there)."""
    if not hasattr(select, "epoll"):
        wasyncore.loop(timeout=timeout, map=socket_map, use_poll=True)
        return
    EpollLoop(socket_map, lookahead, touched).run(timeout)

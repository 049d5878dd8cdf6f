"""Waitress's I/O loop on epoll, for a server holding many open connections (speed P5).

Waitress's own loop (``wasyncore.poll2``) builds a new ``poll`` set on every turn: it asks
every connection whether it is ``readable()`` and ``writable()`` and registers it again.
With 200 online tables (400 live streams and their seats' sockets) and a turn for every
response written, that was a quarter of the server's CPU, in the one thread every byte
goes through. Here the set is kept in an epoll object and changed only where a
connection's interest changed, and a connection's interest is read from its fields
rather than through two method calls each.

It answers the same question as waitress's loop, turn by turn, and hands events to the
same ``wasyncore.readwrite``; without epoll (macOS, Windows) waitress's loop runs.
"""

from __future__ import annotations

import select
from typing import Any

from waitress import wasyncore
from waitress.channel import HTTPChannel

READ = select.POLLIN | select.POLLPRI
WRITE = select.POLLOUT


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
    """``wasyncore.loop(timeout, map, use_poll=True)``, with the poll set kept."""

    def __init__(self, socket_map: dict[int, Any], lookahead: int) -> None:
        self.map = socket_map
        self.lookahead = lookahead
        self.poller = select.epoll()
        #: fd -> (the object registered for it, its flags): a closed socket's number may
        #: come back for a new connection, which is registered afresh.
        self.known: dict[int, tuple[Any, int]] = {}

    def run(self, timeout: float) -> None:
        try:
            while self.map:
                self.turn(timeout)
        finally:
            self.poller.close()

    def turn(self, timeout: float) -> None:
        known = self.known
        for fd, obj in list(self.map.items()):
            flags = interest(obj, self.lookahead)
            was = known.get(fd)
            if was is not None and was[0] is obj and was[1] == flags:
                continue
            self._change(fd, flags)
            known[fd] = (obj, flags)
        if len(known) > len(self.map):
            for fd in [fd for fd in known if fd not in self.map]:
                self._change(fd, 0)
                del known[fd]
        try:
            events = self.poller.poll(timeout)
        except InterruptedError:
            events = []
        for fd, flags in events:
            obj = self.map.get(fd)
            if obj is not None:
                wasyncore.readwrite(obj, flags)

    def _change(self, fd: int, flags: int) -> None:
        try:
            if flags:
                try:
                    self.poller.modify(fd, flags)
                except FileNotFoundError:
                    self.poller.register(fd, flags)
            else:
                self.poller.unregister(fd)
        except (FileNotFoundError, OSError):
            pass  # closed meanwhile: epoll forgot it with the socket


def loop(socket_map: dict[int, Any], timeout: float, lookahead: int) -> None:
    """Serve ``socket_map`` until it is empty (or Ctrl-C)."""
    if not hasattr(select, "epoll"):
        wasyncore.loop(timeout=timeout, map=socket_map, use_poll=True)
        return
    EpollLoop(socket_map, lookahead).run(timeout)

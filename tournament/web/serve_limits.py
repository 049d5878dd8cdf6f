"""Waitress with limits for the hall's Wi-Fi (``tournament serve --lan``, attack F8).

Waitress buffers a slow client in its one I/O thread, which holds no worker, but every
open socket counts towards its connection limit, and its ``channel_timeout`` starts
again with every byte: one device sending a header line every few seconds on a few
hundred sockets fills the table and the service stops answering everyone. Two limits
stop that:

- **connections per address** (:data:`PER_ADDRESS`): a device past it gets a short 503
  and its socket is closed at once, so one phone (or one script) never holds more than
  that many of the server's sockets. A browser opens at most 6 per site.
- **a deadline for the request head** (:data:`HEAD_SECONDS`): from a request's first byte
  its head (request line and headers) must be complete within it, else the client gets
  408 and its socket is closed. The clock runs only while a head is being received: a
  keep-alive socket waiting between requests, a body upload and a live stream (its head
  came in long ago) are not affected.
"""

from __future__ import annotations

import logging
import socket
import time
from collections import Counter
from typing import Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

#: Open connections one client address may hold at once.
PER_ADDRESS = 32
#: Seconds a client has to send a whole request head once it has begun one.
HEAD_SECONDS = 10.0
#: How often (s) the server looks for heads past their deadline (and idle sockets).
SWEEP_SECONDS = 1.0
#: A refused address is logged at most once in this many seconds.
LOG_EVERY = 60.0

log = logging.getLogger(__name__)

TOO_MANY = (
    b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 10\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 60\r\n\r\n"
    b"Too many open connections from your address: close some.   \n"
)
TOO_SLOW = (
    b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 52\r\n\r\n"
    b"The request's headers did not arrive in time.      \n"
)


class LimitedChannel(HTTPChannel):  # type: ignore[misc]
    """A connection that counts towards its address's cap and times its request heads."""

    server: LimitedServer

    def __init__(self, server: LimitedServer, sock: Any, addr: Any, adj: Any, map: Any) -> None:
        self.client_address = str(addr[0]) if isinstance(addr, tuple) else str(addr)
        #: When the request head being received began (None: not inside a head).
        self.head_since: float | None = None
        self._counted = True
        server.per_address[self.client_address] += 1
        self.server = server
        super().__init__(server, sock, addr, adj, map=map)
        server.touched.add(self)

    # What the I/O loop polls a connection for depends on these three fields and on its
    # requests (tournament.web.serve_loop): a change marks the connection for the loop's
    # next turn, before waitress wakes the loop for it.
    @property
    def total_outbufs_len(self) -> int:
        return int(self.__dict__.get("_pending", 0))

    @total_outbufs_len.setter
    def total_outbufs_len(self, value: int) -> None:
        self.__dict__["_pending"] = value
        self.server.touched.add(self)

    @property
    def will_close(self) -> bool:
        return bool(self.__dict__.get("_will_close", False))

    @will_close.setter
    def will_close(self, value: bool) -> None:
        self.__dict__["_will_close"] = value
        self.server.touched.add(self)

    @property
    def close_when_flushed(self) -> bool:
        return bool(self.__dict__.get("_close_when_flushed", False))

    @close_when_flushed.setter
    def close_when_flushed(self, value: bool) -> None:
        self.__dict__["_close_when_flushed"] = value
        self.server.touched.add(self)

    def service(self) -> None:
        super().service()  # a request done: its place under the lookahead is free
        self.server.touched.add(self)
        self.server.pull_trigger()

    def received(self, data: bytes) -> bool:
        if data and self.head_since is None and self.request is None:
            self.head_since = time.monotonic()
        done: bool = super().received(data)
        request: Any = self.request
        if request is None or request.headers_finished or request.error:
            self.head_since = None
        elif self.head_since is None:  # a pipelined request's head begins in this data
            self.head_since = time.monotonic()
        return done

    def too_slow(self) -> None:
        """Answer 408 and close: the head did not arrive within the deadline."""
        self.head_since = None
        with self.outbuf_lock:
            self.outbufs[-1].append(TOO_SLOW)
            self.current_outbuf_count += len(TOO_SLOW)
            self.total_outbufs_len += len(TOO_SLOW)
        with self.requests_lock:
            unfinished: Any = getattr(self, "request", None)
            if unfinished is not None:
                unfinished.close()
                self.request = None
            self.close_when_flushed = True

    def del_channel(self, map: Any = None) -> None:
        if self._counted:
            self._counted = False
            counts = self.server.per_address
            counts[self.client_address] -= 1
            if counts[self.client_address] <= 0:
                del counts[self.client_address]
        super().del_channel(map)


class LimitedServer(TcpWSGIServer):  # type: ignore[misc]
    """Waitress's TCP server with the per-address cap and the head deadline."""

    channel_class = LimitedChannel

    def __init__(self, *args: Any, per_address: int, head_seconds: float, **kwargs: Any) -> None:
        self.per_address: Counter[str] = Counter()
        #: Connections whose interest may have changed since the I/O loop's last turn.
        self.touched: set[Any] = set()
        self.per_address_cap = per_address
        self.head_seconds = head_seconds
        self._logged: dict[str, float] = {}
        super().__init__(*args, **kwargs)

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
            if accepted is None:
                return
            conn, addr = accepted
            self.set_socket_options(conn)
        except OSError:
            return
        addr = self.fix_addr(addr)
        address = str(addr[0]) if isinstance(addr, tuple) else str(addr)
        if self.per_address_cap and self.per_address[address] >= self.per_address_cap:
            self._refuse(conn, address)
            return
        self.channel_class(self, conn, addr, self.adj, map=self._map)

    def _refuse(self, conn: socket.socket, address: str) -> None:
        try:
            conn.setblocking(False)
            conn.send(TOO_MANY)
            conn.shutdown(socket.SHUT_WR)
            conn.recv(65536)  # what arrived: closed unread, it would reset the answer
        except OSError:
            pass
        finally:
            conn.close()
        now = time.monotonic()
        if now - self._logged.get(address, -LOG_EVERY) >= LOG_EVERY:
            if len(self._logged) > 10_000:
                self._logged.clear()
            self._logged[address] = now
            log.warning(
                "serve: %s holds %d connections, the most one address may: refusing more",
                address,
                self.per_address_cap,
            )

    def run(self) -> None:
        """Serve until Ctrl-C, on :mod:`tournament.web.serve_loop` (as waitress's
        ``run``, its loop kept on epoll)."""
        from tournament.web.serve_loop import loop

        try:
            loop(
                self._map,
                self.adj.asyncore_loop_timeout,
                self.adj.channel_request_lookahead,
                self.touched,
            )
        except (SystemExit, KeyboardInterrupt):
            self.task_dispatcher.shutdown()

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # idle sockets past channel_timeout
        if not self.head_seconds:
            return
        cutoff = time.monotonic() - self.head_seconds
        for channel in list(self.active_channels.values()):
            since = getattr(channel, "head_since", None)
            if since is not None and since < cutoff:
                channel.too_slow()


class GrowingDispatcher(ThreadedTaskDispatcher):  # type: ignore[misc]
    """Waitress's worker threads, started as they are needed up to ``most``: the
    ``threads`` of the settings start at once, and a task that finds none idle starts
    another (a live stream holds its thread as long as it is open). Threads are not
    stopped when idle again: a room that followed live once will again."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most
        #: Threads started and not yet looking for a task (waitress counts them active).
        self.starting = 0

    def start_new_thread(self, target: Any, thread_no: int) -> None:
        self.starting += 1  # under self.lock, as waitress starts threads
        super().start_new_thread(self._started, thread_no)

    def _started(self, thread_no: int) -> None:
        with self.lock:
            self.starting -= 1
        self.handler_thread(thread_no)

    def add_task(self, task: Any) -> None:
        with self.lock:
            self.queue.append(task)
            idle = len(self.threads) - self.stop_count - self.active_count + self.starting
            if self.stop_count == 0 and len(self.queue) > idle and len(self.threads) < self.most:
                number = next(n for n in range(len(self.threads) + 1) if n not in self.threads)
                self.threads.add(number)
                self.active_count += 1  # until it waits for a task, as waitress counts
                self.start_new_thread(self.handler_thread, number)
                idle += 1
            self.queue_cv.notify()
            if len(self.queue) > idle:
                self.queue_logger.warning("Task queue depth is %d", len(self.queue) - idle)


def create_server(
    application: Any,
    *,
    per_address: int,
    head_seconds: float,
    most_threads: int = 0,
    **settings: Any,
) -> BaseWSGIServer:
    """:func:`waitress.create_server` for TCP listeners, with :class:`LimitedServer`,
    and threads that grow from ``threads`` to ``most_threads`` (:class:`GrowingDispatcher`)."""
    adj = Adjustments(cleanup_interval=SWEEP_SECONDS, **settings)
    dispatcher = GrowingDispatcher(max(most_threads, adj.threads))
    dispatcher.set_thread_count(adj.threads)
    socket_map: dict[int, Any] = {}
    servers = [
        LimitedServer(
            application,
            socket_map,
            dispatcher=dispatcher,
            adj=adj,
            sockinfo=sockinfo,
            per_address=per_address,
            head_seconds=head_seconds,
        )
        for sockinfo in adj.listen
    ]
    if len(servers) == 1:
        return servers[0]
    listening = [(one.effective_host, one.effective_port) for one in servers]
    return MultiSocketServer(socket_map, adj, listening, dispatcher)

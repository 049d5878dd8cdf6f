"""A TCP relay between the browser and the served app that can be cut, as a club's Wi-Fi
drops: every open connection closed (the live stream too) and new ones closed as soon as
they come, until it is restored. Unlike Playwright's ``set_offline`` (which Chromium lets
an open event stream outlive), this is what a phone walking out of the hall sees."""

from __future__ import annotations

import contextlib
import socket
import threading


class Relay:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.port: int = self.server.getsockname()[1]
        self.up = True
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, name="relay", daemon=True).start()

    def url(self, path: str = "/", host: str = "127.0.0.1") -> str:
        """The app's address through the relay (what ``Site.url`` is for the app)."""
        return f"http://{host}:{self.port}{path}"

    def cut(self) -> None:
        """The network is gone: every connection closed, new ones refused."""
        self.up = False
        with self._lock:
            sockets, self._open = self._open, []
        for s in sockets:
            _close(s)

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self.cut()
        _close(self.server)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return  # closed
            if not self.up:
                _close(client)
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                _close(client)
                continue
            with self._lock:
                self._open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pump, args=(a, b), daemon=True).start()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    _close(source)
    _close(sink)


def _close(s: socket.socket) -> None:
    with contextlib.suppress(OSError):
        s.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        s.close()

"""bench/play.py's server: ``tournament serve`` as it is, or a variant of it.

    python bench/play_serve.py --port 8080 --threads 512           # = tournament serve
    BENCH_CONNECTION_LIMIT=1024 python bench/play_serve.py ...     # waitress's cap raised
    BENCH_PROJECT_EVERY=5 python bench/play_serve.py ...           # projections throttled

``tournament serve`` opens at most ``tournament.web.server.CONNECTION_LIMIT`` (256)
sockets: waitress stops accepting beyond it, so 200 tables of two seats (400 streams, and
the seats' keep-alive connections for their moves) cannot all connect to the stock
server. ``BENCH_CONNECTION_LIMIT`` sets that number before the command runs (nothing
else changes), to measure what the service does once they are in.

``BENCH_PROJECT_EVERY=5`` runs a tournament's projection at most every 5 s (a variant:
what the server would save if a hand's end did not rewrite the standings each time).
``BENCH_PROFILE=path`` profiles the requests and waitress's I/O loop (:func:`profiled`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def throttled(seconds: float) -> None:
    """A variant, to see what it would save: a tournament's projection runs at most once
    per ``seconds`` (a nudge within them is dropped; the projections' sweep, every 2 s,
    finds the tournament behind its log and runs it later)."""
    import threading
    import time

    from tournament.projections.runner import Projector

    project = Projector.project
    last: dict[str, float] = {}
    guard = threading.Lock()

    def run(self: Any, tournament_id: str) -> Any:
        with guard:
            if time.monotonic() - last.get(tournament_id, -1e9) < seconds:
                return None
            last[tournament_id] = time.monotonic()
        return project(self, tournament_id)

    Projector.project = run  # type: ignore[method-assign]


def profiled(path: str) -> None:
    """Every request's CPU time (cProfile with each worker thread's CPU clock), written on
    SIGUSR1 to ``path`` (a marshalled list of each thread's ``Profile.stats``), and
    waitress's I/O loop (the main thread) to ``path.io`` (a pstats file)."""
    import cProfile
    import marshal
    import signal
    import threading
    import time

    import flask

    profiles: list[cProfile.Profile] = []
    mine = threading.local()
    guard = threading.Lock()

    def profile() -> cProfile.Profile:
        found = getattr(mine, "profile", None)
        if found is None:
            found = mine.profile = cProfile.Profile(time.thread_time)
            with guard:
                profiles.append(found)
        return found

    class Iterated:
        def __init__(self, inner: Any) -> None:
            self.inner = iter(inner)
            self.closing = getattr(inner, "close", None)

        def __iter__(self) -> Iterated:
            return self

        def __next__(self) -> Any:
            p = profile()
            p.enable()
            try:
                return next(self.inner)
            finally:
                p.disable()

        def close(self) -> None:
            if self.closing is not None:
                self.closing()

    made = flask.Flask.wsgi_app

    def wsgi_app(self: Any, environ: Any, start_response: Any) -> Any:
        p = profile()
        p.enable()
        try:
            answer = made(self, environ, start_response)
        finally:
            p.disable()
        return Iterated(answer)

    flask.Flask.wsgi_app = wsgi_app  # type: ignore[method-assign]

    class Snapshot:
        """A profile's figures so far, without stopping it (streams stay in ``next``)."""

        def __init__(self, one: cProfile.Profile) -> None:
            one.snapshot_stats()  # type: ignore[attr-defined]
            self.stats = one.stats  # type: ignore[attr-defined]

        def create_stats(self) -> None:
            pass

    # The main thread: the server's I/O loop (every socket's reads and writes). ``serve``
    # runs tournament.web.serve_loop's (epoll), waitress's own where epoll is missing:
    # both are wrapped (each looked up when serving starts).
    io_loop = cProfile.Profile(time.thread_time)
    import waitress.wasyncore as wasyncore

    import tournament.web.serve_loop as serve_loop

    def around(looping: Any) -> Any:
        def loop(*args: Any, **kwargs: Any) -> Any:  # from the start of serving
            io_loop.enable()
            try:
                return looping(*args, **kwargs)
            finally:
                io_loop.disable()

        return loop

    wasyncore.loop = around(wasyncore.loop)
    serve_loop.loop = around(serve_loop.loop)

    def dump(signum: int, frame: Any) -> None:
        io_loop.disable()  # the handler runs in the main thread: the dump is not the loop's
        # Raw: merging hundreds of threads' profiles here would take longer than the
        # bench waits (bench/play.py merges them with pstats). Marshalled as pstats
        # writes them, also when a profile is empty (pstats.Stats refuses to make one
        # from an empty profile: the crash of --profile when the loop was not waitress's).
        with guard:
            found = list(profiles)
        every = [Snapshot(one).stats for one in found]
        with open(path + ".part", "wb") as out:
            marshal.dump([stats for stats in every if stats], out)
        os.replace(path + ".part", path)
        with open(path + ".io.part", "wb") as out:
            marshal.dump(Snapshot(io_loop).stats, out)
        os.replace(path + ".io.part", path + ".io")

    # Asked for by bench/play.py once the moves are done (the stream threads stay).
    signal.signal(signal.SIGUSR1, dump)


def main() -> None:
    import tournament.web.server as server
    from tournament.cli import main as cli

    limit = os.environ.get("BENCH_CONNECTION_LIMIT", "").strip()
    if limit:
        server.CONNECTION_LIMIT = int(limit)
    every = os.environ.get("BENCH_PROJECT_EVERY", "").strip()
    if every:
        throttled(float(every))
    path = os.environ.get("BENCH_PROFILE", "").strip()
    if path:
        profiled(path)
    cli(["serve", *sys.argv[1:]])


if __name__ == "__main__":
    main()

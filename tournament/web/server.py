"""``tournament serve`` (``./dev serve``): the web app under waitress on a club laptop.

Embedded defaults: SQLite under ``instance/``, no Redis, ``http://127.0.0.1:8080``.
``--lan`` listens on every interface (0.0.0.0) and prints the laptop's address on the
club network with a QR code for the phones in the room. While the store has no account,
the start prints a one-time link that creates the first organiser.

Threads: waitress reads requests and writes responses in one I/O thread and runs the
app in worker threads. A request holds a worker only while the app works on it -- a slow
phone on the hall's Wi-Fi is buffered by the I/O thread -- but a live connection (a page
following the standings or a table as it is played) holds one for as long as it stays
open. So the streams get a budget of their own: :data:`THREADS` = 16 workers for the
requests, and up to :data:`STREAMS` = 512 more threads, one per live stream (a
Preisschnapsen of 100 players with phones, a projector and the online tables' seats).
The stream threads start only when streams arrive (:class:`GrowingDispatcher`), so an
idle laptop runs 16; a thread parked on a stream costs about 60 KB (bench/serve_streams.py).
Past the cap a phone is told to ask instead (503), and its page polls. Writes queue on
SQLite's one writer whatever the number of threads.

Waitress stops accepting new sockets past :func:`connection_limit` open ones (phones
keep theirs open between requests): at least :data:`CONNECTION_LIMIT` = 256, and two per
thread (a stream's socket, and its page's or seat's keep-alive socket for its requests).
One address holds at most ``--max-per-address`` of them, and a request head must arrive
within ``--head-timeout`` seconds of its first byte (:mod:`tournament.web.serve_limits`):
one device on the hall's Wi-Fi cannot fill the table with slow sockets.
"""

from __future__ import annotations

import io
import ipaddress
import os
import signal
import socket
import threading
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from tournament.web import serve_limits

#: Worker threads for requests, and live streams (each holds a thread of its own on top):
#: see the module's docstring.
THREADS = 16
STREAMS = 512
#: Open connections waitress keeps before it stops accepting (keep-alive phones), at
#: least; :func:`connection_limit` raises it with the threads.
CONNECTION_LIMIT = 256
#: Seconds after the start that the projections' timer and the online tables' repair
#: sweep begin (sooner if a request needs them): the first requests come first.
LISTEN_AFTER = 1.0


def connection_limit(threads: int) -> int:
    """Waitress's cap of open sockets for ``threads`` workers: a socket for each live
    stream (one per thread at most) and one more for each stream's keep-alive requests.

    >>> connection_limit(64), connection_limit(16 + 512)
    (256, 1056)
    """
    return max(CONNECTION_LIMIT, 2 * threads)


DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
#: Private addresses to "connect" a UDP socket to: no packet is sent, the kernel only
#: picks the interface it would route through, which is the club network's. Not
#: broadcast addresses (a connect to one of the machine's own networks' broadcast is
#: refused without SO_BROADCAST).
PROBES = ("10.254.254.254", "192.168.254.254", "172.16.254.254")


class ServeError(Exception):
    """A start that cannot go on, in one line (the port is taken, ...)."""


def lan_address(probes: Sequence[str] = PROBES) -> str | None:
    """This machine's IPv4 address on the local network, found without the internet:
    the interface a UDP socket "connected" to a private address would use, else what
    the host name resolves to; None if only loopback is there (no network)."""
    for probe in probes:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 9))
                found = str(udp.getsockname()[0])
            except OSError:
                continue
        if _reachable(found):
            return found
    try:
        names = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        names = []
    return next((name for name in names if _reachable(name)), None)


def _reachable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def url_of(host: str, port: int, path: str = "/") -> str:
    """The URL a browser opens for a server listening on ``host``.

    >>> url_of("0.0.0.0", 8080)
    'http://127.0.0.1:8080/'
    >>> url_of("::1", 8080, "/docs/")
    'http://[::1]:8080/docs/'
    """
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{path}"


def serve_environment(environ: Mapping[str, str], *, secure_cookies: bool) -> dict[str, str]:
    """The environment the app is configured from under ``serve``: session cookies are
    not ``Secure`` unless asked (``--secure-cookies`` or SCHNAPSEN_SECURE_COOKIES=1),
    since waitress here speaks plain http and a browser never sends a Secure cookie back
    over http (signing in would not stick). Behind a TLS proxy, ask for them.

    >>> serve_environment({}, secure_cookies=False)["SCHNAPSEN_SECURE_COOKIES"]
    '0'
    >>> serve_environment({"SCHNAPSEN_SECURE_COOKIES": "1"}, secure_cookies=False)[
    ...     "SCHNAPSEN_SECURE_COOKIES"]
    '1'
    >>> serve_environment({}, secure_cookies=True)["SCHNAPSEN_SECURE_COOKIES"]
    '1'
    """
    env = dict(environ)
    if secure_cookies:
        env["SCHNAPSEN_SECURE_COOKIES"] = "1"
    else:
        env.setdefault("SCHNAPSEN_SECURE_COOKIES", "0")
    return env


def setup_link(app: Any, base: str) -> str | None:
    """The one-time link that creates the first organiser, while there is no account
    (None once there is one)."""
    from tournament.app.services import services

    if _has_an_account(str(app.config["DATABASE_URL"])):
        return None
    with app.app_context():
        secret = services().accounts.setup_token()
    return None if secret is None else f"{base.rstrip('/')}/setup?token={secret}"


def _has_an_account(url: str) -> bool:
    """Whether a SQLite store has an account, asked through ``sqlite3``: a start that
    prints no setup link leaves the accounts' SQLModel and SQLAlchemy unloaded (a fifth
    of a second, speed P10). False when it cannot tell so (another database, no table
    yet): the accounts answer then."""
    import sqlite3

    from tournament.db import connect_sqlite, sqlite_path

    path = sqlite_path(url) if url.startswith("sqlite:") else None
    if path is None or not path.exists():
        return False
    try:
        connection = connect_sqlite(path)
        try:
            found = connection.execute("SELECT EXISTS (SELECT 1 FROM acct_accounts)").fetchone()
        finally:
            connection.close()
    except sqlite3.Error:
        return False
    return bool(found[0])


def qr_code(url: str) -> str:
    """``url`` as a QR code for a terminal (two modules per character: compact)."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m", micro=False).terminal(out=out, compact=True)
    return out.getvalue()


def address_cap(per_address: int, proxy_hops: int) -> int:
    """The open connections one client address may hold: ``per_address``, but no cap
    behind a proxy (``SCHNAPSEN_PROXY_HOPS``), where every connection comes from the
    proxy's address and a cap of 32 would be a cap on the whole hall; the proxy limits
    its clients then.

    >>> address_cap(32, 0), address_cap(32, 1)
    (32, 0)
    """
    return 0 if proxy_hops > 0 else per_address


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # SIGTERM (systemd, docker stop) stops like Ctrl-C


def serve(
    *,
    host: str,
    port: int,
    lan: bool,
    threads: int = THREADS,
    streams: int = STREAMS,
    per_address: int = serve_limits.PER_ADDRESS,
    head_timeout: float = serve_limits.HEAD_SECONDS,
    secure_cookies: bool,
    out: TextIO,
    environ: Mapping[str, str] | None = None,
) -> None:
    """Start the app and serve until Ctrl-C (or SIGTERM); what to open is printed to
    ``out``, the request log goes to stderr as JSON lines. ``threads`` serve requests,
    up to ``streams`` more hold live streams; ``per_address`` (0: no cap; none behind a
    proxy, :func:`address_cap`) and ``head_timeout`` (0: none) are
    :mod:`tournament.web.serve_limits`'."""
    from tournament.app.services import services
    from tournament.web import create_app, ops
    from tournament.web.settings import from_environment

    env = serve_environment(
        os.environ if environ is None else environ, secure_cookies=secure_cookies
    )
    config = from_environment(env)
    config["LIVE_MAX_STREAMS"] = streams
    per_address = address_cap(per_address, int(config.get("PROXY_HOPS") or 0))
    app = create_app(config)
    listen = "0.0.0.0" if lan else host
    # The table cards' QR codes (tournament.web.public_url) use the club-network address
    # for a desk opened on 127.0.0.1 only when phones can reach this listener.
    app.config["SERVE_LISTEN"] = listen
    # Every phone in the hall reaches this listener: /metrics only for the laptop itself
    # (or with SCHNAPSEN_METRICS_TOKEN).
    app.config["METRICS_LOOPBACK_ONLY"] = lan
    # One process serves: every write through it is seen by its reads (tournament.live.known).
    app.config["SOLE_PROCESS"] = True
    ops.json_stdlib_logging()
    from tournament.web.live import KEY as LIVE

    # Projections on their timer from the start -- a moment after it: their first sweep
    # (and their modules, SQLAlchemy) would otherwise hold the interpreter while the
    # first requests wait (speed P10). A request that needs them makes them at once.
    listening = threading.Timer(LISTEN_AFTER, app.extensions[LIVE].listen)
    listening.daemon = True
    try:
        server = serve_limits.create_server(
            app,
            per_address=per_address,
            head_seconds=head_timeout,
            most_threads=threads + streams,
            host=listen,
            port=port,
            threads=threads,
            connection_limit=connection_limit(threads + streams),
            ident="schnapsen",
            asyncore_use_poll=True,  # no select() limit of 1024 descriptors
            # Read ahead one request, so waitress sees a live stream's client go away
            # (the stream ends and frees its thread at once, tournament/web/api/live.py).
            channel_request_lookahead=1,
        )
    except OSError as error:
        raise ServeError(f"cannot listen on {url_of(listen, port)}: {_reason(error)}") from None
    previous = signal.signal(signal.SIGTERM, _interrupt)
    listening.start()
    try:
        _announce(app, listen, int(server.effective_port), lan=lan, out=out)
        server.run()  # returns on Ctrl-C, having stopped the worker threads
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        listening.cancel()
        listening.join()
        app.extensions[LIVE].stop()  # live streams end now, not when their phones leave
        # Requests still running get up to 5 s to finish; then the sockets close.
        server.task_dispatcher.shutdown()
        server.close()
        with app.app_context():
            services().close()
    out.write("Stopped.\n")
    out.flush()


def _announce(app: Any, listen: str, port: int, *, lan: bool, out: TextIO) -> None:
    """What to open: the URL, the docs, on --lan the club network's address and its QR
    code, and the setup link while there is no account."""
    from tournament.db import safe_url

    say = out.write
    local = url_of(listen, port)
    say(f"Schnapsen tournament service: {local}\n")
    say(f"API docs: {url_of(listen, port, '/docs/')}\n")
    base = local
    if lan:
        address = lan_address()
        if address is None:
            say(
                "No club network found (this machine has no address but 127.0.0.1): "
                "phones cannot reach it until it joins the hall's network.\n"
            )
        else:
            base = url_of(address, port)
            say(f"On the club network: {base} (phones in the room open it, or scan:)\n")
            say(qr_code(base))
    link = setup_link(app, base)
    if link is not None:
        say("No organiser account yet: open this link to create the first one (it works once):\n")
        say(f"  {link}\n")
    say(f"Store: {safe_url(app.config['DATABASE_URL'])}. Ctrl-C stops the service.\n")
    out.flush()


def _reason(error: OSError) -> str:
    import errno

    if error.errno == errno.EADDRINUSE:
        return "the port is in use (is the service running already? --port picks another)"
    if error.errno == errno.EACCES:
        return "permission denied (ports below 1024 need root: use --port 8080)"
    if error.errno == errno.EADDRNOTAVAIL:
        return "this machine has no such address (--host)"
    return error.strerror or str(error)

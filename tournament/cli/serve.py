"""``tournament serve`` (``./dev serve``): start the web service.

The command only parses its options; the web stack (Flask, waitress, the store) is
imported when it runs, so ``tournament --help`` stays fast (tests/cli/test_startup.py).
What it does is :mod:`tournament.web.server`. The engine's demo hand that this command
played before the service existed is ``python -m engine demo``.
"""

from __future__ import annotations

import sys

import click

from tournament.cli import main


@main.command()
@click.option(
    "--host",
    default=None,
    metavar="ADDRESS",
    help="address to listen on [default: 127.0.0.1, this machine only]",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8080,
    envvar="PORT",
    show_default=True,
    help="port to listen on (or PORT; 0 picks a free one)",
)
@click.option(
    "--lan",
    is_flag=True,
    help="listen on the club network too (0.0.0.0) and print its address and a QR code",
)
@click.option(
    "--threads",
    type=click.IntRange(1, 1024),
    default=16,
    show_default=True,
    help="worker threads for requests (live streams get threads of their own: --streams)",
)
@click.option(
    "--streams",
    type=click.IntRange(1, 8192),
    default=512,
    envvar="SCHNAPSEN_LIVE_MAX_STREAMS",
    show_default=True,
    help="live streams held at once, a thread each (or SCHNAPSEN_LIVE_MAX_STREAMS)",
)
@click.option(
    "--max-per-address",
    type=click.IntRange(0, 100_000),
    default=32,
    envvar="SCHNAPSEN_SERVE_MAX_PER_ADDRESS",
    show_default=True,
    help="open connections one client address may hold (0: no cap)",
)
@click.option(
    "--head-timeout",
    type=click.FloatRange(0, 3600),
    default=10.0,
    envvar="SCHNAPSEN_SERVE_HEAD_TIMEOUT",
    show_default=True,
    help="seconds a client has to send a request's headers once begun (0: no deadline)",
)
@click.option(
    "--secure-cookies",
    is_flag=True,
    help="mark the session cookie Secure (behind a TLS proxy; plain http loses it)",
)
def serve(
    host: str | None,
    port: int,
    lan: bool,
    threads: int,
    streams: int,
    max_per_address: int,
    head_timeout: float,
    secure_cookies: bool,
) -> None:
    """Start the web service (API, docs, sign-in) on http://127.0.0.1:8080."""
    from tournament.cli.common import one_line_errors
    from tournament.web.server import DEFAULT_HOST, ServeError
    from tournament.web.server import serve as run

    if lan and host is not None:
        raise click.UsageError("--lan listens on every address (0.0.0.0): leave out --host")
    try:
        with one_line_errors():
            run(
                host=host or DEFAULT_HOST,
                port=port,
                lan=lan,
                threads=threads,
                streams=streams,
                per_address=max_per_address,
                head_timeout=head_timeout,
                secure_cookies=secure_cookies,
                out=sys.stdout,
            )
    except ServeError as error:
        raise click.ClickException(str(error)) from None

"""The web app's configuration: from the environment, with embedded defaults.

A club laptop sets nothing: SQLite under ``instance/``, no Redis, a secret key made on the
first start and kept in ``instance/secret_key`` (so sessions survive a restart). A server
sets ``DATABASE_URL``, ``REDIS_URL`` and ``SECRET_KEY`` (docs/operations.md).

>>> config = from_environment({"SCHNAPSEN_INSTANCE": "/srv/club", "SECRET_KEY": "s" * 32})
>>> config["DATABASE_URL"], config["REDIS_URL"], config["RATELIMIT_STORAGE_URI"]
('sqlite:////srv/club/tournament.sqlite3', None, 'memory://')
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tournament.config import database_url, instance_path

SECRET_FILE = "secret_key"


def from_environment(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Flask config keys from ``environ`` (default: ``os.environ``)."""
    env = os.environ if environ is None else environ
    redis_url = env.get("REDIS_URL", "").strip() or None
    secure = env.get("SCHNAPSEN_SECURE_COOKIES", "").strip().lower()
    return {
        "DATABASE_URL": database_url(env),
        "REDIS_URL": redis_url,
        "SECRET_KEY": env.get("SECRET_KEY", "").strip() or None,  # None: instance file
        "INSTANCE_PATH": str(instance_path(env)),
        # Login attempts are counted per process on a laptop, in Redis on a server (so
        # every web process counts the same attempts).
        "RATELIMIT_STORAGE_URI": redis_url or "memory://",
        "LOGIN_RATE_LIMIT": env.get("SCHNAPSEN_LOGIN_RATE_LIMIT", "10 per minute"),
        # Refused sign-ins per account, from any address (many addresses, or everyone in
        # the hall behind one): a lock-out lasts at most the window (trial 2, F12).
        "LOGIN_ACCOUNT_RATE_LIMIT": env.get(
            "SCHNAPSEN_LOGIN_ACCOUNT_RATE_LIMIT", "10 per 10 minutes"
        ),
        # Wrong table codes per address (/r, T-code) before every code is refused a while.
        "REPORT_CODE_RATE_LIMIT": env.get("SCHNAPSEN_REPORT_CODE_RATE_LIMIT", "10 per minute"),
        # Session cookies: HttpOnly and SameSite always; Secure unless told otherwise, which
        # only the laptop's plain-HTTP ``./dev serve`` does (a browser drops a Secure cookie
        # sent over http://192.168...; behind the deploy's TLS proxy they stay Secure).
        "SESSION_COOKIE_SECURE": secure not in ("0", "false", "no"),
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "MAX_CONTENT_LENGTH": 16 * 1024 * 1024,  # a backup of a federation's season
        # Projections (tournament/web/live.py): "thread" runs them beside the requests on
        # a laptop; with REDIS_URL the workers run them.
        "PROJECTIONS": env.get("SCHNAPSEN_PROJECTIONS", "thread").strip() or "thread",
        # Live streams one process holds: each holds a thread under waitress and gthread,
        # a greenlet under gevent (deploy/gunicorn/live.py).
        "LIVE_MAX_STREAMS": int(env.get("SCHNAPSEN_LIVE_MAX_STREAMS", "").strip() or 500),
        "LIVE_KEEPALIVE": float(env.get("SCHNAPSEN_LIVE_KEEPALIVE", "").strip() or 15),
        "PROJECTION_WAIT": 1.0,
        # Seconds a token's account and an account's role are remembered per process: a
        # revocation through another process (worker, host, the command line) takes that
        # long at most; 0 asks the database on every request (tournament.accounts.remembered).
        "AUTH_CACHE_SECONDS": float(env.get("SCHNAPSEN_AUTH_CACHE_SECONDS", "").strip() or 5),
        # Proxies in front (deploy/nginx.conf: 1): the client's address and scheme come
        # from their X-Forwarded-* headers. 0 (a laptop): the headers are ignored.
        "PROXY_HOPS": int(env.get("SCHNAPSEN_PROXY_HOPS", "").strip() or 0),
        # Where phones reach the service (the table cards' QR codes): a server's name, or a
        # fixed address; unset, the desk's own address (tournament/web/public_url.py).
        "PUBLIC_URL": env.get("SCHNAPSEN_PUBLIC_URL", "").strip() or None,
        # /metrics from another machine only with this token (Authorization: Bearer);
        # ``--lan`` keeps /metrics to the laptop itself without one (tournament.web.metrics).
        "METRICS_TOKEN": env.get("SCHNAPSEN_METRICS_TOKEN", "").strip() or None,
    }


def secret_key(folder: Path) -> str:
    """The key in ``folder/secret_key``, made (random, mode 0600) on first use."""
    path = folder / SECRET_FILE
    try:
        key = path.read_text().strip()
        if key:
            return key
    except FileNotFoundError:
        pass
    folder.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    # O_EXCL: two processes starting at once keep the key the first one wrote.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as file:
        file.write(key + "\n")
    return key

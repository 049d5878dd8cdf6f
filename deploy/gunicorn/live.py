"""gunicorn settings for the live streams: gevent workers.

    gunicorn -c deploy/gunicorn/live.py tournament.web.wsgi:app

The same app as the pages (``deploy/gunicorn/web.py``), but the proxy
(``deploy/nginx.conf``) sends it only ``GET /api/v1/tournaments/<tid>/live``:
Server-Sent Events that stay open for hours, a keep-alive comment every 15 s, and an
event whenever the tournament's standings move. **gthread for pages and API, gevent for
the streams**: under gevent a waiting stream costs a greenlet and a socket, not a thread,
so one process holds thousands; the CPU work that would stall a gevent loop (sign-ins,
folding a log) stays in the gthread processes. psycopg 3 cooperates with gevent by
itself (3.1.14 and later), so a stream's snapshot read does not block the loop.

Settings from the environment (deploy/env.example):

* ``SCHNAPSEN_LIVE_MAX_STREAMS``: streams per process (2,500 here). The app answers 503
  with ``Retry-After`` over it; gunicorn's ``worker_connections`` is set 500 above, so
  the app's cap (a clean refusal the client retries) comes first, and there is room for
  the streams' first requests and the health checks.
* ``LIVE_CONCURRENCY``: processes; default 2 (at most the CPUs). A process holds
  thousands of streams; two keep half of them open while the other restarts.
* ``LIVE_BIND``: where to listen (``127.0.0.1:8001``).
* ``FORWARDED_ALLOW_IPS``: as for the pages.

Each process needs a file descriptor per stream: the systemd unit and docker compose
raise the limit (``LimitNOFILE``, ``ulimits``), and so must any other way of starting it.

``timeout`` does not cut streams: a gevent worker tells the master it is alive from its
event loop once a second, whatever its connections do, so the timeout only catches a loop
that is stuck. On SIGTERM the workers stop accepting and their streams end after
``graceful_timeout``: a stream never ends by itself, and its client reconnects (to the
other process, or to this one restarted) with ``Last-Event-ID`` and resumes.

Loaded by gunicorn in its master process before gevent patches the standard library in
each worker: it imports nothing but the standard library (and tournament.metrics_dir,
which imports only that), and the app is loaded in the workers after the patch (no
``preload_app``).
"""

from __future__ import annotations

import os

#: The app's cap on streams per process when the environment sets none.
DEFAULT_STREAMS = 2500
#: Connections a process accepts beyond its streams: their first requests, health checks.
HEADROOM = 500


def _cpus() -> int:
    """The CPUs this process may run on (a container's or a unit's CPU set, not the host's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _number(name: str, default: int) -> int:
    text = os.environ.get(name, "").strip()
    return int(text) if text else default


streams = _number("SCHNAPSEN_LIVE_MAX_STREAMS", DEFAULT_STREAMS)

bind = [os.environ.get("LIVE_BIND", "").strip() or "127.0.0.1:8001"]
worker_class = "gevent"
workers = _number("LIVE_CONCURRENCY", min(2, _cpus()))
worker_connections = streams + HEADROOM
raw_env = [f"SCHNAPSEN_LIVE_MAX_STREAMS={streams}"]
preload_app = False  # the app is imported after gevent's patch, in each worker

timeout = 30
graceful_timeout = 10
keepalive = 5

forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "").strip() or "127.0.0.1,::1"

accesslog = None  # the app logs each request as a JSON line
errorlog = "-"
loglevel = "info"

worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

# See web.py: no control socket in the home directory.
control_socket_disable = True

# --- Figures and log lines (docs/operations.md, "Health, readiness, metrics, logs") ----
# gunicorn's own lines (start, stop, a worker booted or killed) as JSON like the app's;
# with SCHNAPSEN_METRICS_DIR, /metrics answers for every process of the host:
# each worker writes its figures to $SCHNAPSEN_METRICS_DIR/live (emptied as the master
# starts, not on a reload), and a dead worker's per-process gauges are dropped while its
# counters stay in the sums. metrics_dir imports only the standard library; the logger
# class is loaded by gunicorn itself (it imports gunicorn and the standard library).
from tournament import metrics_dir  # noqa: E402

logger_class = "tournament.gunicorn_logging.JsonLogger"
_figures = metrics_dir.use("live")


def on_starting(server: object) -> None:
    if _figures is not None:
        metrics_dir.wipe(_figures)


def child_exit(server: object, worker: object) -> None:
    if _figures is not None:
        metrics_dir.mark_process_dead(getattr(worker, "pid", 0), _figures)

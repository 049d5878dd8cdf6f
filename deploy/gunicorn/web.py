"""gunicorn settings for the pages and the API: gthread workers.

    gunicorn -c deploy/gunicorn/web.py tournament.web.wsgi:app

**gthread for pages and API, gevent for the streams.** A page or an API call takes
milliseconds and then frees its thread, so it runs here: a few processes (each its own
interpreter, so that one busy request does not hold the others up behind the GIL), each
with a pool of threads. A live stream (``GET /api/v1/tournaments/<tid>/live``, the
online tables' and their pages' streams: Server-Sent Events) stays open for hours; here
each would hold one of the threads, so the streams run in a process of their own under
gevent (``deploy/gunicorn/live.py``), where a stream costs a greenlet and a socket. The
proxy (``deploy/nginx.conf``) sends the streams there and everything else here.

Why not gevent for everything: gevent switches only when a greenlet waits on I/O, so CPU
work blocks every connection of the process for as long as it runs: a sign-in's argon2
hash (~50 ms), folding the log of a 1,024-player tournament (~0.3 s). Under gthread the
interpreter switches threads every few milliseconds, so a long request slows the others
down instead of stopping them; and a stream process stays free of such work, so its
keep-alives and fan-out are on time.

Settings from the environment (deploy/env.example):

* ``WEB_CONCURRENCY``: processes; default 2 x CPUs + 1, at most 8. Each uses up to
  ``WEB_THREADS`` PostgreSQL connections at once, from two pools that keep
  ``SCHNAPSEN_DB_POOL_SIZE`` each while quiet; what every process of every host may
  open together must stay below the server's ``max_connections`` (100 by default):
  docs/deploy.md, "How many PostgreSQL connections".
* ``WEB_THREADS``: threads per process (8).
* ``WEB_BIND``: where to listen (``127.0.0.1:8000``: the proxy is on the same host).
* ``FORWARDED_ALLOW_IPS``: the proxies whose ``X-Forwarded-Proto`` is believed
  (``127.0.0.1,::1``).
* ``SCHNAPSEN_LIVE_MAX_STREAMS``: the app's cap on streams per process. Here it is at most
  half the threads, whatever the environment says: a stream that reaches this process
  (no proxy in front, or a proxy that does not route it) works, but cannot take the
  threads the pages need; over the cap the app answers 503 with ``Retry-After``.

No access log: the app logs one JSON line per request itself (docs/operations.md), with
its request id; gunicorn's own lines (start, stop, a worker killed) go to stderr as JSON
lines of the same form (``logger_class``, at the end).

Loaded by gunicorn in its master process, before any worker exists: it imports nothing
but the standard library (and tournament.metrics_dir, which imports only that).
"""

from __future__ import annotations

import os

#: More processes than this cost memory and database connections and buy nothing on the
#: hosts the service runs on; a bigger host sets WEB_CONCURRENCY.
MAX_DEFAULT_WORKERS = 8


def _cpus() -> int:
    """The CPUs this process may run on (a container's or a unit's CPU set, not the host's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _number(name: str, default: int) -> int:
    text = os.environ.get(name, "").strip()
    return int(text) if text else default


bind = [os.environ.get("WEB_BIND", "").strip() or "127.0.0.1:8000"]
worker_class = "gthread"
workers = _number("WEB_CONCURRENCY", min(2 * _cpus() + 1, MAX_DEFAULT_WORKERS))
threads = _number("WEB_THREADS", 8)

raw_env = [
    "SCHNAPSEN_LIVE_MAX_STREAMS="
    + str(min(_number("SCHNAPSEN_LIVE_MAX_STREAMS", threads // 2), threads // 2))
]

# A request that takes a minute is stuck (the largest, a season's backup imported, takes
# seconds): its worker is killed and replaced.
timeout = 60
# On SIGTERM (systemctl stop, docker stop) requests in flight get this long to finish.
graceful_timeout = 30
keepalive = 5

forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "").strip() or "127.0.0.1,::1"

accesslog = None
errorlog = "-"
loglevel = "info"

# The workers' heartbeat files: on /dev/shm a container's overlay file system cannot make
# a busy worker look dead (gunicorn's advice for containers).
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

# gunicorn 24+ opens a control socket in the user's home by default: the web and the live
# process of one user would fight over it, and under systemd the home is read-only.
control_socket_disable = True

# --- Figures and log lines (docs/operations.md, "Health, readiness, metrics, logs") ----
# gunicorn's own lines (start, stop, a worker booted or killed) as JSON like the app's;
# with SCHNAPSEN_METRICS_DIR, /metrics answers for every process of the host:
# each worker writes its figures to $SCHNAPSEN_METRICS_DIR/web (emptied as the master
# starts, not on a reload), and a dead worker's per-process gauges are dropped while its
# counters stay in the sums. metrics_dir imports only the standard library; the logger
# class is loaded by gunicorn itself (it imports gunicorn and the standard library).
from tournament import metrics_dir  # noqa: E402

logger_class = "tournament.gunicorn_logging.JsonLogger"
_figures = metrics_dir.use("web")


def on_starting(server: object) -> None:
    if _figures is not None:
        metrics_dir.wipe(_figures)


def child_exit(server: object, worker: object) -> None:
    if _figures is not None:
        metrics_dir.mark_process_dead(getattr(worker, "pid", 0), _figures)

"""Where a host's processes keep their Prometheus figures, so that ``/metrics`` answers
for all of them (prometheus_client's multiprocess mode), not for whichever gunicorn
worker the scrape reached.

``SCHNAPSEN_METRICS_DIR`` (e.g. ``/run/schnapsen/metrics``) is the host's folder. Each
kind of process writes into a folder of its own below it: ``web`` (gunicorn, gthread),
``live`` (gunicorn, gevent) and ``worker`` (Celery); :func:`use` points prometheus_client
there (``PROMETHEUS_MULTIPROC_DIR``), which must happen before prometheus_client is
imported. A kind's folder is emptied when that kind starts (:func:`wipe`): the web
processes restarting must not delete the files the stream processes are writing.
``/metrics`` of a web or a stream process reads every kind's files
(:mod:`tournament.web.metrics`): counters add up over the processes, dead ones included,
so they only grow until a restart and ``rate()`` works.

Without ``SCHNAPSEN_METRICS_DIR`` (a laptop, ``tournament serve``, the tests) every
process keeps its figures in memory and answers its own.

Standard library only: gunicorn's master runs it (``deploy/gunicorn/*.py``).
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import sys

HOST_ENV = "SCHNAPSEN_METRICS_DIR"
OWN_ENV = "PROMETHEUS_MULTIPROC_DIR"

#: prometheus_client's gauge modes whose files belong to one living process.
_LIVE_MODES = ("liveall", "livesum", "livemax", "livemin", "livemostrecent")


def host_dir() -> str | None:
    return os.environ.get(HOST_ENV, "").strip() or None


def use(kind: str) -> str | None:
    """Point this process (and the processes it starts) at ``kind``'s folder; the folder,
    or None when the host keeps no shared figures. An explicit ``PROMETHEUS_MULTIPROC_DIR``
    is left as it is."""
    found = os.environ.get(OWN_ENV, "").strip()
    if found:
        return found
    host = host_dir()
    if host is None:
        return None
    path = os.path.join(host, kind)
    try:
        os.makedirs(path, exist_ok=True)
        writable = os.access(path, os.W_OK)
    except OSError:
        writable = False
    if not writable:  # figures per process rather than no service: say so, and go on
        sys.stderr.write(
            json.dumps(
                {
                    "event": f"{HOST_ENV}: cannot write {path}; each process answers "
                    "/metrics with its own figures",
                    "level": "warning",
                    "logger": __name__,
                }
            )
            + "\n"
        )
        return None
    os.environ[OWN_ENV] = path
    return path


def wipe(path: str) -> None:
    """Empty ``path`` (a kind's folder) as its processes start: the figures of a previous
    run would otherwise be added to this one's."""
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        target = os.path.join(path, name)
        if os.path.isdir(target):
            shutil.rmtree(target, ignore_errors=True)
        else:
            os.remove(target)


def mark_process_dead(pid: int, path: str) -> None:
    """Forget a dead process's gauges that count living processes only (as
    ``prometheus_client.multiprocess.mark_process_dead``; gunicorn's master imports only
    the standard library, whose modules gevent patches later in each stream worker).
    Its counters stay: they are part of the host's totals."""
    for mode in _LIVE_MODES:
        for found in glob.glob(os.path.join(path, f"gauge_{mode}_{pid}.db")):
            os.remove(found)


def files_by_kind() -> dict[str, list[str]]:
    """The figure files of the host by kind (``web``, ``live``, ``worker``), or those of
    this process's own folder (named as the folder)."""
    host = host_dir()
    own = os.environ.get(OWN_ENV, "").strip()
    folders = sorted(glob.glob(os.path.join(host, "*", ""))) if host else [own] if own else []
    return {
        os.path.basename(os.path.normpath(folder)): sorted(glob.glob(os.path.join(folder, "*.db")))
        for folder in folders
    }


def shared() -> bool:
    """Whether this process writes its figures to files (multiprocess mode)."""
    return bool(os.environ.get(OWN_ENV, "").strip())

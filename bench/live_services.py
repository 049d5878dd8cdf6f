"""bench/live.py's processes: its own redis-server, Celery workers, the web service under
waitress (``tournament serve``, the laptop's way) or gunicorn (gthread for the API, gevent
for the live streams), each started as the deployment would start it and stopped (and
waited for) when its ``with`` block ends; and the stores they share (a SQLite file, a
scratch schema of PostgreSQL) with a tournament and a token to write to it."""

from __future__ import annotations

import contextlib
import dataclasses
import http.client
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from argon2 import PasswordHasher

from tournament.accounts.roles import Role
from tournament.accounts.service import Accounts
from tournament.db import create_sqlite_file
from tournament.eventstore import migrate

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
APP = "tournament.web.wsgi:app"  # what a deployment's gunicorn runs
DESK = "desk@bench.test"  # the organiser's desk: enters sheets and draws rounds
ADMIN = "admin@bench.test"
PASSWORD = "bench password 1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def sqlite_store(folder: str) -> str:
    """A migrated SQLite store in ``folder``: its URL."""
    url = f"sqlite:///{Path(folder) / 'events.sqlite3'}"
    create_sqlite_file(url)
    migrate.upgrade(url)
    return url


def desk_token(url: str, tids: list[str]) -> str:
    """A token of an account that is organiser (not admin) of ``tids``: it enters the
    sheets and draws the rounds, its role looked up on every write."""
    # Cheap hashing: the bench signs in by token only (argon2's defaults cost seconds).
    accounts = Accounts(url, hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    try:
        accounts.add(ADMIN, PASSWORD, admin=True)
        accounts.add(DESK, PASSWORD)
        for tid in tids:
            accounts.grant(DESK, tid, Role.ORGANISER, by=ADMIN)
        return accounts.create_token(DESK, "bench")[1]
    finally:
        accounts.close()


def environment(folder: str, **settings: str) -> dict[str, str]:
    """What every process of the service is started with, plus ``settings``."""
    return {
        **os.environ,
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(32),
        "SCHNAPSEN_INSTANCE": folder,  # its seal key (unless set) and nothing else
        "SCHNAPSEN_SEAL_KEY": os.environ.get("SCHNAPSEN_SEAL_KEY") or "5e" * 32,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        **settings,
    }


@contextlib.contextmanager
def process(
    name: str, command: list[str], env: Mapping[str, str], folder: str, grace: float = 20.0
) -> Iterator[subprocess.Popen[bytes]]:
    """``command`` running with its output in ``folder/name.log``; stopped with SIGTERM
    (then SIGKILL after ``grace`` s) at the end, its log's tail shown if it died early."""
    log_path = Path(folder) / f"{name}.log"
    with open(log_path, "ab") as log:
        child = subprocess.Popen(
            command, env=dict(env), stdout=log, stderr=subprocess.STDOUT, cwd=ROOT
        )
    try:
        yield child
        if child.poll() is not None:
            raise RuntimeError(f"{name} died (exit {child.returncode}):\n{tail(log_path)}")
    finally:
        stop(child, grace)


def stop(child: subprocess.Popen[bytes], grace: float = 20.0) -> None:
    if child.poll() is None:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(grace)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return f"({path} unreadable)"


def wait_until(ready: Callable[[], bool], what: str, child: subprocess.Popen[bytes],
               folder: str, name: str, seconds: float = 60.0) -> None:  # fmt: skip
    deadline = time.monotonic() + seconds
    while not ready():
        if child.poll() is not None or time.monotonic() > deadline:
            why = "died" if child.poll() is not None else f"not {what} after {seconds:g} s"
            raise RuntimeError(f"{name} {why}:\n{tail(Path(folder) / f'{name}.log')}")
        time.sleep(0.1)


def answers(port: int, path: str = "/healthz") -> bool:
    conn = http.client.HTTPConnection(HOST, port, timeout=5)
    try:
        conn.request("GET", path)
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


@contextlib.contextmanager
def redis_server(folder: str) -> Iterator[str]:
    """A redis-server of our own on a free port (never the shared one): its URL."""
    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", HOST, "--save", "",
               "--appendonly", "no", "--dir", folder, "--maxclients", "10000"]  # fmt: skip
    with process("redis", command, os.environ, folder) as child:
        wait_until(lambda: _pings(port), "answering", child, folder, "redis")
        yield f"redis://{HOST}:{port}/0"


def _pings(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), 1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@dataclasses.dataclass(frozen=True)
class Served:
    """A web server under test: where it listens, and its (master) process."""

    port: int
    pid: int


@contextlib.contextmanager
def waitress_serve(url: str, folder: str, **settings: str) -> Iterator[Served]:
    """The laptop's service: ``tournament serve`` (waitress, projections in a thread of
    the web process, no Redis) on ``url``; ``settings``: further environment."""
    port = free_port()
    env = environment(folder, DATABASE_URL=url, **settings)
    env.pop("REDIS_URL", None)
    env.pop("SCHNAPSEN_PROJECTIONS", None)  # the default: "thread"
    command = [sys.executable, "-m", "tournament", "serve", "--port", str(port)]
    # A short grace: the live stream's thread stays until its next keep-alive finds the
    # client gone (15 s), and waitress waits for it before it exits.
    with process("waitress", command, env, folder, grace=2.0) as child:
        wait_until(lambda: answers(port), "answering", child, folder, "waitress")
        yield Served(port, child.pid)


@contextlib.contextmanager
def gunicorn(name: str, url: str, redis: str, folder: str, options: list[str],
             app: str = APP, **settings: str) -> Iterator[Served]:  # fmt: skip
    """``app`` under gunicorn with ``options`` (its worker class and counts), on ``url``
    with ``REDIS_URL`` = ``redis``."""
    port = free_port()
    env = environment(folder, DATABASE_URL=url, REDIS_URL=redis, **settings)
    command = [sys.executable, "-m", "gunicorn", *options, "--bind", f"{HOST}:{port}",
               "--log-level", "warning", app]  # fmt: skip
    with process(name, command, env, folder) as child:
        wait_until(lambda: answers(port), "answering", child, folder, name)
        yield Served(port, child.pid)


@contextlib.contextmanager
def celery_worker(name: str, url: str, redis: str, folder: str, concurrency: int
                  ) -> Iterator[subprocess.Popen[bytes]]:  # fmt: skip
    """``celery -A workers worker --pool prefork --concurrency N`` (one process with N
    forked children). Ready once it projects: the caller finds out."""
    env = environment(folder, DATABASE_URL=url, REDIS_URL=redis)
    command = [sys.executable, "-m", "celery", "-A", "workers", "worker", "--pool", "prefork",
               "--concurrency", str(concurrency), "--loglevel", "WARNING",
               "--hostname", f"{name}@%h"]  # fmt: skip
    with process(name, command, env, folder) as child:
        yield child


def _processes(pid: int) -> list[Path]:
    """``/proc`` of ``pid`` and its children (a gunicorn master and its workers)."""
    found = [Path(f"/proc/{pid}")]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(stat.parent)
    return found


def cpu_seconds(pid: int | None) -> float | None:
    """CPU seconds (user + system) ``pid`` and its children have used: unlike the
    wall clock, hardly changed by whatever else runs on the machine. None: not Linux."""
    if pid is None:
        return None
    try:
        ticks = 0
        for proc in _processes(pid):
            # After the command's closing parenthesis: state, ppid, ... utime, stime.
            fields = (proc / "stat").read_text().rpartition(")")[2].split()
            ticks += int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError):
        return None


def rss_mb(pid: int | None) -> float | None:
    """Resident memory of ``pid`` and its children, MB."""
    if pid is None:
        return None
    try:
        kb = 0
        for proc in _processes(pid):
            for line in (proc / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    kb += int(line.split()[1])
        return round(kb / 1024, 1)
    except (OSError, ValueError):
        return None

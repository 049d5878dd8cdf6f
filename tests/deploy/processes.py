"""Real server processes for the deploy tests: started from the deploy files' commands,
asked over HTTP, their figures read from the host's metrics folder, stopped by pid."""

from __future__ import annotations

import glob
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(what: str, check: Callable[[], T | None], timeout: float = 40.0) -> T:
    """``check()``'s first answer that is not None (or false), asked every 0.1 s."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what} after {timeout} s")
        time.sleep(0.1)


def get(url: str, timeout: float = 10.0) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError:
        return 0, ""


def samples(text: str, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    """The samples called ``name`` in Prometheus text: sorted labels -> value."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                found[tuple(sorted(sample.labels.items()))] = sample.value
    return found


def file_samples(folder: Path, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    """As :func:`samples`, from the figure files under ``folder`` (every kind)."""
    files = glob.glob(str(folder / "*" / "*.db"))
    found = {}
    for metric in MultiProcessCollector.merge(files, accumulate=True):
        for sample in metric.samples:
            if sample.name == name:
                found[tuple(sorted(sample.labels.items()))] = sample.value
    return found


def stop(process: subprocess.Popen[bytes], timeout: float = 20.0) -> None:
    """SIGTERM to a process we started (in a session of its own: it stops its children),
    then SIGKILL to its process group if it does not end in time."""
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)

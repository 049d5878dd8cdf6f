"""The disk under a SQLite store fills up (trial 2, attack F10): a write answers 503 with
Retry-After and says the disk is full, never 500 "the service failed"; /readyz says
``disk full``; nothing is stored half; once there is room again writes work without a
restart and /readyz is ready.

The full disk is real: a 2 MiB tmpfs mounted for the test (it needs root, or the right to
mount; without it the test skips: SQLite's max_page_count cannot stand in, as it is set
per connection and the app opens its own).
"""

from __future__ import annotations

import contextlib
import errno
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.conftest import Web, make_web
from tournament.app.services import services
from tournament.eventstore.verify import verify


@pytest.fixture
def small_disk() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="schnapsen-full-"))
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if mounted.returncode != 0:
        folder.rmdir()
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
        folder.rmdir()


def fill(disk: Path) -> Path:
    """Take every free byte of ``disk`` with one file."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 4096)
        except OSError as error:
            assert error.errno == errno.ENOSPC
    return filler


def test_a_full_disk_answers_503_and_readyz_says_so_until_there_is_room(
    small_disk: Path, tmp_path: Path
) -> None:
    web: Web = make_web(f"sqlite:///{small_disk / 'web.sqlite3'}", tmp_path)
    web.tournament("club")
    stored = 0
    for number in range(3):
        body = {"name": f"Player {number}"}
        assert web.post("/api/v1/tournaments/club/players", body).status_code == 201
        stored += 1

    filler = fill(small_disk)
    refused = None
    for number in range(stored, stored + 200):  # until the pages SQLite had free are used
        reply = web.post("/api/v1/tournaments/club/players", {"name": f"Player {number}"})
        assert reply.status_code in (201, 503), reply.get_data(as_text=True)
        if reply.status_code == 503:
            refused = reply
            break
        stored += 1
    assert refused is not None, "the disk never filled"
    assert int(refused.headers["Retry-After"]) > 0
    problem = refused.get_json()
    assert problem["cause"] == "disk full"
    assert problem["detail"].startswith("the database's disk is full")
    ready = web.get("/readyz", token=None)
    assert ready.status_code == 503
    assert ready.get_json()["checks"]["database"].startswith("disk full")
    assert web.get("/api/v1/tournaments/club", token=None).status_code == 200  # reads work

    filler.unlink()  # the operator makes room: no restart
    again = web.post("/api/v1/tournaments/club/players", {"name": "Player after"})
    assert again.status_code == 201, again.get_data(as_text=True)
    stored += 1
    assert web.get("/readyz", token=None).status_code == 200

    names = [p["name"] for p in web.get("/api/v1/tournaments/club/players").get_json()["players"]]
    assert len(names) == len(set(names)) == stored  # each acknowledged write once, no other
    with web.app.app_context():
        found = services()
        assert verify(found.store).ok
        found.store.close()
    with contextlib.closing(sqlite3.connect(small_disk / "web.sqlite3")) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)

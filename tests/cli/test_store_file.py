"""The club laptop's store is one file after every command: a copy of the .sqlite3 file
alone (on a USB stick at the end of the evening) holds every result, although a command
skips Python's last garbage collection at exit to start and end faster."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path


def tournament(folder: Path, *args: str) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'club.sqlite3'}"}
    env["SCHNAPSEN_INSTANCE"] = str(folder)
    done = subprocess.run(
        [sys.executable, "-m", "tournament", *args], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_a_copy_of_the_sqlite_file_alone_holds_every_event(tmp_path: Path) -> None:
    tournament(tmp_path, "create", "Cup", "--id", "cup")
    for name in ("Anna", "Berti"):
        tournament(tmp_path, "players", "add", name)
    tournament(tmp_path, "standings")  # a read last, as the evening often ends
    assert not list(tmp_path.glob("club.sqlite3-*")), "the write-ahead log is left behind"
    copy = tmp_path / "usb" / "club.sqlite3"
    copy.parent.mkdir()
    shutil.copyfile(tmp_path / "club.sqlite3", copy)
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT count(*) FROM es_events").fetchone() == (3,)

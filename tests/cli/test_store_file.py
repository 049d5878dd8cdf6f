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


def piped_away(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``tournament ARGS | true``: the reader is gone before the first line is written."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'club.sqlite3'}"}
    env["SCHNAPSEN_INSTANCE"] = str(folder)
    command = " ".join([sys.executable, "-m", "tournament", *(f"'{a}'" for a in args)])
    return subprocess.run(
        ["bash", "-c", f"{command} | true; exit ${{PIPESTATUS[0]}}"],
        env=env, capture_output=True, text=True,
    )  # fmt: skip


def test_output_piped_into_a_reader_that_left_ends_quietly_and_a_write_is_still_stored(
    tmp_path: Path,
) -> None:
    tournament(tmp_path, "create", "Cup", "--id", "cup", "--best-of", "1")
    for name in ("Anna", "Berti", "Carla", "Doris", "Emil", "Franz"):
        tournament(tmp_path, "players", "add", name)
    tournament(tmp_path, "round", "start")
    tournament(tmp_path, "results", "enter", "1.1", "--tally", "7 4 1 0 / 7 5")
    for command in (("standings",), ("standings", "--csv"), ("log",), ("round", "show")):
        done = piped_away(tmp_path, *command)
        assert (done.returncode, done.stderr) == (0, ""), command
    with sqlite3.connect(tmp_path / "club.sqlite3") as db:
        rid = db.execute(
            "SELECT json_extract(payload, '$.result_id') FROM es_events "
            "WHERE type = 'result.bummerl_tally_recorded'"
        ).fetchone()[0]
    # A correction prints its preview first: the reader gone must not stop it half-way.
    done = piped_away(
        tmp_path, "results", "correct", rid, "--tally", "7 5 / 7 4 1 0", "--by", "ref",
        "--why", "columns swapped", "--yes",
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    with sqlite3.connect(tmp_path / "club.sqlite3") as db:
        assert db.execute(
            "SELECT count(*) FROM es_events WHERE type = 'result.corrected'"
        ).fetchone() == (1,)

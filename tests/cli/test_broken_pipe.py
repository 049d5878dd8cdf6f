"""`tournament export - | head` (operator F14): a reader that stops reading ends the
export quietly, as any Unix tool ends on SIGPIPE, without "Error: Broken pipe"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from tournament.cli import main


def test_an_export_into_a_closed_pipe_ends_quietly_operator_f14(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}"}
    env["SCHNAPSEN_INSTANCE"] = str(tmp_path)
    made = CliRunner().invoke(main, ["create", "Cup", "--id", "cup"], env=env)
    assert made.exit_code == 0, made.output
    export = subprocess.Popen(
        [sys.executable, "-m", "tournament", "export", "-"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert export.stdout is not None and export.stderr is not None
    export.stdout.close()  # the reader is gone before the first line: every write fails
    stderr = export.stderr.read().decode()
    assert export.wait(timeout=120) != 0  # the backup was not written whole
    assert "Error" not in stderr and "Traceback" not in stderr and "Broken pipe" not in stderr
    assert stderr == ""

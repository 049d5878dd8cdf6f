"""A PostgreSQL cluster of one test's own (initdb + pg_ctl on a free port, in a temporary
folder), which the test may stop, crash and start: the shared server is never touched.

As root the cluster runs as the ``postgres`` user (PostgreSQL refuses to run as root).
Without initdb the tests skip, or fail under SCHNAPSEN_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_SERVICES
from tests.live.harness import free_port


def _program(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return versions[-1] if versions else None


def _missing(message: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(message + " (SCHNAPSEN_REQUIRE_SERVICES=1: CI requires it)")
    pytest.skip(message)


class OwnPostgres:
    """One cluster: :meth:`start`, :meth:`stop` (``fast`` or ``immediate``), :meth:`close`."""

    def __init__(self, max_connections: int = 40) -> None:
        initdb, pg_ctl = _program("initdb"), _program("pg_ctl")
        if initdb is None or pg_ctl is None:
            _missing("PostgreSQL's initdb/pg_ctl are not installed")
        assert initdb is not None and pg_ctl is not None
        self.pg_ctl = pg_ctl
        self.port = free_port()
        self.as_user: list[str] = []
        # Not under pytest's tmp_path: the postgres user cannot reach into root's folders.
        self.folder = Path(tempfile.mkdtemp(prefix="schnapsen-pg-"))
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                _missing("running as root, and there is no postgres user to run PostgreSQL")
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.data = self.folder / "data"
        self._run(initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "-E", "UTF8", "--no-sync", "--no-instructions")  # fmt: skip
        self.options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            f"-c max_connections={max_connections} -c superuser_reserved_connections=0"
        )

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        done = subprocess.run(
            [*self.as_user, *command], capture_output=True, text=True, timeout=60, check=False
        )
        assert done.returncode == 0, f"{' '.join(command)}: {done.stdout}{done.stderr}"

    def start(self) -> None:
        self._run(self.pg_ctl, "-D", str(self.data), "-o", self.options,
                  "-l", str(self.folder / "log"), "-w", "-t", "30", "start")  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        self._run(self.pg_ctl, "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def close(self) -> None:
        if self.running():
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

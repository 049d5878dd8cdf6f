"""A built wheel is a release that migrates (operator F10): the migrations ship inside the
package, so a wheel installed into a fresh environment, far from any checkout, creates and
migrates a new store; without them, one ``Error:`` line, never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from tournament.eventstore import migrate
from tournament.version import version

SOURCES = ("pyproject.toml", "README.md", "LICENSE", "engine", "tournament", "workers")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``pip wheel . --no-deps`` of a copy of the sources (the build leaves build/ and
    egg-info behind, which the checkout must not get); the backend is the locked one."""
    folder = tmp_path_factory.mktemp("wheel")
    source = folder / "source"
    source.mkdir()
    for name in SOURCES:
        if (REPO / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
            shutil.copytree(REPO / name, source / name, ignore=ignore)
        else:
            shutil.copy(REPO / name, source / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps",
         "--no-build-isolation", "--quiet", "-w", str(folder / "dist")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-2000:]
    (found,) = (folder / "dist").glob("schnapsen_tournament-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv with the wheel installed (--no-deps): the dependencies are this
    environment's, seen through a path file, not the checkout's package."""
    venv = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    # Appended after the venv's own site-packages; its .pth files (the checkout's
    # editable install among them) are not read from there.
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--quiet", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    yield venv


def run(venv: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(cwd), "LANG": "C.UTF-8"}
    env.update({k: v for k, v in os.environ.items() if k in ("TMPDIR",)})
    return subprocess.run(
        [str(venv / "bin" / "tournament"), *args],
        capture_output=True, text=True, cwd=cwd, env=env, timeout=120,
    )  # fmt: skip


def test_the_wheel_holds_the_migrations_and_the_licence(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    head = migrate.migrations_head()
    assert any(n.startswith(f"tournament/migrations/versions/{head}_") for n in names)
    assert {"tournament/migrations/env.py", "tournament/migrations/script.py.mako"} <= names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert not any(n.startswith(("migrations/", "tests/")) for n in names)


def test_an_installed_wheel_migrates_a_new_sqlite_store_operator_f10(
    installed: Path, tmp_path: Path
) -> None:
    upgraded = run(installed, tmp_path, "db", "upgrade", "--database-url",
                   f"sqlite:///{tmp_path}/new.sqlite3")  # fmt: skip
    assert upgraded.returncode == 0, upgraded.stderr
    assert upgraded.stdout.strip() == f"database at revision {migrate.migrations_head()}"
    created = run(installed, tmp_path, "create", "Freitagsturnier", "--date", "2026-11-27")
    assert created.returncode == 0, created.stderr
    # The default store of an installed package: the environment's var/, not site-packages.
    assert (installed / "var" / "schnapsen-instance" / "tournament.sqlite3").is_file()
    listed = run(installed, tmp_path, "list")
    assert "Freitagsturnier" in listed.stdout


def test_the_installed_wheel_runs_its_own_code_and_names_its_release(
    installed: Path, tmp_path: Path
) -> None:
    where = subprocess.run(
        [installed / "bin" / "python", "-c", "import tournament; print(tournament.__file__)"],
        capture_output=True, text=True, cwd=tmp_path, check=True,
    ).stdout  # fmt: skip
    assert str(installed) in where and str(REPO) not in where
    assert run(installed, tmp_path, "--version").stdout == f"tournament {version()}\n"


def test_missing_migrations_end_in_one_error_line_not_a_traceback(
    installed: Path, tmp_path: Path
) -> None:
    (package,) = installed.glob("lib/python*/site-packages/tournament")
    shutil.rmtree(package / "migrations" / "versions")
    try:
        for args in (("db", "upgrade"), ("create", "X", "--date", "2026-11-27")):
            done = run(installed, tmp_path, *args)
            assert done.returncode == 1, done.stderr
            assert "Traceback" not in done.stderr
            (line,) = done.stderr.strip().splitlines()
            assert line.startswith("Error: the migrations are not installed: ")
            assert "reinstall the package" in line
    finally:
        shutil.rmtree(installed)  # the module's venv is broken now: nobody reuses it

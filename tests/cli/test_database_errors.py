"""Every organiser command fails in one line, exit status 1, when the database is the
problem -- busy, read-only, unreachable, missing, not a tournament database, a mistyped
URL -- and stores nothing (trial 2, F5 and F8; trial 1, #8). A command that only reads
never creates a database file or a folder: it says there is no store."""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tournament import db as tournament_db
from tournament.cli import main
from tournament.cli.common import service_at

# chmod denies root nothing: as root, those commands run without the capabilities that
# let root ignore file modes (still root, so they read a checkout only root may read)
ROOT = os.geteuid() == 0


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """``cli(*args, url=...)``: ``tournament ARGS`` on the store at ``url`` (default: a
    fresh SQLite file), with a 0.2 s busy timeout instead of 30 s."""
    monkeypatch.setenv("SCHNAPSEN_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("SCHNAPSEN_TOURNAMENT", raising=False)
    monkeypatch.setattr(tournament_db, "BUSY_TIMEOUT_MS", 200)
    service_at.cache_clear()

    def run(*args: str, url: str | None = None) -> Result:
        monkeypatch.setenv("DATABASE_URL", url or f"sqlite:///{tmp_path / 'club.sqlite3'}")
        return CliRunner().invoke(main, list(args))

    yield run
    service_at.cache_clear()


def one_line_error(result: Result, *fragments: str) -> str:
    """The single ``Error:`` line of a command that failed with status 1."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    [line] = [x for x in result.output.splitlines() if x.startswith("Error:")]
    for fragment in fragments:
        assert fragment in line, line
    return line


def a_tournament(cli: Callable[..., Result], url: str | None = None) -> None:
    for args in (("create", "Cup", "--id", "cup"), ("players", "add", "Anna")):
        assert cli(*args, url=url).exit_code == 0


def as_a_new_process(tmp_path: Path) -> None:
    """Close this process's pooled connections, as the next command (a new process) has
    none: they were opened before the test changed the file under them."""
    service_at(f"sqlite:///{tmp_path / 'club.sqlite3'}").store.dispose()  # type: ignore[attr-defined]
    service_at.cache_clear()


def players(cli: Callable[..., Result], url: str | None = None) -> list[str]:
    result = cli("players", "list", url=url)
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


READ_ONLY = [
    ["list"], ["show"], ["standings"], ["log"], ["players", "list"], ["round", "show"],
    ["results", "show", "1.1"], ["bracket"], ["verify"], ["export", "-"], ["db", "current"],
]  # fmt: skip


@pytest.mark.parametrize("command", READ_ONLY, ids=" ".join)
@pytest.mark.parametrize("where", ["a folder that exists", "a folder that does not"])
def test_a_read_only_command_on_a_missing_store_creates_nothing(
    cli: Callable[..., Result], tmp_path: Path, command: list[str], where: str
) -> None:
    folder = tmp_path if where == "a folder that exists" else tmp_path / "typo" / "sub"
    path = folder / "club.sqlite3"
    line = one_line_error(cli(*command, url=f"sqlite:///{path}"))
    assert line.startswith(f"Error: there is no tournament store at {path}: no such file")
    assert not path.exists() and not (tmp_path / "typo").exists()


def test_a_write_command_on_a_missing_store_creates_and_migrates_it(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    path = tmp_path / "new" / "club.sqlite3"
    assert cli("create", "Cup", url=f"sqlite:///{path}").exit_code == 0
    assert "Cup (cup)" in cli("show", url=f"sqlite:///{path}").output


def test_a_plain_file_path_is_read_as_a_sqlite_file(
    cli: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    a_tournament(cli, "club.sqlite3")
    assert (tmp_path / "club.sqlite3").is_file()
    assert any("Anna" in line for line in players(cli, str(tmp_path / "club.sqlite3")))


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("mysql://club:secret@db/turnier", "runs on SQLite or PostgreSQL, not mysql"),
        ("postgresq://club:secret@db/turnier", "is not a database URL the event store can use"),
        ("://turnier", "'://turnier' is not a database URL"),
        ("postgresql://club:secret@db:port/turnier", "is not a database URL: its port"),
        ("postgresql+psycopg2://club:secret@db/turnier", "through psycopg 3, not psycopg2"),
    ],
)
@pytest.mark.parametrize("command", [["standings"], ["players", "add", "Anna"]], ids=" ".join)
def test_a_mistyped_url_is_one_line_without_the_password(
    cli: Callable[..., Result], url: str, expected: str, command: list[str]
) -> None:
    line = one_line_error(cli(*command, "-t", "cup", url=url), expected)
    assert "secret" not in line


@pytest.mark.parametrize("command", [["standings"], ["players", "add", "Berti"]], ids=" ".join)
def test_a_file_that_is_not_a_database_is_refused_and_left_alone(
    cli: Callable[..., Result], tmp_path: Path, command: list[str]
) -> None:
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\n")
    one_line_error(
        cli(*command, "-t", "cup", url=f"sqlite:///{passwd}"),
        f"{passwd} is not a tournament database: it is not a SQLite database file",
    )
    assert passwd.read_text() == "root:x:0:0:root:/root:/bin/bash\n"  # never "migrated"


def test_a_database_of_another_program_is_refused_not_migrated(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    other = tmp_path / "kassa.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE buchungen (betrag INTEGER)")
    for command in (("create", "Cup"), ("db", "upgrade")):  # asked outright, too
        one_line_error(
            cli(*command, url=f"sqlite:///{other}"),
            "is not a tournament database: it holds the tables of another program (buchungen)",
        )
    with sqlite3.connect(other) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["buchungen"]


@pytest.fixture
def writer_holding_the_lock(tmp_path: Path) -> Iterator[Callable[[bool], None]]:
    """``hold(exclusive)``: another connection takes the database's write lock (and, when
    ``exclusive``, keeps even readers out) until the test ends."""
    release = threading.Event()
    held = threading.Event()
    threads = []

    def hold(exclusive: bool) -> None:
        def run() -> None:
            conn = sqlite3.connect(tmp_path / "club.sqlite3", isolation_level=None)
            if exclusive:
                conn.execute("PRAGMA locking_mode=EXCLUSIVE")
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO es_checkpoints VALUES ('x', 0, '2026-01-01')")
            if exclusive:
                conn.execute("COMMIT")  # keeps the exclusive lock (locking_mode)
            held.set()
            release.wait(30)
            conn.close()

        thread = threading.Thread(target=run)
        thread.start()
        threads.append(thread)
        assert held.wait(10)

    yield hold
    release.set()
    for thread in threads:
        thread.join(10)


@pytest.mark.parametrize(
    "command",
    [
        ["players", "add", "Berti"],
        ["players", "checkin", "1"],
        ["round", "start"],
        ["create", "Zweites Turnier"],
    ],
    ids=" ".join,
)
def test_a_locked_database_is_one_line_saying_another_program_is_writing(
    cli: Callable[..., Result], writer_holding_the_lock: Callable[[bool], None],
    command: list[str],
) -> None:  # fmt: skip
    a_tournament(cli)
    before = players(cli)
    writer_holding_the_lock(False)
    one_line_error(cli(*command), "another program is writing to the database; try again")
    assert players(cli) == before  # reads still work, and nothing was stored


def test_a_results_import_into_a_locked_database_is_one_line(
    cli: Callable[..., Result], writer_holding_the_lock: Callable[[bool], None], tmp_path: Path
) -> None:
    a_tournament(cli)
    sheet = tmp_path / "players.csv"
    sheet.write_text("name\nBerti\nCarla\n")
    writer_holding_the_lock(False)
    one_line_error(cli("players", "import", str(sheet)), "another program is writing")


def test_an_exclusively_locked_database_is_one_line_for_reads_too(
    cli: Callable[..., Result], writer_holding_the_lock: Callable[[bool], None], tmp_path: Path
) -> None:
    a_tournament(cli)
    as_a_new_process(tmp_path)  # our pooled connections would keep the other program out
    writer_holding_the_lock(True)
    for command in (["standings"], ["players", "list"]):
        one_line_error(cli(*command), "another program is writing to the database")


@pytest.fixture
def unprivileged() -> Iterator[Callable[..., subprocess.CompletedProcess[str]]]:
    """``run(*args)``: ``tournament ARGS`` in a process of its own on a SQLite store in a
    fresh folder, as a user that file modes bind: when the tests run as root (chmod denies
    root nothing), root without its capabilities (no DAC override: the modes of root's
    own files bind it), else the tests' own user. Not as another user: a clean clone in
    ``mktemp -d`` is a folder only root may enter."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="schnapsen-perm-"))
    folder.chmod(0o777)  # nobody creates the store and the instance folder in it
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'club.sqlite3'}",
        "SCHNAPSEN_INSTANCE": str(folder / "instance"),
        "HOME": str(folder),
    }
    env.pop("SCHNAPSEN_TOURNAMENT", None)
    as_user = ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--"] if ROOT else []

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [*as_user, sys.executable, "-m", "tournament", *args]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)

    run.folder = folder  # type: ignore[attr-defined]
    yield run
    folder.chmod(0o755)
    for path in folder.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    shutil.rmtree(folder)


def one_line_failure(done: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """A command in its own process that failed with one ``Error:`` line, status 1."""
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    [line] = [x for x in done.stderr.splitlines() if x.startswith("Error:")]
    for fragment in fragments:
        assert fragment in line, line


def set_up(run: Callable[..., subprocess.CompletedProcess[str]]) -> list[str]:
    """Tournament ``cup`` with one player; the players list as printed."""
    for args in (("create", "Cup", "--id", "cup"), ("players", "add", "Anna")):
        assert run(*args).returncode == 0
    listed = run("players", "list")
    assert listed.returncode == 0, listed.stderr
    return listed.stdout.splitlines()


def test_a_read_only_database_file_is_one_line_and_reads_still_work(
    unprivileged: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    before = set_up(unprivileged)
    (unprivileged.folder / "club.sqlite3").chmod(0o444)  # type: ignore[attr-defined]
    one_line_failure(
        unprivileged("players", "add", "Berti"), "the database file is read-only; nothing stored"
    )
    assert unprivileged("players", "list").stdout.splitlines() == before


def test_a_read_only_folder_is_one_line(
    unprivileged: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    set_up(unprivileged)
    folder: Path = unprivileged.folder  # type: ignore[attr-defined]
    folder.chmod(0o555)
    one_line_failure(unprivileged("players", "add", "Berti"), f"its folder {folder} is read-only")


def test_an_unreadable_file_is_not_called_not_migrated(
    unprivileged: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    set_up(unprivileged)
    path = unprivileged.folder / "club.sqlite3"  # type: ignore[attr-defined]
    path.chmod(0o000)
    for command in (["standings"], ["players", "add", "Berti"], ["verify"]):
        one_line_failure(unprivileged(*command), f"cannot read {path}: permission denied")


def _read_only_mount(folder: Path) -> list[str]:
    """A shell prefix that runs a command with ``folder`` mounted read-only (as root, in
    a mount namespace of its own), as on a write-protected stick."""
    return [
        "unshare", "-m", "sh", "-c",
        f'mount --bind "{folder}" "{folder}" && mount -o remount,ro,bind "{folder}" "{folder}"'
        ' && exec "$@"', "sh",
    ]  # fmt: skip


@pytest.mark.skipif(not ROOT or not shutil.which("unshare"), reason="needs root's unshare -m")
def test_a_store_on_a_read_only_mount_reads_and_refuses_writes_in_one_line(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    a_tournament(cli)
    as_a_new_process(tmp_path)  # the write-ahead log checkpointed away, as after a command
    assert not list(tmp_path.glob("club.sqlite3-*"))  # the file alone, as copied to a stick
    probe = subprocess.run([*_read_only_mount(tmp_path), "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"no mount namespace here: {probe.stderr.decode().strip()}")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
           "SCHNAPSEN_INSTANCE": str(tmp_path / "instance")}  # fmt: skip

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [*_read_only_mount(tmp_path), sys.executable, "-m", "tournament", *args]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)

    listed = run("players", "list")
    assert listed.returncode == 0 and "Anna" in listed.stdout, listed.stderr
    added = run("players", "add", "Berti")
    assert added.returncode == 1 and "Traceback" not in added.stderr
    assert added.stderr.strip().splitlines() == [
        f"Error: {tmp_path / 'club.sqlite3'}: it is on a drive or folder mounted read-only; "
        "nothing stored"
    ]


@pytest.mark.skipif(not ROOT or not shutil.which("unshare"), reason="needs root's unshare -m")
def test_every_command_that_only_reads_reads_a_store_on_a_read_only_mount(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    # The rescue commands above all: a store on a write-protected stick is exported and
    # verified as it is, like the standings (trial N5).
    for args in (
        ("create", "Cup", "--id", "cup", "--format", "single_elimination"),
        ("players", "add", "Anna"), ("players", "add", "Berti"), ("round", "start"),
    ):  # fmt: skip
        assert cli(*args).exit_code == 0
    as_a_new_process(tmp_path)
    probe = subprocess.run([*_read_only_mount(tmp_path), "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"no mount namespace here: {probe.stderr.decode().strip()}")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
           "SCHNAPSEN_INSTANCE": str(tmp_path / "instance")}  # fmt: skip
    backup = tmp_path.parent / f"{tmp_path.name}-backup.jsonl"  # off the read-only mount
    commands = [
        *(c for c in READ_ONLY if c[0] != "results"), ["results", "show", "R1-1"],
        ["results", "missing"], ["db", "check"], ["export", str(backup)], ["verify"],
    ]  # fmt: skip
    for command in commands:
        done = subprocess.run(
            [*_read_only_mount(tmp_path), sys.executable, "-m", "tournament", *command],
            env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, (command, done.stderr)
    assert "all chains and seals verify" in done.stdout and backup.read_text().count("\n") > 3
    backup.unlink()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("command", [["standings"], ["players", "add", "Berti"]], ids=" ".join)
def test_postgresql_on_a_wrong_port_is_one_line(
    cli: Callable[..., Result], command: list[str]
) -> None:
    port = _free_port()
    line = one_line_error(
        cli(*command, "-t", "cup", url=f"postgresql://club:secret@127.0.0.1:{port}/turnier"),
        f"cannot connect to PostgreSQL at 127.0.0.1:{port}: connection refused",
    )
    assert "secret" not in line


def test_a_postgresql_database_that_does_not_exist_is_one_line(
    cli: Callable[..., Result], postgres_url: str
) -> None:
    import sqlalchemy as sa

    url = sa.make_url(postgres_url).set(database="no_such_turnier")
    one_line_error(
        cli("standings", "-t", "cup", url=url.render_as_string(hide_password=False)),
        "has no database 'no_such_turnier'",
    )

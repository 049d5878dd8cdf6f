"""Start-up: each command imports what it needs, and ``--help`` next to nothing.

The organiser waits for every command to start (15-20 commands per best-of-3 match
entered hand by hand), so ``tournament --help`` loads no command module, no domain, no
engine and no database library, and entering a result or printing the standings loads
neither networkx (pairing only) nor the store tools nor the other commands; no organiser
command on a SQLite store loads SQLAlchemy or Alembic. Each check runs a fresh interpreter:
what one test imported must not hide what another imports.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from tournament.cli import COMMANDS, command_modules, main

REPO = Path(__file__).resolve().parents[2]

#: Libraries a command that does not need them must not pay for at start-up.
HEAVY = ("networkx", "sqlalchemy", "alembic", "tqdm", "psycopg")


def loaded_by(code: str, env: dict[str, str] | None = None) -> set[str]:
    """The modules loaded after running ``code`` in a fresh interpreter (even one that
    ends by SystemExit, as click does)."""
    script = (
        "import atexit, json, sys\n"
        "atexit.register(lambda: print('\\nMODULES ' + json.dumps(sorted(sys.modules))))\n" + code
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, **(env or {})},
    )
    marker = done.stdout.rpartition("MODULES ")[2]
    assert marker, done.stdout + done.stderr
    return set(json.loads(marker))


def of(modules: set[str], *prefixes: str) -> set[str]:
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes)}


def test_help_lists_every_command_without_importing_any_of_them() -> None:
    modules = loaded_by("from tournament.cli import main\nmain(['--help'])")
    assert not of(modules, *HEAVY)
    assert not of(modules, "engine", "tournament.domain", "tournament.formats")
    assert not of(modules, "tournament.eventstore", "tournament.db")
    assert not of(modules, *command_modules())


def test_serve_loads_the_web_stack_only_when_it_runs() -> None:
    """``tournament serve --help`` (and ``tournament --help``) import no Flask, waitress,
    segno or web app: the command imports them when it starts the service."""
    modules = loaded_by("from tournament.cli import main\nmain(['serve', '--help'])")
    assert "tournament.cli.serve" in modules
    assert not of(modules, "flask", "werkzeug", "waitress", "segno", "structlog", *HEAVY)
    assert not of(modules, "tournament.web", "tournament.accounts", "tournament.eventstore")


def test_help_shows_each_command_with_the_first_sentence_of_its_own_help() -> None:
    code = "from tournament.cli import main\nmain(['--help'], prog_name='tournament')"
    listed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO
    ).stdout
    for module in command_modules():
        __import__(module)
    eager = click.Group(
        name="tournament", commands=dict(main.commands), help=main.help, params=main.params
    )
    context = click.Context(eager, info_name="tournament")
    context.help_option_names = ["-h", "--help"]
    assert listed == eager.get_help(context) + "\n"


def test_the_command_table_names_every_command_where_it_is_registered() -> None:
    for module in command_modules():
        __import__(module)
    for name, command in main.commands.items():
        assert command.callback is not None
        module = command.callback.__module__
        line = f"{name!r}: ({module!r}, {command.get_short_help_str(1000)!r}),"
        assert name in COMMANDS, f"add to tournament.cli.COMMANDS: {line}"
        assert COMMANDS[name][0] == module, f"in tournament.cli.COMMANDS write: {line}"
        stand_in = click.Command(name, help=COMMANDS[name][1])
        for limit in (20, 45, 60, 1000):
            same = stand_in.get_short_help_str(limit) == command.get_short_help_str(limit)
            assert same, f"in tournament.cli.COMMANDS write: {line}"
    assert set(COMMANDS) <= set(main.commands), "a command in the table is registered nowhere"


def test_a_command_missing_from_the_table_still_runs() -> None:
    code = "import tournament.cli as c\ndel c.COMMANDS['use']\nc.main(['use', '--help'])\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert "Make TOURNAMENT_ID the current tournament." in done.stdout


def test_an_unknown_command_is_one_error_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tournament", "standigns"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "SCHNAPSEN_INSTANCE": str(tmp_path)},
    )
    assert done.returncode == 2
    assert "Error: No such command 'standigns'." in done.stderr
    assert "Traceback" not in done.stderr


def club_store(folder: Path, *, drawn: bool) -> dict[str, str]:
    """The environment of a SQLite store in ``folder`` with tournament ``cup``: four
    players and, if ``drawn``, round 1 drawn (set up through the CLI)."""
    env = {
        "SCHNAPSEN_INSTANCE": str(folder),
        "DATABASE_URL": f"sqlite:///{folder / 'club.sqlite3'}",
        "SCHNAPSEN_TOURNAMENT": "cup",
    }
    steps = [
        ["create", "Cup", "--id", "cup", "--best-of", "1"],
        *(["players", "add", name] for name in ("Anna", "Berti", "Carla", "Dora")),
        *([["round", "start"]] if drawn else []),
    ]
    for step in steps:
        done = subprocess.run(
            [sys.executable, "-m", "tournament", *step],
            capture_output=True,
            text=True,
            cwd=REPO,
            env={**os.environ, **env},
        )
        assert done.returncode == 0, done.stdout + done.stderr
    return env


@pytest.fixture
def store_env(tmp_path: Path) -> dict[str, str]:
    """A SQLite store with a drawn first round of four players (through the CLI)."""
    return club_store(tmp_path, drawn=True)


def loaded_by_command(args: list[str], env: dict[str, str]) -> set[str]:
    """The modules ``tournament ARGS`` loaded, run as the program runs (its arguments
    from the command line), which must succeed."""
    script = (
        "import atexit, json, sys\n"
        "atexit.register(lambda: print('\\nMODULES ' + json.dumps(sorted(sys.modules))))\n"
        "from tournament.cli import main\n"
        f"sys.argv[1:] = {args!r}\n"
        "main(prog_name='tournament')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, **env},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return set(json.loads(done.stdout.rpartition("MODULES ")[2]))


#: What the event store needs only for migrations and its own tools (db, verify, export,
#: import): no organiser command loads it on a SQLite store at head.
STORE_TOOLS = ("sqlalchemy", "alembic", "psycopg", "tqdm")

ORGANISER_COMMANDS = [
    ["create", "Zweites Turnier", "--id", "two"],
    ["use", "cup"],
    ["list"],
    ["show"],
    ["log"],
    ["players", "add", "Emil"],
    ["players", "list"],
    ["players", "checkin", "1"],
    ["round", "show"],
    ["results", "enter", "1.1", "--winner", "1", "--points", "3"],
    ["results", "show", "1.1"],
    ["standings"],
]


@pytest.mark.parametrize("command", ORGANISER_COMMANDS, ids=" ".join)
def test_an_organiser_command_on_a_sqlite_store_loads_no_sqlalchemy(
    store_env: dict[str, str], command: list[str]
) -> None:
    """The store opens a SQLite file through the sqlite3 module and checks its migration
    revision with one SELECT: SQLAlchemy (~100 ms) and Alembic are not imported."""
    modules = loaded_by_command(command, store_env)
    assert not of(modules, *STORE_TOOLS)


def test_drawing_a_round_loads_no_sqlalchemy(tmp_path: Path) -> None:
    modules = loaded_by_command(["round", "start"], club_store(tmp_path, drawn=False))
    assert "tournament.domain.commands.rounds" in modules
    assert not of(modules, *STORE_TOOLS)


def test_entering_a_result_loads_neither_networkx_nor_the_other_commands(
    store_env: dict[str, str],
) -> None:
    modules = loaded_by(
        "from tournament.cli import main\n"
        "main(['results', 'enter', '1.1', '--winner', '1', '--points', '3'])",
        store_env,
    )
    assert "tournament.cli.results" in modules
    assert not of(modules, "networkx", *STORE_TOOLS)
    assert not of(modules, *(m for m in command_modules() if m != "tournament.cli.results"))
    # Nor the draw's code: the round commands, the pairing and the formats it needs.
    assert not of(
        modules, "tournament.domain.commands.rounds", "tournament.domain.standings.pairing"
    )
    assert not of(modules, "tournament.formats.swiss", "tournament.formats.bracket")


def test_what_a_command_stored_is_there_although_its_exit_skips_the_last_collection(
    store_env: dict[str, str],
) -> None:
    """The command line freezes its objects at exit instead of collecting them (gc.freeze,
    ~40 ms per command): a result entered in one process is read back by the next."""

    def tournament(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "tournament", *args],
            capture_output=True,
            text=True,
            cwd=REPO,
            env={**os.environ, **store_env},
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    entered = tournament("results", "enter", "1.1", "--winner", "1", "--points", "3")
    result_id = entered.split()[1]
    assert result_id in tournament("results", "show", "1.1")


def test_the_standings_load_no_networkx(store_env: dict[str, str]) -> None:
    modules = loaded_by("from tournament.cli import main\nmain(['standings'])", store_env)
    assert "tournament.cli.standings" in modules
    assert not of(modules, "networkx", *STORE_TOOLS)


def test_the_formats_load_without_networkx() -> None:
    """networkx (the blossom matching) is imported by the draw that first needs it."""
    modules = loaded_by("import tournament.formats, tournament.domain.standings.pairing")
    assert "tournament.formats.swiss" in modules
    assert not of(modules, "networkx")


def test_only_the_program_itself_freezes_what_it_imported(tmp_path: Path) -> None:
    """Run as the program, a command moves what it imported out of the collector's way
    (gc.freeze); called with arguments, as tests and scripts call it, it leaves the
    caller's collector alone."""
    code = (
        "import gc, sys\n"
        "from tournament.cli import main\n"
        "main(['players', '--help'], standalone_mode=False)\n"
        "print(gc.get_freeze_count())\n"
        "sys.argv[1:] = ['players', '--help']\n"
        "main(standalone_mode=False)\n"
        "print(gc.get_freeze_count())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "SCHNAPSEN_INSTANCE": str(tmp_path)},
    )
    counts = [line for line in done.stdout.splitlines() if line.isdigit()]
    assert counts[0] == "0" and int(counts[1]) > 0, done.stdout + done.stderr

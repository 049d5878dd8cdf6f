"""The ``tournament`` command line: one click group, commands registered per concern.

Each concern keeps its commands in its own module and registers them here, so the
event store's commands (db, verify, seal, export, import) and the organiser's commands
(create, players, rounds, results, standings) stay apart.

The group loads a command's module only when that command runs: ``tournament --help``
lists every command from :data:`COMMANDS` without importing any of them (no domain, no
engine, no SQLAlchemy), and ``tournament results enter`` imports the results module and
what it needs, not the store tools or the live view (nor, on SQLite, SQLAlchemy: the
store runs on the ``sqlite3`` module, docs/event-store.md). A command module registers its
commands on :data:`main` as it always did (``@main.command()``); :data:`COMMANDS` only
says where each lives and what its help's first line is, and a test checks the two agree.
"""

from __future__ import annotations

import atexit
import gc
import importlib
from collections.abc import Sequence
from typing import Any

import click

from tournament.cli.usage import TournamentGroup

# The last thing Python does before it exits is a full collection of reference cycles,
# which walks every object still alive -- some 40 ms per command when SQLAlchemy was
# imported, still milliseconds of the domain and the engine -- only to free memory the
# operating system takes back anyway. Freezing them first skips that walk; everything a
# command stores is committed before it returns.
atexit.register(gc.freeze)

#: Every command of ``tournament``: name -> (the module that registers it, the first
#: sentence of its help, as ``tournament --help`` lists it). A command a module registers
#: without a line here still runs (every module is loaded to find it), but ``--help``
#: does not list it and tests/cli/test_startup.py fails until the line is added.
COMMANDS: dict[str, tuple[str, str]] = {
    "accounts": (
        "tournament.cli.accounts",
        "Organiser accounts: add, list, grant and revoke roles per tournament, passwords, "
        "backups (export, import).",
    ),
    "bracket": (
        "tournament.cli.standings",
        "The knockout bracket as it stands; before round 1, the draw the seeding gives.",
    ),
    "create": ("tournament.cli.tournaments", "Create a tournament (and make it the current one)."),
    "db": ("tournament.cli.store", "The database: apply and inspect migrations."),
    "export": (
        "tournament.cli.store",
        "Write the whole store to FILE as JSON Lines ('-' for stdout).",
    ),
    "import": (
        "tournament.cli.store",
        "Restore FILE (an export) into an empty store, verifying every hash chain; a new "
        "SQLite file is created and migrated first.",
    ),
    "list": (
        "tournament.cli.tournaments",
        "The tournaments in the store: id, name, date, format, players, rounds played, status.",
    ),
    "live": (
        "tournament.cli.live",
        "Play hands live, action by action, through the rules engine.",
    ),
    "log": (
        "tournament.cli.tournaments",
        "The latest events, numbered (the numbers --as-of takes), each in words.",
    ),
    "online": (
        "tournament.cli.online",
        "Online tables: start a match online, see every table, decide when a clock runs out.",
    ),
    "players": (
        "tournament.cli.players",
        "Register, import, check in, seed and withdraw players.",
    ),
    "projections": (
        "tournament.cli.projections",
        "The projections (standings, brackets, open matches): status, rebuild, reconcile.",
    ),
    "results": ("tournament.cli.results", "Enter, import, correct and strike results."),
    "round": ("tournament.cli.rounds", "Draw rounds and print their pairings."),
    "seal": (
        "tournament.cli.store",
        "Seal the log now (appends seal it at intervals; rounds and prints, at their end): "
        "prints the seal's short form, to be written down or printed.",
    ),
    "seal-key": (
        "tournament.cli.seal_keys",
        "Make, show and rotate the seal key; retired keys stay in the keyring to "
        "authenticate old seals.",
    ),
    "serve": (
        "tournament.cli.serve",
        "Start the web service (API, docs, sign-in) on http://127.0.0.1:8080.",
    ),
    "show": ("tournament.cli.tournaments", "Settings and progress of the tournament."),
    "standings": (
        "tournament.cli.standings",
        "The standings now, at the end of a round, or as of a past event; one table per "
        "group in group formats, then the bracket in groups -> knockout.",
    ),
    "tokens": (
        "tournament.cli.accounts",
        "API tokens for scripts: create (shown once), list, revoke.",
    ),
    "use": ("tournament.cli.tournaments", "Make TOURNAMENT_ID the current tournament."),
    "verify": (
        "tournament.cli.store",
        "Check every stream's hash chain, every seal of the log (with the seal key) and the "
        "append-only guards; report the first broken link of each.",
    ),
}


def command_modules() -> list[str]:
    """The modules that register commands, each once, in a stable order."""
    return list(dict.fromkeys(module for module, _ in COMMANDS.values()))


class LazyGroup(TournamentGroup):
    """A group that imports a command's module when the command is looked up, and lists
    its commands from :data:`COMMANDS` without importing anything."""

    _listing = False
    _from_command_line = False

    def main(self, args: Sequence[str] | None = None, *pargs: Any, **kwargs: Any) -> Any:
        # Run as the program (not called with arguments, as tests and scripts do): what
        # the command imports lives as long as the process.
        self._from_command_line = args is None
        return super().main(args, *pargs, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            if self._listing and cmd_name in COMMANDS:
                # Only its name and help are wanted: a stand-in, nothing imported.
                return click.Command(cmd_name, help=COMMANDS[cmd_name][1])
            modules = [COMMANDS[cmd_name][0]] if cmd_name in COMMANDS else command_modules()
            for module in modules:
                _load(module)
        if self._from_command_line and not self._listing:
            # The modules, classes and functions loaded by now stay until the process
            # ends: out of the collector's way, so that a collection while the command
            # reads and folds the tournament walks what the command made, not every
            # module it imported (~20 ms of entering a result when SQLAlchemy was one).
            gc.freeze()
            self._from_command_line = False
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._listing = False


def _load(module: str) -> None:
    """Import a command module; one that is not there (yet) simply adds no command."""
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name != module:
            raise


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from tournament.version import describe  # only when asked: --help stays import-free

    click.echo(f"tournament {describe()}")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "-V",
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the release (and the git commit when run from a checkout) and exit.",
)
def main() -> None:
    """Run Schnapsen tournaments: events, players, rounds, results, standings."""

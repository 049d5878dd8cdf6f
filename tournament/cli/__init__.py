"""The ``tournament`` command line: one click group, commands registered per concern.

Each concern keeps its commands in its own module and registers them here, so the
event store's commands (db, verify, export, import) and the organiser's commands
(create, players, rounds, results, standings) stay apart.
"""

from __future__ import annotations

import importlib

import click

from tournament.cli.usage import TournamentGroup


@click.group(cls=TournamentGroup, context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Run Schnapsen tournaments: events, players, rounds, results, standings."""


# Modules that add commands to ``main`` when imported; missing ones are simply not there yet.
_COMMAND_MODULES = (
    "tournament.cli.store",
    "tournament.cli.tournaments",
    "tournament.cli.players",
    "tournament.cli.rounds",
    "tournament.cli.results",
    "tournament.cli.standings",
    "tournament.cli.live",
    "tournament.cli.serve",
)
for _name in _COMMAND_MODULES:
    try:
        importlib.import_module(_name)
    except ModuleNotFoundError as _error:
        if _error.name != _name:
            raise

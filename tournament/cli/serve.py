"""``tournament serve``: start the service on embedded defaults.

Until the web service exists (see the roadmap) this plays and narrates a demo hand through
the rules engine, so that the README's start command shows the product working.
"""

from __future__ import annotations

import sys

import click

from tournament.cli import main


@main.command()
@click.option("--seed", default=1, show_default=True, help="seed of the demo hand")
def serve(seed: int) -> None:
    """Start the service (for now: a demo hand through the rules engine)."""
    from engine.cli import cmd_demo

    click.echo("The web service is not built yet; here is a demo hand of the rules engine.\n")
    cmd_demo(seed, sys.stdout)

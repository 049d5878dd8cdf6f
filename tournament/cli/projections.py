"""``tournament projections``: how far the projections (standings, brackets, open matches,
player summaries) are behind the log, and rebuilding or reconciling them by hand.

    tournament projections status             # every tournament: projected version, log version
    tournament projections rebuild [TID ...]  # from scratch (all without TID)
    tournament projections reconcile [TID ...]   # rebuild and compare; exit 1 on a difference

The service keeps them up to date by itself (docs/operations.md, "Projections, workers and
live updates"); these are for an operator after an upgrade or an alarm.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click
import sqlalchemy as sa

from tournament.cli import main
from tournament.cli.common import cli_errors


def _projector() -> object:
    from tournament.config import database_url
    from tournament.eventstore import SQLEventStore, migrate
    from tournament.projections.runner import Projector

    url = database_url()
    migrate.ensure_current(url, may_upgrade=False, may_create=False)
    return Projector(SQLEventStore(url))


def _tournaments(projector: object, chosen: Sequence[str]) -> list[str]:
    from tournament.projections.runner import Projector

    assert isinstance(projector, Projector)
    return list(chosen) or projector.service.tournament_ids()


@main.group()
def projections() -> None:
    """The projections (standings, brackets, open matches): status, rebuild, reconcile."""


@projections.command()
@cli_errors
def status() -> None:
    """Each tournament's projected version against its log's, and since when it lags."""
    from tournament.domain.model import events as ev
    from tournament.projections import tables
    from tournament.projections.runner import Projector

    projector = _projector()
    assert isinstance(projector, Projector)
    t = tables.tournaments
    with projector.store.engine.connect() as conn:
        rows = conn.execute(sa.select(t.c.tournament_id, t.c.version))
        done = {tid: version for tid, version in rows}
    for tid in _tournaments(projector, ()):
        log_version = projector.store.stream_version(ev.stream_id(tid))
        version = int(done.get(tid, 0))
        state = "up to date" if version >= log_version else f"{log_version - version} behind"
        click.echo(f"{tid}\tprojected {version}\tlog {log_version}\t{state}")


@projections.command()
@click.argument("tournament_ids", nargs=-1)
@cli_errors
def rebuild(tournament_ids: tuple[str, ...]) -> None:
    """Forget the projections of TOURNAMENT_IDS (all without one) and project them again
    from the whole log."""
    from tournament.eventstore.checkpoints import reset_checkpoint
    from tournament.projections.runner import Projector, checkpoint_name

    projector = _projector()
    assert isinstance(projector, Projector)
    for tid in _tournaments(projector, tournament_ids):
        reset_checkpoint(projector.store.engine, checkpoint_name(tid))
        change = projector.project(tid)
        click.echo(f"{tid}\trebuilt at version {change.version if change else 0}")


@projections.command()
@click.argument("tournament_ids", nargs=-1)
@cli_errors
def reconcile(tournament_ids: tuple[str, ...]) -> None:
    """Rebuild TOURNAMENT_IDS (all without one) from scratch and compare with their rows;
    a difference is reported, recorded and repaired (exit status 1)."""
    from tournament.projections.runner import Projector
    from tournament.projections.upkeep import reconcile as reconcile_one

    projector = _projector()
    assert isinstance(projector, Projector)
    differed = False
    for tid in _tournaments(projector, tournament_ids):
        found = reconcile_one(projector, tid)
        if found is None:
            click.echo(f"{tid}\tnot projected yet")
        elif found.matched:
            click.echo(f"{tid}\tversion {found.version}\tmatches a rebuild")
        else:
            differed = True
            click.echo(f"{tid}\tversion {found.version}\tDIFFERED (repaired):")
            for line in found.differences:
                click.echo(f"  {line}")
    if differed:
        sys.exit(1)

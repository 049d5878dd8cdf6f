"""The seal on every printed sheet and export (issue 8): a sheet pinned on the wall, or a
CSV kept on a laptop, proves later that the log behind it was not rewritten.

A command that prints seals the log first (:meth:`~.common.ReadyStore.seal`, once per
command), after it has read what it prints and before it writes a line, so the seal
covers everything on the sheet. The sheet then carries the seal's short form:

* text: a last line, ``Seal #12 @4211 7KQM-3XJ9 · check: tournament verify --seal '#12
  @4211 7KQM-3XJ9'`` (wrapped to 100 columns, the short form never broken);
* JSON: a top-level ``"seal"`` (the short form, or null);
* CSV: a last column ``seal`` on every row (docs/csv-formats.md).

A store that cannot be sealed now (no seal key, a read-only file or drive, a PostgreSQL
role without EXECUTE on ``es_seal``) still prints: with the log's last seal, which
covers the log up to its position only (the line says so), or saying it is not sealed;
why goes to standard error as a warning. Never an error: the sheet matters more.
``--as-of`` and ``--round`` print the latest seal too: it anchors the whole log, the
past state included.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import click

from tournament.cli.columns import wrap
from tournament.cli.common import database_line, get_service


@dataclasses.dataclass(frozen=True)
class PrintedSeal:
    """The seal a sheet carries: its short form (None: the log has none), and whether it
    covers the whole log as printed (else it is the log's last, and events came after it:
    the store could not be sealed now)."""

    short: str | None
    now: bool = True

    def line(self) -> str:
        """The sheet's last line: the seal and how to check it, or that there is none."""
        if self.short is None:
            return "Not sealed: the log has no seal to check this sheet against later"
        check = f"tournament verify --seal '{self.short}'"
        last = "" if self.now else " (the log's last; not sealed since, see the warning)"
        return wrap(f"Seal {self.short}{last} · check: {check}", keep=[self.short, check])

    def echo(self, output: Any = None) -> None:
        click.echo(self.line(), file=output)


def seal_for_print(reason: str) -> PrintedSeal:
    """Seal the log for a sheet about to be printed (``reason``: what, for the seal's
    record); a store that cannot be sealed gives its last seal, with a warning."""
    from tournament.eventstore.sheet_seal import seal_for_sheet

    sheet = seal_for_sheet(get_service().store, reason)
    if sheet.error is not None:
        why = _why(sheet.error)
        click.echo(f"warning: the log was not sealed before printing: {why}", err=True)
    return PrintedSeal(sheet.short, now=sheet.now)


def _why(error: Exception) -> str:
    """The failure in one line, as the CLI says database errors (a missing seal key, a
    read-only file); anything else by its type and first line."""
    line = database_line(error) or f"{type(error).__name__}: {error}".splitlines()[0]
    return line.removesuffix("; nothing stored")  # true, but this is no write refused

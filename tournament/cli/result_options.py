"""What one ``results`` command may be given together, where the command line alone
decides it: --preview (show only) or --yes (store), not both.

Which parts of a result or a correction go together is the domain's to say, for the
command line and the web API alike (:mod:`tournament.domain.commands.entry`,
:mod:`tournament.domain.commands.correcting`).
"""

from __future__ import annotations

import click


def refuse_preview_with_yes(yes: bool, preview_only: bool) -> None:
    """--preview only shows what would change and --yes stores without asking: one of them."""
    if yes and preview_only:
        raise click.BadParameter(
            "--preview only shows and --yes stores: give one of them", param_hint="--yes"
        )

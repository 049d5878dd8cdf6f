"""The tournament domain: events, the fold, commands, standings -- pure, no I/O, no Flask.

    >>> from tournament.domain import commands, fold, standings
    >>> events = commands.create_tournament("club-cup", {"name": "Club Cup", "seed": 3})
    >>> fold(events).settings.name
    'Club Cup'

Modules: :mod:`events` (types), :mod:`state` (the fold), :mod:`commands`,
:mod:`standings`, :mod:`tiebreaks` and :mod:`ranking` (the ranking kept up to date),
:mod:`preview` (what a correction changes), :mod:`csvio` (CSV import/export),
:mod:`service` (load, decide, append against a store).
"""

from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.model.state import Tournament, fold
from tournament.domain.standings import standings

__all__ = ["ConflictError", "DomainError", "NotFoundError", "Tournament", "fold", "standings"]

"""The tournament domain: events, the fold, commands, standings -- pure, no I/O, no Flask.

    >>> from tournament.domain import commands, fold, standings
    >>> events = commands.create_tournament("club-cup", {"name": "Club Cup", "seed": 3})
    >>> fold(events).settings.name
    'Club Cup'

Its rooms, each importing only the rooms before it (tests/test_layers.py):

- :mod:`~tournament.domain.words` -- the message catalogue (codes, English templates);
- :mod:`~tournament.domain.model` -- the write model: events, the fold (:mod:`state`), its parts;
- :mod:`~tournament.domain.standings` -- what is derived from the model: the standings, the
  ranking kept up to date, tie-breaks, the field, pairing, knockout, lives, progress;
- :mod:`~tournament.domain.commands` -- (state, request) -> new events; the package is the
  facade imported as ``c``;
- :mod:`~tournament.domain.views` -- read models for the pages, the CLI, the API and print.

Loading, deciding under the lock and appending against a store is the I/O edge's
(:mod:`tournament.app.service`), never the domain's.
"""

from collections.abc import Mapping

from tournament.domain.model import state as _state
from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.model.matchstate import MatchState
from tournament.domain.model.state import Tournament, fold
from tournament.domain.standings import standings


def _vacated(t: Tournament) -> Mapping[str, MatchState]:
    """The bracket matches a correction vacated (the knockout read, loaded when a
    tournament first has a bracket match that may be: entering a Swiss result stays light)."""
    from tournament.domain.standings.knockout import vacated

    return vacated(t)


# The model asks the standings through this, never by importing them (model/state.py).
_state.VACATED[:] = [_vacated]

__all__ = ["ConflictError", "DomainError", "NotFoundError", "Tournament", "fold", "standings"]

"""One line of the standings, as :func:`tournament.domain.standings.standings` returns it.

Rows are immutable: the standings keep the rows of players whose line did not change from
one result to the next (:mod:`tournament.domain.ranking`), so a row handed out once must
never change under its holder. Make a changed copy with ``dataclasses.replace``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any


@dataclasses.dataclass(frozen=True, slots=True)
class Row:
    """One line of the standings."""

    rank: int
    player_id: int
    name: str
    club: str
    category: str
    status: str  # active, withdrawn, absent (registered, never checked in)
    points: int
    played: int
    wins: int
    forfeit_wins: int
    losses: int
    byes: int
    bummerl_won: int
    bummerl_lost: int
    gp_won: int
    gp_lost: int
    schneider: int
    tiebreaks: Mapping[str, float | None]  # None: blank, the tie-break decided nothing here
    #: What ranked this player below the one above: "place", "points" or a tie-break's
    #: name; None for the first row and for a rank shared with the row above.
    decided_by: str | None = None
    place: int | None = None  # knockout place group (1 = champion), if any
    lives: int | None = None  # lives format: lives left now
    lives_bought: int | None = None  # lives format: lives bought back

    def __post_init__(self) -> None:
        # A read-only view: the row is shared, so its tie-break values must not change.
        if not isinstance(self.tiebreaks, MappingProxyType):
            object.__setattr__(self, "tiebreaks", MappingProxyType(dict(self.tiebreaks)))

    def to_json(self) -> dict[str, Any]:
        data = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        data["tiebreaks"] = dict(self.tiebreaks)
        return data

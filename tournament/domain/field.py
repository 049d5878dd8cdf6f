"""What every format's draw starts from, read off the folded tournament: the players who
can be drawn, the withdrawn ones and the policy of each withdrawal, the values a stage
fixed when it started (seeds, groups, a bracket), and the :class:`Draw` a format returns.

The format glue (:mod:`.pairing`, :mod:`.knockout`, :mod:`.lives`) builds on these; this
module depends on none of them.

    >>> from tournament.domain.testing import registered
    >>> from tournament.domain.state import fold
    >>> t = fold(registered(3))
    >>> eligible(t), withdrawn(t), frozen(t, "seeds")
    ([1, 2, 3], set(), None)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from tournament.domain.state import Tournament
from tournament.formats import model as fm
from tournament.formats.round_robin import WithdrawalPolicy


@dataclasses.dataclass(frozen=True)
class Draw:
    """A round as a format drew it, before it becomes ``round.started``."""

    pairing: fm.RoundPairing
    stage: str = ""
    info: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    warnings: tuple[str, ...] = ()


def eligible(t: Tournament) -> list[int]:
    """Players who can be drawn now: active, and checked in once anybody has checked in."""
    active = [p for p in t.players.values() if p.active]
    if any(p.checked_in for p in active):
        active = [p for p in active if p.checked_in]
    return [p.id for p in active]


def withdrawn(t: Tournament) -> set[str]:
    return {str(p.id) for p in t.players.values() if not p.active}


def withdrawal_policies(t: Tournament) -> dict[str, WithdrawalPolicy]:
    """Per withdrawn player, the policy chosen when they withdrew (``players withdraw
    --policy``, default the tournament's): their remaining games are walkovers or dropped."""
    return {
        str(p.id): "drop" if p.withdrawal == "drop" else "forfeit"
        for p in t.players.values()
        if not p.active and p.withdrawal
    }


def frozen(t: Tournament, key: str) -> Any:
    """A value fixed when its stage started (seeds, groups), read back from the rounds."""
    for r in t.rounds:
        if key in r.info:
            return r.info[key]
    return None

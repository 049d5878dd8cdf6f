"""What every format's draw starts from, read off the folded tournament: the players who
can be drawn, the withdrawn ones and the policy of each withdrawal, the values a stage
fixed when it started (seeds, groups, a bracket), and the :class:`Draw` a format returns.

The format glue (:mod:`.pairing`, :mod:`.knockout`, :mod:`.lives`) builds on these; this
module depends on none of them.

    >>> from tournament.domain.testing import registered
    >>> from tournament.domain.model.state import fold
    >>> t = fold(registered(3))
    >>> eligible(t), withdrawn(t), frozen(t, "seeds")
    ([1, 2, 3], set(), None)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from tournament.domain.model.state import Tournament
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
    """Players who can be drawn now: active, and, once anybody has checked in, checked in
    or drawn in an earlier round. A player once drawn is in the field until withdrawn (a
    check-in is undone before the draw only): checking in a latecomer after round 1 adds
    the latecomer, it never leaves out everybody who played round 1 without checking in."""
    active = [p for p in t.players.values() if p.active]
    if any(p.checked_in for p in active):
        drawn = drawn_before(t)
        active = [p for p in active if p.checked_in or p.id in drawn]
    return [p.id for p in active]


def drawn_before(t: Tournament) -> set[int]:
    """Players drawn in any round so far: at a table, a walkover or a bye."""
    drawn = {pid for pid, mids in t.player_matches.items() if mids}
    for r in t.rounds:
        drawn.update(r.byes)
    return drawn


def sat_out(t: Tournament) -> list[tuple[int, int]]:
    """``(round, player)`` for every round an active player was in the tournament but not
    drawn: registered, not yet checked in when the round was drawn (a late entry's missed
    rounds are :attr:`Player.missed`, counted apart). Such a player has sat out a round
    already: the bye rule treats it as a round sat out, as it does a late entry's missed
    rounds (T-late-entry, docs/tournaments.md)."""
    out: list[tuple[int, int]] = []
    seated: dict[int, set[int]] = {}
    for r in t.rounds:
        seated[r.number] = set(r.byes) | set(r.idle)
    for m in t.matches.values():
        seated.setdefault(m.round, set()).update(m.players)
    for p in t.players.values():
        if not p.active:
            continue
        for r in t.rounds:
            if r.number > p.missed and p.id not in seated.get(r.number, ()):
                out.append((r.number, p.id))
    return out


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


def seed_order(t: Tournament) -> list[int]:
    """Player ids best seed first: seeds set by hand or rating, then the rest by rating, id."""
    return sorted(
        t.players,
        key=lambda pid: (
            t.players[pid].seed is None,
            t.players[pid].seed or 0,
            -(t.players[pid].rating or 0),
            pid,
        ),
    )

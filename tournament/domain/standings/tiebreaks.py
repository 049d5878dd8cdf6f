"""Tie-breaks: each a key where larger is better, computed from the folded tournament.

Definitions (docs/standings.md has them with examples):

* ``bummerl_diff`` Bummerl won minus Bummerl lost (a Schneiderbummerl counts 2, R19);
* ``game_point_diff`` game points struck off minus game points the opponents struck off;
* ``game_points`` game points struck off;
* ``direct_encounter`` match points from the matches among the players still tied;
* ``buchholz`` sum of the match points of every opponent met (a bye adds nothing);
* ``buchholz_cut1`` Buchholz without the weakest opponent;
* ``median_buchholz`` Buchholz without the weakest and the strongest opponent;
* ``sonneborn_berger`` sum of the match points of every opponent beaten;
* ``wins`` matches won at the table (not byes, not forfeits);
* ``schneider`` Schneider Bummerl won;
* ``seed`` the better seed (seed 1 best);
* ``seeded_lot`` -- ``lot``: a drawing of lots from the tournament's recorded seed.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence

from tournament.domain.model.state import Stats

#: Per player, per decided match that counts (by match id): (opponent, won). The fold
#: keeps it as ``Tournament.records``.
Record = Mapping[int, Mapping[str, tuple[int, bool]]]

_NO_MATCHES: Mapping[str, tuple[int, bool]] = {}


class Context:
    """What the tie-breaks read: totals, match records, seeds and the tournament seed."""

    def __init__(
        self,
        stats: Mapping[int, Stats],
        record: Record,
        seed_rank: Mapping[int, int],
        lot_seed: int,
    ) -> None:
        self.stats = stats
        self.record = record
        self.seed_rank = seed_rank
        self.lot_seed = lot_seed
        #: Match points per player; the ranking updates it as results come in.
        self.points = {pid: s.points for pid, s in stats.items()}

    def matches(self, pid: int) -> Iterable[tuple[int, bool]]:
        """(opponent, won) for each of the player's decided matches that count."""
        return self.record.get(pid, _NO_MATCHES).values()

    def opponent_points(self, pid: int) -> list[int]:
        points = self.points
        return [points[o] for o, _ in self.matches(pid)]


def _buchholz(ctx: Context, group: Sequence[int]) -> dict[int, float]:
    return {p: sum(ctx.opponent_points(p)) for p in group}


def _cut1(ctx: Context, group: Sequence[int]) -> dict[int, float]:
    out: dict[int, float] = {}
    for p in group:
        pts = ctx.opponent_points(p)
        out[p] = sum(pts) - min(pts) if pts else 0
    return out


def _median(ctx: Context, group: Sequence[int]) -> dict[int, float]:
    out: dict[int, float] = {}
    for p in group:
        pts = ctx.opponent_points(p)
        out[p] = sum(pts) - min(pts) - max(pts) if len(pts) >= 3 else 0
    return out


def _sonneborn(ctx: Context, group: Sequence[int]) -> dict[int, float]:
    points = ctx.points
    return {p: sum(points[o] for o, won in ctx.matches(p) if won) for p in group}


def _direct(ctx: Context, group: Sequence[int]) -> dict[int, float]:
    tied = set(group)
    return {p: sum(1 for o, won in ctx.matches(p) if won and o in tied) for p in group}


def _stat(read: Callable[[Stats], int]) -> Callable[[Context, Sequence[int]], dict[int, float]]:
    return lambda ctx, group: {p: read(ctx.stats[p]) for p in group}


@functools.lru_cache(maxsize=65536)
def lot_value(lot_seed: int, player_id: int) -> int:
    """A player's lot: stable for a recorded seed, independent of every other player."""
    digest = hashlib.sha256(f"lot:{lot_seed}:{player_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


TIEBREAK_KEYS: dict[str, Callable[[Context, Sequence[int]], dict[int, float]]] = {
    "bummerl_diff": _stat(lambda s: s.bummerl_won - s.bummerl_lost),
    "game_point_diff": _stat(lambda s: s.gp_won - s.gp_lost),
    "game_points": _stat(lambda s: s.gp_won),
    "direct_encounter": _direct,
    "buchholz": _buchholz,
    "buchholz_cut1": _cut1,
    "median_buchholz": _median,
    "sonneborn_berger": _sonneborn,
    "wins": _stat(lambda s: s.wins),
    "schneider": _stat(lambda s: s.schneider),
    "seed": lambda ctx, group: {p: -ctx.seed_rank.get(p, 10**6) for p in group},
    "lot": lambda ctx, group: {p: -lot_value(ctx.lot_seed, p) for p in group},
}

#: Tie-breaks whose value depends only on the player (not on who else is tied).
GROUP_FREE = frozenset(TIEBREAK_KEYS) - {"direct_encounter"}

#: Tie-breaks that read the opponents' match points: a player's points changing changes
#: them for everybody the player met.
OPPONENT_POINTS = frozenset({"buchholz", "buchholz_cut1", "median_buchholz", "sonneborn_berger"})

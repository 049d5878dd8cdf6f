"""Round robin by Berger tables, in one group or several groups played side by side.

Berger tables (the circle method as FIDE prints it): with n players (n even; an odd field
gets a dummy, and meeting the dummy is the bye), player n stays put and every other player
k moves to k + n/2 (mod n-1) each round. Everybody meets everybody once in n-1 rounds. The
left-hand player deals first; the tables alternate that fairly (each player deals first in
about half their games, player n alternates every round).

>>> berger_rounds(["a", "b", "c", "d"])
((('a', 'd'), ('b', 'c')), (('d', 'c'), ('a', 'b')), (('b', 'd'), ('c', 'a')))
>>> berger_rounds(["a", "b", "c"])[0]
(('a', None), ('b', 'c'))
>>> r = round_robin_round([["a", "b", "c", "d"]], 2)
>>> [(p.table, p.player_a, p.player_b, p.first_dealer) for p in r.pairings]
[(1, 'd', 'c', 'd'), (2, 'a', 'b', 'a')]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Literal

from .model import FormatError, RoundPairing, Walkover, check_unique
from .tables import assign_tables

Slot = str | None
WithdrawalPolicy = Literal["forfeit", "drop"]


def berger_rounds(players: Sequence[str]) -> tuple[tuple[tuple[Slot, Slot], ...], ...]:
    """All rounds of a single round robin: per round, the games (first dealer first);
    None is the dummy of an odd field, i.e. the other player has the bye."""
    check_unique(players, "players")
    if len(players) < 2:
        raise FormatError(
            "players",
            code="formats.round_robin.round_robin_needs_least",
            params={"players_count": len(players)},
        )
    slots: list[Slot] = list(players) + ([None] if len(players) % 2 else [])
    n = len(slots)
    half = n // 2
    # Positions 1..n as in the printed tables; position n is the fixed player.
    games = [(k, n + 1 - k) for k in range(1, half + 1)]
    rounds = []
    for _ in range(n - 1):
        rounds.append(tuple((slots[a - 1], slots[b - 1]) for a, b in games))
        nxt = []
        for a, b in games:
            a2 = a if a == n else (a - 1 + half) % (n - 1) + 1
            b2 = b if b == n else (b - 1 + half) % (n - 1) + 1
            nxt.append((b2, a2) if n in (a, b) else (a2, b2))
        games = nxt
    return tuple(rounds)


def round_count(groups: Sequence[Sequence[str]]) -> int:
    """Rounds needed to finish every group."""
    return max(len(g) - 1 + len(g) % 2 for g in groups)


def round_robin_round(
    groups: Sequence[Sequence[str]],
    round_no: int,
    *,
    withdrawn: Collection[str] = (),
    withdrawal: WithdrawalPolicy = "forfeit",
    policies: Mapping[str, WithdrawalPolicy] | None = None,
    fixed_tables: Mapping[str, int] | None = None,
) -> RoundPairing:
    """Round `round_no` (from 1) of every group, tables numbered group by group.

    `groups`: each group's players in seed order (see `seeding.snake_groups`). A withdrawn
    player's games are walkovers (`withdrawal="forfeit"`) or dropped, leaving the opponent
    idle (`"drop"`); `policies` gives a withdrawn player's own policy where it differs
    (chosen when they withdrew). Players whose group has already finished are idle.

    >>> r = round_robin_round([list("abcd")], 1, withdrawn="cd", policies={"d": "drop"})
    >>> [(w.winner, w.forfeited_by) for w in r.walkovers], r.idle
    ([('b', 'c')], ('a',))
    """
    check_unique([p for g in groups for p in g], "groups")
    if not groups:
        raise FormatError("groups", code="formats.round_robin.need_least_one_group")
    total = round_count(groups)
    if not 1 <= round_no <= total:
        raise FormatError(
            "round_no",
            code="formats.round_robin.round_must_between_got",
            params={"total": total, "round_no": round_no},
        )
    gone = set(withdrawn)
    games: list[tuple[str, str, str]] = []
    byes: list[str] = []
    walkovers: list[Walkover] = []
    idle: list[str] = []
    for members in groups:
        schedule = berger_rounds(members)
        if round_no > len(schedule):
            idle += [p for p in members if p not in gone]
            continue
        for a, b in schedule[round_no - 1]:
            if a is None or b is None:
                present = a or b
                if present is not None and present not in gone:
                    byes.append(present)
                continue
            if a in gone and b in gone:
                continue
            if a in gone or b in gone:
                winner, loser = (b, a) if a in gone else (a, b)
                if (policies or {}).get(loser, withdrawal) == "forfeit":
                    walkovers.append(Walkover(winner, loser))
                else:
                    idle.append(winner)
                continue
            games.append((a, b, a))
    return RoundPairing(
        round_no=round_no,
        pairings=assign_tables(games, fixed_tables),
        byes=tuple(byes),
        walkovers=tuple(walkovers),
        idle=tuple(idle),
    )

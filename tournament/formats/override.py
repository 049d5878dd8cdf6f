"""Check a manual pairing of a round against the format rules.

The organiser may pair a round by hand; the domain records it as an event together with
the warnings returned here. Broken format rules are warnings (the override stands);
input that cannot be a round at all raises FormatError naming the field: an unknown
player id, a player twice, two games at one table, a first dealer who is not at the table.

>>> from tournament.formats.model import Pairing
>>> manual = RoundPairing(2, (Pairing(1, "a", "b", "a"), Pairing(2, "c", "d", "d")))
>>> ws = check_override(manual, active=["a", "b", "c", "d", "e"],
...                     games=[Game(1, "a", "b", "a", "a")])
>>> [w.code for w in ws]
['repeat_pairing', 'player_missing']
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Literal

from .model import Bye, FormatError, Game, RoundPairing, RuleWarning, bye_counts, meetings

ByeRule = Literal["lowest", "fewest"]


def check_override(
    override: RoundPairing,
    *,
    active: Sequence[str],
    games: Sequence[Game] = (),
    byes: Sequence[Bye] = (),
    withdrawn: Collection[str] = (),
    eliminated: Collection[str] = (),
    bye_rule: ByeRule = "fewest",
) -> tuple[RuleWarning, ...]:
    """Warnings for a manual round.

    - `active`: who should play this round (Swiss: the standings order, best first;
      lives: the players with lives left; round robin: the group members).
    - `withdrawn`, `eliminated`: known players who must not be paired.
    - `bye_rule`: "fewest" (lives, round robin): the bye goes to a player with the fewest
      byes; "lowest" (Swiss): also the lowest-ranked of those.
    """
    known = set(active) | set(withdrawn) | set(eliminated)
    seen: dict[str, str] = {}
    tables: dict[int, int] = {}

    def take(pid: str, where: str) -> None:
        if pid not in known:
            raise FormatError(
                where, code="formats.override.player_tournament", params={"pid": repr(pid)}
            )
        if pid in seen:
            raise FormatError(
                where, code="formats.override.already", params={"pid": pid, "seen": seen[pid]}
            )
        seen[pid] = where

    for i, p in enumerate(override.pairings):
        take(p.player_a, f"pairings[{i}].player_a")
        take(p.player_b, f"pairings[{i}].player_b")
        if p.first_dealer not in p.players:
            raise FormatError(
                f"pairings[{i}].first_dealer",
                code="formats.override.table",
                params={"first_dealer": repr(p.first_dealer)},
            )
        if p.table in tables:
            raise FormatError(
                f"pairings[{i}].table",
                code="formats.override.table_used_twice",
                params={"table": p.table},
            )
        tables[p.table] = i
    for i, b in enumerate(override.byes):
        take(b, f"byes[{i}]")

    warnings: list[RuleWarning] = []
    met = meetings(games)
    for p in override.pairings:
        if frozenset(p.players) in met:
            warnings.append(
                RuleWarning(
                    "repeat_pairing", f"{p.player_a} and {p.player_b} met before", p.players
                )
            )
    for pid in seen:
        if pid in withdrawn:
            warnings.append(RuleWarning("withdrawn_paired", f"{pid} has withdrawn", (pid,)))
        elif pid in eliminated:
            warnings.append(RuleWarning("eliminated_paired", f"{pid} is out of lives", (pid,)))
    missing = tuple(p for p in active if p not in seen and p not in withdrawn)
    if missing:
        warnings.append(
            RuleWarning("player_missing", f"not paired and no bye: {', '.join(missing)}", missing)
        )
    warnings += _bye_warnings(override, active, games, byes, withdrawn, bye_rule)
    return tuple(warnings)


def _bye_warnings(
    override: RoundPairing,
    active: Sequence[str],
    games: Sequence[Game],
    byes: Sequence[Bye],
    withdrawn: Collection[str],
    bye_rule: ByeRule,
) -> list[RuleWarning]:
    playing = [p for p in active if p not in withdrawn]
    needed = len(playing) % 2
    out: list[RuleWarning] = []
    if len(override.byes) > needed:
        out.append(
            RuleWarning(
                "bye_not_needed",
                f"{len(override.byes)} byes where {needed} {'is' if needed == 1 else 'are'} needed",
                override.byes,
            )
        )
    had = bye_counts(byes, games)
    fewest = min((had[p] for p in playing), default=0)
    eligible = [p for p in playing if had[p] == fewest]
    for b in override.byes:
        if had[b] > fewest:
            out.append(
                RuleWarning(
                    "repeat_bye",
                    f"{b} already had {had[b]} {'bye' if had[b] == 1 else 'byes'}",
                    (b,),
                )
            )
        elif bye_rule == "lowest" and eligible and b != eligible[-1]:
            out.append(
                RuleWarning(
                    "bye_not_lowest",
                    f"{b} is not the lowest-ranked player without a bye ({eligible[-1]})",
                    (b,),
                )
            )
    return out

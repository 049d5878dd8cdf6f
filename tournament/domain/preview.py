"""What a correction (or strike, or withdrawal) would change, before it is stored.

>>> from tournament.domain.testing import played
>>> from tournament.domain.corrections import correct_result
>>> from tournament.domain.testing import Builder, registered, play_round
>>> import random
>>> b = Builder(registered(players=4, seed=2))
>>> play_round(b, random.Random(2)); play_round(b, random.Random(3))
>>> first = b.state.matches["1.1"]
>>> rid = first.entries[-1].result_id
>>> loser = first.players[1 - first.summary.winner]
>>> fix = correct_result(b.state, rid, {"winner": loser, "game_points": 3}, by="ref", reason="x")
>>> p = preview(b.events, fix)
>>> [c["match_id"] for c in p.matches], len(p.flagged) > 0
(['1.1'], True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from tournament.domain.errors import DomainError
from tournament.domain.events import EventLike
from tournament.domain.pairing import bracket_of, bracket_results, next_draw, round_seed, withdrawn
from tournament.domain.standings import standings
from tournament.domain.state import Tournament, fold
from tournament.formats.bracket import bracket_state


@dataclasses.dataclass(frozen=True)
class Preview:
    """Changes downstream of some new events, for the organiser to confirm."""

    matches: list[dict[str, Any]]  # match results that change (before / after)
    flagged: list[str]  # later matches that would be flagged for the organiser
    bracket: list[str]  # bracket slots that would change
    standings: list[dict[str, Any]]  # players whose rank or points change
    next_round: list[str]  # how the next round's draw would change (not drawn yet)

    @property
    def empty(self) -> bool:
        return not (
            self.matches or self.flagged or self.bracket or self.standings or self.next_round
        )

    def lines(self) -> list[str]:
        out = []
        for m in self.matches:
            out.append(f"match {m['match_id']}: {m['before']} -> {m['after']}")
        out += [f"flag: {f}" for f in self.flagged]
        out += [f"bracket: {b}" for b in self.bracket]
        for s in self.standings:
            out.append(
                f"standings: {s['name']} (#{s['player_id']}) rank {s['rank_before']} -> "
                f"{s['rank_after']}, points {s['points_before']} -> {s['points_after']}"
            )
        out += [f"next round: {n}" for n in self.next_round]
        return out or ["nothing else changes"]


def _describe(t: Tournament, match_id: str) -> str:
    m = t.matches[match_id]
    s = m.summary
    if s.dropped:
        return "dropped"
    if not s.decided:
        return f"open, {s.bummerl[0]}:{s.bummerl[1]} Bummerl"
    winner = "nobody (double forfeit)" if m.winner is None else f"{m.winner} wins"
    return f"{winner} {s.bummerl[0]}:{s.bummerl[1]}" + (" by forfeit" if s.forfeit else "")


def preview(events: Sequence[EventLike], new: Sequence[EventLike]) -> Preview:
    """Fold ``events`` with and without ``new`` and list the differences."""
    before = fold(events)
    after = fold([*events, *new])
    changed = [
        mid
        for mid, m in after.matches.items()
        if mid in before.matches and m.summary != before.matches[mid].summary
    ]
    matches = [
        {"match_id": mid, "before": _describe(before, mid), "after": _describe(after, mid)}
        for mid in changed
    ]
    flagged = []
    for mid, m in after.matches.items():
        old = before.matches.get(mid)
        for flag in m.flags[len(old.flags) if old else 0 :]:
            flagged.append(f"match {mid}: {flag}")
    bracket = _bracket_changes(before, after)
    rows_before = {r.player_id: r for r in standings(before)}
    moved = []
    for r in standings(after):
        old_row = rows_before.get(r.player_id)
        if old_row is None or (
            old_row.rank,
            old_row.points,
            old_row.bummerl_won,
            old_row.gp_won,
        ) != (
            r.rank,
            r.points,
            r.bummerl_won,
            r.gp_won,
        ):
            moved.append(
                {
                    "player_id": r.player_id,
                    "name": r.name,
                    "rank_before": old_row.rank if old_row else None,
                    "rank_after": r.rank,
                    "points_before": old_row.points if old_row else None,
                    "points_after": r.points,
                }
            )
    return Preview(matches, flagged, bracket, moved, _next_round(before, after))


def _bracket_changes(before: Tournament, after: Tournament) -> list[str]:
    bracket = bracket_of(after)
    if bracket is None:
        return []
    old = bracket_state(bracket, bracket_results(before), withdrawn(before))
    new = bracket_state(bracket, bracket_results(after), withdrawn(after))
    out = []
    for mid, state in new.matches.items():
        if state.players != old.matches[mid].players:
            out.append(f"{mid}: {_pair(old.matches[mid].players)} -> {_pair(state.players)}")
    return out


def _pair(players: tuple[str | None, str | None]) -> str:
    return " v ".join(p or "?" for p in players)


def _next_round(before: Tournament, after: Tournament) -> list[str]:
    """The next round's draw before and after, when the current round is complete."""
    if not after.rounds or not after.round_complete() or before.settings is None:
        return []
    number = after.current_round + 1
    seed = round_seed(before.settings.seed, number)
    try:
        old = next_draw(before, number, seed, {})
        new = next_draw(after, number, seed, {})
    except (DomainError, ValueError):
        return []
    old_pairs = {frozenset(p.players) for p in old.pairing.pairings}
    new_pairs = {frozenset(p.players) for p in new.pairing.pairings}
    gone = [" v ".join(sorted(p)) for p in old_pairs - new_pairs]
    come = [" v ".join(sorted(p)) for p in new_pairs - old_pairs]
    if not gone and not come:
        return []
    return [f"{len(gone)} pairing(s) of round {number} would change: now {', '.join(come[:10])}"]

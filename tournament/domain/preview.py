"""What a correction (or strike, or withdrawal) would change, before it is stored.

Everything is said in names, the way the organiser reads the room: the match's result
(winner, Bummerl, game points), later matches that would be flagged, bracket slots that
would change, every player whose standings line would change (rank, points, record,
Bummerl, game points won and lost, tie-breaks), and how the next round's draw would change.

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
>>> print(p.lines()[0].replace(" -> ", "\\n  -> "))
match 1.1 (Player 1 (1) v Player 3 (3)): Player 1 (1) wins, Bummerl 1:0, game points 7:3
  -> open, Bummerl 0:0, game points 5:6
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from tournament.domain.errors import DomainError
from tournament.domain.events import EventLike
from tournament.domain.pairing import (
    bracket_of,
    bracket_results,
    bracket_view,
    lives_left,
    next_draw,
    places,
    round_seed,
    slot_match_id,
    void_command,
    withdrawn,
)
from tournament.domain.standings import Row, standings
from tournament.domain.state import Tournament, fold
from tournament.formats.bracket import bracket_state
from tournament.formats.model import FormatError


@dataclasses.dataclass(frozen=True)
class Preview:
    """Changes downstream of some new events, for the organiser to confirm."""

    matches: list[dict[str, Any]]  # match results touched: match_id, players, before, after
    flagged: list[str]  # later matches that would be flagged for the organiser
    bracket: list[str]  # bracket slots that would change
    standings: list[dict[str, Any]]  # every player whose standings line changes
    next_round: list[str]  # how the next round's draw would change (not drawn yet)

    @property
    def empty(self) -> bool:
        return not (
            self.matches or self.flagged or self.bracket or self.standings or self.next_round
        )

    def lines(self) -> list[str]:
        out = []
        for m in self.matches:
            change = (
                "unchanged, " + m["after"]
                if m["before"] == m["after"]
                else (f"{m['before']} -> {m['after']}")
            )
            out.append(f"match {m['match_id']} ({m['players']}): {change}")
        out += [f"flag: {f}" for f in self.flagged]
        out += [f"bracket: {b}" for b in self.bracket]
        out += [f"standings: {s['name']} ({s['player_id']}): {', '.join(s['changes'])}"
                for s in self.standings]  # fmt: skip
        out += [f"next round: {n}" for n in self.next_round]
        return out or ["nothing else changes"]


def preview(events: Sequence[EventLike], new: Sequence[EventLike]) -> Preview:
    """Fold ``events`` with and without ``new`` and list the differences."""
    before = fold(events)
    after = fold([*events, *new])
    return Preview(
        _matches(before, after, new),
        _flags(before, after),
        _bracket_changes(before, after),
        _standings_changes(before, after),
        _next_round(before, after),
    )


# --- the matches ----------------------------------------------------------------------------
def _matches(
    before: Tournament, after: Tournament, new: Sequence[EventLike]
) -> list[dict[str, Any]]:
    """Matches whose result changes, and the matches the new events name even if their
    result stays (so a correction that changes nothing says so)."""
    touched = [_match_of(before, e) for e in new]
    changed = [
        mid
        for mid, m in after.matches.items()
        if mid in before.matches and m.summary != before.matches[mid].summary
    ]
    ids = list(dict.fromkeys([*(m for m in touched if m in before.matches), *changed]))
    return [
        {
            "match_id": mid,
            "players": " v ".join(after.matches[mid].labels),
            "before": _describe(before, mid),
            "after": _describe(after, mid),
        }
        for mid in ids
    ]


def _match_of(t: Tournament, event: EventLike) -> str | None:
    p = event.payload
    return p.get("match_id") or t.result_match.get(p.get("result_id", ""))


def _describe(t: Tournament, match_id: str) -> str:
    """A match's result in words; Bummerl and game points in seat order, as its header."""
    m = t.matches[match_id]
    s = m.summary
    if s.dropped:
        return "dropped, counts for nobody"
    score = (
        f"Bummerl {s.bummerl[0]}:{s.bummerl[1]}, game points {s.game_points[0]}:{s.game_points[1]}"
    )
    if not s.decided:
        return f"open, {score}"
    if m.winner is None:
        return "both absent, a loss for each"
    return f"{t.label(m.winner)} wins{' by forfeit' if s.forfeit else ''}, {score}"


def _flags(before: Tournament, after: Tournament) -> list[str]:
    out = []
    for mid, m in after.matches.items():
        old = before.matches.get(mid)
        for flag in m.flags[len(old.flags) if old else 0 :]:
            out.append(f"match {mid} ({' v '.join(m.labels)}) would be flagged: {flag}")
    return out


# --- the bracket ----------------------------------------------------------------------------
def _bracket_changes(before: Tournament, after: Tournament) -> list[str]:
    bracket = bracket_of(after)
    if bracket is None:
        return []
    old = bracket_state(bracket, bracket_results(before), withdrawn(before))
    new = bracket_state(bracket, bracket_results(after), withdrawn(after))
    out = []
    for mid, state in new.matches.items():
        if state.players != old.matches[mid].players:
            was, now = _pair(after, old.matches[mid].players), _pair(after, state.players)
            out.append(f"{mid}: {was} -> {now}")
    if new.champion != old.champion:
        out.append(f"champion: {_name(after, old.champion)} -> {_name(after, new.champion)}")
    return out + _misfits(before, after)


def _misfits(before: Tournament, after: Tournament) -> list[str]:
    """Recorded bracket matches that would no longer fit their slot, and what that means."""
    was, now = bracket_view(before), bracket_view(after)
    if now is None:
        return []
    old = was[1] if was else {}
    out = []
    for slot, m in now[1].items():
        if slot in old:
            continue
        shown = now[0].matches[slot]
        result = _describe(after, m.match_id)
        out.append(
            f"{slot}: recorded match {m.match_id} ({' v '.join(m.labels)}, {result}) no "
            f"longer fits: the bracket now gives {_pair(after, shown.players)}. It stays as "
            "played and counts in the standings with its recorded players; nobody advances "
            f"from it, and `round start` draws the slot again (as {slot_match_id(after, slot)}) "
            f"only after you void {m.match_id}: {void_command(m)}"
        )
    return out


def _pair(t: Tournament, players: Sequence[str | None]) -> str:
    return " v ".join(_name(t, p) for p in players)


def _name(t: Tournament, pid: str | int | None) -> str:
    return "?" if pid is None else t.label(int(pid))


# --- the standings ----------------------------------------------------------------------------
def _table(t: Tournament) -> dict[int, Row]:
    return {r.player_id: r for r in standings(t, places=places(t), lives=lives_left(t))}


def _standings_changes(before: Tournament, after: Tournament) -> list[dict[str, Any]]:
    """Every player whose line in the standings changes, with what changes, best first."""
    old_rows = _table(before)
    out = []
    for r in _table(after).values():
        old = old_rows.get(r.player_id)
        changes = _row_changes(old, r)
        if changes:
            out.append(
                {
                    "player_id": r.player_id,
                    "name": r.name,
                    "rank_before": old.rank if old else None,
                    "rank_after": r.rank,
                    "points_before": old.points if old else None,
                    "points_after": r.points,
                    "changes": changes,
                }
            )
    return out


def _row_changes(old: Row | None, new: Row) -> list[str]:
    """What changes in one standings line, in the table's words (``rank 3 -> 1``)."""
    if old is None:
        return [f"new in the standings at rank {new.rank}"]
    fields = [
        ("rank", old.rank, new.rank),
        ("points", old.points, new.points),
        ("W-L", _wl(old), _wl(new)),
        ("lives", old.lives, new.lives),
        ("Bummerl", _bummerl(old), _bummerl(new)),
        ("game points", _game_points(old), _game_points(new)),
        ("Schneider", old.schneider, new.schneider),
    ]  # fmt: skip
    fields += [
        (tb.replace("_", " "), _value(old.tiebreaks.get(tb)), _value(value))
        for tb, value in new.tiebreaks.items()
    ]
    return [f"{what} {a} -> {b}" for what, a, b in fields if a != b]


def _wl(r: Row) -> str:
    return f"{r.wins + r.forfeit_wins}-{r.losses}"


def _bummerl(r: Row) -> str:
    return f"{r.bummerl_won}:{r.bummerl_lost}"


def _game_points(r: Row) -> str:
    return f"{r.gp_won}:{r.gp_lost}"  # won and lost: a change in either is shown


def _value(value: float | None) -> str:
    """A tie-break value as the table shows it (3, not 3.0; blank shown as '-')."""
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else str(value)


# --- the next draw ----------------------------------------------------------------------------
def _next_round(before: Tournament, after: Tournament) -> list[str]:
    """The next round's draw before and after, when the current round is complete."""
    if not after.rounds or not after.round_complete() or before.settings is None:
        return []
    number = after.current_round + 1
    seed = round_seed(before.settings.seed, number)
    try:
        old = next_draw(before, number, seed, {})
        new = next_draw(after, number, seed, {})
    except (DomainError, FormatError):
        return []
    old_pairs = {frozenset(p.players) for p in old.pairing.pairings}
    new_pairs = {frozenset(p.players) for p in new.pairing.pairings}
    out = []
    gone = sorted(_pairs(after, old_pairs - new_pairs))
    come = sorted(_pairs(after, new_pairs - old_pairs))
    if gone or come:
        out.append(
            f"{len(come)} pairing(s) of round {number} would change: "
            f"{_listed(come)} instead of {_listed(gone)}"
        )
    if set(old.pairing.byes) != set(new.pairing.byes):
        was = ", ".join(_name(after, p) for p in old.pairing.byes) or "nobody"
        now = ", ".join(_name(after, p) for p in new.pairing.byes) or "nobody"
        out.append(f"the bye of round {number} would go to {now} instead of {was}")
    return out


def _pairs(t: Tournament, pairs: set[frozenset[str]]) -> list[str]:
    return [" v ".join(_name(t, p) for p in sorted(pair, key=int)) for pair in pairs]


def _listed(items: list[str], most: int = 10) -> str:
    more = f" and {len(items) - most} more" if len(items) > most else ""
    return ", ".join(items[:most]) + more

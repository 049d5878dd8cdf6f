"""The standings' order, kept up to date from one result to the next.

Ranking a field (docs/standings.md, "Order") sorts it by the knockout or lives place and
by match points, then splits each group still tied by the tie-breaks in turn; players tied
after the last share a rank. That is one sort by a key per player,

    (place, -points, -tie-break 1, ..., -tie-break k, start number),

with one exception: direct encounter, whose value depends on who else is tied when it
comes to be applied -- the players equal in every part of the key before it, here called
a *class*. It is worked out per class.

A :class:`Ranking` keeps the keys, the order and the rows. After some results it
recomputes the keys of the players whose line may have changed (``Tournament.touched``:
the players of a match whose result changed; for Buchholz, its cut and median forms and
Sonneborn-Berger also everybody who met a player whose points changed; for direct
encounter every member of a class somebody left or joined) and sorts again, which for a
nearly sorted list takes linear time. A line whose content is the same is kept, so one
result in a field of 4,096 costs a few milliseconds instead of a whole ranking.
tests/domain/test_ranking.py compares it after every event of random tournaments with a
ranking from scratch done step by step as docs/standings.md describes it.

Like the folded tournament it belongs to (``TournamentService.state`` folds new events
into the same object), a ranking changes in place: one thread at a time per tournament.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tournament.domain.model.state import Tournament
from tournament.domain.standings.field import seed_order
from tournament.domain.standings.tiebreaks import (
    GROUP_FREE,
    OPPONENT_POINTS,
    TIEBREAK_KEYS,
    Context,
)

#: The place of a player without one (not in a bracket): after every placed player.
UNPLACED = 10**9
DIRECT = "direct_encounter"

Key = tuple[Any, ...]

#: A line of the standings: the fields of ``standings.Row`` in order. Lines are kept and
#: shared from one ranking to the next; callers get rows made from them.
Line = tuple[Any, ...]
RANK, DECIDED_BY = 0, 18  # where ``rank`` and ``decided_by`` are in a line


class Ranking:
    """The ranked rows of ``players`` (in the order given by their keys), for one set of
    knockout ``places`` and ``lives`` (see :func:`tournament.domain.standings.standings`)."""

    def __init__(
        self,
        t: Tournament,
        players: Sequence[int],
        places: Mapping[int, int],
        lives: Mapping[int, int] | None,
    ) -> None:
        settings = t.settings
        assert settings is not None
        self.tiebreaks = settings.tiebreaks
        self.places = dict(places)
        self.lives = None if lives is None else dict(lives)
        self.players = set(players)
        self.ctx = Context(
            t.stats, t.records, {p: i for i, p in enumerate(seed_order(t))}, settings.seed
        )
        #: What each part of a key is called in ``decided_by`` (None: the start number).
        self.names: tuple[str | None, ...] = (
            "played", "place", "points", *self.tiebreaks, None,
        )  # fmt: skip
        #: Where direct encounter sits in a key; the class is the part before it.
        self.direct = 3 + self.tiebreaks.index(DIRECT) if DIRECT in self.tiebreaks else -1
        self.checking_in = any(p.checked_in for p in t.players.values())
        #: Players who never played (docs/standings.md, "Order"): listed last, unranked.
        self.unranked = {p for p in players if never_played(t, p, self.checking_in)}
        self.values = {tb: TIEBREAK_KEYS[tb](self.ctx, players) for tb in self._group_free()}
        #: Direct encounter per player, shown only for the players of a class it split.
        self.direct_values: dict[int, float] = {}
        self.shown_direct: dict[int, float] = {}
        self.keys = {p: self._key(p) for p in players}
        self.classes: dict[Key, set[int]] = {}
        if self.direct >= 0:
            for p in players:
                self.classes.setdefault(self.keys[p][: self.direct], set()).add(p)
            for members in self.classes.values():
                self._rank_class(members)
        self.order = sorted(players, key=self.keys.__getitem__)
        self.line_of: dict[int, Line] = {}
        self.before: dict[int, int | None] = {}  # the player ranked just above, per player
        self.lines = self._lines(t, self.players)

    # --- keys -------------------------------------------------------------------------
    def _group_free(self) -> list[str]:
        return [tb for tb in self.tiebreaks if tb in GROUP_FREE]

    def _key(self, p: int) -> Key:
        values = self.values
        if p in self.unranked:  # after everybody who played, by start number
            return (1, UNPLACED, 0, *(0 for _ in self.tiebreaks), p)
        parts: list[Any] = [0, self.places.get(p, UNPLACED), -self.ctx.points[p]]
        for tb in self.tiebreaks:
            parts.append(-self.direct_values.get(p, 0) if tb == DIRECT else -values[tb][p])
        parts.append(p)
        return tuple(parts)

    def _rank_class(self, members: set[int]) -> None:
        """Direct encounter within one class: its members' values and keys (only the
        matches among them count, docs/standings.md)."""
        if len(members) > 1:
            found = TIEBREAK_KEYS[DIRECT](self.ctx, sorted(members))
        else:
            found = dict.fromkeys(members, 0.0)  # nobody to be tied with: never compared
        split = len(set(found.values())) > 1
        for p, value in found.items():
            self.direct_values[p] = value
            if split:
                self.shown_direct[p] = value
            else:
                self.shown_direct.pop(p, None)
            key = self.keys[p]
            if p not in self.unranked:
                self.keys[p] = (*key[: self.direct], -value, *key[self.direct + 1 :])

    # --- updating ---------------------------------------------------------------------
    def update(self, t: Tournament, touched: set[int]) -> list[Line]:
        """The lines after the changes to ``touched`` players (see the module's docstring)."""
        ctx = self.ctx
        changed = set(touched)
        by_opponents = not OPPONENT_POINTS.isdisjoint(self.tiebreaks)
        for x in touched:
            points = t.stats[x].points
            if ctx.points.get(x) != points:
                ctx.points[x] = points
                if by_opponents:
                    changed.update(o for o, _ in ctx.matches(x))
        changed &= self.players
        for p in changed:  # a result of a player who had none (a forfeit entered late)
            if p in self.unranked and not never_played(t, p, self.checking_in):
                self.unranked.discard(p)
        for tb in self._group_free():
            self.values[tb].update(TIEBREAK_KEYS[tb](ctx, list(changed)))
        # Direct encounter counts the wins among a class, and a won match changes the
        # winner's points, which are part of the class: the classes that winner left and
        # joined are ranked again, and nothing else can change a direct encounter.
        moved: list[Key] = []  # classes a player left or joined
        for p in changed:
            old = self.keys[p]
            new = self._key(p)
            self.keys[p] = new
            if self.direct >= 0 and old[: self.direct] != new[: self.direct]:
                self.classes[old[: self.direct]].discard(p)
                self.classes.setdefault(new[: self.direct], set()).add(p)
                moved += [old[: self.direct], new[: self.direct]]
        for prefix in dict.fromkeys(moved):
            members = self.classes[prefix]
            if not members:
                del self.classes[prefix]
                continue
            self._rank_class(members)
            changed |= members
        self.order.sort(key=self.keys.__getitem__)  # nearly sorted: linear
        self.lines = self._lines(t, changed)
        return self.lines

    # --- lines ------------------------------------------------------------------------
    def _lines(self, t: Tournament, changed: set[int]) -> list[Line]:
        """Rank and ``decided_by`` down the order; a new line where anything differs."""
        keys, names, line_of, before = self.keys, self.names, self.line_of, self.before
        lines: list[Line] = []
        above: int | None = None
        rank = 0
        for position, p in enumerate(self.order, 1):
            old = line_of.get(p)
            same_neighbour = before.get(p, -1) == above and above not in changed
            if above is None:
                decided = None
            elif old is not None and same_neighbour and p not in changed:
                decided = old[DECIDED_BY]
            else:
                decided = _first_difference(keys[above], keys[p], names)
            if above is None or decided is not None:
                rank = position
            shown: int | None = rank
            if p in self.unranked:  # never played: listed, not ranked
                shown = decided = None
            if old is None or p in changed or old[RANK] != shown or old[DECIDED_BY] != decided:
                old = line_of[p] = self._line(t, p, shown, decided)
            lines.append(old)
            before[p] = above
            above = p
        return lines

    def _line(self, t: Tournament, pid: int, rank: int | None, decided_by: str | None) -> Line:
        p = t.players[pid]
        s = t.stats[pid]
        shown: dict[str, float | None] = {}
        for tb in self.tiebreaks:
            if tb == "seed":
                shown[tb] = self.ctx.seed_rank[pid] + 1
            elif tb == "lot":
                continue
            elif pid in self.unranked:  # never played: no tie-break says anything
                shown[tb] = None
            elif tb == DIRECT:
                shown[tb] = self.shown_direct.get(pid)  # only where it split tied players
            elif tb != "lot":
                shown[tb] = self.values[tb][pid]
        lives = self.lives
        return (
            rank,
            pid,
            p.name,
            p.club,
            p.category,
            _status(t, pid, self.checking_in),
            s.points,
            s.played,
            s.wins,
            s.forfeit_wins,
            s.losses,
            s.byes,
            s.bummerl_won,
            s.bummerl_lost,
            s.gp_won,
            s.gp_lost,
            s.schneider,
            shown,
            decided_by,
            self.places.get(pid),
            None if lives is None else lives.get(pid, 0),
            None if lives is None else p.lives_bought,
        )


def _first_difference(above: Key, below: Key, names: Sequence[str | None]) -> str | None:
    """What separates two neighbours: the name of the first part of their keys that
    differs ("place", "points", a tie-break); None when only the start number does."""
    for index, (a, b) in enumerate(zip(above, below, strict=True)):
        if a != b:
            return names[index]
    return None


def never_played(t: Tournament, pid: int, checking_in: bool) -> bool:
    """A no-show who never played: registered, never checked in while check-in is in use,
    so never drawn, and with no result at all (no match, no bye, no point) once round 1
    is drawn. Ranking them would put them last as if they had lost every game
    (docs/standings.md, "Order"); they are listed after the ranked players, unranked."""
    return (
        bool(t.rounds)
        and _status(t, pid, checking_in) == "absent"
        and t.stats[pid].points == 0
        and t.stats[pid].byes == 0
    )


def _status(t: Tournament, pid: int, checking_in: bool) -> str:
    """``absent``: check-in is in use and this player never checked in nor played, so was
    never drawn; a 0-0 line without a word would read as a player who lost nothing."""
    p = t.players[pid]
    if not p.active:
        return "withdrawn"
    if checking_in and not p.checked_in and t.stats[pid].played == 0:
        return "absent"
    return "active"

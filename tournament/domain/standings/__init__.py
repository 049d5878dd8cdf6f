"""Standings: a pure function of the folded tournament (and so of the events).

Players are ranked by match points (a win, a forfeit win, a bye: 1 each), in the knockout
formats first by the place the bracket gives them, then by the tournament's tie-breaks in
order (:mod:`tournament.domain.standings.tiebreaks`). Players still tied after every tie-break share
a rank. "As of" a past event is the same function over ``fold(events, upto=n)``.

The whole field's ranking is kept on the tournament (:mod:`tournament.domain.standings.ranking`)
and brought up to date from the players the events since touched, so the standings after
one more result cost a few milliseconds even for 4,096 players. The rows are the same as a
ranking from scratch, and each call gets rows of its own to keep or change.

    >>> from tournament.domain.testing import played
    >>> rows = standings(played(players=4, rounds=1, seed=3))
    >>> [r.rank for r in rows], sum(r.points for r in rows)
    ([1, 2, 3, 4], 2)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tournament.domain.model.state import Tournament
from tournament.domain.standings.lives import lives_final_points
from tournament.domain.standings.ranking import Line, Ranking
from tournament.domain.standings.tiebreaks import GROUP_FREE, TIEBREAK_KEYS, Context


@dataclasses.dataclass(slots=True)
class Row:
    """One line of the standings (plain and mutable only for speed: 1,024 per request)."""

    #: None: a player who never played (no-show, never checked in), listed last unranked
    rank: int | None
    player_id: int
    name: str
    club: str
    category: str
    status: str  # active, withdrawn, absent (registered, never checked in: see _status)
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
    #: lives format, from the final on: a finalist's points in the final (they decide the
    #: finalists' places); None for everybody else and in other formats
    final_points: int | None = None

    def to_json(self) -> dict[str, Any]:
        # Not dataclasses.asdict: it deep-copies every value, and every field but the
        # tie-breaks is a number, a string or None (a third of a 1,024-player projection
        # run went to it).
        data = {name: getattr(self, name) for name in _ROW_FIELDS}
        data["tiebreaks"] = dict(self.tiebreaks)
        return data


_ROW_FIELDS = tuple(field.name for field in dataclasses.fields(Row))


#: With more players touched since the last ranking than this share of the field (and
#: more than a handful), ranking afresh is faster than updating.
_AFRESH = 0.25
_FEW = 64


def standings(
    t: Tournament,
    *,
    category: str | None = None,
    players: Iterable[int] | None = None,
    places: Mapping[int, int] | None = None,
    lives: Mapping[int, int] | None = None,
) -> list[Row]:
    """The ranked rows: all players, or those of one ``category`` (a separate ranking in the
    same pool: opponents outside the category still count for Buchholz), or a subset
    (a round-robin group). ``places`` ranks knockout players first by bracket place;
    ``lives`` (lives left per player, :func:`pairing.lives_left`) fills the lives columns."""
    if t.settings is None:
        return []
    chosen = list(players) if players is not None else list(t.players)
    if category is not None:
        chosen = [p for p in chosen if t.players[p].category.casefold() == category.casefold()]
    if players is not None:  # a group of a group format: small, ranked afresh each time
        return _with_final(t, _rows(Ranking(t, chosen, places or {}, lives).lines))
    ranking = t.ranking if isinstance(t.ranking, Ranking) else None  # the one kept
    touched = t.touched
    if (
        ranking is None
        or touched is None
        or len(touched) > max(_FEW, _AFRESH * len(chosen))
        or ranking.players != set(chosen)
        or ranking.places != (places or {})
        or ranking.lives != (None if lives is None else dict(lives))
    ):
        ranking = t.ranking = Ranking(t, chosen, places or {}, lives)
    elif touched:
        ranking.update(t, touched)
    t.touched = set()
    return _with_final(t, _rows(ranking.lines))


def _with_final(t: Tournament, rows: list[Row]) -> list[Row]:
    """The rows with the finalists' points in the final (lives format), the place that
    ranks them first: no other column says why one finalist is ahead of another."""
    final = lives_final_points(t)
    for row in rows:
        row.final_points = final.get(row.player_id)
    return rows


def _rows(lines: Sequence[Line]) -> list[Row]:
    """Rows of the caller's own from the ranking's lines (which stay as they are)."""
    rows = [Row(*line) for line in lines]
    for row in rows:
        row.tiebreaks = dict(row.tiebreaks)
    return rows


def rank(
    ctx: Context, players: list[int], tiebreaks: Iterable[str], places: Mapping[int, int]
) -> tuple[list[tuple[int, str | None]], dict[str, dict[int, float]]]:
    """The ranking from scratch, step by step as docs/standings.md describes it (the
    standings keep theirs up to date instead, :mod:`tournament.domain.standings.ranking`, and a
    property test holds the two equal): players best first, each with what separated it
    from the one before ("place", "points" or a tie-break; None: still tied with it, or
    the first), and the value of each tie-break per player. Direct encounter has a value
    only for the players of a tied group it split: elsewhere a number would be noise (a 0
    for everybody not tied, or a value shared by the whole group that the next tie-break
    then decides)."""
    big = 10**9
    groups: list[list[int]] = []
    decided: dict[int, str] = {}  # first player of each group split off: what split it
    keyed = sorted(players, key=lambda p: (places.get(p, big), -ctx.points[p], p))
    for p in keyed:
        key = (places.get(p, big), ctx.points[p])
        if groups and (places.get(groups[-1][0], big), ctx.points[groups[-1][0]]) == key:
            groups[-1].append(p)
        else:
            if groups:
                above = groups[-1][0]
                decided[p] = "place" if places.get(above, big) != key[0] else "points"
            groups.append([p])
    values: dict[str, dict[int, float]] = {}
    for tb in tiebreaks:
        compute = TIEBREAK_KEYS[tb]
        if tb in GROUP_FREE:
            values[tb] = compute(ctx, players)
        else:
            values[tb] = {}
        split: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                split.append(group)
                continue
            if tb in GROUP_FREE:
                vals = values[tb]
            else:
                vals = compute(ctx, group)
                if len(set(vals.values())) > 1:
                    values[tb].update(vals)
            # Whatever split this group from the one above now belongs to its new first.
            incoming = decided.pop(group[0], None)
            group.sort(key=lambda p: (-vals[p], p))
            if incoming is not None:
                decided[group[0]] = incoming
            current = [group[0]]
            for p in group[1:]:
                if vals[p] == vals[current[-1]]:
                    current.append(p)
                else:
                    split.append(current)
                    current = [p]
                    decided[p] = tb
            split.append(current)
        groups = split
    out: list[tuple[int, str | None]] = []
    for group in groups:
        out.extend((p, None if i else decided.get(p)) for i, p in enumerate(group))
    return out, values

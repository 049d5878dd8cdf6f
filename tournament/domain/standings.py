"""Standings: a pure function of the folded tournament (and so of the events).

Players are ranked by match points (a win, a forfeit win, a bye: 1 each), in the knockout
formats first by the place the bracket gives them, then by the tournament's tie-breaks in
order (:mod:`tournament.domain.tiebreaks`). Players still tied after every tie-break share
a rank. "As of" a past event is the same function over ``fold(events, upto=n)``.

The whole field's ranking is kept on the tournament (:mod:`tournament.domain.ranking`)
and brought up to date from the players the events since touched, so the standings after
one more result cost a few milliseconds even for 4,096 players; the rows are the same as a
ranking from scratch, and immutable (a row that did not change is handed out again).

    >>> from tournament.domain.testing import played
    >>> rows = standings(played(players=4, rounds=1, seed=3))
    >>> [r.rank for r in rows], sum(r.points for r in rows)
    ([1, 2, 3, 4], 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tournament.domain.ranking import Ranking
from tournament.domain.rows import Row
from tournament.domain.state import Tournament

__all__ = ["Row", "standings"]

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
        return list(Ranking(t, chosen, places or {}, lives).rows)
    ranking = t.ranking
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
    return list(ranking.rows)

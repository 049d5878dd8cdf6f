"""Preisschnapsen's buy-back (T-lives): who may buy back a life now, and the command.

>>> from tournament.domain.testing import registered
>>> from tournament.domain.model.state import fold
>>> buy_life(fold(registered(4, format="lives", options={"buy_backs": 1})), 1)
Traceback (most recent call last):
...
tournament.domain.model.errors.ConflictError: player: player 1 (Player 1) still has a life (T-lives)
"""

from __future__ import annotations

from collections.abc import Mapping

from tournament.domain.commands.registration import player, require_created
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError
from tournament.domain.model.state import Player, Tournament
from tournament.domain.standings.lives import buy_back_closed, buy_back_closed_phrase, lives_left
from tournament.domain.words.messages import Param, Phrase, english
from tournament.eventstore.api import NewEvent


def buy_life(t: Tournament, player_id: int, *, actor: str | None = None) -> list[NewEvent]:
    """Preisschnapsen: a player out of lives buys one back between rounds, at most
    ``buy_backs`` times and not after round ``buy_back_until`` (options of the format), and
    never into the final: once it is drawn its players are fixed (T-lives)."""
    require_created(t)
    refusal = buy_back_closed_phrase(t) or _cannot_buy_back(t, player(t, player_id), lives_left(t))
    if refusal is not None:
        raise ConflictError("player", "T-lives", code=refusal.code, params=refusal.params)
    payload = {"player_id": player_id, "before_round": t.current_round + 1}
    return [ev.make_event(ev.LIFE_BOUGHT, payload, actor=actor)]


def _cannot_buy_back(t: Tournament, p: Player, left: Mapping[int, int] | None) -> Phrase | None:
    """Why this player may not buy back a life now, whatever the round: withdrawn, bought
    back as often as allowed, never in the field, or still in with a life (``left``:
    lives left per player, :func:`lives_left`)."""
    settings = require_created(t)
    allowed = int(settings.options.get("buy_backs", 0))
    who: dict[str, Param] = {"player_id": p.id, "name": p.name}
    if not p.active:
        return Phrase("buyback.withdrawn", who)
    if p.lives_bought >= allowed:
        return Phrase(
            "buyback.bought_one_already" if p.lives_bought == 1 else "buyback.bought_already",
            {**who, "count": p.lives_bought, "allowed": allowed},
        )
    if left is None or p.id not in left:
        return Phrase("buyback.not_in_field", who)
    if left[p.id] > 0:
        return Phrase("buyback.still_has_a_life", who)
    return None


def may_buy_back(t: Tournament) -> tuple[list[int], str | None]:
    """Who may buy back a life now (start numbers), and why nobody may when nobody may.

    >>> from tournament.domain.testing import registered
    >>> from tournament.domain.model.state import fold
    >>> may_buy_back(fold(registered(4, format="lives", options={"buy_backs": 1})))
    ([], 'nobody is out of lives')
    """
    require_created(t)
    closed = buy_back_closed(t)
    if closed:
        return [], closed
    left = lives_left(t) or {}
    players = [p.id for p in t.players.values() if _cannot_buy_back(t, p, left) is None]
    if players:
        return players, None
    if any(left.get(p.id, 1) <= 0 for p in t.players.values() if p.active):
        allowed = int(t.settings.options["buy_backs"]) if t.settings else 0
        return [], english("buyback.everybody_bought_back", {"allowed": allowed})
    return [], english("buyback.nobody_out", {})

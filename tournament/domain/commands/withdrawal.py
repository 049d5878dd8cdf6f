"""Withdrawing a player: the ``player.withdrawn`` event and what follows from it.

A withdrawal ends the player's open matches as the tournament is set up: forfeited to the
opponents (one ``match.forfeited`` each, source ``system``) or dropped (void, in the
withdrawal's own payload). Later draws leave the player out (:mod:`.pairing`).

    >>> from tournament.domain.model.state import fold
    >>> from tournament.domain.testing import paired
    >>> t = fold(paired(players=2, best_of=1))
    >>> [e.type for e in withdraw(t, 1, reason="ill")]
    ['player.withdrawn', 'match.forfeited']
"""

from __future__ import annotations

from typing import Any

from tournament.domain.commands.registration import player, require_created
from tournament.domain.commands.results import forfeit_payload
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.domain.model.state import Tournament
from tournament.domain.model.text import plain_text
from tournament.eventstore.api import NewEvent

#: The longest reason of a withdrawal (characters), as ``--reason`` takes it.
REASON_LIMIT = 500


def withdraw(
    t: Tournament,
    player_id: int,
    *,
    policy: str | None = None,
    reason: str = "",
    actor: str | None = None,
) -> list[NewEvent]:
    """Withdraw a player. Open matches are forfeited to the opponents or dropped (void), as
    the tournament's ``withdrawal`` setting (or ``policy``) says; later rounds leave the
    player out."""
    settings = require_created(t)
    p = player(t, player_id)
    if not p.active:
        raise ConflictError(
            "player",
            "T-player",
            code="withdrawal.player_already_withdrawn",
            params={"player_id": player_id, "name": p.name},
        )
    from tournament.domain.standings.pairing import (
        finished,  # the draw's code: only for a withdrawal
    )

    if finished(t):
        # No command undoes a withdrawal: after the last round it would only rewrite the
        # final standings (a champion shown withdrawn), so it is refused.
        raise ConflictError(
            "player",
            "T-withdrawal",
            code="withdrawal.player_cannot_withdraw_tournament",
            params={"player_id": player_id, "name": p.name},
        )
    policy = policy or settings.withdrawal
    if policy not in ("forfeit", "drop"):
        raise DomainError(
            "policy",
            "T-withdrawal",
            code="withdrawal.forfeit_drop",
            params={"policy": repr(policy)},
        )
    # Printed in the log and on sheets: plain text, as the command line's --reason is.
    reason = plain_text(reason, "reason", "T-withdrawal", limit=REASON_LIMIT, what="a reason")
    open_matches = t.open_matches(player_id)
    payload: dict[str, Any] = {"player_id": player_id, "policy": policy}
    if reason:
        payload["reason"] = reason
    if policy == "drop":
        payload["dropped"] = [m.match_id for m in open_matches]
    events = [ev.make_event(ev.PLAYER_WITHDRAWN, payload, actor=actor)]
    if policy == "forfeit":
        for m in open_matches:
            opponent = m.players[1 - m.seat_of(player_id)]
            events.append(
                ev.make_event(
                    ev.MATCH_FORFEITED,
                    forfeit_payload(settings, m.match_id, opponent, "withdrawal"),
                    actor=actor,
                    source=ev.SYSTEM,  # follows from the withdrawal, nobody entered it
                )
            )
    return events

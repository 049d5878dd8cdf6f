"""Signing the finished scoresheet (Austrian practice: both players sign once the match is
decided; T-sheet). A later result, correction or strike of the match voids the
signatures; the fold keeps them as void (:mod:`tournament.domain.model.handlers`)."""

from __future__ import annotations

from collections.abc import Sequence

from tournament.domain.commands.results import find_match, player_in, with_new
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError
from tournament.domain.model.state import Tournament
from tournament.eventstore.api import NewEvent


def sign_sheet(
    t: Tournament,
    match_id: str,
    player_id: int,
    *,
    actor: str | None = None,
    new: Sequence[NewEvent] = (),
) -> list[NewEvent]:
    """A player signs the match's finished scoresheet (Austrian practice: both players
    sign once the match is decided). ``new``: result events of the same command, signed
    with them (``results enter ... --signed``). A later result, correction or strike of
    the match voids the signatures (the fold keeps them as void)."""
    match = find_match(t, match_id)
    player_in(match, player_id, "player")
    after = with_new(match, new) if new else match
    if not after.decided:
        a, b = after.summary.bummerl
        raise ConflictError(
            "match",
            "T-sheet",
            code="signing.match_decided_yet_bummerl",
            params={"match_id": match_id, "a": a, "b": b, "next_place": after.next_place_phrase()},
        )
    if player_id in match.signed_by:
        return []
    return [
        ev.make_event(ev.SHEET_SIGNED, {"match_id": match_id, "player_id": player_id}, actor=actor)
    ]

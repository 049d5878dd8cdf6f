"""What happened to each result of a match, from the log: who entered it, when and from
where (paper, live, import, the draw's walkover), and every correction and strike with
who decided it and why. ``results show`` prints it; the API lists it with the match.

    >>> from datetime import datetime, timezone
    >>> from tournament.eventstore.api import StoredEvent
    >>> def stored(version, type_, payload, **meta):
    ...     at = datetime(2026, 11, 27, 19, version, tzinfo=timezone.utc)
    ...     return StoredEvent(None, "s", version, version, type_, 1, payload, meta, at, "", "")
    >>> log = [
    ...     stored(7, ev.HAND_RECORDED, {"match_id": "1.1", "result_id": "r1"},
    ...            actor="desk", source="paper"),
    ...     stored(9, ev.HAND_STRUCK, {"match_id": "1.1", "result_id": "r1", "hand": 1,
    ...            "by": "referee", "reason": "misdeal"}, actor="desk"),
    ... ]
    >>> [(x.what, x.version, x.actor, x.source, x.by) for x in result_history(log, "1.1")["r1"]]
    [('entered', 7, 'desk', 'paper', None), ('struck', 9, 'desk', None, 'referee')]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from tournament.domain.model import events as ev

if TYPE_CHECKING:
    from tournament.eventstore.api import StoredEvent

#: The events that enter a result.
ENTERED: Final = frozenset(
    {ev.HAND_RECORDED, ev.TALLY_RECORDED, ev.MATCH_FORFEITED, ev.LIVE_HAND_RECORDED}
)


@dataclasses.dataclass(frozen=True, slots=True)
class ResultEvent:
    """One thing done to a result: ``entered``, ``corrected`` or ``struck``."""

    what: str
    version: int  # the event's number in the tournament's log
    at: datetime
    actor: str | None  # who typed it in: the account or the desk's user
    source: str | None = None  # entered: paper, live, import, system (a walkover)
    by: str | None = None  # corrected, struck: who decided it (a referee, the organiser)
    reason: str | None = None  # corrected, struck: why, as the log keeps it
    hand: int | None = None  # struck: which hand of the result
    previous: Mapping[str, Any] | None = None  # corrected: the result before (None: void)
    replacement: Mapping[str, Any] | None = None  # corrected: after (None: voided)


def result_history(events: Iterable[StoredEvent], match_id: str) -> dict[str, list[ResultEvent]]:
    """Per result id of match ``match_id``: what was done to it, oldest first."""
    out: dict[str, list[ResultEvent]] = {}
    for e in events:
        p = e.payload
        if p.get("match_id") != match_id or "result_id" not in p:
            continue
        actor = e.metadata.get("actor")
        lines = out.setdefault(str(p["result_id"]), [])
        if e.type in ENTERED:
            lines.append(
                ResultEvent("entered", e.version, e.recorded_at, actor, e.metadata.get("source"))
            )
        elif e.type == ev.RESULT_CORRECTED:
            lines.append(
                ResultEvent(
                    "corrected",
                    e.version,
                    e.recorded_at,
                    actor,
                    by=p.get("by"),
                    reason=p.get("reason"),
                    previous=p.get("previous"),
                    replacement=p.get("replacement"),
                )
            )
        elif e.type == ev.HAND_STRUCK:
            lines.append(
                ResultEvent(
                    "struck",
                    e.version,
                    e.recorded_at,
                    actor,
                    by=p.get("by"),
                    reason=p.get("reason"),
                    hand=p.get("hand") or 1,
                )
            )
    return out

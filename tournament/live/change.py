"""The announcement a projection run makes after it commits: "tournament T is at
version V", with what kinds of things changed. Small on purpose: a client that wants the
table asks for it (``GET .../standings``, an ``ETag`` away from a 304).

    >>> c = Change("cup", 12, ("result", "standings"), ("1.3",), log_version=13)
    >>> Change.decode(c.encode()) == c
    True
    >>> kinds_of(["result.hand_recorded", "round.started"], bracket=False)
    ('round', 'result', 'standings')
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable

from tournament.domain.model import events as ev

#: The SSE event types, in the order a client gets them for one change.
KINDS = ("round", "result", "bracket", "standings")

_ROUND_TYPES = frozenset({ev.ROUND_STARTED, ev.ROUND_TABLES, ev.ROUND_CANCELLED})
#: A result entered (the domain's result events) or changed afterwards.
_RESULT_TYPES = ev.RESULT_TYPES | {
    ev.RESULT_CORRECTED,
    ev.HAND_STRUCK,
    ev.SHEET_SIGNED,
    ev.FLAG_CLEARED,
}


@dataclasses.dataclass(frozen=True)
class Change:
    tournament_id: str
    version: int
    kinds: tuple[str, ...]
    matches: tuple[str, ...] = ()  # the matches whose results changed
    #: The log's version when the projection committed (0: not known; at least
    #: ``version``): each stream says whether the table is stale without asking the
    #: database (2,000 streams would ask 2,000 times per change).
    log_version: int = 0

    def encode(self) -> str:
        return json.dumps(
            {
                "t": self.tournament_id,
                "v": self.version,
                "k": self.kinds,
                "m": self.matches,
                "l": self.log_version,
            },
            separators=(",", ":"),
        )

    @classmethod
    def decode(cls, text: str | bytes) -> Change:
        data = json.loads(text)
        return cls(
            str(data["t"]),
            int(data["v"]),
            tuple(data["k"]),
            tuple(data.get("m", ())),
            int(data.get("l", 0)),
        )


def kinds_of(types: Iterable[str], *, bracket: bool) -> tuple[str, ...]:
    """The kinds of change events of ``types`` make; ``bracket``: the tournament has one."""
    found = set(types)
    kinds = []
    if found & _ROUND_TYPES:
        kinds.append("round")
    if found & _RESULT_TYPES:
        kinds.append("result")
    if bracket and found & (_ROUND_TYPES | _RESULT_TYPES):
        kinds.append("bracket")
    kinds.append("standings")
    return tuple(kinds)

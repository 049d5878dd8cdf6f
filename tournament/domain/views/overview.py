"""A tournament at a glance, as plain data: what ``tournament show`` and ``list`` print
and what the API's ``GET /tournaments/{tid}`` answers, worked out once.

>>> from tournament.domain.model.state import fold
>>> from tournament.domain.testing import played, registered
>>> p = progress(fold(registered(4)))
>>> p["players"], p["round"], p["rounds_played"], p["status"]
(4, 0, 0, 'open')
>>> progress(played(players=6, rounds=2))["matches_decided"]
6
>>> slug("Herbstturnier Wien", "2026-11-27")
'herbstturnier-wien-2026-11-27'
"""

from __future__ import annotations

import re
from typing import Any

from tournament.domain.model.state import Tournament
from tournament.domain.standings.pairing import finished
from tournament.domain.standings.progress import open_matches


def slug(name: str, date: str) -> str:
    """The id a tournament gets when none is given: its name in a-z, 0-9 and -, and the
    date."""
    text = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "tournament"
    return f"{text}-{date}" if date else text


def rounds_played(t: Tournament) -> int:
    """Complete rounds (the current one counts once all its matches are settled)."""
    return t.current_round - (0 if t.round_complete() else 1)


def progress(t: Tournament) -> dict[str, Any]:
    """Players, rounds, matches decided and void, what needs the organiser (matches open
    again after a correction, flagged matches, results with a problem), and whether the
    tournament is finished."""
    decided = sum(1 for m in t.matches.values() if m.decided or m.dropped)
    # Bracket matches voided, or vacated by a correction: settled, with no result.
    void = sum(1 for m in t.matches.values() if t.settled(m) and not (m.decided or m.dropped))
    vacated = t.vacated()
    done = finished(t)
    return {
        "players": len(t.players),
        "round": t.current_round,
        "rounds_played": rounds_played(t) if t.rounds else 0,
        "round_complete": t.round_complete() if t.rounds else False,
        "matches": len(t.matches) - void,
        "matches_decided": decided,
        "matches_void": void,
        "reopened": [m.match_id for m in open_matches(t) if m.round < t.current_round],
        "flagged": [
            m.match_id for m in t.matches.values() if m.flags and m.match_id not in vacated
        ],
        "problems": [m.match_id for m in t.matches.values() if m.problems],
        "events": t.version,
        "status": "finished" if done else "open",
    }

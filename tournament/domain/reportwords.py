"""The players' report events in words (``tournament log``, the API's event history)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from tournament.domain import events as ev

if TYPE_CHECKING:
    from tournament.domain.state import Tournament

Payload = Mapping[str, Any]


def _who(t: Tournament, p: Payload) -> str:
    pid = p.get("player_id")
    return "a player" if pid is None else t.label(int(pid))


def _submitted(t: Tournament, p: Payload) -> str:
    sheet = "; ".join(p.get("texts", ()))
    return f"match {p.get('match_id')}: {_who(t, p)} reported {sheet}"


def _confirmed(t: Tournament, p: Payload) -> str:
    return f"match {p.get('match_id')}: {_who(t, p)} confirmed the opponent's report"


def _disputed(t: Tournament, p: Payload) -> str:
    return f"match {p.get('match_id')}: {_who(t, p)} disputed: {p.get('reason', '')}"


def _settled(t: Tournament, p: Payload) -> str:
    how = p.get("how", "dismissed")
    if how == "accepted":
        return f"match {p.get('match_id')}: the report of seat {p.get('seat', 0) + 1} accepted"
    return f"match {p.get('match_id')}: taken off the queue"


def _revoked(t: Tournament, p: Payload) -> str:
    if p.get("match_id"):
        return f"match {p['match_id']}: table codes revoked"
    return f"round {p.get('round')}: every table code revoked"


#: Per report event type, its payload in words.
REPORT_WORDS: dict[str, Callable[[Tournament, Payload], str]] = {
    ev.REPORT_SUBMITTED: _submitted,
    ev.REPORT_CONFIRMED: _confirmed,
    ev.RESULT_DISPUTED: _disputed,
    ev.REPORTS_SETTLED: _settled,
    ev.CODES_REVOKED: _revoked,
}

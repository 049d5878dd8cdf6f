"""The players' report events in words (``tournament log``, the API's event history), with
their codes (tournament/domain/words/wording.py: ``event.*``) for the audit page."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from tournament.domain.model import events as ev
from tournament.domain.words.messages import Param, Phrase, param

if TYPE_CHECKING:
    from tournament.domain.model.state import Tournament

Payload = Mapping[str, Any]


def _who(t: Tournament, p: Payload) -> Param:
    pid = p.get("player_id")
    return Phrase("event.a_player") if pid is None else t.label(int(pid))


def _match(p: Payload) -> Param:
    return param(p.get("match_id"))


def _submitted(t: Tournament, p: Payload) -> Phrase:
    sheet = "; ".join(p.get("texts", ()))
    return Phrase("event.reported", {"match_id": _match(p), "who": _who(t, p), "sheet": sheet})


def _confirmed(t: Tournament, p: Payload) -> Phrase:
    return Phrase("event.confirmed", {"match_id": _match(p), "who": _who(t, p)})


def _disputed(t: Tournament, p: Payload) -> Phrase:
    reason = param(p.get("reason", ""))
    return Phrase("event.disputed", {"match_id": _match(p), "who": _who(t, p), "reason": reason})


def _settled(t: Tournament, p: Payload) -> Phrase:
    how = p.get("how", "dismissed")
    if how == "accepted":
        seat = param(p.get("seat", 0) + 1)
        return Phrase("event.accepted", {"match_id": _match(p), "seat": seat})
    return Phrase("event.off_queue", {"match_id": _match(p)})


def _revoked(t: Tournament, p: Payload) -> Phrase:
    if p.get("match_id"):
        return Phrase("event.revoked", {"match_id": _match(p)})
    return Phrase("event.all_revoked", {"round": param(p.get("round"))})


#: Per report event type, its payload in words.
REPORT_WORDS: dict[str, Callable[[Tournament, Payload], Phrase]] = {
    ev.REPORT_SUBMITTED: _submitted,
    ev.REPORT_CONFIRMED: _confirmed,
    ev.RESULT_DISPUTED: _disputed,
    ev.REPORTS_SETTLED: _settled,
    ev.CODES_REVOKED: _revoked,
}

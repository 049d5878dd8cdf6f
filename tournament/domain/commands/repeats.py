"""A retry never doubles a sheet (T-repeat): a hand or tally that is exactly its match's
last entry again is refused unless the organiser says it is another one (``--again``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from tournament.domain.model.errors import ConflictError
from tournament.domain.model.matchstate import Entry, MatchState
from tournament.domain.model.state import ENTRY_KINDS, Tournament
from tournament.eventstore.api import NewEvent, StoredEvent


def repeated_entry(t: Tournament, new: Sequence[NewEvent]) -> tuple[MatchState, Entry] | None:
    """The match and its last entry when ``new`` enters that again, as a retried or
    double-submitted command would: its first hand or tally is exactly the match's last
    entry (the same kind, the same content: winner, points, dealer ... or the same tally),
    or all of them are exactly the match's last entries (a whole sheet sent twice). None
    otherwise: a later hand of a sheet that happens to read like the last entry is no
    repeat of it."""
    batches: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
    for event in new:
        kind = ENTRY_KINDS.get(event.type)
        if kind in ("hand", "tally"):
            batches.setdefault(event.payload.get("match_id", ""), []).append((kind, event.payload))
    for match_id, batch in batches.items():
        match = t.matches.get(match_id)
        if match is None or not match.entries:
            continue
        last = match.entries[-1]
        tail = match.entries[-len(batch) :]
        whole = len(tail) == len(batch) and all(map(_same, tail, batch))
        if _same(last, batch[0]) or whole:
            return match, last
    return None


def _same(entry: Entry, new: tuple[str, Mapping[str, Any]]) -> bool:
    kind, payload = new
    return (
        entry.kind == kind
        and entry.payload is not None
        and _content(entry.payload) == _content(payload)
    )


def _content(payload: Mapping[str, Any]) -> str:
    """A result's content, whatever its id (and lists or tuples alike)."""
    return json.dumps({k: v for k, v in payload.items() if k != "result_id"}, sort_keys=True)


class RepeatedEntry(ConflictError):
    """The refusal of :func:`check_not_repeated`; :meth:`entered` adds when the earlier
    result was entered, for a caller that looks it up only after the refusal (the web API
    reads no more of the log while it holds the tournament's lock)."""

    def __init__(self, result_id: str, head: str, tail: str, at: str = "") -> None:
        self.result_id, self.head, self.tail, self.at = result_id, head, tail, at
        super().__init__("result", "T-repeat", head + (f", entered at {at}" if at else "") + tail)

    def entered(self, at: str) -> RepeatedEntry:
        """The same refusal, saying the earlier result was entered ``at``."""
        return RepeatedEntry(self.result_id, self.head, self.tail, at)


def check_not_repeated(
    t: Tournament,
    new: Sequence[NewEvent],
    entered_when: Callable[[str], str] | None,
    *,
    again: str = "--again",
) -> None:
    """Refuse (``T-repeat``) a hand or tally that is exactly its match's last entry again:
    a retry after a lost connection, a double click, up-arrow and Enter at the desk. The
    message names the earlier result and when it was entered (``entered_when(result_id)``,
    e.g. ``21:14``; None: :meth:`RepeatedEntry.entered` adds it later); a hand or Bummerl
    that really went the same way again is entered on purpose (``results enter ...
    --again``; ``again`` is how the caller spells it).

    >>> from tournament.domain.commands.results import record_hand
    >>> from tournament.domain.model.state import fold
    >>> from tournament.domain.testing import paired
    >>> events = paired(players=2, best_of=3)
    >>> events += record_hand(fold(events), "1.1", winner=1, game_points=2)
    >>> t = fold(events)
    >>> again = record_hand(t, "1.1", winner=1, game_points=2)
    >>> check_not_repeated(t, again, lambda result_id: "21:14")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tournament.domain.commands.repeats.RepeatedEntry: result: match 1.1: this hand is exactly ...
    >>> check_not_repeated(t, record_hand(t, "1.1", winner=2, game_points=2), str)  # another
    """
    found = repeated_entry(t, new)
    if found is None:
        return
    match, entry = found
    places = match.hand_places().get(entry.result_id) or []
    if entry.kind == "tally":
        what, twice = "tally", "Bummerl with the same tally"
        where = places[0].split(" hand")[0] if places else "a Bummerl"
    else:
        assert entry.payload is not None
        what, twice = "hand", "hand with the same result"
        won = f"{match.label(entry.payload['winner'])} wins {entry.payload['game_points']}"
        where = f"{places[0]}: {won}" if places else won
    raise RepeatedEntry(
        entry.result_id,
        f"match {match.match_id}: this {what} is exactly the match's last entry, result "
        f"{entry.result_id} ({where})",
        f"; nothing stored; if it really is another {twice}, enter it with {again}",
        entered_when(entry.result_id) if entered_when is not None else "",
    )


def entered_at(events: Iterable[StoredEvent], result_id: str) -> datetime | None:
    """When result ``result_id`` was entered (None: it never was), for the refusal above."""
    for event in events:
        if event.payload.get("result_id") == result_id:
            return event.recorded_at
    return None

"""One tournament moved between stores: which streams make it up, and whether a backup of
streams is one tournament's.

A tournament is its stream (``tournament-<id>``) and the streams of its live hands
(``hand-<uuid>``, each named by the ``match.live_hand_started`` event that dealt it).
Its backup holds them all (:mod:`tournament.eventstore.stream_backup`); restoring it
appends the hands first and the tournament's own stream last, so the tournament exists
only once everything it refers to does.

    >>> from tournament.domain.testing import registered
    >>> events = registered(players=2)
    >>> tournament_streams(events)
    ['tournament-test']
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Protocol

from engine import HandState
from tournament.domain.commands.online import hand_final
from tournament.domain.model import events as ev
from tournament.domain.model.errors import DomainError
from tournament.domain.model.events import EventLike
from tournament.domain.model.hands import HAND_PREFIX
from tournament.domain.model.state import Tournament

TOURNAMENT_PREFIX = "tournament-"


class BackupLine(Protocol):
    """An event of a backup and the line it is on."""

    @property
    def line(self) -> int: ...

    @property
    def event(self) -> EventLike: ...


class BackupError(DomainError):
    """A backup that is not one tournament's, naming the line at fault."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__("body", "T-settings", f"line {line}: {message}")
        self.at_line = line


def tournament_streams(events: Sequence[EventLike]) -> list[str]:
    """The streams of the tournament whose ``events`` these are: its own, then its live
    hands' in the order they were dealt."""
    created = events[0].payload if events else {}
    own = ev.stream_id(str(created.get("tournament_id", "")))
    hands = [str(e.payload["hand_stream"]) for e in events if e.type == ev.LIVE_HAND_STARTED]
    return [own, *dict.fromkeys(hands)]


def finished_hands(t: Tournament, state_of: Callable[[str], HandState]) -> set[str]:
    """The live hands of ``t`` that are over for good (:func:`~.online.hand_final`):
    their decks are published (a record, a replay, a backup in the clear). ``state_of``
    folds a hand's stream; only hands with a result recorded are folded."""

    def over(stream: str) -> bool:
        if stream in t.live_abandoned:
            return True
        return stream in t.live_results and hand_final(t, stream, state_of(stream))

    return {stream for stream in t.live_hands if over(stream)}


def in_play(finished: Collection[str]) -> Callable[[str], bool]:
    """Whether a stream is a live hand's not known to be over for good: what a backup
    withholds (F2: the deck of a hand in play is nobody's to read). A hand dealt after
    ``finished`` was worked out counts as in play, so a backup never races a deal."""
    return lambda stream: stream.startswith(HAND_PREFIX) and stream not in finished


def restore_order(streams: Mapping[str, Sequence[BackupLine]]) -> tuple[str, list[str]]:
    """The tournament a backup of ``streams`` holds, and the order to append them in (its
    live hands first, its own stream last). Refuses, naming the line, a backup that is
    not exactly one tournament's: no tournament stream or several, a stream that does
    not begin with the tournament's creation, a stream that is not one of its hands', a
    hand dealt whose stream is missing."""
    own = [sid for sid in streams if sid.startswith(TOURNAMENT_PREFIX)]
    if len(own) != 1:
        first = next(iter(streams.values()), [])
        line = first[0].line if first else 1
        found = f"{len(own)} tournament streams" if own else "no tournament stream"
        raise BackupError(line, f"a tournament's backup holds one tournament; this holds {found}")
    main = streams[own[0]]
    created = main[0].event
    tid = own[0].removeprefix(TOURNAMENT_PREFIX)
    if created.type != ev.TOURNAMENT_CREATED or created.payload.get("tournament_id") != tid:
        raise BackupError(
            main[0].line, f"stream {own[0]} does not begin with the creation of tournament {tid}"
        )
    hands = tournament_streams([line.event for line in main])[1:]
    for sid, lines in streams.items():
        if sid != own[0] and sid not in hands:
            raise BackupError(
                lines[0].line,
                f"stream {sid!r:.80} is not one of tournament {tid}'s (only its live hands' "
                "streams go with it)",
            )
    for item in main:
        hand = item.event.payload.get("hand_stream")
        if item.event.type == ev.LIVE_HAND_STARTED and hand not in streams:
            raise BackupError(
                item.line, f"live hand {hand!r:.80} was dealt here, but its stream is missing"
            )
    return tid, [*hands, own[0]]

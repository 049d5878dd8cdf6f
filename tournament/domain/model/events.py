"""The tournament's event types: stable names, schema versions and how they are built.

Every change to a tournament is one of these events, appended to the tournament's stream
``tournament-<id>``; the state is a fold over them (see :mod:`tournament.domain.model.state`).
Payloads are plain JSON; player ids are the start numbers (ints), match ids strings like
``"3.12"`` (round 3, table 12).

    >>> e = make_event(HAND_RECORDED, {"match_id": "1.1"}, actor="anna")
    >>> e.type, e.schema_version, dict(e.metadata)
    ('result.hand_recorded', 1, {'actor': 'anna', 'source': 'paper'})

Every event says where its content came from (``metadata.source``, one of the store's
sources): ``paper`` -- a person typed it in at the organiser's desk (scoresheets, entry
forms, a referee's decision), the default; ``live`` -- hands played through the engine;
``import`` -- rows of a CSV file; ``system`` -- the service worked it out itself (a draw,
seeding by rating, a walkover for a withdrawn player); ``players`` -- the players reported
it from their table with its codes (T-code, :mod:`tournament.domain.commands.reports`). The edge
that appends adds a ``correlation_id`` shared by every event of one organiser action
(:func:`stamped`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, Final, Protocol

import tournament.domain.model.hands  # noqa: F401  (registers hand.dealt and hand.action)
from tournament.eventstore.api import NewEvent
from tournament.eventstore.registry import Upcaster, register_event_type

TOURNAMENT_CREATED: Final = "tournament.created"
PLAYER_REGISTERED: Final = "player.registered"
PLAYER_CHECKED_IN: Final = "player.checked_in"
PLAYER_CHECKED_OUT: Final = "player.checked_out"
PLAYER_EDITED: Final = "player.edited"
PLAYER_WITHDRAWN: Final = "player.withdrawn"
PLAYERS_SEEDED: Final = "players.seeded"
LIFE_BOUGHT: Final = "player.life_bought"
ROUND_STARTED: Final = "round.started"
ROUND_TABLES: Final = "round.tables_listed"
ROUND_CANCELLED: Final = "round.cancelled"
FIRST_DEALER_SET: Final = "match.first_dealer_set"
HAND_RECORDED: Final = "result.hand_recorded"
TALLY_RECORDED: Final = "result.bummerl_tally_recorded"
LIVE_HAND_STARTED: Final = "match.live_hand_started"
LIVE_HAND_RECORDED: Final = "result.live_hand_recorded"
LIVE_HAND_ABANDONED: Final = "match.live_hand_abandoned"
LIVE_HAND_CLOSED: Final = "match.live_hand_closed"  # no claim after the last trick (R16)
ONLINE_STARTED: Final = "match.online_started"
ONLINE_STOPPED: Final = "match.online_stopped"
ONLINE_CLOCK_RESTARTED: Final = "match.online_clock_restarted"
ONLINE_SEAT_TAKEN: Final = "match.online_seat_taken"  # a device holds a seat (T-online)
ONLINE_SEAT_RELEASED: Final = "match.online_seat_released"
MATCH_FORFEITED: Final = "match.forfeited"
RESULT_CORRECTED: Final = "result.corrected"
HAND_STRUCK: Final = "hand.struck"
SHEET_SIGNED: Final = "match.sheet_signed"
FLAG_CLEARED: Final = "match.flag_cleared"
# Players report from the table with codes (tournament.domain.commands.reports, T-code).
REPORT_SUBMITTED: Final = "report.submitted"
REPORT_CONFIRMED: Final = "report.confirmed"
RESULT_DISPUTED: Final = "report.disputed"
REPORTS_SETTLED: Final = "report.settled"
CODES_REVOKED: Final = "report.codes_revoked"

#: Every type this domain writes, with its current schema version.
SCHEMA_VERSIONS: Final[Mapping[str, int]] = {
    TOURNAMENT_CREATED: 1,
    PLAYER_REGISTERED: 1,
    PLAYER_CHECKED_IN: 1,
    PLAYER_CHECKED_OUT: 1,
    PLAYER_EDITED: 1,
    PLAYER_WITHDRAWN: 1,
    PLAYERS_SEEDED: 1,
    LIFE_BOUGHT: 1,
    ROUND_STARTED: 2,
    ROUND_TABLES: 1,
    ROUND_CANCELLED: 1,
    FIRST_DEALER_SET: 1,
    HAND_RECORDED: 1,
    TALLY_RECORDED: 1,
    LIVE_HAND_STARTED: 1,
    LIVE_HAND_RECORDED: 1,
    LIVE_HAND_ABANDONED: 1,
    LIVE_HAND_CLOSED: 1,
    ONLINE_STARTED: 1,
    ONLINE_STOPPED: 1,
    ONLINE_CLOCK_RESTARTED: 1,
    ONLINE_SEAT_TAKEN: 1,
    ONLINE_SEAT_RELEASED: 1,
    MATCH_FORFEITED: 1,
    RESULT_CORRECTED: 1,
    HAND_STRUCK: 1,
    SHEET_SIGNED: 1,
    FLAG_CLEARED: 1,
    REPORT_SUBMITTED: 1,
    REPORT_CONFIRMED: 1,
    RESULT_DISPUTED: 1,
    REPORTS_SETTLED: 1,
    CODES_REVOKED: 1,
}

#: A round's matches as compact rows ``[match_id, table, a, b, first_dealer]``, with a
#: sixth element for a bracket match: ``true`` (its id is the bracket slot) or the slot's id
#: when the slot is drawn again after a correction (match ``R4-1b`` for slot ``R4-1``: match
#: ids are never reused). Rows keep a
#: round of 4,096 players within a few events under the store's 64 KB payload limit:
#: ``round.started`` lists as many as fit, ``round.tables_listed`` events the rest.
MatchRow = list[Any]


def match_row(match: Mapping[str, Any]) -> MatchRow:
    """A match of a version-1 ``round.started`` (an object) as a row."""
    a, b = match["players"]
    row = [match["match_id"], match["table"], a, b, match.get("first_dealer")]
    return [*row, True] if match.get("bracket") else row


def _round_started_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 listed every match as an object in the one event; version 2 lists rows
    and says how many there are in all (the rest follow in ``round.tables_listed``)."""
    matches = [match_row(m) for m in payload["matches"]]
    return {**payload, "matches": matches, "match_count": len(matches)}


#: Per type, per old schema version: the pure function lifting a payload one version.
UPCASTERS: Final[Mapping[str, Mapping[int, Upcaster]]] = {
    ROUND_STARTED: {1: _round_started_v1_to_v2},
}

#: Sources (the store's ``SOURCES``): see the module docstring.
PAPER: Final = "paper"
LIVE: Final = "live"
IMPORT: Final = "import"
SYSTEM: Final = "system"
PLAYERS: Final = "players"  # reported by the players from the table (T-code)

#: Result events: each carries a ``result_id`` that corrections and strikes refer to.
RESULT_TYPES: Final = frozenset(
    {HAND_RECORDED, TALLY_RECORDED, LIVE_HAND_RECORDED, MATCH_FORFEITED}
)


class EventLike(Protocol):
    """What the fold reads of an event: a ``StoredEvent`` and a ``NewEvent`` both fit."""

    @property
    def type(self) -> str: ...

    @property
    def payload(self) -> Mapping[str, Any]: ...

    @property
    def metadata(self) -> Mapping[str, Any]: ...


def stream_id(tournament_id: str) -> str:
    """The stream that holds everything of one tournament."""
    return f"tournament-{tournament_id}"


def make_event(
    type: str, payload: Mapping[str, Any], *, actor: str | None = None, source: str = PAPER
) -> NewEvent:
    """A :class:`NewEvent` of one of our types, stamped with its schema version and source."""
    metadata: dict[str, Any] = {}
    if actor:
        metadata["actor"] = actor
    metadata["source"] = source
    return NewEvent(type, dict(payload), metadata, SCHEMA_VERSIONS[type])


def stamped(events: Iterable[NewEvent], metadata: Mapping[str, Any]) -> list[NewEvent]:
    """``events`` with ``metadata`` laid over their own (same ids: a retry stays one event).

    >>> [e] = stamped([make_event(PLAYER_CHECKED_IN, {"player_id": 1})],
    ...               {"correlation_id": "c0ffee", "source": IMPORT})
    >>> dict(e.metadata)
    {'source': 'import', 'correlation_id': 'c0ffee'}
    """
    if not metadata:
        return list(events)
    return [dataclasses.replace(e, metadata={**e.metadata, **metadata}) for e in events]


def register_event_types() -> None:
    """Register our types with the event store's registry (appending unknown types fails).

    Done once at import of this module; registering again at the same version is harmless.
    """
    for type_, version in SCHEMA_VERSIONS.items():
        register_event_type(type_, schema_version=version, upcasters=UPCASTERS.get(type_))


register_event_types()

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
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Final, Protocol, Self, TypeVar, cast, dataclass_transform

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


# --- events as values ---------------------------------------------------------------------
#
# Every type above is also a frozen dataclass (slots) carrying its type name and schema
# version: commands build these values, the fold reads their fields. ``to_payload()`` gives
# exactly the JSON stored today and ``from_payload()`` reads it back (stored logs and their
# hash chain are unaffected). Older schema versions are lifted by the store's upcasters
# (:data:`UPCASTERS`) before ``from_payload`` sees them.
#
# Field names are the payload's keys. A field without a default is always stored; a field
# whose default is ``None`` is left out of the payload while it is ``None`` (the key was
# absent). Lists are tuples in the value (rows of a round: tuples of tuples) and lists in
# the payload; objects are read-only mappings (shallow: what is nested in them is plain JSON).

#: A stored JSON object (nested JSON inside is plain and must not be changed).
JsonObject = Mapping[str, Any]


class EventValue:
    """The base of every event value: its type, its schema version and its payload."""

    __slots__ = ()
    TYPE: ClassVar[str]
    SCHEMA_VERSION: ClassVar[int]
    #: Per field: (key, how it is converted, left out when None).
    _SPEC: ClassVar[tuple[tuple[str, str, bool], ...]]
    _KEYS: ClassVar[frozenset[str]]
    _REQUIRED: ClassVar[frozenset[str]]
    #: Per field: (key, its decoder or None, the slot's setter) -- see from_payload.
    _READ: ClassVar[tuple[tuple[str, Callable[[Any], Any] | None, Callable[[Any, Any], None]], ...]]

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        """The value of a stored payload at the type's current schema version; a payload
        with a key the type does not know, or without one it needs, is a ValueError."""
        keys = payload.keys()
        if not keys <= cls._KEYS or not keys >= cls._REQUIRED:
            unknown = sorted(set(keys) - cls._KEYS)
            missing = sorted(cls._REQUIRED - set(keys))
            raise ValueError(
                f"{cls.TYPE}: payload does not fit schema version {cls.SCHEMA_VERSION} "
                f"(unknown keys {unknown}, missing keys {missing})"
            )
        # Built field by field through the slots (a frozen dataclass's __init__ sets each
        # field through object.__setattr__: several times slower, and the fold decodes
        # every event of a replay).
        value: Any = object.__new__(cls)
        get = payload.get
        for key, decode, put in cls._READ:
            found = get(key)
            put(value, found if found is None or decode is None else decode(found))
        return cast(Self, value)

    def to_payload(self) -> dict[str, Any]:
        """The payload as stored: the same keys and values ``from_payload`` read."""
        out: dict[str, Any] = {}
        for key, kind, optional in self._SPEC:
            value = getattr(self, key)
            if value is None:
                if optional:
                    continue
            elif kind != "":
                value = _ENCODE[kind](value)
            out[key] = value
        return out

    def event(self, *, actor: str | None = None, source: str = PAPER) -> NewEvent:
        """This value as the store's :class:`NewEvent` (see :func:`make_event`)."""
        return make_event(self.TYPE, self.to_payload(), actor=actor, source=source)


def _rows_in(value: Any) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(row) for row in value)


def _rows_out(value: Any) -> list[list[Any]]:
    return [list(row) for row in value]


_DECODE: Final[Mapping[str, Callable[[Any], Any]]] = {
    "list": tuple,
    "rows": _rows_in,
    "object": lambda v: MappingProxyType(dict(v)),
}
_ENCODE: Final[Mapping[str, Callable[[Any], Any]]] = {
    "list": list,
    "rows": _rows_out,
    "object": dict,
}


def _kind(annotation: str) -> str:
    """How a field is converted, from its annotation (a string, under ``from __future__``)."""
    if "Rows" in annotation:
        return "rows"
    if annotation.startswith("tuple["):
        return "list"
    if annotation.startswith(("JsonObject", "Mapping[")):
        return "object"
    return ""


#: Every event value class by its type name (the registry the fold decodes with).
EVENT_CLASSES: dict[str, type[EventValue]] = {}

_V = TypeVar("_V", bound=type[EventValue])


@dataclass_transform(frozen_default=True, kw_only_default=True)
def event_value(type_name: str) -> Callable[[_V], _V]:
    """Make a class an event value of ``type_name``: a frozen, slotted dataclass whose
    schema version is the type's (:data:`SCHEMA_VERSIONS`), listed in :data:`EVENT_CLASSES`."""

    def wrap(cls: _V) -> _V:
        made: Any = dataclasses.dataclass(frozen=True, slots=True, kw_only=True)(cls)
        fields = dataclasses.fields(made)
        made.TYPE = type_name
        made.SCHEMA_VERSION = SCHEMA_VERSIONS[type_name]
        made._SPEC = tuple((f.name, _kind(str(f.type)), f.default is None) for f in fields)
        made._KEYS = frozenset(f.name for f in fields)
        made._REQUIRED = frozenset(f.name for f in fields if f.default is dataclasses.MISSING)
        made._READ = tuple(
            (key, _DECODE.get(kind), made.__dict__[key].__set__) for key, kind, _ in made._SPEC
        )
        EVENT_CLASSES[type_name] = made
        return cast(_V, made)

    return wrap


def decode(event: EventLike) -> EventValue:
    """The value of a stored (upcast) or new event of one of our types."""
    return EVENT_CLASSES[event.type].from_payload(event.payload)


def new_events(
    values: Iterable[EventValue], *, actor: str | None = None, source: str = PAPER
) -> list[NewEvent]:
    """``values`` as the store's new events, each stamped with its schema version."""
    return [v.event(actor=actor, source=source) for v in values]


#: A round's matches as rows (see :data:`MatchRow`), read-only.
Rows = tuple[tuple[Any, ...], ...]


@event_value(TOURNAMENT_CREATED)
class TournamentCreated(EventValue):
    tournament_id: str
    settings: JsonObject


@event_value(PLAYER_REGISTERED)
class PlayerRegistered(EventValue):
    player_id: int
    name: str
    club: str | None = None
    category: str | None = None
    rating: int | None = None
    late: bool | None = None
    missed_rounds: int | None = None
    missed_rounds_score: str | None = None


@event_value(PLAYER_CHECKED_IN)
class PlayerCheckedIn(EventValue):
    player_id: int


@event_value(PLAYER_CHECKED_OUT)
class PlayerCheckedOut(EventValue):
    player_id: int


@event_value(PLAYER_EDITED)
class PlayerEdited(EventValue):
    player_id: int
    changes: JsonObject
    previous: JsonObject


@event_value(PLAYER_WITHDRAWN)
class PlayerWithdrawn(EventValue):
    player_id: int
    policy: str | None = None
    reason: str | None = None
    dropped: tuple[str, ...] | None = None


@event_value(PLAYERS_SEEDED)
class PlayersSeeded(EventValue):
    order: tuple[int, ...]
    method: str | None = None
    seed: int | None = None


@event_value(LIFE_BOUGHT)
class LifeBought(EventValue):
    player_id: int
    before_round: int


@event_value(ROUND_STARTED)
class RoundStarted(EventValue):
    round: int
    matches: Rows
    match_count: int | None = None
    seed: int | None = None
    stage: str | None = None
    byes: tuple[int, ...] | None = None
    idle: tuple[int, ...] | None = None
    info: JsonObject | None = None
    override: bool | None = None
    warnings: tuple[Any, ...] | None = None


@event_value(ROUND_TABLES)
class RoundTablesListed(EventValue):
    round: int
    matches: Rows
    bracket: tuple[Any, ...] | None = None


@event_value(ROUND_CANCELLED)
class RoundCancelled(EventValue):
    round: int
    why: str | None = None
    cancellation: int | None = None
    by: str | None = None


@event_value(FIRST_DEALER_SET)
class FirstDealerSet(EventValue):
    match_id: str
    player_id: int


@event_value(HAND_RECORDED)
class HandRecorded(EventValue):
    result_id: str
    match_id: str
    winner: int
    game_points: int
    dealer: int | None = None
    reason: str | None = None
    card_points: tuple[int, ...] | None = None
    closed: bool | None = None
    scorer: int | None = None
    sheet: JsonObject | None = None


@event_value(TALLY_RECORDED)
class TallyRecorded(EventValue):
    result_id: str
    match_id: str
    tally: JsonObject
    scorer: int | None = None
    sheet: JsonObject | None = None


@event_value(LIVE_HAND_STARTED)
class LiveHandStarted(EventValue):
    match_id: str
    hand_stream: str
    dealer: int | None = None


@event_value(LIVE_HAND_RECORDED)
class LiveHandRecorded(EventValue):
    result_id: str
    match_id: str
    hand_stream: str
    winner: int
    game_points: int
    dealer: int | None = None
    reason: str | None = None
    card_points: tuple[int, ...] | None = None
    closed: bool | None = None


@event_value(LIVE_HAND_ABANDONED)
class LiveHandAbandoned(EventValue):
    match_id: str
    hand_stream: str
    by: str | None = None
    reason: str | None = None


@event_value(LIVE_HAND_CLOSED)
class LiveHandClosed(EventValue):
    match_id: str
    hand_stream: str
    #: The seat that let the claim window pass; ``null`` when online play stopped it.
    seat: int | None
    by: str | None = None


@event_value(ONLINE_STARTED)
class OnlineStarted(EventValue):
    match_id: str
    #: ``null``: no move clock (stored as ``null``, not left out).
    move_seconds: int | None


@event_value(ONLINE_STOPPED)
class OnlineStopped(EventValue):
    match_id: str
    by: str | None = None
    reason: str | None = None


@event_value(ONLINE_CLOCK_RESTARTED)
class OnlineClockRestarted(EventValue):
    match_id: str
    hand_stream: str
    at: str
    by: str | None = None


@event_value(ONLINE_SEAT_TAKEN)
class OnlineSeatTaken(EventValue):
    match_id: str
    seat: int
    device: str
    at: str | None = None
    origin: JsonObject | None = None
    released_by: str | None = None
    flags: tuple[str, ...] | None = None


@event_value(ONLINE_SEAT_RELEASED)
class OnlineSeatReleased(EventValue):
    match_id: str
    seat: int
    by: str | None = None
    in_hand: str | None = None


@event_value(MATCH_FORFEITED)
class MatchForfeited(EventValue):
    result_id: str
    match_id: str
    winner: int | None
    reason: str
    score: tuple[int, ...]


@event_value(RESULT_CORRECTED)
class ResultCorrected(EventValue):
    result_id: str
    match_id: str
    #: ``null``: the result is voided; ``previous`` ``null``: a voided result restored.
    replacement: JsonObject | None
    previous: JsonObject | None
    correction_id: str | None = None
    by: str | None = None
    reason: str | None = None
    sheet: JsonObject | None = None


@event_value(HAND_STRUCK)
class HandStruck(EventValue):
    result_id: str
    match_id: str
    hand: int | None = None
    strike_id: str | None = None
    by: str | None = None
    reason: str | None = None


@event_value(SHEET_SIGNED)
class SheetSigned(EventValue):
    match_id: str
    player_id: int


@event_value(FLAG_CLEARED)
class FlagCleared(EventValue):
    match_id: str


@event_value(REPORT_SUBMITTED)
class ReportSubmitted(EventValue):
    match_id: str
    seat: int
    player_id: int
    texts: tuple[str, ...]
    tallies: tuple[Any, ...]
    draw: int | None = None
    origin: JsonObject | None = None


@event_value(REPORT_CONFIRMED)
class ReportConfirmed(EventValue):
    match_id: str
    seat: int
    player_id: int
    draw: int | None = None
    flags: tuple[str, ...] | None = None


@event_value(RESULT_DISPUTED)
class ResultDisputed(EventValue):
    match_id: str
    seat: int | None = None
    player_id: int | None = None
    draw: int | None = None
    reason: str | None = None
    mismatch: bool | None = None


@event_value(REPORTS_SETTLED)
class ReportsSettled(EventValue):
    match_id: str
    draw: int | None = None
    how: str | None = None
    seat: int | None = None


@event_value(CODES_REVOKED)
class CodesRevoked(EventValue):
    round: int | None = None
    match_id: str | None = None


_unvalued = set(SCHEMA_VERSIONS) - set(EVENT_CLASSES)
assert not _unvalued, f"event types without a value class: {sorted(_unvalued)}"

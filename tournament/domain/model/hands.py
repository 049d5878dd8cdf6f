"""Live hands as event streams: ``hand.dealt`` then one ``hand.action`` per move.

The event store knows nothing of the game: these types, their checks and their fold are
the domain's, registered with the store's registry when this module is imported.

    >>> from engine import Action
    >>> deck = "QS AH TC KC QC JH KH TD AD AS TS JS JD KD QD JC KS QH TH AC".split()
    >>> dealt = dealt_event(deck, dealer=0, metadata={"source": "live"})
    >>> dealt.type, dealt.payload["dealer"]
    ('hand.dealt', 0)
    >>> action_event(Action.parse("1:AH")).payload
    {'seat': 1, 'action': 'play', 'card': 'AH'}

Stream id: ``hand-<uuid>`` (:func:`new_hand_stream_id`). The payload of ``hand.action`` is
exactly one schnapsen-record/1 action object, so a hand stream reads back as a game
record. Appending checks the payload's shape (a deck of 20 distinct cards, an action
object); legality depends on the state, so the writer folds the stream first
(:func:`load_hand`) and the fold refuses an illegal action.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from engine import Action, EngineError, GameRecord, HandState, Ruleset
from tournament.eventstore.api import EventStore, NewEvent, StoredEvent
from tournament.eventstore.errors import FoldError
from tournament.eventstore.fold import Loaded
from tournament.eventstore.registry import register_event_type

HAND_PREFIX = "hand-"
HAND_DEALT = "hand.dealt"
HAND_ACTION = "hand.action"
_DEALT_KEYS = {"deck", "dealer", "variants"}
#: A live deal's secret salt: a backup withholds a hand in play but keeps each event's
#: hash, and a player who knows their own five cards could otherwise try the other
#: decks' orders against that hash (14! of them); with 128 random bits in the payload
#: no guess can be checked (F2).
_DEALT_SALT = "salt"
SALT_BYTES: Final = 16


def _validate_dealt(payload: Mapping[str, Any]) -> None:
    keys = set(payload) - {_DEALT_SALT}
    if keys != _DEALT_KEYS:
        raise ValueError(f"needs exactly the fields {sorted(_DEALT_KEYS)}, not {sorted(keys)}")
    salt = payload.get(_DEALT_SALT)
    if salt is not None and not (
        isinstance(salt, str)
        and len(salt) == 2 * SALT_BYTES
        and all(c in "0123456789abcdef" for c in salt)
    ):
        raise ValueError(f"'salt' must be {2 * SALT_BYTES} lowercase hex digits")
    if not isinstance(payload["variants"], list) or not all(
        isinstance(v, str) for v in payload["variants"]
    ):
        raise ValueError("'variants' must be a list of variant names")
    if not isinstance(payload["deck"], list):
        raise ValueError("'deck' must be a list of 20 card codes")
    HandState.deal(payload["deck"], payload["dealer"], Ruleset.from_names(payload["variants"]))


def _validate_action(payload: Mapping[str, Any]) -> None:
    Action.from_json(dict(payload))


register_event_type(HAND_DEALT, schema_version=1, validate=_validate_dealt)
register_event_type(HAND_ACTION, schema_version=1, validate=_validate_action)


def new_hand_stream_id() -> str:
    return f"{HAND_PREFIX}{uuid.uuid4()}"


def dealt_event(
    deck: Sequence[str],
    dealer: int,
    variants: Sequence[str] = (),
    metadata: Mapping[str, Any] | None = None,
    *,
    salt: str | None = None,
) -> NewEvent:
    """The first event of a hand stream (``salt``: a live deal's secret, see SALT_BYTES)."""
    payload: dict[str, Any] = {"deck": list(deck), "dealer": dealer, "variants": list(variants)}
    if salt is not None:
        payload[_DEALT_SALT] = salt
    return NewEvent(HAND_DEALT, payload, dict(metadata or {}))


def action_event(
    action: Action | Mapping[str, Any], metadata: Mapping[str, Any] | None = None
) -> NewEvent:
    """One move (play, exchange, close, claim) as a ``hand.action`` event."""
    payload = action.to_json() if isinstance(action, Action) else dict(action)
    return NewEvent(HAND_ACTION, payload, dict(metadata or {}))


def start_hand(event: StoredEvent) -> HandState:
    """The state right after a ``hand.dealt`` event."""
    if event.type != HAND_DEALT:
        raise FoldError(
            event.stream_id, event.version, "stream",
            f"a hand stream starts with {HAND_DEALT!r}, not {event.type!r}",
        )  # fmt: skip
    p = event.payload
    try:
        return HandState.deal(p["deck"], p["dealer"], Ruleset.from_names(p["variants"]))
    except EngineError as error:
        raise FoldError(event.stream_id, event.version, error.rule, error.message) from None
    except (KeyError, TypeError) as error:
        raise FoldError(event.stream_id, event.version, "format", f"bad deal: {error}") from None


def apply_hand_event(state: HandState | None, event: StoredEvent) -> HandState:
    """The fold step for hand streams (an ``apply`` for :func:`tournament.eventstore.fold.fold`)."""
    if state is None:
        return start_hand(event)
    if event.type != HAND_ACTION:
        raise FoldError(
            event.stream_id, event.version, "stream",
            f"after the deal a hand stream holds {HAND_ACTION!r} events, not {event.type!r}",
        )  # fmt: skip
    try:
        return state.apply(Action.from_json(dict(event.payload)))
    except EngineError as error:
        raise FoldError(event.stream_id, event.version, error.rule, error.message) from None


def fold_hand(events: Iterable[StoredEvent]) -> HandState:
    """The hand's current state; an illegal action raises :class:`FoldError` naming
    the rule (``error.rule``, e.g. ``"R6"``) and the event's version."""
    state: HandState | None = None
    for event in events:
        state = apply_hand_event(state, event)
    if state is None:
        raise FoldError("", 0, "stream", "a hand stream needs at least its 'hand.dealt' event")
    return state


def load_hand(store: EventStore, stream_id: str) -> Loaded[HandState]:
    """The hand's state and version; :class:`FoldError` if the stream is empty or bad."""
    events = store.read_stream(stream_id)
    if not events:
        raise FoldError(stream_id, 0, "stream", "no such hand")
    return Loaded(fold_hand(events), events[-1].version)


def hand_record(events: Sequence[StoredEvent], **extra: Any) -> GameRecord:
    """A hand stream as the ``schnapsen-record/1`` it is: the deal, then each action
    (``extra``: the record's own further fields, such as the tournament and the match)."""
    dealt = events[0].payload
    return GameRecord.from_json(
        {
            "format": "schnapsen-record/1",
            "variants": list(dealt.get("variants", [])),
            "dealer": dealt["dealer"],
            "deck": list(dealt["deck"]),
            "actions": [dict(e.payload) for e in events[1:] if e.type == HAND_ACTION],
            **extra,
        }
    )

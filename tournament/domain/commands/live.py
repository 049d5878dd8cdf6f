"""Live hands: dealt and played action by action through the engine in ``hand-<uuid>``
streams; the engine's outcome becomes the hand's result in the match.

    stream, hand_events, events = deal_live_hand(t, "2.5", seed=7)
    store.append(stream, hand_events, NO_STREAM)          # hand.dealt
    store.append(tournament_stream, events, t.version)    # match.live_hand_started
    ... hand.action events appended to the hand stream as the players move ...
    events = record_live_hand(t, stream, store.read_stream(stream))

A hand is complete after a claim or after the last trick; the winner of the last trick
may still claim (R12a, R16), which replaces the provisional result: calling
:func:`record_live_hand` again gives the replacing event, or nothing if nothing changed.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

from engine.cards import ALL_CARDS
from tournament.domain.commands.registration import require_created
from tournament.domain.commands.results import find_match, new_id, no_live_hand, takes_results
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.model.hands import SALT_BYTES, dealt_event, fold_hand, new_hand_stream_id
from tournament.domain.model.matchstate import Entry
from tournament.domain.model.state import Tournament
from tournament.domain.model.text import plain_text
from tournament.eventstore.api import NewEvent, StoredEvent
from tournament.eventstore.errors import FoldError


def deal_live_hand(
    t: Tournament, match_id: str, *, seed: int | None = None, deck: Sequence[str] | None = None,
    actor: str | None = None,
) -> tuple[str, list[NewEvent], list[NewEvent]]:  # fmt: skip
    """Deal the match's next hand: the hand stream's id, its ``hand.dealt`` event (the
    deck in it), and the tournament's events. The deck is ``deck`` if given, else shuffled
    from ``seed`` (repeatable: tests, the CLI's ``--seed``), else by the operating
    system's secure generator."""
    settings = require_created(t)
    match = find_match(t, match_id)
    takes_results(t, match)
    if match.decided or match.dropped:
        raise ConflictError(
            "match", "R20", code="live.match_decided_hand_played", params={"match_id": match_id}
        )
    if match.first_dealer is None:
        raise ConflictError(
            "match", "R18", code="live.match_enter_who_deals", params={"match_id": match_id}
        )
    no_live_hand(t, match)
    dealer = match.engine.next_dealer
    assert dealer is not None
    if deck is None:
        cards = [str(card) for card in ALL_CARDS]
        (random.Random(seed) if seed is not None else secrets.SystemRandom()).shuffle(cards)
        deck = cards
    stream = new_hand_stream_id()
    meta = {"source": "live", "match_id": match_id} | ({"actor": actor} if actor else {})
    salt = secrets.token_hex(SALT_BYTES)
    hand = [dealt_event(deck, dealer, settings.variants, meta, salt=salt)]
    started = ev.make_event(
        ev.LIVE_HAND_STARTED,
        {"match_id": match_id, "hand_stream": stream, "dealer": match.players[dealer]},
        actor=actor,
        source="live",
    )
    return stream, hand, [started]


def live_match(t: Tournament, hand_stream: str) -> str:
    """The match of a live hand of this tournament, or a clear refusal naming it."""
    match_id = t.live_hands.get(hand_stream)
    if match_id is None:
        raise NotFoundError(
            "hand_stream",
            "T-live",
            code="live.there_live_hand_tournament",
            params={"hand_stream": repr(hand_stream), "id": t.id},
        )
    return match_id


def playable(t: Tournament, hand_stream: str) -> str:
    """The match of a live hand that may still take actions (not abandoned)."""
    match_id = live_match(t, hand_stream)
    if hand_stream in t.live_abandoned:
        raise ConflictError(
            "hand_stream",
            "T-live",
            code="live.live_hand_match_abandoned",
            params={"hand_stream": hand_stream, "match_id": match_id},
        )
    return match_id


#: The longest reason an organiser's decision keeps (the desk's field says so too).
REASON_LIMIT = 500


def who_and_why(by: str, reason: str | None, rule: str) -> tuple[str, str]:
    """Who decides (a name, at most NAME_LIMIT characters) and why (at most REASON_LIMIT),
    as stored: plain text, spaces tidied; refused naming the field and ``rule`` (a control
    character, or too long). Empty stays empty: the caller says which one it needs."""
    who = plain_text(by, "by", rule)
    why = "" if reason is None else plain_text(reason, "reason", rule, limit=REASON_LIMIT,
                                                 what="a reason")  # fmt: skip
    return who, why


def abandon_live_hand(
    t: Tournament, hand_stream: str, *, by: str, reason: str, actor: str | None = None
) -> list[NewEvent]:
    """Give up a live hand that is dealt and not over (a misdeal, players gone): it never
    counts, and the match's next hand is dealt by the same dealer again (R18)."""
    match_id = playable(t, hand_stream)
    if hand_stream in t.live_results:
        raise ConflictError(
            "hand_stream",
            "T-live",
            code="live.live_hand_already_recorded",
            params={"table": t.matches[match_id].table},
        )
    by, reason = who_and_why(by, reason, "T-live")
    if not by:
        raise DomainError("by", "T-live", code="live.abandoning_says_who")
    if not reason:
        raise DomainError("reason", "T-live", code="live.abandoning_says_why")
    payload = {"match_id": match_id, "hand_stream": hand_stream, "by": by}
    payload["reason"] = reason
    return [ev.make_event(ev.LIVE_HAND_ABANDONED, payload, actor=actor)]


def record_live_hand(
    t: Tournament, hand_stream: str, hand_events: Sequence[StoredEvent], *, actor: str | None = None
) -> list[NewEvent]:
    """The hand's result for its match once the engine says it is complete; [] while it is
    not, or when the recorded result already says the same."""
    match_id = playable(t, hand_stream)
    match = t.matches[match_id]
    try:
        state = fold_hand(hand_events)
    except FoldError as error:
        raise DomainError("hand", error.rule, str(error)) from None
    outcome = state.outcome()
    if not outcome.complete:
        return []
    assert outcome.winner is not None and outcome.game_points is not None
    fields: dict[str, Any] = {
        "winner": match.players[outcome.winner],
        "game_points": outcome.game_points,
        "dealer": match.players[state.dealer],
        "reason": outcome.reason,
        "card_points": list(outcome.points),
    }
    previous = t.live_results.get(hand_stream)
    if previous is not None:
        _, entry = t.entry(previous)
        assert entry.payload is not None
        if all(entry.payload.get(k) == v for k, v in fields.items()):
            return []
        payload = {**entry.payload, **fields}
        replaced = [
            Entry(e.result_id, e.kind, payload if e is entry else e.payload, e.struck)
            for e in match.entries
        ]
        trial = match.trial(replaced)
        if len(trial.problems) > len(match.problems):
            raise ConflictError(
                "hand", "R20", code="live.late_claim_would_leave", params={"match_id": match_id}
            )
    else:
        payload = {
            "result_id": new_id(),
            "match_id": match_id,
            "hand_stream": hand_stream,
            **fields,
        }
        match.check_new(Entry(payload["result_id"], "live", payload))
    return [ev.make_event(ev.LIVE_HAND_RECORDED, payload, actor=actor, source="live")]

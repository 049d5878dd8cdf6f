"""Folding streams: hands through the rules engine, and the generic machinery."""

from __future__ import annotations

import pytest

from engine.randomplay import random_records
from tournament.domain.model.hands import (
    action_event,
    dealt_event,
    fold_hand,
    load_hand,
    new_hand_stream_id,
)
from tournament.eventstore import FoldError, MalformedEventError, NewEvent, SQLEventStore
from tournament.eventstore.fold import fold, load_aggregate


def test_hand_streams_fold_to_the_engine_outcome(store: SQLEventStore) -> None:
    for record in random_records(seed=11, count=25, variants=()):
        stream = new_hand_stream_id()
        deck = [card.code for card in record.deck]
        store.append(stream, [dealt_event(deck, record.dealer, record.variants)], 0)
        version = 1
        for action in record.actions:  # one append per move, as live play does
            state, version = load_hand(store, stream)
            assert state.is_legal(action)
            store.append(stream, [action_event(action, {"source": "live"})], version)
        state, version = load_hand(store, stream)
        assert version == 1 + len(record.actions)
        assert state.outcome().to_json() == record.extra["outcome"]
        assert fold_hand(store.read_stream(stream)).outcome() == record.replay().outcome()


def test_illegal_action_in_a_stream_names_the_rule(store: SQLEventStore) -> None:
    record = next(random_records(seed=3, count=1))
    deck = [card.code for card in record.deck]
    stream = "hand-illegal"
    first = record.actions[0]
    wrong_seat = {"seat": 1 - first.seat, "action": "play", "card": deck[0]}
    store.append(stream, [dealt_event(deck, record.dealer), action_event(wrong_seat)], 0)
    with pytest.raises(FoldError) as info:
        load_hand(store, stream)
    assert info.value.stream_id == stream and info.value.version == 2
    assert info.value.rule.startswith("R")


def test_bad_hand_payloads_are_refused_at_append(store: SQLEventStore) -> None:
    deck = [card.code for card in next(random_records(seed=1, count=1)).deck]
    with pytest.raises(MalformedEventError, match=r"hand\.dealt"):
        store.append("hand-x", [dealt_event(deck[:19], 0)], 0)
    with pytest.raises(MalformedEventError, match="exactly the fields"):
        store.append("hand-x", [NewEvent("hand.dealt", {"deck": deck, "dealer": 0})], 0)
    with pytest.raises(MalformedEventError, match="R0"):
        store.append("hand-x", [action_event({"seat": 1, "action": "ply", "card": "AH"})], 0)
    assert store.read_all() == []


def test_a_hand_stream_starts_with_the_deal(store: SQLEventStore) -> None:
    store.append("hand-y", [action_event({"seat": 1, "action": "close"})], 0)
    with pytest.raises(FoldError, match=r"starts with 'hand\.dealt'"):
        load_hand(store, "hand-y")
    with pytest.raises(FoldError, match="no such hand"):
        load_hand(store, "hand-none")


def test_generic_fold_and_load_aggregate(store: SQLEventStore) -> None:
    store.append("m", [action_event({"seat": s, "action": "close"}) for s in (0, 1, 1)], 0)

    def tally(counts: tuple[int, int], event) -> tuple[int, int]:
        seat = event.payload["seat"]
        return (counts[0] + (seat == 0), counts[1] + (seat == 1))

    assert load_aggregate(store, "m", (0, 0), tally) == ((1, 2), 3)
    state, version = load_aggregate(store, "nothing", (0, 0), tally)
    assert (state, version) == ((0, 0), 0)
    assert fold(store.read_stream("m", 2), (0, 0), tally) == (0, 2)


def test_a_deal_s_salt_is_optional_and_only_ever_32_hex_digits(store: SQLEventStore) -> None:
    deck = [card.code for card in next(random_records(seed=2, count=1)).deck]
    store.append("hand-salted", [dealt_event(deck, 0, salt="0f" * 16)], 0)
    assert fold_hand(store.read_stream("hand-salted")).to_act is not None
    for bad in ("0F" * 16, "0f" * 15, 1234):
        with pytest.raises(MalformedEventError, match="salt"):
            payload = {"deck": deck, "dealer": 0, "variants": [], "salt": bad}
            store.append("hand-bad", [NewEvent("hand.dealt", payload)], 0)

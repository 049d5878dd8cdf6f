"""The contract of the EventStore interface, run alike on every way to a database: SQLite
through the sqlite3 module, SQLite through SQLAlchemy, PostgreSQL (tests/eventstore/conftest.py)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from tournament.eventstore import (
    NO_STREAM,
    ConcurrencyError,
    DuplicateEventError,
    EventRegistry,
    IdempotencyKeyReusedError,
    MalformedEventError,
    NewEvent,
    PayloadTooLargeError,
    SchemaVersionError,
    SQLEventStore,
    UnknownEventTypeError,
)
from tournament.eventstore.chain import GENESIS


def registry() -> EventRegistry:
    reg = EventRegistry()
    reg.register("test.happened", 1)
    reg.register("test.checked", 1, validate=_positive)
    return reg


def _positive(payload: object) -> None:
    if not isinstance(payload, dict) or not isinstance(payload.get("n"), int) or payload["n"] < 0:
        raise ValueError("'n' must be an int >= 0")


def ev(n: int = 0, **meta: object) -> NewEvent:
    return NewEvent("test.happened", {"n": n}, {"actor": "t", "source": "live", **meta})


@pytest.fixture
def es(open_store: Callable[..., SQLEventStore]) -> SQLEventStore:
    return open_store(registry=registry(), max_payload_bytes=2000)


class TestEventStoreContract:
    def test_append_and_read_back(self, es: SQLEventStore) -> None:
        new = [ev(1), ev(2, correlation_id="c-1")]
        stored = es.append("s-1", new, expected_version=NO_STREAM)
        assert [e.version for e in stored] == [1, 2]
        assert [e.position for e in stored] == [1, 2]
        read = es.read_stream("s-1")
        assert read == stored
        first = read[0]
        assert first.event_id == new[0].event_id
        assert first.type == "test.happened" and first.schema_version == 1
        assert first.payload == {"n": 1}
        assert first.metadata == {"actor": "t", "source": "live"}
        assert read[1].metadata["correlation_id"] == "c-1"
        assert first.recorded_at.tzinfo is not None
        assert abs((datetime.now(UTC) - first.recorded_at).total_seconds()) < 60
        assert first.prev_hash == GENESIS and read[1].prev_hash == first.hash
        assert es.stream_version("s-1") == 2
        assert es.stream_version("nope") == 0
        assert es.read_stream("nope") == []

    def test_versions_per_stream_positions_global(self, es: SQLEventStore) -> None:
        es.append("a", [ev(1)], NO_STREAM)
        es.append("b", [ev(2), ev(3)], NO_STREAM)
        es.append("a", [ev(4)], 1)
        log = es.read_all()
        assert [(e.stream_id, e.version, e.position) for e in log] == [
            ("a", 1, 1), ("b", 1, 2), ("b", 2, 3), ("a", 2, 4)
        ]  # fmt: skip
        assert [e.position for e in es.read_all(after_position=2)] == [3, 4]
        assert [e.position for e in es.read_all(after_position=1, limit=2)] == [2, 3]
        assert es.read_all(after_position=4) == []
        assert [e.version for e in es.read_stream("b", from_version=2)] == [2]
        assert [e.version for e in es.read_stream("a", 1, 1)] == [1]
        assert list(es.iter_all(batch_size=1)) == log

    def test_expected_version_conflict_stores_nothing(self, es: SQLEventStore) -> None:
        es.append("s", [ev(1)], NO_STREAM)
        with pytest.raises(ConcurrencyError) as info:
            es.append("s", [ev(2), ev(3)], NO_STREAM)
        assert (info.value.stream_id, info.value.expected, info.value.actual) == ("s", 0, 1)
        with pytest.raises(ConcurrencyError):
            es.append("s", [ev(2)], 5)
        with pytest.raises(ConcurrencyError):
            es.append("new", [ev(2)], 1)
        assert es.stream_version("s") == 1 and len(es.read_all()) == 1
        es.append("s", [ev(2)], None)  # no check
        assert es.stream_version("s") == 2

    def test_idempotency_key_returns_the_original(
        self, es: SQLEventStore, open_store: Callable[..., SQLEventStore]
    ) -> None:
        first = es.append("s", [ev(1), ev(2)], NO_STREAM, idempotency_key="k-1")
        again = es.append("s", [ev(1), ev(2)], NO_STREAM, idempotency_key="k-1")
        assert again == first
        assert len(es.read_all()) == 2
        # Survives a restart: a new store (new connections) knows the key.
        fresh = open_store(registry=es.registry)
        assert fresh.append("s", [ev(9)], 0, idempotency_key="k-1") == first
        with pytest.raises(IdempotencyKeyReusedError):
            es.append("other", [ev(1)], NO_STREAM, idempotency_key="k-1")
        assert len(es.read_all()) == 2

    def test_empty_append(self, es: SQLEventStore) -> None:
        assert es.append("s", [], NO_STREAM) == []
        with pytest.raises(ConcurrencyError):
            es.append("s", [], 3)
        assert es.read_all() == []

    def test_duplicate_event_id(self, es: SQLEventStore) -> None:
        event = ev(1)
        es.append("s", [event], NO_STREAM)
        with pytest.raises(DuplicateEventError):
            es.append("t", [event], NO_STREAM)
        with pytest.raises(MalformedEventError, match="same event id twice"):
            es.append("t", [ev(2), ev(3)][:1] * 2, NO_STREAM)
        assert len(es.read_all()) == 1

    @pytest.mark.parametrize(
        ("event", "error", "match"),
        [
            (NewEvent("test.nope", {}), UnknownEventTypeError, "event 1: unknown event type"),
            (NewEvent("test.happened", {"x": float("nan")}), MalformedEventError, "payload.x"),
            (NewEvent("test.happened", {"x": {1: 2}}), MalformedEventError, "JSON keys"),
            (NewEvent("test.happened", {"x": [object()]}), MalformedEventError, r"payload.x\[0\]"),
            (NewEvent("test.happened", [1, 2]), MalformedEventError, "JSON object"),  # type: ignore[arg-type]
            (NewEvent("test.happened", {}, {"source": "fax"}), MalformedEventError, "source"),
            (NewEvent("test.happened", {}, {"actor": 7}), MalformedEventError, "metadata.actor"),
            (NewEvent("test.happened", {}, schema_version=2), SchemaVersionError, "1..1"),
            (NewEvent("test.happened", {"x": "a" * 3000}), PayloadTooLargeError, "limit of 2000"),
            (NewEvent("test.checked", {"n": -1}), MalformedEventError, "'n' must be an int"),
            (NewEvent("test.happened", {}, event_id="e-1"), MalformedEventError, "uuid"),  # type: ignore[arg-type]
            ("not an event", MalformedEventError, "not a NewEvent"),
        ],
    )
    def test_bad_events_are_typed_errors_and_store_nothing(
        self, es: SQLEventStore, event: NewEvent, error: type[Exception], match: str
    ) -> None:
        with pytest.raises(error, match=match):
            es.append("s", [ev(0), event], NO_STREAM)
        assert es.read_all() == []

    @pytest.mark.parametrize(
        ("args", "match"),
        [
            (("", [], 0), "stream_id"),
            (("has space", [], 0), "stream_id"),
            (("x" * 201, [], 0), "stream_id"),
            (("s", [], -1), "expected_version"),
            (("s", [], True), "expected_version"),
            (("s", [], 0, ""), "idempotency_key"),
            (("s", NewEvent("test.happened", {}), 0), "list of NewEvent"),
        ],
    )
    def test_bad_arguments(self, es: SQLEventStore, args: tuple, match: str) -> None:
        with pytest.raises(MalformedEventError, match=match):
            es.append(*args)

    def test_tuples_and_unicode_round_trip(self, es: SQLEventStore) -> None:
        stored = es.append("s", [NewEvent("test.happened", {"deck": ("AH", "♥10"), "z": 1.5})], 0)
        assert stored[0].payload == {"deck": ["AH", "♥10"], "z": 1.5}
        assert es.read_stream("s")[0].payload == stored[0].payload

    def test_batch_is_atomic(self, es: SQLEventStore) -> None:
        stored = es.append("s", [ev(i) for i in range(100)], NO_STREAM)
        assert [e.version for e in stored] == list(range(1, 101))
        assert [e.position for e in es.read_all()] == list(range(1, 101))

    def test_event_ids_are_kept(self, es: SQLEventStore) -> None:
        event_id = uuid.uuid4()
        es.append("s", [NewEvent("test.happened", {}, event_id=event_id)], 0)
        assert es.read_stream("s")[0].event_id == event_id


class TestIdempotencyKeyRead:
    """``read_key``: what a key names, for a caller that must answer a repeat without
    deciding anything again (the web API's ``Idempotency-Key``)."""

    def test_a_used_key_names_its_stream_versions_and_events(self, es: SQLEventStore) -> None:
        es.append("s", [ev(0)], NO_STREAM)
        stored = es.append("s", [ev(1), ev(2)], 1, idempotency_key="sheet-7")
        record = es.read_key("sheet-7")
        assert record is not None
        assert (record.key, record.stream_id, record.first_version, record.last_version) == (
            "sheet-7", "s", 2, 3
        )  # fmt: skip
        assert record.events == stored
        assert record.recorded_at == stored[0].recorded_at

    def test_an_unused_key_names_nothing(self, es: SQLEventStore) -> None:
        es.append("s", [ev(0)], NO_STREAM, idempotency_key="other")
        assert es.read_key("never-used") is None
        with pytest.raises(MalformedEventError, match="idempotency_key"):
            es.read_key("")


class TestDecidedAppends:
    """``append_decided``: decide on the stream's newest events under its lock, then append."""

    def test_decide_gets_the_events_after_the_callers_version(self, es: SQLEventStore) -> None:
        es.append("s", [ev(1), ev(2)], NO_STREAM)
        seen: list[list[int]] = []

        def decide(since: list) -> list[NewEvent]:
            seen.append([e.version for e in since])
            return [ev(len(since))]

        done = es.append_decided("s", decide, after_version=1)
        assert seen == [[2]]
        assert not done.replayed
        assert [(e.version, e.payload["n"]) for e in done.events] == [(3, 1)]
        assert es.read_stream("s")[-1] == done.events[0]

    def test_a_used_key_returns_the_first_events_without_deciding(self, es: SQLEventStore) -> None:
        first = es.append_decided("s", lambda since: [ev(1)], idempotency_key="k")

        def never(since: list) -> list[NewEvent]:
            raise AssertionError("decided again")

        again = es.append_decided("s", never, after_version=1, idempotency_key="k")
        assert again.replayed and again.events == first.events
        assert len(es.read_all()) == 1
        with pytest.raises(IdempotencyKeyReusedError):
            es.append_decided("other", never, idempotency_key="k")

    def test_a_key_of_a_plain_append_is_honoured_too(self, es: SQLEventStore) -> None:
        stored = es.append("s", [ev(1)], NO_STREAM, idempotency_key="k")
        done = es.append_decided("s", lambda since: [ev(2)], idempotency_key="k")
        assert done.replayed and done.events == stored

    def test_a_refusing_decision_stores_nothing_and_frees_the_lock(self, es: SQLEventStore) -> None:
        class Refused(Exception):
            pass

        def refuse(since: list) -> list[NewEvent]:
            raise Refused

        with pytest.raises(Refused):
            es.append_decided("s", refuse, idempotency_key="k")
        assert es.read_all() == [] and es.read_key("k") is None
        es.append("s", [ev(1)], NO_STREAM)  # the lock was released
        assert es.stream_version("s") == 1

    def test_deciding_nothing_stores_nothing_not_even_the_key(self, es: SQLEventStore) -> None:
        assert es.append_decided("s", lambda since: [], idempotency_key="k").events == []
        assert es.read_key("k") is None
        assert es.append_decided("s", lambda since: [ev(1)], idempotency_key="k").events

    def test_a_version_the_stream_never_had_is_a_conflict(self, es: SQLEventStore) -> None:
        es.append("s", [ev(1)], NO_STREAM)
        with pytest.raises(ConcurrencyError) as info:
            es.append_decided("s", lambda since: [ev(2)], after_version=5)
        assert (info.value.expected, info.value.actual) == (5, 1)
        assert es.stream_version("s") == 1

    def test_bad_decided_events_are_typed_errors(self, es: SQLEventStore) -> None:
        with pytest.raises(UnknownEventTypeError):
            es.append_decided("s", lambda since: [NewEvent("test.nope", {})])
        with pytest.raises(MalformedEventError, match="after_version"):
            es.append_decided("s", lambda since: [], after_version=-1)
        with pytest.raises(MalformedEventError, match="stream_id"):
            es.append_decided("has space", lambda since: [])
        assert es.read_all() == []

    def test_a_decided_event_id_already_stored_is_a_typed_error(self, es: SQLEventStore) -> None:
        event = ev(1)
        es.append("s", [event], NO_STREAM)
        with pytest.raises(DuplicateEventError):
            es.append_decided("t", lambda since: [event], idempotency_key="k")
        assert len(es.read_all()) == 1 and es.read_key("k") is None
        # The refused append may have used up a position (PostgreSQL's sequence), never
        # more than one stored event's.
        assert es.append_decided("t", lambda since: [ev(2)]).events[0].position in (2, 3)
        assert [e.stream_id for e in es.read_all()] == ["s", "t"]

    def test_positions_and_chains_continue_as_for_plain_appends(self, es: SQLEventStore) -> None:
        es.append("a", [ev(1)], NO_STREAM)
        done = es.append_decided("b", lambda since: [ev(2), ev(3)])
        es.append("a", [ev(4)], 1)
        log = es.read_all()
        assert [(e.stream_id, e.position) for e in log] == [
            ("a", 1), ("b", 2), ("b", 3), ("a", 4)
        ]  # fmt: skip
        assert done.events == log[1:3]
        assert log[2].prev_hash == log[1].hash

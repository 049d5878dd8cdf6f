"""The SQL event store: :class:`SQLEventStore` implements :class:`EventStore`.

    >>> import tempfile, pathlib
    >>> from tournament.eventstore import NewEvent, SQLEventStore, NO_STREAM, migrate
    >>> import tournament.domain.model.hands  # registers the hand's event types
    >>> url = f"sqlite:///{tempfile.mkdtemp()}/doc.sqlite3"
    >>> migrate.upgrade(url)
    >>> store = SQLEventStore(url)
    >>> dealt = NewEvent("hand.dealt", {"deck": "QS AH TC KC QC JH KH TD AD AS TS JS JD KD "
    ...                  "QD JC KS QH TH AC".split(), "dealer": 0, "variants": []},
    ...                  {"actor": "anna", "source": "live"})
    >>> [e.version for e in store.append("hand-1", [dealt], expected_version=NO_STREAM)]
    [1]
    >>> store.append("hand-1", [dealt], expected_version=NO_STREAM)
    Traceback (most recent call last):
    ...
    tournament.eventstore.api.ConcurrencyError: stream 'hand-1' is at version 1, not the expected 0

Every append runs one algorithm on both databases: take the append lock (SQLite's write
lock; a PostgreSQL advisory transaction lock), read the stream head and the global head,
check the idempotency key and the expected version, chain the hashes, insert with
positions ``max + 1 ...``, commit. Because the lock is held until the commit is visible,
positions become visible in increasing order with no holes: a reader that has seen
position ``p`` has seen everything below it (see docs/event-store.md).

A writer that decides from the stream's newest state takes the stream's lock first and
decides inside it, so nobody appends between its read and its append:

    >>> def deal_once(since):  # the stream's events after after_version, read under the lock
    ...     return [] if since else [NewEvent(dealt.type, dealt.payload, dealt.metadata)]
    >>> store.append_decided("hand-2", deal_once).events[0].version
    1
    >>> store.append_decided("hand-2", deal_once).events  # dealt already: nothing to append
    []
"""

from __future__ import annotations

import dataclasses
import json
import json.scanner
import logging
import re
import threading
import uuid
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, cast

from tournament import db
from tournament.config import database_url
from tournament.eventstore.api import (
    ConcurrencyError,
    Decide,
    Decided,
    KeyRecord,
    NewEvent,
    StoredEvent,
)
from tournament.eventstore.backends import (
    Appended,
    Backend,
    Conflict,
    Prepared,
    Replay,
    Row,
    WriteTx,
    make_backend,
)
from tournament.eventstore.chain import canonical, to_json_value
from tournament.eventstore.errors import (
    IdempotencyKeyReusedError,
    MalformedEventError,
    PayloadTooLargeError,
    SchemaVersionError,
    UnknownEventTypeError,
)
from tournament.eventstore.registry import REGISTRY, EventRegistry
from tournament.eventstore.seals import Seal, SealKey, SealPolicy, load_key, seal
from tournament.eventstore.sqlite_backend import SQLiteBackend, text_time
from tournament.eventstore.sqlite_connections import SQLitePool

if TYPE_CHECKING:
    import sqlalchemy as sa

#: Stream ids: printable, no spaces, at most 200 characters (``hand-<uuid>``, ``match-7``).
STREAM_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:/@+=-]{0,199}$")
MAX_VERSION = 2**31 - 1
#: How long idempotency keys are kept by default (``tournament db expire-keys``).
KEY_RETENTION_DAYS = 30

# Reads spent most of their time decoding JSON (and, on SQLite, ids and times: see
# sqlite_backend.text_uuid, text_time). These helpers return and raise exactly what the
# general functions would, but skip work those do for inputs the store never writes.
_scan_once = json.scanner.make_scanner(cast(Any, json.JSONDecoder()))  # the C scanner


def _loads(text: str) -> Any:
    """``json.loads`` without its whitespace regex: canonical text has no whitespace.
    Anything else (whitespace, trailing data, invalid JSON) goes to json.loads itself."""
    try:
        value, end = _scan_once(text, 0)
    except StopIteration:
        return json.loads(text)  # raises the JSONDecodeError
    return value if end == len(text) else json.loads(text)


class SQLEventStore:
    """An :class:`~tournament.eventstore.api.EventStore` on SQLite or PostgreSQL.

    ``engine`` is a URL (default: ``DATABASE_URL``) or an engine from
    :func:`tournament.db.make_engine`. A plain SQLite URL (``sqlite:///PATH``) is opened
    through the ``sqlite3`` module, without SQLAlchemy (the command line's way: a third of
    its start-up); any other URL, and an engine, through SQLAlchemy's pool. Both give the
    same guarantees, errors and connection settings (the contract tests run both). The
    tables come from the migrations (``tournament db upgrade``).
    """

    def __init__(
        self,
        engine: sa.Engine | str | None = None,
        *,
        registry: EventRegistry = REGISTRY,
        max_payload_bytes: int = 64 * 1024,
        max_metadata_bytes: int = 8 * 1024,
        max_batch: int = 10_000,
        sealing: SealPolicy | None = None,
    ) -> None:
        self.registry = registry
        #: When appends seal the log (None: only when asked, :meth:`seal`).
        self.sealing = sealing
        self.max_payload_bytes = max_payload_bytes
        self.max_metadata_bytes = max_metadata_bytes
        self.max_batch = max_batch
        self._engine_lock = threading.Lock()
        #: Per thread, the transaction holding a stream's lock while ``decide`` runs: the
        #: stream reads ``decide`` makes (online play reads the hand's stream) go through
        #: its connection, never a second one from the pool (see :meth:`read_stream`).
        self._holding = threading.local()
        self._backend: Backend
        self._engine: sa.Engine | None
        if isinstance(engine, str | None):
            self._url = engine or database_url()
            self._given_engine = False
            path = db.sqlite_file(self._url)
            if path is not None:
                self._engine = None  # made only if a tool asks for it (.engine)
                self._backend = SQLiteBackend(SQLitePool(path))
                return
            self._engine = db.make_engine(self._url, kind="log")
        else:
            self._url = ""  # the engine's own (its password stays with it)
            self._given_engine = True
            self._engine = engine
        self._backend = make_backend(self._engine)

    @property
    def engine(self) -> sa.Engine:
        """A SQLAlchemy engine on the store's database, for the tools that need one
        (verify, export, projections); a store opened on a SQLite file through ``sqlite3``
        makes one the first time it is asked, and closes it with :meth:`close`."""
        with self._engine_lock:
            if self._engine is None:
                self._engine = db.make_engine(self._url, kind="log")
            return self._engine

    def close(self) -> None:
        """Close the connections the store opened itself: its own ``sqlite3`` connections
        and an engine it made from a URL (an engine it was given stays the caller's).
        Another program may then lock the file; the last connection to close checkpoints
        SQLite's write-ahead log into it."""
        self._backend.close()
        with self._engine_lock:
            if self._engine is not None and not self._given_engine:
                self._engine.dispose()

    def __repr__(self) -> str:
        if not self._given_engine and db.sqlite_file(self._url) is not None:
            return f"SQLEventStore({self._url!r})"  # a file: no password to hide
        return f"SQLEventStore({self.engine.url.render_as_string(hide_password=True)!r})"

    # --- writing ---------------------------------------------------------------------
    def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        expected_version: int | None,
        idempotency_key: str | None = None,
    ) -> list[StoredEvent]:
        """Append ``events`` atomically after ``expected_version`` (None: no check).

        Raises :class:`ConcurrencyError` if the stream moved, a
        :class:`MalformedEventError` / :class:`UnknownEventTypeError` /
        :class:`PayloadTooLargeError` for a bad event; nothing is stored then. A repeated
        ``idempotency_key`` returns what the first append stored.
        """
        _check_stream_id(stream_id)
        if expected_version is not None and (
            type(expected_version) is not int or expected_version < 0
        ):
            raise MalformedEventError(
                "expected_version", f"must be None or an int >= 0, not {expected_version!r}"
            )
        _check_key(idempotency_key)
        prepared = self._prepare_batch(events)
        now = datetime.now(UTC)
        result = self._backend.append(stream_id, prepared, expected_version, idempotency_key, now)
        if isinstance(result, Replay):
            return self._replayed(result, stream_id, idempotency_key)
        if isinstance(result, Conflict):
            raise ConcurrencyError(stream_id, expected_version, result.actual)
        self._after_append(result)
        return self._stored(stream_id, prepared, result)

    def append_decided(
        self,
        stream_id: str,
        decide: Decide,
        *,
        after_version: int = 0,
        idempotency_key: str | None = None,
    ) -> Decided:
        """Decide and append under ``stream_id``'s lock (docs/event-store.md, "Deciding
        under the stream's lock").

        Inside the lock: a used ``idempotency_key`` returns the events it stored the first
        time (``replayed``; ``decide`` is not called, since deciding again could refuse
        what was accepted then); otherwise ``decide(events)`` gets the stream's events
        after ``after_version`` and returns the events to append after them. The append
        still checks the expected version (a writer that appends without the lock loses
        with :class:`ConcurrencyError`) and stores the key, and the whole is committed
        at once. Anything ``decide`` raises propagates and nothing is stored.
        """
        _check_stream_id(stream_id)
        if type(after_version) is not int or after_version < 0:
            raise MalformedEventError(
                "after_version", f"must be an int >= 0, not {after_version!r}"
            )
        _check_key(idempotency_key)
        with self._backend.locked(stream_id) as tx:
            if idempotency_key is None:
                rows = tx.read_stream(stream_id, after_version + 1, MAX_VERSION)
            else:
                used, rows = tx.key_and_stream(
                    idempotency_key, stream_id, after_version + 1, MAX_VERSION
                )
                if used is not None:
                    replay = Replay(used.stream_id, used.first, used.last)
                    return Decided(self._replayed(replay, stream_id, idempotency_key, tx), True)
            since = self._decode(rows)
            self._holding.tx = tx
            try:
                decided = decide(since)
            finally:
                self._holding.tx = None
            prepared = self._prepare_batch(decided)
            if not prepared:
                return Decided([])
            expected = since[-1].version if since else after_version
            now = datetime.now(UTC)
            # Its outcome is read with the commit's (one round trip on PostgreSQL): a
            # replay or a conflict wrote nothing, so committing first changes nothing.
            outcome = tx.append_then(stream_id, prepared, expected, idempotency_key, now)
        result = outcome()
        if isinstance(result, Replay):  # used by a plain append in the meantime
            return Decided(self._replayed(result, stream_id, idempotency_key), True)
        if isinstance(result, Conflict):  # a plain append without the stream's lock
            raise ConcurrencyError(stream_id, expected, result.actual)
        self._after_append(result)
        return Decided(self._stored(stream_id, prepared, result))

    def _after_append(self, result: Appended) -> None:
        """Seal when the policy says so. The append is stored whatever happens here: a
        seal that fails is logged and made by a later append, never the append's error."""
        if self.sealing is None or not result.links:
            return
        try:
            self.sealing.after_append(self, result.links[-1][0])
        except Exception as error:  # whatever it is (see the docstring)
            logging.getLogger(__name__).warning("the log was not sealed: %s", error)

    def seal(self, reason: str, key: SealKey | None = None) -> Seal | None:
        """Seal every event not sealed yet (:mod:`.seals`); returns the latest seal (None:
        the log is empty). ``key``: else the sealing policy's, else :func:`.load_key`."""
        if key is None:
            key = self.sealing.key if self.sealing is not None else load_key()
        return seal(self, key, reason)

    def expire_keys(self, older_than: timedelta = timedelta(days=KEY_RETENTION_DAYS)) -> int:
        """Forget idempotency keys recorded more than ``older_than`` ago (at least a day:
        younger keys are kept whatever is asked, a retry may still come); returns how many.
        A request repeated with an expired key is decided again like a new one."""
        return self._backend.expire_keys(datetime.now(UTC) - older_than)

    def seals(self) -> list[Seal]:
        """Every seal, oldest first."""
        return self._backend.seals()

    def latest_seal(self) -> Seal | None:
        return self._backend.last_seal()

    def _prepare_batch(self, events: Sequence[NewEvent]) -> list[Prepared]:
        """Check every event of an append (before any lock is taken by ``append``)."""
        if isinstance(events, NewEvent) or not isinstance(events, Sequence):
            raise MalformedEventError("events", "must be a list of NewEvent")
        if len(events) > self.max_batch:
            raise MalformedEventError(
                "events", f"{len(events)} events in one append, more than {self.max_batch}"
            )
        prepared = [self._prepare(index, event) for index, event in enumerate(events)]
        ids = [p.event_id for p in prepared]
        if len(set(ids)) != len(ids):
            raise MalformedEventError("event_id", "the same event id twice in one append")
        return prepared

    def _replayed(
        self, result: Replay, stream_id: str, key: str | None, tx: WriteTx | None = None
    ) -> list[StoredEvent]:
        if result.stream_id != stream_id:
            raise IdempotencyKeyReusedError(key or "", result.stream_id, stream_id)
        if tx is not None:
            return self._decode(tx.read_stream(stream_id, result.first, result.last))
        return self.read_stream(stream_id, result.first, result.last)

    def _stored(
        self, stream_id: str, prepared: list[Prepared], result: Appended
    ) -> list[StoredEvent]:
        now = cast(datetime, result.at)  # None only when nothing was appended
        stored = [
            StoredEvent(
                p.event_id, stream_id, version, position, p.type, p.schema_version,
                p.payload, p.metadata, now, prev, digest,
            )
            for p, (position, version, prev, digest) in zip(prepared, result.links, strict=True)
        ]  # fmt: skip
        return [self._upcast(event) for event in stored]

    def _prepare(self, index: int, event: NewEvent) -> Prepared:
        if type(event) is not NewEvent and not isinstance(event, NewEvent):
            raise MalformedEventError("event", f"{type(event).__name__} is not a NewEvent", index)
        entry = self.registry._types.get(event.type)
        if entry is None:
            raise UnknownEventTypeError(str(event.type), index)
        version = event.schema_version
        if type(version) is not int or not 1 <= version <= entry.schema_version:
            raise SchemaVersionError(
                f"event {index}: {event.type} has schema versions 1..{entry.schema_version}, "
                f"not {version!r}"
            )
        if type(event.event_id) is not uuid.UUID and not isinstance(event.event_id, uuid.UUID):
            raise MalformedEventError("event_id", "must be a uuid.UUID", index)
        if type(event.payload) is not dict and not isinstance(event.payload, Mapping):
            raise MalformedEventError("payload", "must be a JSON object (a mapping)", index)
        if type(event.metadata) is not dict and not isinstance(event.metadata, Mapping):
            raise MalformedEventError("metadata", "must be a JSON object (a mapping)", index)
        payload = to_json_value(event.payload, "payload", index)
        metadata = to_json_value(event.metadata, "metadata", index)
        if metadata:
            _check_metadata(metadata, index)
        if entry.validate is not None and version == entry.schema_version:
            try:
                entry.validate(payload)
            except (ValueError, TypeError, KeyError) as error:
                where = f"payload ({event.type})"
                raise MalformedEventError(where, _message(error), index) from None
        payload_json = canonical(payload)
        metadata_json = canonical(metadata)
        # Checked on characters first: the UTF-8 size is at most 4 bytes per character.
        if len(payload_json) * 4 > self.max_payload_bytes:
            size = len(payload_json.encode())
            if size > self.max_payload_bytes:
                raise PayloadTooLargeError("payload", size, self.max_payload_bytes, index)
        if len(metadata_json) * 4 > self.max_metadata_bytes:
            size = len(metadata_json.encode())
            if size > self.max_metadata_bytes:
                raise PayloadTooLargeError("metadata", size, self.max_metadata_bytes, index)
        return Prepared(
            event.event_id, event.type, version, payload, metadata, payload_json, metadata_json
        )

    # --- reading ---------------------------------------------------------------------
    def read_stream(
        self, stream_id: str, from_version: int = 1, to_version: int | None = None
    ) -> list[StoredEvent]:
        """Events of ``stream_id`` from ``from_version`` to ``to_version`` (inclusive)."""
        hi = MAX_VERSION if to_version is None else to_version
        holding: WriteTx | None = getattr(self._holding, "tx", None)
        if holding is not None:
            # Inside append_decided's ``decide``: this thread holds a stream's lock on a
            # connection; waiting for a second one from the same pool could wait for
            # connections whose threads wait for that lock, until the pool's timeout.
            return self._decode(holding.read_stream(stream_id, from_version, hi))
        return self._decode(self._backend.read_stream(stream_id, from_version, hi))

    def read_stream_on(
        self, conn: sa.Connection, stream_id: str, from_version: int, to_version: int
    ) -> list[StoredEvent]:
        """:meth:`read_stream` through ``conn``, a connection of :attr:`engine` the caller
        holds (inside its transaction), not through a second one from the same pool: a
        caller that holds a lock on ``conn`` and waited for the pool could wait for
        connections held by threads that wait for its lock, until the pool's timeout
        (issue 22, the fifty threads' 503s)."""
        rows = conn.connection.driver_connection.execute(  # type: ignore[union-attr]
            self._backend.sql.read_stream, {"s": stream_id, "lo": from_version, "hi": to_version}
        ).fetchall()
        return self._decode(list(rows))

    def read_all(self, after_position: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """The global log after ``after_position``, in position order, at most ``limit``.

        Gap-safe: an event committed before this call is never skipped, and an event
        committed later always gets a position above every one returned here.
        """
        n = 2**62 if limit is None else limit
        return self._decode(self._backend.read_all(after_position, n))

    def iter_all(self, after_position: int = 0, batch_size: int = 1000) -> Iterator[StoredEvent]:
        """The global log page by page (constant memory), up to what is committed."""
        while True:
            page = self.read_all(after_position, batch_size)
            yield from page
            if len(page) < batch_size:
                return
            after_position = page[-1].position

    def iter_raw(self, after_position: int = 0, batch_size: int = 1000) -> Iterator[Row]:
        """Rows exactly as stored (no upcasting, payload as canonical text): for verify
        and export."""
        while True:
            page = self._backend.rows(self._backend.read_all(after_position, batch_size))
            yield from page
            if len(page) < batch_size:
                return
            after_position = page[-1][0]

    def stream_version(self, stream_id: str) -> int:
        """The stream's current version (0: it does not exist)."""
        return self._backend.stream_version(stream_id)

    def read_key(self, key: str) -> KeyRecord | None:
        """What idempotency ``key`` names: the stream, the versions it stored and those
        events (None: never used). The web API answers a repeated ``Idempotency-Key``
        from it without deciding anything again."""
        _check_key(key)
        found = self._backend.read_key(key)
        if found is None:
            return None
        used, rows = found
        at = used.recorded_at if self._backend.native else text_time(used.recorded_at)
        events = self._decode(rows)
        return KeyRecord(key, used.stream_id, used.first, used.last, at, events)

    def _decode(self, rows: list[tuple[Any, ...]]) -> list[StoredEvent]:
        """Driver rows to events, upcast. The hot loop of every read (reads must reach
        100,000 events/s): one pass, conversions inline, and the frozen dataclass filled
        through its ``__dict__`` (what its ``__init__`` does, at a third of the cost)."""
        types = self.registry._types
        upcast = self.registry.upcast
        new = object.__new__
        out = []
        if self._backend.native:
            for position, eid, sid, version, kind, sv, payload, meta, at, prev, digest in rows:
                data = _loads(payload)
                entry = types.get(kind)
                if entry is not None and sv < entry.schema_version:
                    sv, data = upcast(kind, sv, data)
                event = new(StoredEvent)
                event.__dict__.update(
                    event_id=eid, stream_id=sid, version=version, position=position,
                    type=kind, schema_version=sv, payload=data, metadata=_loads(meta),
                    recorded_at=at, prev_hash=prev, hash=digest,
                )  # fmt: skip
                out.append(event)
            return out
        # SQLite: the id and the time stay text until a reader asks for them
        # (StoredEvent.__getattr__ parses them then, as text_uuid and text_time).
        for position, eid, sid, version, kind, sv, payload, meta, at, prev, digest in rows:
            data = _loads(payload)
            entry = types.get(kind)
            if entry is not None and sv < entry.schema_version:
                sv, data = upcast(kind, sv, data)
            event = new(StoredEvent)
            event.__dict__.update(
                _text_event_id=eid, stream_id=sid, version=version, position=position,
                type=kind, schema_version=sv, payload=data, metadata=_loads(meta),
                _text_recorded_at=at, prev_hash=prev, hash=digest,
            )  # fmt: skip
            out.append(event)
        return out

    def _upcast(self, event: StoredEvent) -> StoredEvent:
        entry = self.registry._types.get(event.type)
        if entry is None or event.schema_version >= entry.schema_version:
            return event
        version, payload = self.registry.upcast(
            event.type, event.schema_version, dict(event.payload)
        )
        return dataclasses.replace(event, schema_version=version, payload=payload)


#: Metadata keys with a meaning, and the type each must have.
METADATA_KEYS: dict[str, type] = {"actor": str, "source": str, "correlation_id": str}
#: Sources of an event: a paper scoresheet, live play, an import of other data, the
#: service itself, the players reporting from their table (T-code).
SOURCES = ("paper", "live", "import", "system", "players")


def _check_metadata(metadata: dict[str, Any], index: int) -> None:
    for key, kind in METADATA_KEYS.items():
        if key in metadata and not isinstance(metadata[key], kind):
            raise MalformedEventError(f"metadata.{key}", f"must be a {kind.__name__}", index)
    source = metadata.get("source")
    if source is not None and source not in SOURCES:
        raise MalformedEventError(
            "metadata.source", f"{source!r} is not one of {', '.join(SOURCES)}", index
        )


def _check_key(key: object) -> None:
    if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= 200):
        raise MalformedEventError("idempotency_key", "must be a string of 1 to 200 characters")


def _check_stream_id(stream_id: object) -> None:
    if not isinstance(stream_id, str) or not STREAM_ID.match(stream_id):
        raise MalformedEventError(
            "stream_id",
            f"{stream_id!r} is not a stream id (letters, digits and ._:/@+=-, "
            "starting with a letter or digit, at most 200 characters)",
        )


def _message(error: Exception) -> str:
    message = getattr(error, "message", None)
    rule = getattr(error, "rule", None)
    if message and rule:
        return f"[{rule}] {message}"
    return str(error) or type(error).__name__

"""Reading the projections: a document as the workers (or this process) last wrote it,
and how fresh it is.

A read right after a write finds the projection a version or two behind: it waits for the
announcement of the log's version (at most ``PROJECTION_WAIT`` seconds, once per version,
and only while announcements arrive), so a client that posts a result and then asks for
the standings sees its result. Otherwise it answers what the projection holds and says
how stale that is (``projection.stale``, ``stale_since``: when the first event it lacks
was stored) -- with Redis away on a server, results are stored and the standings say so.
A tournament never projected yet (just created, or the service just upgraded) is worked
out here with the same code the projection runs.

A read needs the two versions (:class:`Lookups`). While the projection is fresh and
every write is announced to this process (:mod:`tournament.live.known`: its own writes,
and the other processes' on the Redis subscription while it stands; the in-process bus
only under ``tournament serve``, the one process), they are known without asking: no
query at all, a 304 included. Otherwise the database is asked for them only
(:class:`VersionProbe`: one indexed lookup, one round trip, no transaction) -- with
Redis away, under several processes without Redis, after a write, and at least once a
second (a writer that announces nothing, the command line). A document's body is read
only when the projection moved past the body this process holds (:class:`Documents`):
the standings of 200 players are 87 KB of JSON (trial 9, P1).
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections import OrderedDict
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from flask import Flask, current_app

from tournament.app.service import TournamentService
from tournament.app.services import KEY as SERVICES
from tournament.app.services import services
from tournament.domain.model import events as ev
from tournament.eventstore.schema import events
from tournament.live.known import KnownVersions
from tournament.projections import tables
from tournament.projections.documents import project_documents
from tournament.web.live import KEY as LIVE
from tournament.web.live import Live, live


@dataclasses.dataclass
class Reading:
    version: int  # what the document shows
    log_version: int
    body: dict[str, Any] | None  # None: the projection has no such document
    projected_at: datetime | None
    stale_since: datetime | None = None

    @property
    def stale(self) -> bool:
        return self.version < self.log_version

    @property
    def variant(self) -> str:
        """What the answer's ETag adds: a stale answer differs from the fresh one at the
        same projected version (it says so), so it has a tag of its own."""
        return f"-stale-{self.log_version}" if self.stale else ""

    def freshness(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "log_version": self.log_version,
            "stale": self.stale,
            "stale_since": _iso(self.stale_since),
            "projected_at": _iso(self.projected_at),
            # Never projected yet: worked out from the log here, with the same code.
            "source": "projection" if self.projected_at is not None else "log",
        }


#: The versions a read of this app has waited for, in ``app.extensions`` (keyed by the
#: app's ``id()`` they were not: a later app in the same process may get the id of one
#: that is gone, and its reads never waited for a version the other had).
WAITED = "schnapsen_projection_waited"
_waited_lock = threading.Lock()


def read_document(tid: str, name: str) -> Reading | None:
    """Document ``name`` of tournament ``tid`` (None: no such tournament). The body is
    shared by every reader of that version: read it, never change it."""
    live().listen()  # announcements arrive from now on (the subscription starts once)
    found = _read_known(tid, name)
    if found is None:
        return None
    if found.stale and _may_wait(tid, found.log_version):
        hub = live().hub
        deadline = time.monotonic() + float(current_app.config.get("PROJECTION_WAIT", 1.0))
        while found is not None and found.stale and time.monotonic() < deadline:
            # Woken by the announcement; or by the clock, to look (another process's
            # projection announces nothing here).
            hub.wait_for(tid, found.log_version, min(0.1, max(0.0, deadline - time.monotonic())))
            found = _read_known(tid, name)
        if found is None:
            return None
    if found.projected_at is None:
        return _worked_out_here(tid, name, found.log_version)
    if found.stale:
        found.stale_since = _recorded_at(tid, found.version + 1)
    return found


def _may_wait(tid: str, version: int) -> bool:
    """Wait for a version once (a stuck projection must not slow every read), and only
    while announcements arrive."""
    if live().hub.down_since is not None:
        return False
    key = (tid, version)
    with _waited_lock:
        waited: dict[tuple[str, int], None] = current_app.extensions.setdefault(WAITED, {})
        if key in waited:
            return False
        if len(waited) > 10_000:
            waited.clear()
        waited[key] = None
    return True


def _log_version(tid: str) -> sa.ScalarSelect[Any]:
    """The tournament's version in the log (NULL: no such tournament), as a subquery."""
    return (
        sa.select(sa.func.max(events.c.version))
        .where(events.c.stream_id == ev.stream_id(tid))
        .scalar_subquery()
    )


def versions(tid: str) -> tuple[int, int, bool] | None:
    """The projection's version, the log's, and whether a bracket is projected (None: no
    such tournament), in one query: what a live stream needs to know on connecting. A
    tournament not projected yet is at version 0."""
    t, d = tables.tournaments, tables.documents
    bracket = (
        sa.select(sa.func.count())
        .where(d.c.tournament_id == tid, d.c.name == "bracket")
        .scalar_subquery()
    )
    projected = sa.select(t.c.version).where(t.c.tournament_id == tid).scalar_subquery()
    with services().store.engine.connect() as conn:
        row = conn.execute(sa.select(projected, _log_version(tid), bracket)).first()
    if row is None or not row[1]:
        return None
    return int(row[0] or 0), int(row[1]), bool(row[2])


@dataclasses.dataclass(frozen=True)
class _Held:
    """A document's body as this process read it, at the projection's ``version``."""

    version: int
    body: dict[str, Any] | None
    projected_at: datetime


class Documents:
    """The projection's documents this process read last, by tournament and name: a
    body stays right for as long as the projection is at its version."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._held: OrderedDict[tuple[str, str], _Held] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, tid: str, name: str, version: int) -> _Held | None:
        with self._lock:
            held = self._held.get((tid, name))
            if held is None or held.version != version:
                return None
            self._held.move_to_end((tid, name))
            return held

    def keep(self, tid: str, name: str, held: _Held) -> None:
        with self._lock:
            before = self._held.get((tid, name))
            if before is not None and before.version > held.version:
                return  # a slower reader read an older version: keep the newer
            self._held[(tid, name)] = held
            self._held.move_to_end((tid, name))
            while len(self._held) > self.size:
                self._held.popitem(last=False)


class VersionProbe:
    """A tournament's projected version and its log's version in one indexed lookup.

    The statement is compiled once for the engine's dialect and sent on the pooled
    connection itself in autocommit: no ``BEGIN`` before it and no ``ROLLBACK`` after it
    (three round trips were one), and no SQLAlchemy compilation or cache key per
    request. A database error here is no answer (None): the caller reads the long way,
    whose errors are SQLAlchemy's as everywhere else.
    """

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        t = tables.tournaments
        statement = sa.select(
            sa.select(t.c.version)
            .where(t.c.tournament_id == sa.bindparam("tid"))
            .scalar_subquery(),
            sa.select(sa.func.max(events.c.version))
            .where(events.c.stream_id == sa.bindparam("stream"))
            .scalar_subquery(),
        )
        compiled = statement.compile(dialect=engine.dialect)
        self._compiled = compiled
        self.sql = str(compiled)
        self._order = compiled.positiontup if compiled.positional else None
        self._autocommit = engine.dialect.name == "postgresql"
        self._errors: type[BaseException] = engine.dialect.loaded_dbapi.Error

    def __call__(self, tid: str) -> tuple[int | None, int | None] | None:
        """(projected version or None, log version or None); None: not answered."""
        values = {"tid": tid, "stream": ev.stream_id(tid)}
        params: Any = (
            tuple(values[name] for name in self._order) if self._order is not None else values
        )
        try:
            connection = self.engine.raw_connection()
        except Exception:
            return None  # the long way says what is wrong, as SQLAlchemy's error
        try:
            dbapi = connection.driver_connection
            if self._autocommit:
                dbapi.autocommit = True  # type: ignore[union-attr]
            cursor = connection.cursor()
            try:
                cursor.execute(self.sql, params)
                row = cursor.fetchone()
            finally:
                cursor.close()
            if self._autocommit:
                dbapi.autocommit = False  # type: ignore[union-attr]
        except self._errors:
            connection.invalidate()  # whatever state it is in, it is not reused
            return None
        finally:
            connection.close()
        if row is None:
            return None
        projected, newest = row
        return (None if projected is None else int(projected)), (
            None if newest is None else int(newest)
        )


Versions = tuple[int | None, int | None] | None


class SharedProbes:
    """:class:`VersionProbe` shared by the requests that wait for it at the same time:
    a request takes the answer of a lookup that *began after it arrived* (so it sees
    every write committed before it arrived, as with a lookup of its own), and requests
    arriving while a lookup runs share the next one. Under load (16 threads of a worker
    asking for the same standings) one round trip answers many requests.
    """

    def __init__(self, probe: VersionProbe) -> None:
        self.probe = probe
        self._lock = threading.Lock()
        #: Per tournament: [lookups begun, lookups done, the last answer, its Condition].
        self._state: dict[str, list[Any]] = {}

    def __call__(self, tid: str) -> Versions:
        with self._lock:
            state = self._state.get(tid)
            if state is None:
                if len(self._state) > 1000:
                    self._state = {k: v for k, v in self._state.items() if v[4]}
                state = self._state[tid] = [0, 0, None, threading.Condition(self._lock), 0]
            began, _, _, changed, _ = state
            wanted = began + 1  # a lookup that begins from now on
            state[4] += 1  # waiting or asking
            try:
                while True:
                    if state[1] >= wanted:
                        answer: Versions = state[2]
                        return answer
                    if state[0] == state[1]:  # none running: this request asks
                        state[0] += 1
                        number = state[0]
                        break
                    changed.wait()
            finally:
                state[4] -= 1
        answer = None
        try:
            answer = self.probe(tid)
        finally:
            with self._lock:
                state[1], state[2] = number, answer
                changed.notify_all()
        return answer


class Lookups:
    """A tournament's versions: the fresh version this process knows to be current
    (:class:`~tournament.live.known.KnownVersions`: no lookup), or a lookup shared with
    the requests waiting for one (:class:`SharedProbes`), kept when it finds the
    projection fresh and nothing was written meanwhile."""

    def __init__(self, shared: SharedProbes, known: KnownVersions) -> None:
        self.shared = shared
        self.known = known

    def __call__(self, tid: str) -> Versions:
        version = self.known.get(tid)
        if version is not None:
            return version, version
        begun = self.known.begin()
        answer = self.shared(tid)
        if answer is not None and answer[0] is not None and answer[1] is not None:
            self.known.found(tid, begun, answer[0], answer[1])
        return answer


_made_lock = threading.Lock()


def _probe_and_documents(app: Flask | None = None) -> tuple[Lookups, Documents]:
    """The app's lookups and documents (each app its own: its own store)."""
    app = app or current_app
    found = app.extensions.get("schnapsen_documents")
    if found is None:
        with _made_lock:
            found = app.extensions.get("schnapsen_documents")
            if found is None:
                engine = app.extensions[SERVICES].store.engine
                known = app.extensions[LIVE].known
                found = (Lookups(SharedProbes(VersionProbe(engine)), known), Documents())
                app.extensions["schnapsen_documents"] = found
    return found


def held_fresh(app: Flask, tid: str, name: str) -> Reading | None:
    """What :func:`read_document` answers when that is a fresh projection whose body
    this process holds, with the same versions (known, or one lookup); None otherwise
    (the caller reads the long way, which waits, works out or says why as before). No
    request context needed: :mod:`tournament.web.standings_shortcut` answers before
    Flask's."""
    found_live: Live = app.extensions[LIVE]
    found_live.listen()  # as read_document does
    probe, documents = _probe_and_documents(app)
    versions = probe(tid)
    if versions is None:
        return None
    projected, newest = versions
    if projected is None or not newest:
        return None
    held = documents.get(tid, name, projected)
    if held is None or held.body is None:
        return None
    found = Reading(held.version, max(newest, held.version), held.body, held.projected_at)
    return None if found.stale else found


def _read_known(tid: str, name: str) -> Reading | None:
    """:func:`_read`, the body taken from this process's documents when the projection
    is still at the version it was read at (one cheap lookup instead of the body)."""
    probe, documents = _probe_and_documents()
    versions = probe(tid)
    if versions is None:
        return _read(tid, name)  # no answer: the long way says why
    projected, newest = versions
    if projected is None or not newest:
        return _read(tid, name)  # not projected yet, or no such tournament
    held = documents.get(tid, name, projected)
    if held is not None:
        return Reading(held.version, max(newest, held.version), held.body, held.projected_at)
    found = _read(tid, name)
    if found is not None and found.projected_at is not None:
        documents.keep(tid, name, _Held(found.version, found.body, found.projected_at))
    return found


def _read(tid: str, name: str) -> Reading | None:
    t, d = tables.tournaments, tables.documents
    log_version = _log_version(tid)
    query = (
        sa.select(t.c.version, t.c.projected_at, d.c.body, log_version.label("log_version"))
        .select_from(t)
        .outerjoin(d, sa.and_(d.c.tournament_id == t.c.tournament_id, d.c.name == name))
        .where(t.c.tournament_id == tid)
    )
    with services().store.engine.connect() as conn:
        row = conn.execute(query).first()
        if row is None:
            newest = conn.execute(sa.select(log_version)).scalar()
            if not newest:
                return None
            return Reading(0, int(newest), None, None)
    version, projected_at, body, newest = row
    return Reading(
        int(version),
        int(newest or 0),
        json.loads(body) if body is not None else None,
        projected_at,
    )


def _worked_out_here(tid: str, name: str, version: int) -> Reading:
    service: TournamentService = services().tournaments
    with service.reading():
        t = service.state(tid)
        projected = project_documents(tid, t, lambda: service.events(tid))
    body = projected.documents.get(name)
    return Reading(
        projected.version,
        max(version, projected.version),
        json.loads(body) if body is not None else None,
        None,
    )


def _recorded_at(tid: str, version: int) -> datetime | None:
    query = sa.select(events.c.recorded_at).where(
        events.c.stream_id == ev.stream_id(tid), events.c.version == version
    )
    with services().store.engine.connect() as conn:
        found = conn.execute(query).scalar()
    return found if isinstance(found, datetime) else None


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:  # SQLite gives UTC back without its zone
        from datetime import UTC

        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat().replace("+00:00", "Z")

"""Run a tournament's projection: fold what was appended since its checkpoint, rewrite its
rows and move the checkpoint, in one transaction; then announce the new version.

    projector = Projector(store, TournamentService(store), publish=bus.publish)
    projector.project("club-cup")      # -> Change(..., version=212, ...) or None: nothing new

A run first works out the rows from the folded state, without any lock (most of its
time), then its transaction takes the tournament's lock (PostgreSQL: an advisory
transaction lock on the tournament's name; SQLite: ``BEGIN IMMEDIATE``, the database's
one write lock), reads the
checkpoint again and writes only when its rows are newer than the stored ones. So a run
that was nudged after a commit always sees that commit (it folds after the nudge), and
two runs never write the same tournament's rows at once, nor an older version over a
newer one. Every run rewrites the tournament's rows whole, from the
folded state at the version it writes: a repeated or redelivered run (a worker killed
before its commit, a nudge sent twice) finds the checkpoint at the log's version and
changes nothing, and a run killed half-way left nothing behind (its transaction died
with it). The rows can never count an event twice.

A run writes only what changed (one hand of a 1,024-player field changes a document and
a row or two, not 3,000 rows): it compares its rows with the ones this projector wrote
last, and does so only when the stored header still says they are there (the same
version, the same ``projected_at``: no other process, no reconciliation's repair wrote
since). Otherwise it rewrites the tournament's rows whole, as a first run does. Either
way the stored rows are those of the folded state: only how many are written differs.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from tournament.app.service import TournamentService
from tournament.domain.model import events as ev
from tournament.domain.model.state import Tournament, collector_paused, fold
from tournament.eventstore.checkpoints import get_checkpoint, save_checkpoint
from tournament.eventstore.schema import checkpoints
from tournament.eventstore.schema import events as es_events
from tournament.eventstore.store import SQLEventStore
from tournament.live.change import Change, kinds_of
from tournament.projections import tables
from tournament.projections.documents import Memo, Projected, project_documents

log = logging.getLogger(__name__)

Publish = Callable[[Change], None]

#: Called by a run after it wrote its rows and checkpoint, before its commit, on the
#: connection of the run's transaction (a fault-injection seam: a test passes one that
#: pauses or raises there; see tests/live/paused_projections.py).
BeforeCommit = Callable[[sa.Connection], None]


def checkpoint_name(tournament_id: str) -> str:
    """The tournament's checkpoint in ``es_checkpoints``: the stream version projected."""
    return f"projection:{tournament_id}"


def lock_tournament(conn: sa.Connection, tournament_id: str) -> None:
    """Take the tournament's projection lock for the rest of the transaction."""
    if conn.dialect.name == "postgresql":
        conn.execute(
            sa.text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"),
            {"key": f"schnapsen-projection:{tournament_id}"},
        )
    # SQLite: the transaction began IMMEDIATE (the engine option below): it holds the
    # database's write lock already.


class Projector:
    """Projects tournaments of ``store``, folding with ``service`` (whose cached states
    make a run pay only for what is new), announcing each new version with ``publish``."""

    def __init__(
        self,
        store: SQLEventStore,
        service: TournamentService | None = None,
        publish: Publish | None = None,
        before_commit: BeforeCommit | None = None,
    ) -> None:
        self.store = store
        self.service = service or TournamentService(store)
        self.publish = publish
        self.before_commit = before_commit
        self._engine = store.engine.execution_options(sqlite_begin="IMMEDIATE")
        #: Per tournament, what this projector committed last (the rows a next run
        #: compares its own with, to write only what changed); the :attr:`KEEP` most
        #: recently projected only: a worker runs for months and projects every
        #: tournament of a federation, and a tournament forgotten is written whole once.
        self._written: OrderedDict[str, _Written] = OrderedDict()
        #: Per tournament, the rows' texts the last run encoded (reused when unchanged);
        #: as many tournaments as :attr:`_written`.
        self._memos: OrderedDict[str, Memo] = OrderedDict()
        self._kept = threading.Lock()

    #: Tournaments whose last rows and texts a projector keeps.
    KEEP = 64

    def _keep(self, kept: OrderedDict[str, Any], tournament_id: str, value: Any) -> None:
        """``value`` kept for ``tournament_id`` as the most recent, the oldest dropped past
        :attr:`KEEP`."""
        with self._kept:
            kept[tournament_id] = value
            kept.move_to_end(tournament_id)
            while len(kept) > self.KEEP:
                kept.popitem(last=False)

    def _memo(self, tournament_id: str) -> Memo:
        with self._kept:
            found = self._memos.get(tournament_id)
        if found is None:
            found = Memo()
        self._keep(self._memos, tournament_id, found)
        return found

    def project(self, tournament_id: str) -> Change | None:
        """Bring the tournament's projection up to its log; the change it announced, or
        None when there was nothing new (or no such tournament)."""
        stream = ev.stream_id(tournament_id)
        name = checkpoint_name(tournament_id)
        with self.store.engine.connect() as conn:
            start, head = _checkpoint_and_head(conn, name, stream)
        if head <= start:
            return None
        memo = self._memo(tournament_id)
        # The events since the memo's last projection: when they only entered results of
        # open matches, the run works out those matches' lines alone (a few ms, not the
        # whole field's ~0.3 s at 2,048 players). Read here, not under the folds' lock.
        last = memo.last
        recent = (
            self.store.read_stream(stream, last.version + 1, head)
            if last is not None and last.version < head
            else []
        )
        # The cyclic collector paused: a full collection during a run would walk every
        # tournament state this process keeps (two of 1,024 players: a third of a run).
        with collector_paused():
            # The rows are worked out before the lock (most of a run: ~100 ms for 400
            # players), so that the database's writers (SQLite has one at a time: every
            # move of every online table) wait only for the rows' writing.
            service = self.service
            with service.reading():
                t = service.state(tournament_id)
                last = memo.last  # (another thread's run may have moved it meanwhile)
                after = last.version if last is not None else t.version
                projected = project_documents(
                    tournament_id,
                    t,
                    lambda: service.events(tournament_id),
                    memo,
                    since=[e for e in recent if after < e.version <= t.version],
                )
                bracket = "bracket" in {*projected.documents}
            if projected.version <= start:
                return None
            with self._engine.begin() as conn:
                lock_tournament(conn, tournament_id)
                # Under the lock, the checkpoint again: another run may have written
                # meanwhile (a newer version: nothing to do; an older one: ours follows).
                start = get_checkpoint(conn, name)
                if projected.version <= start:
                    return None
                # On the connection holding the lock: never a second one from the pool.
                new = self.store.read_stream_on(conn, stream, start + 1, projected.version)
                written = self._write(conn, projected, start, event_at=new[-1].recorded_at)
                save_checkpoint(conn, name, start, projected.version)
                if self.before_commit is not None:
                    self.before_commit(conn)
            # Committed: the next run compares with these rows.
            self._keep(self._written, tournament_id, written)
        change = Change(
            tournament_id,
            projected.version,
            kinds_of((e.type for e in new), bracket=bracket),
            tuple(sorted({str(e.payload["match_id"]) for e in new if "match_id" in e.payload})),
            log_version=max(projected.version, self.store.stream_version(stream)),
        )
        if self.publish is not None:
            try:
                self.publish(change)
            except Exception as error:  # the rows are stored; only the push is lost
                log.warning(
                    "projection of %s at version %s not announced: %s",
                    change.tournament_id,
                    change.version,
                    error,
                )
        return change

    def _write(
        self, conn: sa.Connection, projected: Projected, start: int, *, event_at: datetime
    ) -> _Written:
        """Write ``projected`` over the rows at version ``start``: only what changed when
        the stored rows are the ones this projector wrote last, else all."""
        tid = projected.tournament_id
        now = datetime.now(UTC)
        with self._kept:
            last = self._written.pop(tid, None)
        if (
            last is None
            or last.projected.version != start
            or not _header_moved_on(conn, last, projected, event_at=event_at, now=now)
        ):
            write_rows(conn, projected, event_at=event_at, now=now)
        else:
            write_changes(conn, last.projected, projected)
        return _Written(projected, now)

    def rebuild(self, tournament_id: str, version: int | None = None) -> Projected | None:
        """The projection worked out from scratch (a fresh fold of the whole log, no cached
        state), at ``version`` (default: the version the stored rows are at); None: never
        projected."""
        if version is None:
            with self.store.engine.connect() as conn:
                version = get_checkpoint(conn, checkpoint_name(tournament_id))
        if not version:
            return None
        events = self.store.read_stream(ev.stream_id(tournament_id), 1, version)
        t: Tournament = fold(events)
        return project_documents(tournament_id, t, lambda: events)


def _checkpoint_and_head(conn: sa.Connection, name: str, stream: str) -> tuple[int, int]:
    """The checkpoint ``name`` and the version of ``stream``, in one round trip (a run
    with nothing new asks only this)."""
    found = conn.execute(
        sa.select(
            sa.select(checkpoints.c.position).where(checkpoints.c.name == name).scalar_subquery(),
            sa.select(sa.func.max(es_events.c.version))
            .where(es_events.c.stream_id == stream)
            .scalar_subquery(),
        )
    ).one()
    return int(found[0] or 0), int(found[1] or 0)


@dataclasses.dataclass(frozen=True)
class _Written:
    """Rows a projector committed, and the ``projected_at`` it stored with them."""

    projected: Projected
    projected_at: datetime


def _header_moved_on(
    conn: sa.Connection, last: _Written, new: Projected, *, event_at: datetime, now: datetime
) -> bool:
    """Move the tournament's header to ``new`` if it is still the one ``last`` wrote (its
    version and ``projected_at``: nobody else wrote since); whether it was. One statement:
    the check and the write in one round trip."""
    t = tables.tournaments
    moved = conn.execute(
        sa.update(t)
        .where(
            t.c.tournament_id == new.tournament_id,
            t.c.version == last.projected.version,
            t.c.projected_at == last.projected_at,
        )
        .values(**new.header, event_at=event_at, projected_at=now, reconciled_at=None)
    )
    return moved.rowcount == 1


def write_rows(
    conn: sa.Connection, projected: Projected, *, event_at: datetime, now: datetime | None = None
) -> None:
    """Replace the tournament's rows in every ``proj_`` table with ``projected``."""
    tid = projected.tournament_id
    for table in tables.ALL:
        conn.execute(sa.delete(table).where(table.c.tournament_id == tid))
    now = now or datetime.now(UTC)
    conn.execute(
        sa.insert(tables.tournaments).values(
            **projected.header, event_at=event_at, projected_at=now, reconciled_at=None
        )
    )
    conn.execute(
        sa.insert(tables.documents),
        [
            {
                "tournament_id": tid,
                "name": name,
                "version": projected.version,
                "media_type": "application/json",
                "body": body,
            }
            for name, body in projected.documents.items()
        ],
    )
    for table, rows in (
        (tables.standings, projected.standings),
        (tables.outstanding, projected.outstanding),
        (tables.players, projected.players),
    ):
        if rows:
            conn.execute(sa.insert(table), [{"tournament_id": tid, **row} for row in rows])


#: The keyed tables a run writes row by row: (table, Projected's attribute, key column).
_KEYED = (
    (tables.standings, "standings", "player_id"),
    (tables.outstanding, "outstanding", "match_id"),
    (tables.players, "players", "player_id"),
)

#: Keys per ``IN (...)``: under SQLite's oldest limit of bound variables (999).
_CHUNK = 500


def write_changes(conn: sa.Connection, old: Projected, new: Projected) -> None:
    """Turn the tournament's rows, which are ``old``'s, into ``new``'s: the documents and
    rows that differ, and nothing else (the header is moved by :func:`_header_moved_on`)."""
    tid = new.tournament_id
    docs = tables.documents
    gone = [name for name in old.documents if name not in new.documents]
    if gone:
        conn.execute(sa.delete(docs).where(docs.c.tournament_id == tid, docs.c.name.in_(gone)))
    # Every document is at the new version, changed or not (one statement, a few rows).
    conn.execute(sa.update(docs).where(docs.c.tournament_id == tid).values(version=new.version))
    changed = [
        {"b_tid": tid, "b_name": name, "body": body}
        for name, body in new.documents.items()
        if name in old.documents and old.documents[name] != body
    ]
    if changed:
        conn.execute(
            sa.update(docs)
            .where(
                docs.c.tournament_id == sa.bindparam("b_tid"), docs.c.name == sa.bindparam("b_name")
            )
            .values(body=sa.bindparam("body")),
            changed,
        )
    added = [
        {"tournament_id": tid, "name": name, "version": new.version,
         "media_type": "application/json", "body": body}
        for name, body in new.documents.items()
        if name not in old.documents
    ]  # fmt: skip
    if added:
        conn.execute(sa.insert(docs), added)
    for table, part, key in _KEYED:
        old_rows, new_rows = getattr(old, part), getattr(new, part)
        if old_rows is new_rows:  # a run that reused the last rows whole: none changed
            continue
        before = {row[key]: row for row in old_rows}
        after = {row[key]: row for row in new_rows}
        # The same dict (a row the memo reused) is equal without looking inside.
        stale = [k for k, row in before.items() if not _same(after.get(k), row)]
        fresh = [row for k, row in after.items() if not _same(before.get(k), row)]
        for at in range(0, len(stale), _CHUNK):
            conn.execute(
                sa.delete(table).where(
                    table.c.tournament_id == tid, table.c[key].in_(stale[at : at + _CHUNK])
                )
            )
        if fresh:
            conn.execute(sa.insert(table), [{"tournament_id": tid, **row} for row in fresh])


def _same(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    return a is b or a == b


def stored(conn: sa.Connection, tournament_id: str) -> dict[str, Any]:
    """The tournament's rows as stored, in :meth:`Projected.comparable`'s shape."""
    tid = tournament_id
    header = (
        conn.execute(sa.select(tables.tournaments).where(tables.tournaments.c.tournament_id == tid))
        .mappings()
        .first()
    )

    def rows(table: sa.Table, order: sa.ColumnElement[Any]) -> list[dict[str, Any]]:
        found = conn.execute(sa.select(table).where(table.c.tournament_id == tid).order_by(order))
        return [{k: v for k, v in r.items() if k != "tournament_id"} for r in found.mappings()]

    documents = conn.execute(
        sa.select(tables.documents.c.name, tables.documents.c.body).where(
            tables.documents.c.tournament_id == tid
        )
    )
    return {
        "header": {k: v for k, v in (header or {}).items() if not k.endswith("_at")},
        "documents": {name: body for name, body in documents},
        "standings": rows(tables.standings, tables.standings.c.place),
        # Sorted here as comparable() sorts them: the database's collation (en_US on
        # many servers) orders "10.1" before "1.9", and the reconciliation would call
        # that a difference -- an alarm every time, for nothing.
        "outstanding": sorted(
            rows(tables.outstanding, tables.outstanding.c.match_id),
            key=lambda r: str(r["match_id"]),
        ),
        "players": rows(tables.players, tables.players.c.player_id),
    }

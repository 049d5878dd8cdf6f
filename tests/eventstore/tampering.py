"""The tampering tests' club and their attacker (test_tampering*.py).

The club is trial 2's fixture (../shared/trials/2-reliability.md, F2), made through the
organiser's commands: Swiss tournament ``fz``, 8 players, round 1 drawn, a hand in 1.1 and
a tally in 1.2; then a second tournament's first events and more results of ``fz``, so
that the log interleaves two streams. Its log, position by position:

====  ===================  ========================================  ================
pos   stream, version      what                                      sealed by
====  ===================  ========================================  ================
1     tournament-fz 1      tournament.created                        seal @10
2-9   tournament-fz 2-9    player.registered (Anna … Hanna)          seal @10
10    tournament-fz 10     round.started (1.1 Anna v Emil, …)        seal @10
11    tournament-fz 11     hand 1.1: Anna (1) wins 2                 seal @12
12    tournament-fz 12     tally 1.2                                 seal @12
13    tournament-spring 1  tournament.created                        seal @17
14    tournament-spring 2  player.registered (Ida)                   seal @17
15    tournament-fz 13     hand 1.3: Carla (3) wins 1                seal @17
16    tournament-fz 14     hand 1.3: Gerd (7) wins 2                 seal @17
17    tournament-fz 15     hand 1.4 from ``sheet.csv`` (an           seal @17
                           idempotency key: the file's content)
====  ===================  ========================================  ================

:func:`Club.unsealed_tail` adds hands 18-20 (1.4) after the last seal.

The attacker (:meth:`Club.tamper`) writes rows behind the store's back as an insider with
the database's password would. On SQLite it drops every trigger with the ``sqlite3``
module and puts them back afterwards, exactly as they were, so the guards look untouched;
on PostgreSQL (the tests connect as the superuser ``postgres``) it sets
``session_replication_role = replica``, under which the triggers do not fire although they
stay enabled. Hashes it recomputes come from :func:`tournament.eventstore.chain.event_hash`,
as the trial's script did.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from click.testing import CliRunner, Result

from tests.conftest import TEST_SEAL_KEY
from tests.databases import Database
from tournament.cli import main
from tournament.cli.common import service_at
from tournament.eventstore import SQLEventStore
from tournament.eventstore.chain import GENESIS, canonical, event_hash, format_time
from tournament.eventstore.seals import Seal, SealKey
from tournament.eventstore.verify import VerifyReport, verify

#: The seal key of these tests (tests/conftest.py sets it for every test).
KEY = SealKey(bytes.fromhex(TEST_SEAL_KEY))
FZ, SPRING = "tournament-fz", "tournament-spring"
#: What each position of the club's log holds: (stream, version, type).
LAYOUT = {
    1: (FZ, 1, "tournament.created"),
    **{p: (FZ, p, "player.registered") for p in range(2, 10)},
    10: (FZ, 10, "round.started"),
    11: (FZ, 11, "result.hand_recorded"),
    12: (FZ, 12, "result.bummerl_tally_recorded"),
    13: (SPRING, 1, "tournament.created"),
    14: (SPRING, 2, "player.registered"),
    15: (FZ, 13, "result.hand_recorded"),
    16: (FZ, 14, "result.hand_recorded"),
    17: (FZ, 15, "result.hand_recorded"),
}
#: The positions the test's seals end at (the CLI may have sealed position 1 too).
SEALED_AT = (10, 12, 17)
SHEET = "match,winner,game_points\n1.4,4,3\n"


class Tamper:
    """One attacker's transaction: ``run`` a statement (``:name`` parameters; values go in
    parameters, never in the text), read ``rows``, recompute a stream's chain."""

    def __init__(self, execute: Callable[[str, dict[str, Any]], Any], sqlite: bool) -> None:
        self._execute = execute
        self.sqlite = sqlite  # SQLite keeps times as text

    def run(self, sql: str, **params: Any) -> None:
        self._execute(sql, params)

    def rows(self, sql: str, **params: Any) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self._execute(sql, params).fetchall()]

    def payload(self, position: int) -> dict[str, Any]:
        [(text,)] = self.rows("SELECT payload FROM es_events WHERE position = :p", p=position)
        return dict(json.loads(text))

    def set_payload(self, position: int, **changes: Any) -> None:
        payload = {**self.payload(position), **changes}
        self.run(
            "UPDATE es_events SET payload = :v WHERE position = :p",
            v=canonical(payload),
            p=position,
        )

    def rechain(self, stream_id: str) -> None:
        """Recompute ``prev_hash`` and ``hash`` of every event of the stream, in version
        order: what anyone who read docs/event-store.md can do."""
        prev = GENESIS
        for position, event_id, version, kind, sv, payload, metadata, at in self.rows(
            "SELECT position, event_id, version, type, schema_version, payload, metadata, "
            "recorded_at FROM es_events WHERE stream_id = :s ORDER BY version",
            s=stream_id,
        ):
            digest = event_hash(
                prev, stream_id, version, str(event_id), kind, sv, format_time(_time(at)),
                canonical(json.loads(metadata)), canonical(json.loads(payload)),
            )  # fmt: skip
            self.run(
                "UPDATE es_events SET prev_hash = :prev, hash = :h WHERE position = :p",
                prev=prev,
                h=digest,
                p=position,
            )
            prev = digest

    def move(self, position: int, to: int, version: int | None = None) -> None:
        """Give the event at ``position`` another position (and version)."""
        self.run(
            "UPDATE es_events SET position = :to, version = coalesce(:v, version) "
            "WHERE position = :p",
            to=to,
            v=version,
            p=position,
        )

    def renumber(self, after: int, by: int, stream_id: str) -> None:
        """Shift every position after ``after``, and the versions of ``stream_id``'s events
        among them, by ``by`` (through negative numbers: the keys are unique per row)."""
        self.run(
            "UPDATE es_events SET position = -position, "
            "version = CASE WHEN stream_id = :s THEN -version ELSE version END "
            "WHERE position > :a",
            s=stream_id,
            a=after,
        )
        self.run(
            "UPDATE es_events SET position = :by - position, "
            "version = CASE WHEN stream_id = :s THEN :by - version ELSE version END "
            "WHERE position < 0",
            s=stream_id,
            by=by,
        )

    def forge_hand(self, position: int, version: int, winner: int, points: int) -> None:
        """INSERT a hand of 1.3 in ``fz`` at ``position`` as version ``version``, its hash
        correct for the previous version's (the chain after it is not touched)."""
        [(prev,)] = self.rows(
            "SELECT hash FROM es_events WHERE stream_id = :s AND version = :v",
            s=FZ,
            v=version - 1,
        )
        event_id = str(uuid.uuid4())
        payload = canonical({"game_points": points, "match_id": "1.3",
                             "result_id": event_id[:12], "winner": winner})  # fmt: skip
        metadata = canonical({"actor": "organiser", "correlation_id": uuid.uuid4().hex,
                              "source": "paper"})  # fmt: skip
        at = datetime.now(UTC)
        digest = event_hash(
            prev, FZ, version, event_id, "result.hand_recorded", 1, format_time(at),
            metadata, payload,
        )  # fmt: skip
        self.run(
            "INSERT INTO es_events (position, event_id, stream_id, version, type, "
            "schema_version, payload, metadata, recorded_at, prev_hash, hash) VALUES "
            "(:p, :e, :s, :v, 'result.hand_recorded', 1, :pl, :md, :at, :prev, :h)",
            p=position, e=event_id, s=FZ, v=version, pl=payload, md=metadata,
            at=at.replace(tzinfo=None).isoformat(" ", "microseconds") if self.sqlite else at,
            prev=prev, h=digest,
        )  # fmt: skip


def _time(value: datetime | str) -> datetime:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def backdated(value: datetime | str, days: int = 1) -> datetime | str:
    """``recorded_at`` as stored, ``days`` earlier (SQLite keeps it as text)."""
    earlier = _time(value) - timedelta(days=days)
    return earlier.isoformat(" ", "microseconds") if isinstance(value, str) else earlier


# --- steps the attacker takes, for the tests' tables ---------------------------------


def edit_points(t: Tamper, position: int = 11) -> None:
    t.set_payload(position, game_points=3)


def backdate(t: Tamper, position: int = 11) -> None:
    [(at,)] = t.rows("SELECT recorded_at FROM es_events WHERE position = :p", p=position)
    t.run("UPDATE es_events SET recorded_at = :at WHERE position = :p",
          at=backdated(at), p=position)  # fmt: skip


def recomputed(*steps: Callable[[Tamper], None]) -> Callable[[Tamper], None]:
    """The steps, then the ``fz`` stream's hashes recomputed."""

    def tamper(t: Tamper) -> None:
        for step in steps:
            step(t)
        t.rechain(FZ)

    return tamper


def delete_from(position: int) -> Callable[[Tamper], None]:
    def tamper(t: Tamper) -> None:
        t.run("DELETE FROM es_events WHERE position >= :p", p=position)

    return tamper


@dataclasses.dataclass
class Club:
    """The club's store (see the module's docstring), its CLI, and the attacker."""

    db: Database
    runner: CliRunner
    home: Path  # SCHNAPSEN_INSTANCE, and sheet.csv

    @property
    def kind(self) -> str:
        return self.db.kind

    def cli(self, *args: str, ok: bool = True) -> Result:
        result = self.runner.invoke(main, list(args), catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    @contextmanager
    def store(self) -> Iterator[SQLEventStore]:
        """A store of its own on the club's database (the way the CLI opens it on SQLite)."""
        engine = self.db.engine() if self.db.kind == "postgresql" else None
        store = SQLEventStore(engine if engine is not None else self.db.url)
        try:
            yield store
        finally:
            store.close()
            if engine is not None:
                engine.dispose()

    def verify(self, key: SealKey | None = KEY) -> VerifyReport:
        with self.store() as store:
            _settle(store)
            return verify(store, key=key)

    def seal(self, reason: str) -> Seal:
        with self.store() as store:
            _settle(store)
            sealed = store.seal(reason, KEY)
        assert sealed is not None
        return sealed

    def seals(self) -> list[Seal]:
        with self.store() as store:
            return store.seals()

    def seal_at(self, position: int) -> Seal:
        [found] = [s for s in self.seals() if s.position == position]
        return found

    def seal_covering(self, position: int) -> Seal:
        return next(s for s in self.seals() if s.position >= position)

    def events(self, stream_id: str = FZ) -> list[Any]:
        with self.store() as store:
            return store.read_stream(stream_id)

    def unsealed_tail(self) -> None:
        """Hands 18-20 in 1.4, after the last seal: Hanna 1, Doris 1, Hanna 2."""
        for winner, points in ((8, 1), (4, 1), (8, 2)):
            self.cli("results", "enter", "1.4", "-t", "fz", "--winner", str(winner),
                     "--points", str(points))  # fmt: skip

    def new_process(self) -> None:
        """Forget what the commands run so far keep in this process (the service per
        store keeps its folded tournaments and pooled connections): the next command
        starts afresh, as a new process would."""
        service_at(self.db.url).store.dispose()  # type: ignore[attr-defined]
        service_at.cache_clear()

    @contextmanager
    def tamper(self, guards_down: bool = True) -> Iterator[Tamper]:
        """Write behind the store's back (see the module's docstring); with
        ``guards_down=False`` past no guard (an INSERT, which no trigger refuses)."""
        self.new_process()
        if self.db.kind == "sqlite":
            path = Path(self.db.url.removeprefix("sqlite:///"))
            with _sqlite_tamper(path, guards_down) as tamper:
                yield tamper
            return
        engine = self.db.engine()
        try:
            with engine.begin() as conn:
                if guards_down:
                    conn.exec_driver_sql("SET LOCAL session_replication_role = replica")
                yield Tamper(lambda sql, params: conn.execute(sa.text(sql), params), sqlite=False)
        finally:
            engine.dispose()


def _settle(store: SQLEventStore, timeout: float = 60.0) -> None:
    """Wait until the log reads to its last event. On PostgreSQL a reader stops before
    events of transactions younger than the oldest one still running anywhere on the
    server (postgres_backend), and the test server is shared: a long transaction of
    another test would make a seal or verify stop short of this test's last events."""
    sql = "SELECT max(position) FROM es_events"
    if store.engine.dialect.name == "postgresql":  # not a forged transaction id (tests)
        sql += " WHERE tx_id < pg_snapshot_xmax(pg_current_snapshot())::text::bigint"
    with store.engine.connect() as conn:
        last = conn.exec_driver_sql(sql).scalar() or 0
    deadline = time.monotonic() + timeout
    while last and store.read_all(last - 1) == [] and time.monotonic() < deadline:
        time.sleep(0.1)


@contextmanager
def _sqlite_tamper(path: Path, guards_down: bool) -> Iterator[Tamper]:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        saved = triggers.fetchall() if guards_down else []
        for name, _ in saved:
            conn.execute(f'DROP TRIGGER "{name}"')
        yield Tamper(conn.execute, sqlite=True)
        for _, sql in saved:  # put back as they were: `db check` finds nothing amiss
            conn.execute(sql)
        conn.execute("COMMIT")
    finally:
        conn.close()


def build_club(db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Club:
    """Trial 2's fixture and more (the module's docstring), through the organiser's
    commands, sealed at 10, 12 and 17."""
    monkeypatch.setenv("SCHNAPSEN_INSTANCE", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", db.url)
    monkeypatch.delenv("SCHNAPSEN_TOURNAMENT", raising=False)
    if db.schema:
        monkeypatch.setenv("PGOPTIONS", f"-csearch_path={db.schema}")
    club = Club(db, CliRunner(), tmp_path)
    service_at.cache_clear()  # a service another test left for the same URL (PostgreSQL)
    club.cli("create", "Fz", "--id", "fz", "--format", "swiss", "--seed", "1")
    for name in ("Anna", "Berti", "Carla", "Doris", "Emil", "Franz", "Gerd", "Hanna"):
        club.cli("players", "add", name)
    club.cli("round", "start")
    club.seal("round 1 drawn")
    club.cli("results", "enter", "1.1", "--winner", "1", "--points", "2")
    club.cli("results", "enter", "1.2", "--tally", "7 5 4 1 0 / 7 6 3")
    club.seal("trial 2's fixture")
    club.cli("create", "Spring", "--id", "spring", "--seed", "2")
    club.cli("players", "add", "Ida")
    club.cli("results", "enter", "1.3", "-t", "fz", "--winner", "3", "--points", "1")
    club.cli("results", "enter", "1.3", "-t", "fz", "--winner", "7", "--points", "2")
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(SHEET)
    club.cli("results", "import", "-t", "fz", str(sheet))
    club.seal("test")
    with club.store() as store:
        layout = {e.position: (e.stream_id, e.version, e.type) for e in store.read_all()}
    assert layout == LAYOUT
    assert {s.position for s in club.seals()} >= set(SEALED_AT), club.seals()
    report = club.verify()
    assert report.ok and not report.unchecked and report.unsealed == 0, report
    return club


@pytest.fixture(name="_seal_key", autouse=True)
def seal_key_fixture(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test key (as tests/conftest.py's fixture of that name); and no interval seals
    while a test runs (only the ones it makes)."""
    monkeypatch.setenv("SCHNAPSEN_SEAL_KEY", TEST_SEAL_KEY)
    monkeypatch.setenv("SCHNAPSEN_SEAL_EVERY_EVENTS", "1000000")
    monkeypatch.setenv("SCHNAPSEN_SEAL_EVERY_SECONDS", "86400")


@pytest.fixture(name="club", params=["sqlite", "postgresql"])
def club_fixture(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Club]:
    """The club (module docstring) on a SQLite file and on PostgreSQL."""
    db: Database = request.getfixturevalue("sqlite_db" if request.param == "sqlite" else "pg_db")
    club = build_club(db, tmp_path, monkeypatch)
    yield club
    club.new_process()

"""deploy/postgres-roles.sql: the app role reads the log and writes it only through the
store's functions, which number an append and take its time from the database server's
clock (issue 8, "The application role confined"; trial 2, F12)."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

import tournament.eventstore.store as store_module
from tests.conftest import REQUIRE_SERVICES
from tests.databases import Database
from tournament.cli import main
from tournament.db import make_engine
from tournament.eventstore import NewEvent, SQLEventStore, migrate
from tournament.eventstore.backup import export_store, import_store
from tournament.eventstore.checkpoints import get_checkpoint, run_projection
from tournament.eventstore.errors import StoreNotEmptyError
from tournament.eventstore.guards import owner_problem
from tournament.eventstore.seals import Seal
from tournament.eventstore.verify import verify

ROLES_SQL = Path(__file__).resolve().parents[2] / "deploy" / "postgres-roles.sql"
MOVED = {"seat": 1, "action": "close"}


@dataclasses.dataclass
class Confined:
    """A migrated store in a schema of its own, its owner and app roles set up by the
    script, and an engine for each role (and for the superuser the tests connect as)."""

    names: dict[str, str]
    owner: sa.Engine
    app: sa.Engine
    superuser: sa.Engine

    def store(self, role: str = "app") -> SQLEventStore:
        return SQLEventStore(getattr(self, role))


def apply_roles(postgres_url: str, names: dict[str, str]) -> None:
    url = sa.make_url(postgres_url)
    variables = [arg for key, value in names.items() for arg in ("-v", f"{key}={value}")]
    subprocess.run(
        ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", *variables, "-h", url.host or "127.0.0.1",
         "-p", str(url.port or 5432), "-U", url.username or "postgres", "-d", url.database or "",
         "-f", str(ROLES_SQL)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip


def engine_as(postgres_url: str, role: str, schema: str) -> sa.Engine:
    url = sa.make_url(postgres_url).set(username=role)
    return make_engine(url, connect_args={"options": f"-csearch_path={schema}"})


@contextlib.contextmanager
def confined_store(postgres_url: str) -> Iterator[Confined]:
    """Set up as docs/operations.md says: the script, the owner's migration, the script."""
    if shutil.which("psql") is None:
        message = "psql is not installed"
        pytest.fail(message) if REQUIRE_SERVICES else pytest.skip(message)
    tag = uuid.uuid4().hex[:10]
    names = {"owner": f"es_owner_{tag}", "app": f"es_app_{tag}", "schema": f"es_roles_{tag}"}
    admin = sa.create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {names['schema']}")
    engines: list[sa.Engine] = []
    try:
        apply_roles(postgres_url, names)  # before the first migration: roles, defaults
        engines = [
            engine_as(postgres_url, role, names["schema"])
            for role in (names["owner"], names["app"], sa.make_url(postgres_url).username)
        ]
        migrate.upgrade(engines[0])
        apply_roles(postgres_url, names)  # after it: grants on the tables now there
        yield Confined(names, *engines)
    finally:
        for engine in engines:
            engine.dispose()
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {names['schema']} CASCADE")
            for role in (names["app"], names["owner"]):
                exists = conn.exec_driver_sql(
                    "SELECT 1 FROM pg_roles WHERE rolname = %(r)s", {"r": role}
                ).scalar()
                if exists:
                    conn.exec_driver_sql(f"DROP OWNED BY {role}")
                    conn.exec_driver_sql(f"DROP ROLE {role}")
        admin.dispose()


@pytest.fixture(scope="module")
def confined(postgres_url: str) -> Iterator[Confined]:
    """One store for the tests that only add streams of their own or are refused."""
    with confined_store(postgres_url) as store:
        yield store


@pytest.fixture
def empty(postgres_url: str) -> Iterator[Confined]:
    """A store of the test's own, empty."""
    with confined_store(postgres_url) as store:
        yield store


def refused(engine: sa.Engine, statement: str) -> str:
    """The database's error for ``statement`` (it must fail); nothing it did is kept."""
    with pytest.raises(sa.exc.DBAPIError) as caught, engine.begin() as conn:
        conn.exec_driver_sql(statement)
    return str(caught.value.orig)


_ROW = {
    "es_events": "(position, event_id, stream_id, version, type, schema_version, payload, "
    "metadata, recorded_at, prev_hash, hash) VALUES (999, gen_random_uuid(), 'forged', 1, "
    "'sample.moved', 1, '{}', '{}', '2020-01-01', repeat('0', 64), repeat('1', 64))",
    "es_idempotency": "(key, stream_id, first_version, last_version, recorded_at) "
    "VALUES ('forged', 'forged', 1, 1, '2020-01-01')",
    "es_seals": "(seq, position, events, head, digests, sealed_at, reason, key_id, mac) "
    "VALUES (999, 1, 1, repeat('0', 64), '', '2020-01-01', 'forged', 'k', repeat('0', 64))",
}
_SET = {"es_events": "payload = '{}'", "es_idempotency": "last_version = 9", "es_seals": "seq = 9"}
_DIRECT_WRITES = {
    f"{verb}-{table}": statement
    for table in _ROW
    for verb, statement in {
        "insert": f"INSERT INTO {table} {_ROW[table]}",
        "update": f"UPDATE {table} SET {_SET[table]}",
        "delete": f"DELETE FROM {table}",
        "truncate": f"TRUNCATE {table}",
    }.items()
}


@pytest.mark.parametrize("statement", _DIRECT_WRITES.values(), ids=_DIRECT_WRITES.keys())
def test_the_app_role_may_not_write_the_event_tables_directly(
    confined: Confined, statement: str
) -> None:
    message = refused(confined.app, statement)
    assert message.startswith("permission denied for table es_")


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT nextval('es_events_position_seq')",
        "SELECT setval('es_events_position_seq', 1)",
    ],
)
def test_the_app_role_may_not_take_or_move_positions_itself(
    confined: Confined, statement: str
) -> None:
    """es_append() takes them as the owner: the app needs no right on the sequence."""
    assert refused(confined.app, statement).startswith(
        "permission denied for sequence es_events_position_seq"
    )


@pytest.mark.parametrize(
    ("statement", "error"),
    [
        ("SET session_replication_role = replica", "permission denied to set parameter"),
        ("ALTER TABLE es_events DISABLE TRIGGER ALL", "must be owner of table es_events"),
        ("DROP TRIGGER es_events_no_update_delete ON es_events", "must be owner of relation"),
        ("DROP FUNCTION es_reject_change() CASCADE", "must be owner of function"),
        ("CREATE TABLE sneaky (x int)", "permission denied for schema"),
    ],
)
def test_the_app_role_may_not_switch_the_guards_off(
    confined: Confined, statement: str, error: str
) -> None:
    assert refused(confined.app, statement).startswith(error)


def test_the_app_role_may_run_only_the_store_functions_meant_for_it(
    confined: Confined,
) -> None:
    """Functions are executable by PUBLIC unless revoked: the script revokes it, so no
    other role of the database can append."""
    with confined.superuser.connect() as conn:
        rows = conn.exec_driver_sql(
            "SELECT p.proname, has_function_privilege(%(app)s, p.oid, 'EXECUTE'), "
            "has_function_privilege('public', p.oid, 'EXECUTE') "
            "FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace",
            {"app": confined.names["app"]},
        ).all()
    assert sorted(name for name, app_may, _ in rows if app_may) == [
        "es_append", "es_append_lock", "es_append_one", "es_expire_keys", "es_restore_events",
        "es_restore_keys", "es_restore_seal", "es_seal",
    ]  # fmt: skip
    assert [name for name, _, public in rows if public] == []


def test_running_the_script_again_takes_back_what_earlier_versions_granted(
    empty: Confined, postgres_url: str
) -> None:
    """The script of before migration 0003 gave the app INSERT on every table, now and by
    default, and every role EXECUTE on new functions: a database set up with it is
    confined by running the new one once."""
    app, schema, owner = empty.names["app"], empty.names["schema"], empty.names["owner"]
    with empty.superuser.begin() as conn:
        conn.exec_driver_sql(f"GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA {schema} TO {app}")
        conn.exec_driver_sql(
            f"ALTER DEFAULT PRIVILEGES FOR ROLE {owner} IN SCHEMA {schema} "
            f"GRANT SELECT, INSERT ON TABLES TO {app}"
        )
        conn.exec_driver_sql(f"ALTER DEFAULT PRIVILEGES FOR ROLE {owner} GRANT EXECUTE ON "
                             "FUNCTIONS TO PUBLIC")  # fmt: skip
        conn.exec_driver_sql(f"GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA {schema} TO PUBLIC")
    assert verify(empty.store()).bypass != []
    apply_roles(postgres_url, empty.names)
    assert verify(empty.store()).bypass == []
    with empty.owner.begin() as conn:  # what a later migration makes
        conn.exec_driver_sql("CREATE TABLE later (x int)")
        conn.exec_driver_sql("CREATE FUNCTION es_later() RETURNS int LANGUAGE sql AS 'SELECT 1'")
    with empty.superuser.connect() as conn:
        may = conn.exec_driver_sql(
            "SELECT has_table_privilege(%(app)s, 'later', 'INSERT'), "
            "has_table_privilege(%(app)s, 'later', 'SELECT'), "
            "has_function_privilege('public', 'es_later()', 'EXECUTE')",
            {"app": app},
        ).one()
    assert tuple(may) == (False, True, False)


def test_an_append_with_a_time_of_the_callers_choosing_is_gone(confined: Confined) -> None:
    """The es_append() of migration 0002 took the time from the caller (F12); 0003
    dropped it, and the one left has no time parameter."""
    message = refused(
        confined.app,
        "SELECT * FROM es_append('forged', NULL, NULL, '2020-01-01'::timestamptz, "
        "'2020-01-01T00:00:00.000000Z', ARRAY[gen_random_uuid()], ARRAY['sample.moved'], "
        "ARRAY[1], ARRAY['{}'], ARRAY['{}'])",
    )
    assert message.startswith("function es_append(unknown, unknown, unknown, timestamp")
    assert "does not exist" in message
    with confined.app.connect() as conn:
        signatures = conn.exec_driver_sql(
            "SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.proname = 'es_append' "
            "AND p.pronamespace = current_schema()::regnamespace"
        ).scalars()
        assert list(signatures) == [
            "es_append(text,integer,text,uuid[],text[],integer[],text[],text[])"
        ]


def test_an_append_is_stamped_with_the_servers_clock_whatever_the_process_believes(
    confined: Confined, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process's clock (here: the store module's idea of now, set to 2020) goes
    nowhere: recorded_at is the server's clock_timestamp() during the append."""

    class StoppedIn2020(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> StoppedIn2020:
            return cls(2020, 1, 1, tzinfo=UTC)

    monkeypatch.setattr(store_module, "datetime", StoppedIn2020)
    store = confined.store()
    stream = f"clock-{uuid.uuid4().hex[:8]}"
    with confined.app.connect() as conn:
        before = conn.exec_driver_sql("SELECT clock_timestamp()").scalar_one()
        store.append(stream, [NewEvent("sample.moved", MOVED, {})], 0)
        store.append_decided(stream, lambda since: [NewEvent("sample.moved", MOVED, {})])
        after = conn.exec_driver_sql("SELECT clock_timestamp()").scalar_one()
    times = [e.recorded_at for e in store.read_stream(stream)]
    assert len(times) == 2
    assert all(before <= at <= after for at in times), (before, times, after)
    assert after - before < timedelta(seconds=2)


def test_a_seal_with_a_time_of_the_callers_choosing_is_refused(confined: Confined) -> None:
    store = confined.store()
    store.append(f"seal-{uuid.uuid4().hex[:8]}", [NewEvent("sample.moved", MOVED, {})], 0)
    last = store.latest_seal()
    message = refused(
        confined.app,
        f"SELECT es_seal({(last.seq if last else 0) + 1}, "
        f"{store.read_all()[-1].position}, 1, repeat('0', 64), '', '2020-01-01', 'forged', "
        "'k', repeat('0', 64))",
    )
    assert message.startswith("a seal's time must be the database server's clock")


def test_the_app_role_appends_reads_seals_expires_keys_and_moves_checkpoints(
    confined: Confined,
) -> None:
    store = confined.store()
    stream = f"work-{uuid.uuid4().hex[:8]}"
    store.append(stream, [NewEvent("sample.moved", MOVED, {})], 0, idempotency_key=stream)
    assert store.read_key(stream) is not None
    # Deciding under the stream's lock needs nothing more: an advisory lock, a read.
    moved = NewEvent("sample.moved", {"seat": 0, "action": "close"}, {"source": "live"})
    done = store.append_decided(
        stream, lambda since: [moved], after_version=1, idempotency_key=f"{stream}-d"
    )
    assert [e.version for e in done.events] == [2]
    assert [e.version for e in store.read_stream(stream)] == [1, 2]
    log = store.read_all()
    assert log[-1].stream_id == stream
    sealed = store.seal("test")
    assert sealed is not None and sealed.position == log[-1].position
    assert store.seals()[-1] == sealed
    assert store.expire_keys() == 0  # every key is younger than a day
    assert run_projection(store, f"p-{stream}", lambda conn, e: None) == len(log)
    with confined.app.connect() as conn:
        assert get_checkpoint(conn, f"p-{stream}") == log[-1].position


def test_verify_names_who_can_bypass_the_guards(confined: Confined) -> None:
    """The app's connection cannot get past them; the owner's and a superuser's can,
    and verify says so (the log itself is fine)."""
    names = confined.names
    app = verify(confined.store("app"))
    assert app.ok and app.bypass == []
    owner = verify(confined.store("owner"))
    assert owner.ok
    assert owner.bypass[0] == (
        f"{names['owner']} owns the event tables (as or through {names['owner']}): it can "
        "drop or disable the triggers"
    )
    assert any("may INSERT into es_events" in reason for reason in owner.bypass)
    superuser = verify(confined.store("superuser"))
    assert "is a superuser" in superuser.bypass[0]


def test_only_the_tables_owner_may_migrate(confined: Confined) -> None:
    """`db upgrade` as the app at head would change nothing and look like success (F12):
    owner_problem() says why it cannot, naming the owner."""
    owner = confined.names["owner"]
    with confined.app.connect() as conn:
        assert owner_problem(conn) == (
            f"{confined.names['app']} does not own the event tables ({owner} does) and "
            f"cannot migrate them: run `tournament db upgrade` as {owner}"
        )
    for engine in (confined.owner, confined.superuser):
        with engine.connect() as conn:
            assert owner_problem(conn) is None
    url = confined.app.url.render_as_string(hide_password=False)
    env = {"PGOPTIONS": f"-csearch_path={confined.names['schema']}"}
    refused = CliRunner().invoke(main, ["db", "upgrade", "--database-url", url], env=env)
    assert refused.exit_code == 1
    assert refused.output == (
        f"Error: {confined.names['app']} does not own the event tables ({owner} does) and "
        f"cannot migrate them: run `tournament db upgrade` as {owner}\n"
    )


def _backup(source: SQLEventStore, seal: bool = False) -> str:
    """``source`` (empty) given three events on two streams, two keys (and a seal); its
    export."""
    moves = [NewEvent("sample.moved", MOVED, {}) for _ in range(2)]
    source.append("a", moves, 0, idempotency_key="ka")
    source.append("b", [NewEvent("sample.moved", MOVED, {})], 0, idempotency_key="kb")
    if seal:
        source.seal("round 1")
    out = io.StringIO()
    export_store(source, out, progress=False)
    return out.getvalue()


def _rows(store: SQLEventStore) -> list[dict[str, Any]]:
    """The store's events as import hands them to the backend."""
    columns = ("p", "e", "s", "v", "t", "sv", "pl", "md", "ra", "ph", "h")
    return [dict(zip(columns, row, strict=True)) for row in store.iter_raw()]


def test_an_import_as_the_app_role_fills_an_empty_store_and_nothing_else(
    empty: Confined, sqlite_db: Database
) -> None:
    source = SQLEventStore(sqlite_db.url)
    backup = _backup(source)
    store = empty.store()
    assert import_store(store, io.StringIO(backup), progress=False) == 3
    assert [e.event_id for e in store.read_all()] == [e.event_id for e in source.read_all()]
    assert store.read_key("kb") is not None and verify(store).ok
    # Appends continue above the restored positions (the function moved the sequence).
    store.append("c", [NewEvent("sample.moved", MOVED, {})], 0)
    assert [e.position for e in store.read_all()] == [1, 2, 3, 4]

    # Past import's own check, the database refuses a restore into a store that is not
    # empty: no event, key or seal of another time slips into the live log that way.
    with pytest.raises(StoreNotEmptyError) as caught:
        import_store(store, io.StringIO(backup), progress=False)
    assert str(caught.value).startswith("import restores a whole store")
    forged = {**_rows(source)[0], "p": 99, "e": uuid.uuid4(), "s": "forged"}
    forged["ra"] = datetime(2020, 1, 1, tzinfo=UTC)
    key = {"k": "forged", "s": "c", "first": 1, "last": 1, "ra": forged["ra"]}
    seal = Seal(1, 4, 4, "0" * 64, "", forged["ra"], "forged", "k", "0" * 64)
    attempts = [
        lambda tx: tx.insert([forged], None),
        lambda tx: tx.insert([], key),
        lambda tx: tx.insert_seal(seal),
    ]
    for attempt in attempts:
        with pytest.raises(StoreNotEmptyError) as caught, store._backend.write() as tx:
            attempt(tx)
        assert str(caught.value) == (
            "a restore needs an empty event store: this one holds events, keys or seals "
            "that another transaction wrote; nothing was imported"
        )
    assert len(store.read_all()) == 4 and store.read_key("forged") is None
    assert [s.reason for s in store.seals()] == ["export"]  # the backup's own, no forged one


def test_a_restore_as_the_app_role_brings_back_the_seals_as_they_were_made(
    empty: Confined, sqlite_db: Database
) -> None:
    source = SQLEventStore(sqlite_db.url)
    _backup(source, seal=True)
    store = empty.store()
    with store._backend.write() as tx:
        tx.insert(_rows(source), None)
        for seal in source.seals():
            tx.insert_seal(seal)
    assert store.seals() == source.seals()
    report = verify(store)
    assert report.ok and report.seals == 1 and report.unsealed == 0

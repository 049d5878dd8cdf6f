"""Tamper evidence (verify), and export/import of the whole store as JSON Lines."""

from __future__ import annotations

import io
import json

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from tests.databases import Database
from tournament.cli import main
from tournament.eventstore import (
    ChainError,
    ImportFormatError,
    NewEvent,
    SQLEventStore,
    StoreNotEmptyError,
    migrate,
)
from tournament.eventstore.backup import export_store, import_store
from tournament.eventstore.verify import verify


def act(seat: int = 1) -> NewEvent:
    return NewEvent("sample.moved", {"seat": seat, "action": "close"}, {"source": "live"})


def fill(store: SQLEventStore) -> None:
    store.append("a", [act(), act(0), act()], 0, idempotency_key="first")
    store.append("b", [act(), act()], 0)
    store.append("a", [act()], 3)
    store.append("c", [NewEvent("sample.moved", {"seat": 0, "action": "claim"}, {"n": "ü"})], 0)


def behind_the_store(db: Database, *statements: str) -> None:
    """Drop the guard triggers and run ``statements``: what a tamperer with DB access does."""
    engine = db.engine()
    with engine.begin() as conn:
        if db.kind == "sqlite":
            for name in ("es_events_no_update", "es_events_no_delete"):
                conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {name}")
        else:
            conn.exec_driver_sql("DROP TRIGGER IF EXISTS es_events_no_update_delete ON es_events")
        for statement in statements:
            conn.exec_driver_sql(statement)
    engine.dispose()


def test_intact_store_verifies(db: Database, store: SQLEventStore) -> None:
    fill(store)
    report = verify(store)
    assert report.ok, report.broken
    assert (report.events, report.streams, report.head_position) == (7, 3, 7)
    assert report.head_hash == store.read_all()[-1].hash


def test_edited_payload_is_the_first_broken_link(db: Database, store: SQLEventStore) -> None:
    fill(store)
    behind_the_store(
        db,
        'UPDATE es_events SET payload = \'{"action":"close","seat":1}\' '
        "WHERE stream_id = 'a' AND version = 2",
    )
    report = verify(store)
    assert not report.ok
    [link] = report.broken
    assert (link.stream_id, link.version, link.position) == ("a", 2, 2)
    assert "content" in link.problem


def test_recomputed_hash_breaks_the_next_link(db: Database, store: SQLEventStore) -> None:
    fill(store)
    # A tamperer who also rewrites the hash is caught by the next event's prev_hash.
    # (Its first digit flipped: a fixed 'f' would be no change for one hash in 16.)
    behind_the_store(
        db,
        "UPDATE es_events SET hash = CASE WHEN substr(hash, 1, 1) = 'f' THEN 'e' ELSE 'f' END"
        " || substr(hash, 2) WHERE position = 1",
    )
    [link, *_] = verify(store).broken
    assert (link.stream_id, link.version) == ("a", 1)
    behind_the_store(db, "UPDATE es_events SET metadata = '{}' WHERE position = 4")
    links = {(b.stream_id, b.version) for b in verify(store).broken}
    assert ("b", 1) in links


def test_deleted_events_are_found(db: Database, store: SQLEventStore) -> None:
    fill(store)
    behind_the_store(db, "DELETE FROM es_events WHERE stream_id = 'a' AND version = 2")
    problems = [str(b) for b in verify(store).broken]
    assert any("stream 'a' version 3" in p and "missing" in p for p in problems)


def test_cli_verify_exit_codes(db: Database, store: SQLEventStore) -> None:
    fill(store)
    url = store.engine.url.render_as_string(False)
    env = {"PGOPTIONS": f"-csearch_path={db.schema}"} if db.schema else {}
    ok = CliRunner().invoke(main, ["verify", "--database-url", url], env=env)
    assert ok.exit_code == 0, ok.output
    assert "all chains verify" in ok.output
    behind_the_store(db, "UPDATE es_events SET type = 'sample.noted' WHERE position = 7")
    bad = CliRunner().invoke(main, ["verify", "--database-url", url], env=env)
    assert bad.exit_code == 1
    assert "BROKEN stream 'c' version 1 (position 7)" in bad.output


def _export(store: SQLEventStore) -> str:
    out = io.StringIO()
    export_store(store, out, progress=False)
    return out.getvalue()


def test_export_import_round_trip(db: Database, store: SQLEventStore, tmp_path) -> None:
    fill(store)
    text = _export(store)
    lines = text.splitlines()
    assert json.loads(lines[0])["events"] == 7
    assert len(lines) == 1 + 1 + 7 + 1 + 1  # header, the export's seal, events, a key, trailer
    target = SQLEventStore(f"sqlite:///{tmp_path / 'copy.sqlite3'}")
    from tournament.eventstore import migrate

    migrate.upgrade(target.engine)
    assert import_store(target, io.StringIO(text), progress=False) == 7
    assert target.read_all() == store.read_all()
    assert verify(target).ok
    assert _export(target).splitlines()[1:] == lines[1:]
    # the idempotency key came along: a repeat after the restore stores nothing
    assert target.append("a", [act()], 0, idempotency_key="first") == store.read_stream("a", 1, 3)
    with pytest.raises(StoreNotEmptyError):
        import_store(target, io.StringIO(text), progress=False)


def test_import_into_postgres(pg_db: Database, sqlite_db: Database) -> None:
    source = SQLEventStore(sqlite_db.url)
    fill(source)
    target = SQLEventStore(pg_db.engine())
    assert import_store(target, io.StringIO(_export(source)), progress=False) == 7
    assert target.read_all() == source.read_all()


@pytest.mark.parametrize(
    ("edit", "error", "match"),
    [
        # The chain's message, before what the change does to the seal over the event.
        (
            lambda e: e["payload"].update(seat=9),
            ChainError,
            "line 4: stream 'a' version 2 .*: hash does not",
        ),
        (lambda e: e.update(prev_hash="0" * 64), ChainError, "line 4: .* prev_hash"),
        (lambda e: e.update(version="2"), ImportFormatError, "'version' must be a int"),
        (lambda e: e.pop("hash"), ImportFormatError, "line 4: expected the fields"),
    ],
)
def test_import_refuses_a_tampered_file(
    sqlite_db: Database, tmp_path, edit, error: type[Exception], match: str
) -> None:
    source = SQLEventStore(sqlite_db.url)
    fill(source)
    lines = _export(source).splitlines()
    event = json.loads(lines[3])  # the second event: after the header, the seal, the first
    edit(event)
    lines[3] = json.dumps(event)
    target = SQLEventStore(f"sqlite:///{tmp_path / 't.sqlite3'}")
    from tournament.eventstore import migrate

    migrate.upgrade(target.engine)
    with pytest.raises(error, match=match):
        import_store(target, io.StringIO("\n".join(lines)), progress=False)
    assert target.read_all() == []  # nothing stored


def test_cli_export_import(sqlite_db: Database, tmp_path) -> None:
    fill(SQLEventStore(sqlite_db.url))
    backup = tmp_path / "club.jsonl"
    out = CliRunner().invoke(main, ["export", str(backup), "--database-url", sqlite_db.url])
    assert out.exit_code == 0, out.output
    copy = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    up = CliRunner().invoke(main, ["db", "upgrade", "--database-url", copy])
    assert up.exit_code == 0 and f"revision {migrate.migrations_head()}" in up.output
    done = CliRunner().invoke(main, ["import", str(backup)], env={"DATABASE_URL": copy})
    assert done.exit_code == 0, done.output
    assert "imported 7 events" in done.output
    again = CliRunner().invoke(main, ["import", str(backup)], env={"DATABASE_URL": copy})
    assert again.exit_code == 1 and "empty" in again.output
    with sa.create_engine(copy).connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM es_events").scalar() == 7


def test_cli_on_an_unmigrated_database(tmp_path) -> None:
    path = tmp_path / "empty.sqlite3"
    path.touch()  # a database with no tables: the one case that is "not migrated"
    url = f"sqlite:///{path}"
    result = CliRunner().invoke(main, ["verify", "--database-url", url])
    assert result.exit_code == 1
    assert "not migrated yet: run `tournament db upgrade`" in result.output
    assert CliRunner().invoke(main, ["db", "current", "--database-url", url]).output == (
        "not migrated\n"
    )
    check = CliRunner().invoke(main, ["db", "upgrade", "--database-url", url])
    assert check.exit_code == 0
    assert CliRunner().invoke(main, ["db", "check", "--database-url", url]).output == (
        "no drift; append-only guards in place\n"
    )


@pytest.mark.parametrize(
    "command", [["verify"], ["export", "-"], ["db", "current"], ["db", "check"]]
)
def test_a_read_only_store_command_on_a_missing_file_says_there_is_no_store(
    tmp_path, command: list[str]
) -> None:
    path = tmp_path / "typo" / "club.sqlite3"
    result = CliRunner().invoke(main, [*command, "--database-url", f"sqlite:///{path}"])
    assert result.exit_code == 1
    assert f"Error: there is no tournament store at {path}: no such file" in result.output
    assert not path.parent.exists()  # neither the file nor its folder was created

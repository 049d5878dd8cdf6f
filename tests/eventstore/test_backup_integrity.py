"""A truncated or edited backup is refused, nothing imported (trial 2, F3; trial 1, #4);
older backups (format 2 without seals, format 1 without a trailer) still restore; a killed
export leaves no hidden debris (F16); import into a new SQLite file sets it up first
(trial 3)."""

from __future__ import annotations

import fcntl
import io
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.databases import Database
from tests.eventstore.test_verify_backup import act, fill
from tournament.cli import main
from tournament.eventstore import ImportFormatError, SQLEventStore, migrate
from tournament.eventstore.backup import (
    FORMAT,
    OLDER_FORMAT,
    UNSEALED_FORMAT,
    export_store,
    import_store,
)
from tournament.eventstore.backup_file import SUFFIX
from tournament.eventstore.backup_lines import parse_time
from tournament.eventstore.seals import Seal
from tournament.eventstore.verify import verify


def exported(store: SQLEventStore) -> list[str]:
    out = io.StringIO()
    export_store(store, out, progress=False)
    return out.getvalue().splitlines()


@pytest.fixture
def lines(sqlite_db: Database) -> list[str]:
    """An export of 7 events in 3 streams with one idempotency key, sealed by the export:
    header, 1 seal, 7 events, the key, the trailer (11 lines)."""
    store = SQLEventStore(sqlite_db.url)
    fill(store)
    return exported(store)


def refused(target: SQLEventStore, lines: list[str], match: str) -> None:
    with pytest.raises(ImportFormatError, match=match):
        import_store(target, lines, progress=False)
    assert target.read_all() == [] and target.read_key("first") is None  # nothing stored


def test_the_export_ends_with_a_trailer_saying_what_it_holds(lines: list[str]) -> None:
    header, trailer = json.loads(lines[0]), json.loads(lines[-1])
    seal, last_event = json.loads(lines[1]), json.loads(lines[8])
    assert header["format"] == FORMAT and header["events"] == 7
    assert trailer == {
        "trailer": FORMAT, "events": 7, "idempotency_keys": 1, "seals": 1,
        "head_position": 7, "head_hash": last_event["hash"],
        "seal": Seal.from_record(seal, parse_time(seal["sealed_at"], 2)).short,
    }  # fmt: skip


@pytest.mark.parametrize("kept", range(1, 9))
def test_a_backup_cut_among_its_events_is_refused_naming_both_counts(
    lines: list[str], target: SQLEventStore, kept: int
) -> None:
    # The header, the seal and the events that survived the cut: the count is told
    # before what the cut does to the seal.
    events = max(kept - 2, 0)
    refused(
        target,
        lines[:kept],
        rf"^header says 7 events, file holds {events}: the backup is incomplete; "
        "nothing imported$",
    )


@pytest.mark.parametrize("kept", [9, 10])
def test_a_backup_cut_after_its_events_is_refused_for_the_missing_trailer(
    lines: list[str], target: SQLEventStore, kept: int
) -> None:
    refused(
        target,
        lines[:kept],
        rf"^the file ends at line {kept} without its trailer line: the backup is "
        "incomplete; nothing imported$",
    )


def test_the_cli_says_the_backup_is_incomplete_in_one_line(
    sqlite_db: Database, lines: list[str], tmp_path: Path
) -> None:
    cut = tmp_path / "cut200.jsonl"
    cut.write_text("\n".join(lines[:4]) + "\n")  # the header, the seal, 2 events
    url = f"sqlite:///{tmp_path / 'trunc.sqlite3'}"
    result = CliRunner().invoke(main, ["import", str(cut), "--database-url", url])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {cut}: header says 7 events, file holds 2: the backup is incomplete; "
        "nothing imported\n"
    )
    assert not (tmp_path / "trunc.sqlite3").exists()  # the new file went again


def edited(lines: list[str], index: int, **changes: object) -> list[str]:
    """The lines with the JSON object at ``index`` changed."""
    index %= len(lines)
    data = json.loads(lines[index])
    data.update(changes)
    return [*lines[:index], json.dumps(data), *lines[index + 1 :]]


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda x: edited(x, 0, events=8), "header says 8 events, file holds 7"),
        (lambda x: edited(x, 0, events=6), "header says 6 events, file holds 7: .* changed"),
        (lambda x: edited(x, 0, events="7"), "line 1: the header does not say how many"),
        (lambda x: edited(x, -1, events=6), "line 11: the trailer says events 6, .* holds 7"),
        (lambda x: edited(x, -1, idempotency_keys=2), "trailer says idempotency_keys 2"),
        (lambda x: edited(x, -1, head_position=6), "trailer says head_position 6"),
        (lambda x: edited(x, -1, head_hash="0" * 64), "trailer says head_hash"),
        (lambda x: edited(x, -1, seals=2), "trailer says seals 2, the file holds 1"),
        (lambda x: edited(x, -1, seal="#1 @7 0000-0000"), "trailer says seal '#1 @7 0000-0000'"),
        (lambda x: [x[0], *x[2:]], "trailer says seals 1, the file holds 0"),
        (lambda x: edited(x, -1, events=True), "trailer says events True"),
        (lambda x: edited(x, -1, signed_by="me"), r"unknown fields \['signed_by'\]"),
        (lambda x: [*x, x[2]], "line 12: a line after the trailer"),
        (lambda x: [*x[:9], *x[10:]], "trailer says idempotency_keys 1, the file holds 0"),
    ],
)
def test_an_edited_count_or_trailer_is_refused(
    lines: list[str], target: SQLEventStore, edit: object, match: str
) -> None:
    refused(target, edit(lines), match)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"stream_id": "tournament.created"}, "names stream 'tournament.created', which has no"),
        ({"stream_id": "b"}, r"names versions 1\.\.3 of stream 'b', which has versions 1\.\.2"),
        ({"last_version": 5}, r"names versions 1\.\.5 of stream 'a', which has versions 1\.\.4"),
        ({"first_version": 4, "last_version": 2}, r"names versions 4\.\.2 of stream 'a'"),
    ],
)
def test_an_idempotency_key_must_name_events_the_file_holds(
    lines: list[str], target: SQLEventStore, changes: dict[str, object], match: str
) -> None:
    refused(target, edited(lines, 9, **changes), rf"line 10: idempotency key 'first' {match}")


def test_an_idempotency_key_twice_is_refused(lines: list[str], target: SQLEventStore) -> None:
    doubled = [*lines[:10], lines[9], edited(lines, -1, idempotency_keys=2)[-1]]
    refused(target, doubled, "line 11: idempotency key 'first' appears twice")


def _without_seals(lines: list[str]) -> list[str]:
    """The header, events and keys of an export (its seal lines and trailer left out)."""
    return [line for line in lines[1:-1] if "seal" not in json.loads(line)]


def _older(lines: list[str], events: int | None = 7) -> list[str]:
    """The export as the exporter before the trailer (and the seals) wrote it."""
    header = {"format": OLDER_FORMAT, "events": events, "exported_at": "2026-10-01T20:00:00Z"}
    return [json.dumps(header), *_without_seals(lines)]


def _unsealed(lines: list[str]) -> list[str]:
    """The export as the exporter before the seals wrote it (format 2)."""
    header = {**json.loads(lines[0]), "format": UNSEALED_FORMAT}
    trailer = {**json.loads(lines[-1]), "trailer": UNSEALED_FORMAT}
    del trailer["seals"], trailer["seal"]
    return [json.dumps(header), *_without_seals(lines), json.dumps(trailer)]


def test_a_backup_from_before_the_seals_still_restores_without_seals(
    lines: list[str], target: SQLEventStore
) -> None:
    notes: list[str] = []
    assert import_store(target, _unsealed(lines), progress=False, notes=notes) == 7
    assert notes == [] and target.seals() == []
    assert verify(target).ok and target.read_key("first") is not None


def test_a_backup_from_before_the_seals_is_still_checked_for_completeness(
    lines: list[str], target: SQLEventStore
) -> None:
    unsealed = _unsealed(lines)
    refused(target, unsealed[:4], "header says 7 events, file holds 3: the backup is")
    refused(target, unsealed[:-1], "ends at line 9 without its trailer line")
    refused(target, [*unsealed[:-1], lines[-1]], "the trailer says trailer 'schnapsen-event")


def test_an_older_backup_without_a_trailer_still_restores_with_a_note(
    lines: list[str], target: SQLEventStore
) -> None:
    notes: list[str] = []
    assert import_store(target, _older(lines), progress=False, notes=notes) == 7
    assert verify(target).ok and target.read_key("first") is not None
    assert notes == [
        f"an older backup ({OLDER_FORMAT}, without a trailer): its 7 events are complete and "
        "verified; whether idempotency keys were cut off its end cannot be checked"
    ]


def test_an_older_backup_cut_among_its_events_is_refused(
    lines: list[str], target: SQLEventStore
) -> None:
    refused(target, _older(lines)[:5], "header says 7 events, file holds 4: the backup is")
    refused(target, _older(lines)[:1], "header says 7 events, file holds 0")


def test_an_older_backup_taken_while_results_came_in_may_hold_more(
    lines: list[str], target: SQLEventStore
) -> None:
    # That exporter counted the events first and wrote them after: a few more is genuine.
    notes: list[str] = []
    assert import_store(target, _older(lines, events=5), progress=False, notes=notes) == 7
    assert "it holds 2 more than its header counted" in notes[0]


def test_the_cli_restores_an_older_backup_and_prints_the_note(
    lines: list[str], tmp_path: Path
) -> None:
    old = tmp_path / "last-month.jsonl"
    old.write_text("\n".join(_older(lines)) + "\n")
    url = f"sqlite:///{tmp_path / 'restored' / 'club.sqlite3'}"
    result = CliRunner().invoke(main, ["import", str(old), "--database-url", url])
    assert result.exit_code == 0, result.output
    assert "note: an older backup" in result.output
    assert result.output.endswith("imported 7 events; all chains verify\n")


def test_import_into_a_new_sqlite_file_migrates_it_first(
    sqlite_db: Database, tmp_path: Path
) -> None:
    fill(SQLEventStore(sqlite_db.url))
    backup = tmp_path / "club.jsonl"
    assert CliRunner().invoke(main, ["export", str(backup), "--database-url", sqlite_db.url])
    url = f"sqlite:///{tmp_path / 'new' / 'club.sqlite3'}"  # neither file nor folder yet
    result = CliRunner().invoke(main, ["import", str(backup), "--database-url", url])
    assert result.exit_code == 0, result.output
    assert migrate.current(url) == migrate.alembic_heads()
    assert len(SQLEventStore(url).read_all()) == 7


def test_a_refused_import_into_a_new_file_leaves_nothing_behind(
    lines: list[str], tmp_path: Path
) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:4]) + "\n")
    url = f"sqlite:///{tmp_path / 'new' / 'sub' / 'club.sqlite3'}"
    result = CliRunner().invoke(main, ["import", str(cut), "--database-url", url])
    assert result.exit_code == 1 and "the backup is incomplete" in result.output
    assert not (tmp_path / "new").exists()


def test_an_export_taken_while_writers_append_is_one_consistent_cut(
    db: Database, store: SQLEventStore, tmp_path: Path
) -> None:
    for n in range(20):
        store.append(f"s{n}", [act() for _ in range(100)], 0, idempotency_key=f"k{n}")
    stop = threading.Event()

    def write() -> None:
        n = 0
        while not stop.is_set():
            store.append(f"late{n}", [act(), act(0)], 0, idempotency_key=f"late{n}")
            n += 1

    writer = threading.Thread(target=write)
    writer.start()
    try:
        text = "\n".join(exported(store))
    finally:
        stop.set()
        writer.join(30)
    copy = SQLEventStore(f"sqlite:///{tmp_path / 'copy.sqlite3'}")
    migrate.upgrade(copy.engine)
    count = import_store(copy, io.StringIO(text), progress=False)
    assert count >= 2000 and [e.position for e in copy.read_all()] == list(range(1, count + 1))
    assert verify(copy).ok


# --- writing the file: nothing hidden, nothing half-written (F16) --------------------------

SLOW_EXPORT = """
import sys, time
import tournament.eventstore.backup as backup
real = backup.export_store
def slow(store, out, progress=None, withhold=None):
    out.write('{"format": "schnapsen-eventstore/2", "events": 1}\\n')
    out.flush()
    print("writing", flush=True)
    time.sleep(60)
backup.export_store = slow
from tournament.cli import main
main(["export", sys.argv[1], "--database-url", sys.argv[2]])
"""


def _killed_export(target: Path, url: str) -> None:
    """An export of ``target`` killed with SIGKILL half-way, as a power cut would."""
    process = subprocess.Popen(
        [sys.executable, "-c", SLOW_EXPORT, str(target), url], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stdout.readline() == "writing\n"
    os.kill(process.pid, signal.SIGKILL)
    process.wait(30)


def test_a_killed_export_keeps_the_last_backup_and_leaves_no_hidden_file(
    sqlite_db: Database, tmp_path: Path
) -> None:
    fill(SQLEventStore(sqlite_db.url))
    folder = tmp_path / "backups"
    folder.mkdir()
    backup = folder / "club.jsonl"
    assert CliRunner().invoke(main, ["export", str(backup), "--database-url", sqlite_db.url])
    before = backup.read_text()
    _killed_export(backup, sqlite_db.url)
    assert backup.read_text() == before  # the last backup is whole
    assert sorted(p.name for p in folder.iterdir()) == ["club.jsonl", f"club.jsonl{SUFFIX}"]
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]  # nothing hidden


def test_the_next_export_removes_what_killed_exports_left(
    sqlite_db: Database, tmp_path: Path
) -> None:
    fill(SQLEventStore(sqlite_db.url))
    _killed_export(tmp_path / "club-2026-03-01.jsonl", sqlite_db.url)
    _killed_export(tmp_path / "club-2026-03-08.jsonl", sqlite_db.url)  # removed the first's
    assert [p.name for p in tmp_path.glob(f"*{SUFFIX}")] == [f"club-2026-03-08.jsonl{SUFFIX}"]
    today = tmp_path / "club-2026-03-15.jsonl"
    result = CliRunner().invoke(main, ["export", str(today), "--database-url", sqlite_db.url])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.glob("*.jsonl*")) == ["club-2026-03-15.jsonl"]


def test_an_export_still_running_is_neither_removed_nor_overwritten(
    sqlite_db: Database, tmp_path: Path
) -> None:
    fill(SQLEventStore(sqlite_db.url))
    running = tmp_path / f"club.jsonl{SUFFIX}"
    with running.open("w") as held:  # what a running export holds
        fcntl.flock(held, fcntl.LOCK_EX)
        held.write("{")
        held.flush()
        url = ["--database-url", sqlite_db.url]
        same = CliRunner().invoke(main, ["export", str(tmp_path / "club.jsonl"), *url])
        assert same.exit_code == 1
        assert "another export to" in same.output and "is running" in same.output
        other = CliRunner().invoke(main, ["export", str(tmp_path / "other.jsonl"), *url])
        assert other.exit_code == 0
        assert running.read_text() == "{"  # the running export's file was left alone

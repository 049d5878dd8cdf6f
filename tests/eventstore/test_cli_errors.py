"""The store's commands fail with one line naming what and where, never a traceback.

Bad import files (deep nesting, huge numbers, bytes that are not UTF-8, duplicate keys,
NaN), mistyped or unreachable databases, and files that cannot be written.
"""

from __future__ import annotations

import io
import json
import socket
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.databases import Database
from tests.eventstore.test_verify_backup import fill
from tournament.cli import main
from tournament.eventstore import ImportFormatError, SQLEventStore
from tournament.eventstore.backup import export_store, import_store
from tournament.eventstore.backup_file import SUFFIX


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_one_line_error(result: Result, *fragments: str) -> None:
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    error_lines = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(error_lines) == 1, result.output
    for fragment in fragments:
        assert fragment in error_lines[0], result.output


def export_lines(db: Database) -> list[str]:
    source = SQLEventStore(db.url)
    fill(source)
    out = io.StringIO()
    export_store(source, out, progress=False)
    return out.getvalue().splitlines()


def _edit_payload(lines: list[str], text: str) -> bytes:
    """The export with the first event's payload (line 3: after the header and the
    seal) replaced by raw JSON ``text``."""
    event = json.loads(lines[2])
    event["payload"] = "PAYLOAD"
    lines[2] = json.dumps(event).replace('"PAYLOAD"', text)
    return "\n".join(lines).encode()


BAD_FILES: dict[str, Callable[[list[str]], bytes]] = {
    "deep nesting": lambda _: b"[" * 200_000 + b"\n",
    "5,000 digits": lambda lines: (lines[0][:-1] + ', "n": ' + "7" * 5000 + "}\n").encode(),
    "not UTF-8": lambda _: b"\xff\n",
    "not UTF-8 on line 3": lambda lines: "\n".join(lines[:2]).encode() + b"\n\xfe\xff{}\n",
    "duplicate key": lambda lines: _edit_payload(lines, '{"seat": 1, "seat": 0}'),
    "NaN": lambda lines: _edit_payload(lines, '{"seat": NaN}'),
    "Infinity": lambda lines: _edit_payload(lines, '{"seat": -Infinity}'),
    "1e999": lambda lines: _edit_payload(lines, '{"seat": 1e999}'),
    "deep payload": lambda lines: _edit_payload(lines, "[" * 5000 + "]" * 5000),
}
LINE = {"not UTF-8 on line 3": 3, "deep nesting": 1, "not UTF-8": 1, "5,000 digits": 1}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_import_of_a_bad_file_is_one_line_naming_file_and_line(
    sqlite_db: Database, tmp_path: Path, case: str
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(BAD_FILES[case](export_lines(sqlite_db)))
    target = f"sqlite:///{tmp_path / 'target.sqlite3'}"
    assert run("db", "upgrade", "--database-url", target).exit_code == 0
    result = run("import", str(bad), "--database-url", target)
    assert_one_line_error(result, f"{bad}: line {LINE.get(case, 3)}:")
    assert SQLEventStore(target).read_all() == []  # nothing stored


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("version", 2**31, "'version' is out of range"),
        ("position", 2**63, "'position' is out of range"),
        ("stream_id", "a" * 201, "not a valid stream_id"),
        ("type", "Hand Dealt", "not a valid type"),
        ("hash", "xyz", "not a valid hash"),
    ],
)
def test_import_checks_values_against_the_columns(
    sqlite_db: Database, tmp_path: Path, field: str, value: object, problem: str
) -> None:
    # Values the database's driver would refuse with its own error, half-way through.
    lines = export_lines(sqlite_db)  # lines[2]: the first event, after the header and seal
    event = json.loads(lines[2])
    event[field] = value
    lines[2] = json.dumps(event)
    target = SQLEventStore(f"sqlite:///{tmp_path / 'target.sqlite3'}")
    from tournament.eventstore import migrate

    migrate.upgrade(target.engine)
    with pytest.raises(ImportFormatError, match=f"line 3: .*{problem}"):
        import_store(target, lines, progress=False)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


BAD_URLS: dict[str, Callable[[Path], str]] = {
    "mistyped scheme": lambda _: "postgresq://app@localhost/club",
    "MySQL": lambda _: "mysql://app:secret@localhost/club",
    "unparsable": lambda _: "://club",
    "a port that is no number": lambda _: "postgresql://app:secret@localhost:port/club",
    "PostgreSQL not running": lambda _: f"postgresql://app:secret@127.0.0.1:{_free_port()}/c",
    "a directory as SQLite file": lambda tmp: f"sqlite:///{tmp}",
    "not a database file": lambda tmp: f"sqlite:///{_text_file(tmp)}",
}


def _text_file(tmp: Path) -> Path:
    path = tmp / "passwd"
    path.write_text("root:x:0:0:root:/root:/bin/bash\n")
    return path


@pytest.mark.parametrize("case", sorted(BAD_URLS))
@pytest.mark.parametrize(
    "command", [["verify"], ["export", "-"], ["db", "current"], ["db", "upgrade"], ["db", "check"]]
)
def test_database_errors_are_one_line(tmp_path: Path, case: str, command: list[str]) -> None:
    url = BAD_URLS[case](tmp_path)
    result = CliRunner().invoke(main, command, env={"DATABASE_URL": url})
    assert_one_line_error(result)
    assert "secret" not in result.output  # the password stays hidden


def test_import_of_a_missing_file_or_a_directory(sqlite_db: Database, tmp_path: Path) -> None:
    for path in (tmp_path / "missing.jsonl", tmp_path):
        result = run("import", str(path), "--database-url", sqlite_db.url)
        assert_one_line_error(result, str(path))


@pytest.mark.parametrize("where", ["a directory", "no such folder", "under a file"])
def test_export_to_an_unwritable_place_is_one_line(
    sqlite_db: Database, tmp_path: Path, where: str
) -> None:
    (tmp_path / "file").write_text("")
    path = {
        "a directory": tmp_path,
        "no such folder": tmp_path / "missing" / "club.jsonl",
        "under a file": tmp_path / "file" / "club.jsonl",
    }[where]
    result = run("export", str(path), "--database-url", sqlite_db.url)
    assert_one_line_error(result, str(path))
    left = [p for p in tmp_path.rglob("*") if p.name.startswith(".__atomic") or
            p.name.endswith(SUFFIX)]  # fmt: skip
    assert not left  # no temporary file left behind


def test_export_to_a_read_only_file_is_one_line(sqlite_db: Database, tmp_path: Path) -> None:
    path = tmp_path / "club.jsonl"
    path.write_text("kept\n")
    path.chmod(0o444)
    result = run("export", str(path), "--database-url", sqlite_db.url)
    assert_one_line_error(result, str(path))
    assert path.read_text() == "kept\n"

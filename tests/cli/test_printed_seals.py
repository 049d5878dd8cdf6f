"""Every printed sheet and every export carries the short form of a seal of the log, made
just before it was printed (issue 8): a sheet pinned on the wall proves later that the
log behind it was not rewritten (``tournament verify --seal``). A store that cannot be
sealed still prints, with its last seal or saying it is not sealed."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.cli.helpers import create_cup, lettered_cup, play_round
from tests.databases import Database
from tournament.cli.common import service_at

SHORT = re.compile(r"#\d+ @\d+ [0-9A-Z]{4}-[0-9A-Z]{4}")


def log() -> tuple[str | None, int | None, int]:
    """The configured store's latest seal (short form, position) and its last event."""
    from tournament.config import database_url
    from tournament.eventstore import SQLEventStore

    store = SQLEventStore(database_url())
    try:
        seal = store.latest_seal()
        last = store.read_all()[-1].position
    finally:
        store.close()
    return (seal.short, seal.position, last) if seal else (None, None, last)


def seal_line(short: str) -> str:
    return f"Seal {short} · check: tournament verify --seal '{short}'"


def printed_seal(text: str) -> str:
    """The short form on the sheet's seal line: its last, or wrapped, its last but one."""
    lines = text.splitlines()
    last = next(line for line in reversed(lines[-2:]) if line.startswith("Seal #"))
    found = SHORT.search(last)
    assert found is not None, last
    return found.group()


@pytest.fixture
def cup(cli, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Swiss ``cup`` of four, round 1 drawn; appends seal only at the end of a round (the
    interval is an hour), so what a command adds is not sealed until something seals it."""
    monkeypatch.setenv("SCHNAPSEN_SEAL_EVERY_SECONDS", "3600")
    lettered_cup(cli, "swiss", "ABCD", "--seed", "1")
    cli("round", "start")
    return cli


def test_printed_standings_end_with_the_seal_that_covers_everything_on_them(cup) -> None:  # type: ignore[no-untyped-def]
    cup("results", "enter", "1.1", "--forfeit", "1")
    short, position, last = log()
    assert position is not None and position < last  # the new result is not sealed yet
    printed = cup("standings").stdout
    short, position, last = log()
    assert printed.splitlines()[-1] == seal_line(str(short))
    assert position == last  # printing sealed it, the result included


def test_the_round_sheet_ends_with_the_seal(cup) -> None:  # type: ignore[no-untyped-def]
    entered = cup("results", "enter", "1.1", "--forfeit", "1")
    assert "Seal" not in entered.output  # entering a result prints no sheet
    for sheet in (["round", "show"], ["round", "show", "1", "--by-name"]):
        printed = cup(*sheet).stdout
        short, position, last = log()
        assert printed_seal(printed) == short and position == last, sheet
    cup("results", "enter", "1.2", "--forfeit", "2")
    started = cup("round", "start").stdout
    short, position, last = log()
    assert started.startswith("Round 2:") and printed_seal(started) == short
    assert position == last  # the draw of round 2 is under the seal


def test_the_standings_csv_carries_the_seal_in_a_last_column_of_every_row(
    cup, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    cup("results", "enter", "1.1", "--forfeit", "1")
    rows = list(csv.DictReader(io.StringIO(cup("standings", "--csv").stdout)))
    short, position, last = log()
    assert position == last and len(rows) == 4
    assert list(rows[0])[-1] == "seal" and {r["seal"] for r in rows} == {short}
    cup("standings", "--csv", "--excel", "-o", str(tmp_path / "stand.csv"))
    text = (tmp_path / "stand.csv").read_text("utf-8-sig")
    excel = list(csv.DictReader(io.StringIO(text), delimiter=";"))
    assert {r["seal"] for r in excel} == {log()[0]} and len(excel) == 4


def test_the_standings_json_carries_the_seal_at_the_top(cup) -> None:  # type: ignore[no-untyped-def]
    cup("results", "enter", "1.1", "--forfeit", "1")
    data = json.loads(cup("standings", "--json").stdout)
    short, position, last = log()
    assert data["seal"] == short and position == last
    assert list(data) == ["tournament", "as_of", "category", "seal", "rows"]


def test_every_printout_ends_with_the_seal(cli) -> None:  # type: ignore[no-untyped-def]
    create_cup(cli, "round_robin", "groups=2")
    for name in "ABCDEFGH":
        cli("players", "add", name)
    printouts = [["standings"]]  # the start list, before round 1
    play_round(cli)
    printouts += [["standings"], ["standings", "--crosstable"], ["standings", "--group", "2"]]
    printouts += [["standings", "--as-of", "3"], ["standings", "--round", "1"]]
    for printout in printouts:
        printed = cli(*printout).stdout
        assert printed_seal(printed) == log()[0], printout
    assert "Group 2" in cli("standings").stdout  # one table per group, then the seal
    cli("create", "KO", "--id", "ko", "--format", "single_elimination")
    for name in "ABCD":
        cli("players", "add", name)
    preview = cli("bracket").stdout  # before round 1: the draw the seeding gives
    assert preview.startswith("Draw preview") and printed_seal(preview) == log()[0]
    cli("round", "start")
    assert printed_seal(cli("bracket").stdout) == log()[0]


def test_the_printed_seal_passes_verify(cup) -> None:  # type: ignore[no-untyped-def]
    cup("results", "enter", "1.1", "--forfeit", "1")
    short = printed_seal(cup("standings").stdout)
    checked = cup("verify", "--seal", short)
    assert "all chains and seals verify" in checked.output


def test_the_printed_seal_fails_verify_once_an_event_under_it_is_rewritten(
    cup, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    cup("results", "enter", "1.1", "--forfeit", "1")
    short = printed_seal(cup("standings").stdout)
    service_at(os.environ["DATABASE_URL"]).store.dispose()  # type: ignore[attr-defined]
    with sqlite3.connect(tmp_path / "club.sqlite3") as db:  # behind the store's back
        db.execute("DROP TRIGGER es_events_no_update")
        db.execute("UPDATE es_events SET payload = replace(payload, 'B', 'X') WHERE position = 3")
    db.close()
    checked = cup("verify", "--seal", short, ok=False)
    assert checked.exit_code == 1 and "BROKEN" in checked.output


def test_a_store_without_its_seal_key_still_prints_saying_it_is_not_sealed(
    cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("SCHNAPSEN_SEAL_KEY")
    monkeypatch.setenv("SCHNAPSEN_SEAL_KEY_FILE", str(tmp_path / "on-the-stick" / "seal.key"))
    lettered_cup(cli, "swiss", "ABCD")
    printed = cli("standings")
    assert printed.stdout.splitlines()[-1].startswith("Not sealed")
    assert "warning: the log was not sealed before printing: the seal key file" in printed.stderr
    assert json.loads(cli("standings", "--json").stdout)["seal"] is None
    rows = list(csv.DictReader(io.StringIO(cli("standings", "--csv").stdout)))
    assert {r["seal"] for r in rows} == {""}
    assert cli("round", "start").stdout.splitlines()[-1].startswith("Not sealed")


def test_a_store_that_cannot_seal_now_prints_its_last_seal_and_says_events_came_after(
    cup, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    short = printed_seal(cup("standings").stdout)
    service_at.cache_clear()  # the next command is a process without the key
    monkeypatch.delenv("SCHNAPSEN_SEAL_KEY")
    monkeypatch.setenv("SCHNAPSEN_SEAL_KEY_FILE", str(tmp_path / "gone.key"))
    cup("results", "enter", "1.1", "--forfeit", "1")
    printed = cup("round", "show")
    lines = printed.stdout.splitlines()
    assert lines[-2] == f"Seal {short} (the log's last; not sealed since, see the warning) · check:"
    assert lines[-1] == f"  tournament verify --seal '{short}'"
    assert "warning: the log was not sealed before printing" in printed.stderr
    assert json.loads(cup("standings", "--json").stdout)["seal"] == short


#: chmod binds root only without its capabilities (tests/cli/test_database_errors.py).
AS_USER = ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--"] if os.geteuid() == 0 else []


def test_a_read_only_store_still_prints_with_its_last_seal(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
           "SCHNAPSEN_INSTANCE": str(tmp_path), "SCHNAPSEN_SEAL_EVERY_SECONDS": "3600"}  # fmt: skip

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [*AS_USER, sys.executable, "-m", "tournament", *args]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)

    for args in (("create", "Cup", "--id", "cup"), ("players", "add", "Anna")):
        assert run(*args).returncode == 0
    sealed = run("standings").stdout
    assert run("players", "add", "Berti").returncode == 0  # after the seal
    (tmp_path / "club.sqlite3").chmod(0o444)
    printed = run("standings")
    assert printed.returncode == 0 and "Traceback" not in printed.stderr, printed.stderr
    assert "Berti" in printed.stdout and printed_seal(sealed) in printed.stdout
    assert "not sealed since" in printed.stdout and "read-only" in printed.stderr
    assert json.loads(run("standings", "--json").stdout)["seal"] == printed_seal(sealed)


@pytest.fixture
def without_execute_on_es_seal(pg_db: Database) -> Iterator[str]:
    """A role that may read the store in ``pg_db`` and append to it, but not run
    ``es_seal()``: its URL."""
    assert pg_db.schema is not None
    role = f"es_print_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(pg_db.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE ROLE {role} LOGIN")
        conn.exec_driver_sql(f"GRANT USAGE ON SCHEMA {pg_db.schema} TO {role}")
        conn.exec_driver_sql(f"GRANT SELECT ON ALL TABLES IN SCHEMA {pg_db.schema} TO {role}")
        conn.exec_driver_sql(f"REVOKE EXECUTE ON FUNCTION {pg_db.schema}.es_seal FROM PUBLIC")
    try:
        url = sa.make_url(pg_db.url).set(username=role)
        yield url.render_as_string(hide_password=False)
    finally:
        service_at.cache_clear()
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP OWNED BY {role}")
            conn.exec_driver_sql(f"DROP ROLE {role}")
        admin.dispose()


def test_a_postgresql_role_that_may_not_seal_still_prints_with_the_last_seal(
    cli, pg_db: Database, without_execute_on_es_seal: str, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PGOPTIONS", f"-csearch_path={pg_db.schema}")
    monkeypatch.setenv("DATABASE_URL", pg_db.url)
    lettered_cup(cli, "swiss", "ABCD", "--seed", "1")
    short = printed_seal(cli("round", "start").stdout)
    _dispose(pg_db.url)
    monkeypatch.setenv("DATABASE_URL", without_execute_on_es_seal)
    cli("results", "enter", "1.1", "--forfeit", "1")  # es_append: allowed
    printed = cli("standings")
    assert "(the log's last; not sealed since, see the warning)" in printed.stdout
    assert printed_seal(printed.stdout) == short and "permission denied" in printed.stderr
    _dispose(without_execute_on_es_seal)


def _dispose(url: str) -> None:
    """Close the pooled connections of the CLI's store at ``url`` (a role to be dropped)."""
    service_at(url).store.dispose()  # type: ignore[attr-defined]

"""GET /tournaments/{tid}/events and /export, POST /import: a tournament's history, its
backup and restoring it into another store (on SQLite and on PostgreSQL).

Tournaments are set up through the app's own service (tests/web/played.py says why).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.web import played
from tests.web.conftest import Web, make_web
from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.cli import main
from tournament.domain.commands.live import deal_live_hand
from tournament.domain.commands.rounds import start_round
from tournament.eventstore import NO_STREAM
from tournament.eventstore.backup import export_store
from tournament.eventstore.stream_backup import StreamsBackup, read_streams_backup, restore_streams

EVENTS = "/api/v1/tournaments/{}/events"
EXPORT = "/api/v1/tournaments/{}/export"
IMPORT = "/api/v1/import"


def fresh(tmp_path: Path, name: str) -> Web:
    """Another app on a store of its own."""
    folder = tmp_path / name
    folder.mkdir()
    return make_web(f"sqlite:///{folder / 'web.sqlite3'}", folder)


def export(web: Web, tid: str) -> bytes:
    reply = web.get(EXPORT.format(tid))
    assert reply.status_code == 200, reply.get_data(as_text=True)
    data: bytes = reply.get_data()
    return data


def restore(web: Web, backup: bytes, **kwargs: Any) -> Any:
    headers = {"Content-Type": "application/x-ndjson", **kwargs.pop("headers", {})}
    return web.post(IMPORT, data=backup, headers=headers, **kwargs)


def tournaments(web: Web) -> list[str]:
    return [t["id"] for t in web.ok("GET", "/api/v1/tournaments")["tournaments"]]


# --- events ------------------------------------------------------------------------


def test_the_events_are_numbered_as_the_log_numbers_them_and_paged_by_number(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = played.swiss(web, rounds=1)
    version = played.state(web, tid).version
    numbers, url = [], EVENTS.format(tid) + "?limit=7"
    while url:
        page = web.ok("GET", url)
        assert page["version"] == version and len(page["events"]) <= 7
        numbers += [e["number"] for e in page["events"]]
        url = page["next"]
    assert numbers == list(range(1, version + 1))
    first = web.ok("GET", EVENTS.format(tid) + "?after=1&limit=2")
    assert [e["number"] for e in first["events"]] == [2, 3]
    assert first["next"] == f"/api/v1/tournaments/{tid}/events?after=3&limit=2"
    anna = first["events"][0]
    assert anna["type"] == "player.registered" and anna["payload"]["name"] == "Anna Huber"
    assert anna["words"] == "Anna Huber (1), category W, rating 1900"
    created = web.ok("GET", EVENTS.format(tid) + "?limit=1")["events"][0]
    assert created["metadata"]["actor"] == "admin@club.at" and created["metadata"]["via"] == "api"
    assert created["metadata"]["recorded_at"].startswith("20")
    # The same words as `tournament log` prints, for every event.
    monkeypatch.setenv("DATABASE_URL", web.app.config["DATABASE_URL"])
    monkeypatch.setenv("SCHNAPSEN_INSTANCE", web.app.instance_path)
    log = CliRunner().invoke(main, ["log", "-t", tid, "--limit", "1000"]).stdout
    every = web.ok("GET", EVENTS.format(tid) + "?limit=1000")["events"]
    for event, line in zip(every, log.splitlines()[1:], strict=True):
        assert line.split()[0] == str(event["number"]) and line.endswith(event["words"])
    assert web.ok("GET", EVENTS.format(tid) + f"?after={version}") == {
        "tournament": tid, "version": version, "events": [], "next": None,
    }  # fmt: skip


def test_a_page_beyond_the_limit_is_422_naming_the_query_field(web: Web) -> None:
    tid = played.swiss(web, rounds=0)
    reply = web.get(EVENTS.format(tid) + "?limit=1001")
    assert reply.status_code == 422 and reply.get_json()["field"] == "query.limit"


def test_the_history_names_accounts_so_only_an_organiser_reads_it(web: Web) -> None:
    tid = played.swiss(web, rounds=0)
    url = EVENTS.format(tid)
    assert web.get(url, token=None).status_code == 401
    assert web.get(url, token=web.caller(Role.SCORER, tid)).status_code == 403
    assert web.get(url, token=web.caller(Role.ORGANISER, tid)).status_code == 200
    assert web.get(EXPORT.format(tid), token=None).status_code == 401
    assert web.get(EXPORT.format(tid), token=web.caller(Role.SCORER, tid)).status_code == 403
    # The standings are published: anyone reads them.
    assert web.get(f"/api/v1/tournaments/{tid}/standings", token=None).status_code == 200


# --- export and import ---------------------------------------------------------------


def test_an_export_imported_into_another_store_gives_the_same_standings(
    web: Web, tmp_path: Path
) -> None:
    tid = played.swiss(web, rounds=2)
    version = played.state(web, tid).version
    reply = web.get(EXPORT.format(tid))
    name = f"{tid}-{version}.jsonl"
    assert reply.headers["Content-Disposition"] == f'attachment; filename="{name}"'
    lines = [json.loads(line) for line in reply.get_data().splitlines()]
    assert lines[0]["format"] == "schnapsen-streams/1" and lines[0]["events"] == version
    assert lines[-1]["trailer"] == "schnapsen-streams/1" and lines[-1]["seal"].startswith("#")
    assert all(len(line["hash"]) == 64 for line in lines[1:-1])
    other = fresh(tmp_path, "other")
    other.token("owner@club.at", admin=True)  # the importing account: an admin
    done = restore(other, reply.get_data(), token=other.token("owner@club.at"))
    assert done.status_code == 201, done.get_data(as_text=True)
    assert done.get_json() == {"id": tid, "version": version, "streams": [f"tournament-{tid}"]}
    assert done.headers["Location"] == f"/api/v1/tournaments/{tid}"
    source = web.ok("GET", f"/api/v1/tournaments/{tid}/standings")
    copy = other.ok("GET", f"/api/v1/tournaments/{tid}/standings")
    assert copy["rows"] == source["rows"] and copy["version"] == source["version"]
    assert copy["table"] == source["table"]
    # The importing account owns it; the events keep who did them and when.
    me = other.ok("GET", "/api/v1/me", token=other.token("owner@club.at"))
    assert me["roles"] == {tid: "owner"}
    before = web.ok("GET", EVENTS.format(tid) + "?limit=1")["events"][0]
    after = other.ok("GET", EVENTS.format(tid) + "?limit=1")["events"][0]
    assert after["metadata"]["actor"] == before["metadata"]["actor"] == "admin@club.at"
    restored = after["metadata"]["restored"]
    assert restored["by"] == "owner@club.at" and restored["hash"] == lines[1]["hash"]
    assert restored["recorded_at"].replace("Z", "") == before["metadata"]["recorded_at"][:26]


def test_a_tournament_that_exists_already_is_409_and_nothing_is_stored(web: Web) -> None:
    tid = played.swiss(web, rounds=1)
    backup = export(web, tid)
    version = played.state(web, tid).version
    reply = restore(web, backup)
    assert reply.status_code == 409
    assert "exists already" in reply.get_json()["detail"]
    assert played.state(web, tid).version == version


def test_a_tampered_line_is_refused_naming_it_and_nothing_is_stored(
    web: Web, tmp_path: Path
) -> None:
    tid = played.swiss(web, rounds=1)
    lines = export(web, tid).decode().splitlines()
    lines[4] = lines[4].replace("Carla Gruber", "Carla Gruber-Sieger")  # line 5: a name
    assert "Sieger" in lines[4]
    other = fresh(tmp_path, "other")
    reply = restore(other, "\n".join(lines).encode())
    assert reply.status_code == 422
    problem = reply.get_json()
    assert problem["line"] == 5 and problem["errors"][0]["line"] == 5
    assert problem["detail"].startswith("line 5: ") and "hash does not match" in problem["detail"]
    assert problem["detail"].endswith("nothing was imported")
    assert tournaments(other) == []
    assert other.get(f"/api/v1/tournaments/{tid}").status_code == 404


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (lambda lines: lines[:-1], "without its trailer line: the backup is incomplete"),
        (lambda lines: lines[:3] + lines[4:], "follows version 2: version(s) missing"),
        (lambda lines: [*lines[:2], "{not json", *lines[2:]], "line 3: not valid JSON"),
        (lambda lines: [], "line 1: the file is empty"),
    ],
)
def test_a_cut_or_broken_backup_is_refused_naming_what_is_wrong(
    web: Web, tmp_path: Path, damage: Callable[[list[str]], list[str]], says: str
) -> None:
    tid = played.swiss(web, rounds=0)
    other = fresh(tmp_path, "other")
    reply = restore(other, "\n".join(damage(export(web, tid).decode().splitlines())).encode())
    assert reply.status_code == 422
    assert says in reply.get_json()["detail"]
    assert tournaments(other) == []


def test_a_whole_store_backup_is_sent_to_tournament_import(web: Web, tmp_path: Path) -> None:
    played.swiss(web, rounds=0)
    out = io.StringIO()
    with web.app.app_context():
        export_store(services().store, out)
    reply = restore(fresh(tmp_path, "other"), out.getvalue().encode())
    assert reply.status_code == 422
    detail = reply.get_json()["detail"]
    assert "a whole store" in detail and "`tournament import`" in detail


def test_an_import_retried_with_its_idempotency_key_gets_the_first_answer(
    web: Web, tmp_path: Path
) -> None:
    tid = played.swiss(web, rounds=1)
    backup = export(web, tid)
    other = fresh(tmp_path, "other")
    first = restore(other, backup, headers={"Idempotency-Key": "restore-1"})
    again = restore(other, backup, headers={"Idempotency-Key": "restore-1"})
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    other_body = restore(other, backup + b"\n", headers={"Idempotency-Key": "restore-1"})
    assert other_body.status_code == 422


def test_only_an_admin_restores_a_backup(web: Web, tmp_path: Path) -> None:
    tid = played.swiss(web, rounds=0)
    backup = export(web, tid)
    other = fresh(tmp_path, "other")
    assert restore(other, backup, token=None).status_code == 401
    organiser = other.caller(Role.ORGANISER, tid)
    assert restore(other, backup, token=organiser).status_code == 403
    assert tournaments(other) == []


def test_a_live_hand_goes_with_its_tournament(web: Web, tmp_path: Path) -> None:
    web.tournament("live", best_of=3, first_dealer="higher_seed")
    played.register(web, "live", played.NAMES[:4])
    played.run(web, "live", lambda t: start_round(t))
    t = played.state(web, "live")
    stream, hand, started = deal_live_hand(t, "1.1", seed=3)
    with web.app.app_context():
        services().store.append(stream, hand, expected_version=NO_STREAM)
    played.run(web, "live", lambda t: started)
    backup = export(web, "live")
    assert json.loads(backup.splitlines()[0])["streams"] == ["tournament-live", stream]
    other = fresh(tmp_path, "other")
    done = restore(other, backup)
    assert done.get_json()["streams"] == ["tournament-live", stream]
    again = [json.loads(line) for line in export(other, "live").splitlines()]
    source = [json.loads(line) for line in backup.splitlines()]
    # The same streams, each with as many events (the hands are restored first).
    versions = {sid: head[0] for sid, head in source[-1]["heads"].items()}
    assert {sid: head[0] for sid, head in again[-1]["heads"].items()} == versions
    assert versions[stream] == 1


def test_importing_again_finishes_a_restore_that_stopped_after_the_hands(
    web: Web, tmp_path: Path
) -> None:
    web.tournament("live", best_of=3, first_dealer="higher_seed")
    played.register(web, "live", played.NAMES[:2])
    played.run(web, "live", lambda t: start_round(t))
    stream, hand, started = deal_live_hand(played.state(web, "live"), "1.1", seed=3)
    with web.app.app_context():
        services().store.append(stream, hand, expected_version=NO_STREAM)
    played.run(web, "live", lambda t: started)
    backup = export(web, "live")
    other = fresh(tmp_path, "other")
    # What a restore leaves when the database goes away after the hand's stream: the
    # hand's stream alone, which nothing refers to yet.
    read = read_streams_backup(backup.splitlines())
    with other.app.app_context():
        hands_only = StreamsBackup({stream: read.streams[stream]}, read.about, read.seal)
        restore_streams(services().store, hands_only, [stream])
    assert tournaments(other) == []
    done = restore(other, backup)
    assert done.status_code == 201, done.get_data(as_text=True)
    assert (
        other.ok("GET", "/api/v1/tournaments/live")["version"] == played.state(web, "live").version
    )


# --- on PostgreSQL -------------------------------------------------------------------


@pytest.mark.postgres
def test_the_round_trip_holds_on_postgresql(web: Web, web_pg: Web, tmp_path: Path) -> None:
    tid = played.swiss(web, rounds=2)
    backup = export(web, tid)
    tampered = backup.replace(b"Anna Huber", b"Anna Huber-Moser", 1)
    refused = restore(web_pg, tampered)
    assert refused.status_code == 422
    assert refused.get_json()["line"] == 3  # Anna's registration
    assert tournaments(web_pg) == []
    assert restore(web_pg, backup).status_code == 201
    assert restore(web_pg, backup).status_code == 409
    on_pg = web_pg.ok("GET", f"/api/v1/tournaments/{tid}/standings")
    assert on_pg["rows"] == web.ok("GET", f"/api/v1/tournaments/{tid}/standings")["rows"]
    back = fresh(tmp_path, "back")
    assert restore(back, export(web_pg, tid)).status_code == 201
    assert back.ok("GET", f"/api/v1/tournaments/{tid}/standings")["rows"] == on_pg["rows"]

"""A standings GET takes the tournament's version from what its process knows, with no
lookup in the database, only while every write reaches that process (trial 9, P1;
tournament.live.known): its own writes at once, the other processes' on the Redis
subscription while it stands, the in-process bus only when one process serves. A write
anywhere makes the next GET look again; with the bus down every GET looks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.databases import Database
from tests.deploy.processes import free_port, wait_for
from tests.web import played
from tests.web.conftest import Web, make_web
from tests.web.helpers import execute, tally
from tournament.app.service import TournamentService
from tournament.app.services import services
from tournament.domain import commands as c
from tournament.live.known import KnownVersions
from tournament.projections.runner import Projector
from tournament.web.live import live
from tournament.web.projected import _probe_and_documents

STANDINGS = "/api/v1/tournaments/{}/standings"
SHEETS = ("7 4 1 0 / 7 5 2", "7 4 2 0 / 7 6")


class Lookups:
    """Counts the app's version lookups in the database (the real ones, made as before)."""

    def __init__(self, web: Web) -> None:
        with web.app.app_context():
            lookups, _ = _probe_and_documents()
        shared = lookups.shared
        self.count = 0

        def counted(tid: str) -> Any:
            self.count += 1
            return shared(tid)

        lookups.shared = counted  # type: ignore[assignment]


def a_round_open(web: Web) -> tuple[str, str]:
    tid = played.swiss(web, rounds=2)
    execute(web, tid, lambda t: c.start_round(t))
    t = played.state(web, tid)
    return tid, next(m for m in t.rounds[-1].matches if not t.matches[m].decided)


def get(web: Web, tid: str, tag: str | None = None) -> Any:
    headers = {"If-None-Match": tag} if tag else {}
    return web.get(STANDINGS.format(tid), token=None, headers=headers)


def known(web: Web) -> KnownVersions:
    with web.app.app_context():
        return live().known


def test_the_sole_process_answers_reads_and_304s_without_a_lookup_until_a_write(
    tmp_path: Path,
) -> None:
    web = make_web(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path, SOLE_PROCESS=True)
    tid, mid = a_round_open(web)
    lookups = Lookups(web)
    first = get(web, tid)
    assert first.status_code == 200 and lookups.count == 1
    tag = first.headers["ETag"]
    assert get(web, tid).get_data() == first.get_data()
    assert get(web, tid, tag).status_code == 304
    assert lookups.count == 1  # neither asked the database
    tally(web, tid, mid, *SHEETS)
    after = get(web, tid, tag)
    assert after.status_code == 200 and after.headers["ETag"] != tag
    assert after.get_json()["version"] == played.state(web, tid).version
    assert lookups.count == 2


def test_several_processes_without_redis_look_up_every_read(web: Web) -> None:
    """No SOLE_PROCESS and no Redis (gunicorn workers on a laptop's store): another
    process's write reaches nobody here, so every read asks."""
    tid, _ = a_round_open(web)
    lookups = Lookups(web)
    tag = get(web, tid).headers["ETag"]
    for tagged in (tag, None, tag):
        before = lookups.count
        assert get(web, tid, tagged).status_code in (200, 304)
        assert lookups.count > before


@pytest.fixture
def two_processes(pg_db: Database, tmp_path: Path, redis_url: str) -> Iterator[tuple[Web, Web]]:
    """Two apps on one PostgreSQL schema and one Redis, as two gunicorn workers or hosts
    deployed with workers (no worker runs here: the test projects)."""
    apps = [
        make_web(pg_db.schema_url, tmp_path / name, REDIS_URL=redis_url)
        for name in ("writer", "reader")
    ]
    yield apps[0], apps[1]
    for app in apps:
        with app.app.app_context():
            live().stop()
            services().store.close()


def project(web: Web, tid: str) -> None:
    with web.app.app_context():
        Projector(services().store).project(tid)


@pytest.mark.postgres
def test_a_write_in_another_process_is_announced_and_the_next_read_shows_it(
    two_processes: tuple[Web, Web],
) -> None:
    writer, reader = two_processes
    tid, mid = a_round_open(writer)
    project(writer, tid)
    lookups = Lookups(reader)
    old = get(reader, tid)  # starts the reader's subscription
    wait_for("the reader's subscription", lambda: reader_epoch(reader) is not None)
    old = get(reader, tid)
    assert known(reader).get(tid) == old.get_json()["version"]
    asked = lookups.count
    assert get(reader, tid, old.headers["ETag"]).status_code == 304
    assert lookups.count == asked  # known: no lookup
    tally(writer, tid, mid, *SHEETS)
    wait_for("the announcement", lambda: known(reader).get(tid) is None or None)
    stale = get(reader, tid, old.headers["ETag"])  # not projected yet: says so
    assert stale.status_code == 200 and stale.get_json()["projection"]["stale"]
    project(writer, tid)
    fresh = get(reader, tid).get_json()
    assert not fresh["projection"]["stale"]
    assert fresh["version"] == get(writer, tid).get_json()["version"]


@pytest.mark.postgres
def test_a_write_that_announces_nothing_is_seen_within_a_second(
    two_processes: tuple[Web, Web],
) -> None:
    """The command line stores through a service of its own and tells no process: the
    version known is looked up again at most a second later."""
    writer, reader = two_processes
    tid, mid = a_round_open(writer)
    project(writer, tid)
    get(reader, tid)
    wait_for("the reader's subscription", lambda: reader_epoch(reader) is not None)
    old = get(reader, tid)
    with writer.app.app_context():
        store = services().store
    TournamentService(store).execute(tid, lambda t: c.record_tallies(t, mid, list(SHEETS)))
    wait_for(
        "the write seen",
        lambda: get(reader, tid, old.headers["ETag"]).status_code == 200 or None,
        timeout=5,
    )


def reader_epoch(web: Web) -> int | None:
    subscriber = live_of(web).subscriber
    return None if subscriber is None else subscriber.epoch


def live_of(web: Web) -> Any:
    with web.app.app_context():
        return live()


def test_with_the_bus_down_every_read_looks_up(tmp_path: Path) -> None:
    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    web = make_web(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path, REDIS_URL=nowhere)
    try:
        tid = played.swiss(web, rounds=1)
        project(web, tid)
        lookups = Lookups(web)
        tag = get(web, tid).headers["ETag"]
        for _ in range(2):
            before = lookups.count
            assert get(web, tid, tag).status_code == 304
            assert lookups.count > before
        assert reader_epoch(web) is None
    finally:
        with web.app.app_context():
            live().stop()


def test_a_lookup_that_began_before_a_write_is_not_kept() -> None:
    versions = KnownVersions(lambda: 1)
    begun = versions.begin()
    versions.written("cup")  # stored while the lookup ran: it may predate the write
    versions.found("cup", begun, 12, 12)
    assert versions.get("cup") is None
    versions.found("cup", versions.begin(), 13, 13)
    assert versions.get("cup") == 13


def test_a_stale_projection_or_a_new_subscription_is_never_taken_as_known() -> None:
    epoch: list[int | None] = [1]
    versions = KnownVersions(lambda: epoch[0])
    versions.found("cup", versions.begin(), 12, 13)  # the log is ahead
    assert versions.get("cup") is None
    versions.found("cup", versions.begin(), 13, 13)
    epoch[0] = None  # the subscription lost: writes may be missed
    assert versions.get("cup") is None
    epoch[0] = 2  # a new one: what was known under the old may have missed a write
    assert versions.get("cup") is None

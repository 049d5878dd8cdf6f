"""PostgreSQL restarts, goes away or runs out of connection slots (trial 2, attack F7 and
F10): a request that needs the database answers 503 with Retry-After and says the
database is unreachable (a page says it in the reader's language), never 500; the first
request after a restart succeeds (the pools drop the connections the server ended), and
/readyz asks the same pool, so it is 503 exactly while the database is away.

The PostgreSQL here is the test's own cluster (tests/web/own_postgres.py), stopped with
``pg_ctl -m fast`` (an operator's restart) and ``-m immediate`` (a crash).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.web.conftest import Web, make_web
from tests.web.own_postgres import OwnPostgres
from tournament.app.services import services
from tournament.eventstore import migrate

pytestmark = pytest.mark.postgres

PROBLEM_JSON = "application/problem+json"


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    cluster = OwnPostgres(max_connections=12)
    try:
        cluster.start()
        migrate.upgrade(cluster.url)
        yield cluster
    finally:
        cluster.close()


@pytest.fixture
def web_own(own_postgres: OwnPostgres, tmp_path: Path) -> Iterator[Web]:
    web = make_web(own_postgres.url, tmp_path)
    yield web
    with web.app.app_context():
        services().store.close()
        services().accounts.close()


def add_player(web: Web, number: int) -> Any:
    return web.post("/api/v1/tournaments/club/players", {"name": f"Player {number}"})


def unavailable(reply: Any) -> dict[str, Any]:
    assert reply.status_code == 503, reply.get_data(as_text=True)
    assert int(reply.headers["Retry-After"]) > 0
    assert reply.mimetype == PROBLEM_JSON
    problem: dict[str, Any] = reply.get_json()
    return problem


def test_the_first_requests_after_a_restart_succeed(
    own_postgres: OwnPostgres, web_own: Web
) -> None:
    web_own.tournament("club")
    for number in range(3):  # the pools hold connections now
        assert add_player(web_own, number).status_code == 201
        assert web_own.get("/api/v1/tournaments/club").status_code == 200
    number = 3
    for mode in ("fast", "immediate"):
        own_postgres.stop(mode)  # no request meanwhile: every pooled connection is dead
        own_postgres.start()
        assert web_own.get("/readyz", token=None).status_code == 200, mode
        assert web_own.get("/api/v1/tournaments/club").status_code == 200, mode
        assert add_player(web_own, number).status_code == 201, mode
        assert web_own.get("/t/club", token=None).status_code == 200, mode
        number += 1
    players = web_own.get("/api/v1/tournaments/club/players").get_json()
    assert len(players["players"]) == number  # every acknowledged write is there, once


def test_while_the_database_is_away_requests_answer_503_and_readyz_tells_the_truth(
    own_postgres: OwnPostgres, web_own: Web
) -> None:
    web_own.tournament("club")
    assert add_player(web_own, 0).status_code == 201
    own_postgres.stop("immediate")

    read = unavailable(web_own.get("/api/v1/tournaments/club"))
    assert read["detail"].startswith("the database is unreachable")
    assert read["cause"] == "unreachable"
    write = unavailable(add_player(web_own, 1))
    assert "nothing of this request was stored" in write["detail"]
    ready = web_own.get("/readyz", token=None)
    assert ready.status_code == 503
    assert f"127.0.0.1:{own_postgres.port}" in ready.get_json()["checks"]["database"]
    page = web_own.get("/t/club", token=None, headers={"Accept": "text/html",
                                                        "Accept-Language": "de"})  # fmt: skip
    assert page.status_code == 503
    assert page.mimetype == "text/html"
    assert int(page.headers["Retry-After"]) > 0
    assert "Die Datenbank ist nicht erreichbar" in page.get_data(as_text=True)
    assert web_own.get("/healthz", token=None).status_code == 200

    own_postgres.start()
    assert web_own.get("/readyz", token=None).status_code == 200
    assert add_player(web_own, 1).status_code == 201
    players = web_own.get("/api/v1/tournaments/club/players").get_json()["players"]
    assert [p["name"] for p in players] == ["Player 0", "Player 1"]  # nothing stored twice


def test_a_server_out_of_connection_slots_answers_503(
    own_postgres: OwnPostgres, web_own: Web
) -> None:
    web_own.tournament("club")
    with web_own.app.app_context():  # the pools hold nothing: the next request connects
        services().store.engine.dispose()
        services().accounts.close()
    hogs: list[psycopg.Connection[Any]] = []
    try:
        while True:  # every slot taken
            try:
                hogs.append(psycopg.connect(own_postgres.url.replace("+psycopg", "")))
            except psycopg.OperationalError as error:
                assert "too many clients" in str(error)
                break
        problem = unavailable(web_own.get("/api/v1/tournaments/club"))
        assert problem["cause"] == "no connection free"
        assert problem["detail"].startswith("the database has no connection free")
    finally:
        for hog in hogs:
            hog.close()
    assert web_own.get("/api/v1/tournaments/club").status_code == 200


def test_a_web_process_started_while_the_database_is_down_serves_503_until_it_is_back_opfix_4(
    own_postgres: OwnPostgres, tmp_path: Path
) -> None:
    """Operator trial of main, 4: a web process started while PostgreSQL was down wrote
    three plain psycopg lines and gunicorn gave up ("Worker failed to boot"). It starts,
    answers 503 with Retry-After and /readyz not ready, and works once the database is
    back, without a restart."""
    own_postgres.stop("fast")
    web = make_web(own_postgres.url, tmp_path)
    try:
        assert unavailable(web.get("/api/v1/tournaments", token=None))["cause"] == "unreachable"
        ready = web.get("/readyz", token=None)
        assert ready.status_code == 503
        assert f"127.0.0.1:{own_postgres.port}" in ready.get_json()["checks"]["database"]
        assert web.get("/healthz", token=None).status_code == 200

        own_postgres.start()
        assert web.get("/readyz", token=None).status_code == 200
        web.tournament("club")
        assert add_player(web, 0).status_code == 201
    finally:
        with web.app.app_context():
            services().store.close()
            services().accounts.close()

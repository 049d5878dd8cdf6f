"""The service as a club server runs it: PostgreSQL, a Redis of the test's own, a real
Celery worker process and the web app over real HTTP (issue 10's real-mode tests).

``start_workers_mode`` gives all of it, started and stopped per test (the tests run in
parallel: nothing here is shared between tests but the PostgreSQL server, where each
test has its own schema). The embedded mode (no Redis) has its own fixture in
``test_embedded.py``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tests.conftest import REPO
from tests.databases import Database
from tests.live.harness import CeleryWorker, Event, Http, RedisServer, Reply, Served
from tests.web.conftest import Web

#: One Bummerl per match, won by the tally's first player (R17, R20): one POST decides
#: a match, so each result posted is one match point in the standings.
WON_BY_FIRST = "7 4 2 0 / 7 5 3"


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis")
    server.start()
    yield server
    server.stop()


@dataclass
class WorkersMode:
    """PostgreSQL + Redis + one Celery worker + the web app over HTTP."""

    db: Database
    redis: RedisServer
    served: Served
    http: Http
    worker: CeleryWorker
    engine: sa.Engine

    @property
    def app(self) -> Any:
        return self.served.app

    @property
    def celery(self) -> Any:
        return self.app.extensions["celery"]

    def subscribed(self) -> bool:
        """Whether this web process's Redis subscription stands (announcements arrive)."""
        hub = self.app.extensions["schnapsen_live"].hub
        return hub.down_since is None


def web_config(db: Database, tmp_path: Path, **config: Any) -> dict[str, Any]:
    """tests/web's configuration (cheap argon2, metrics, a secret key) with the
    projections left to the mode: the workers with ``REDIS_URL``, else a thread."""
    from argon2 import PasswordHasher

    return {
        "DATABASE_URL": db.schema_url,
        "SECRET_KEY": "test-secret",
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "SESSION_COOKIE_SECURE": False,
        "METRICS": True,
        "TESTING": True,
        # argon2 at its defaults is slow; the accounts are not what these tests test.
        "PASSWORD_HASHER": PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1),
        **config,
    }


def admin_token(app: Any) -> str:
    """The admin's API token, made through the accounts service (``tournament tokens
    create``), as tests/web makes its callers."""
    return Web(app).admin()


def worker_environ(
    db: Database, redis: RedisServer, tmp_path: Path, **extra: str
) -> dict[str, str]:
    return {
        **os.environ,  # SCHNAPSEN_SEAL_KEY as the tests set it (tests/conftest.py)
        "DATABASE_URL": db.schema_url,
        "REDIS_URL": redis.url,
        "SECRET_KEY": "test-secret",
        "SCHNAPSEN_INSTANCE": str(tmp_path / "worker-instance"),
        # This checkout's code (a git worktree's, not whatever the editable install
        # points at), as in the test process.
        "PYTHONPATH": str(REPO),
        **extra,
    }


@pytest.fixture
def start_workers_mode(pg_db: Database, own_redis: RedisServer, tmp_path: Path) -> Iterator[Any]:
    """``start(worker_env={...}, worker_options={...}, **config)``: the whole server,
    stopped after the test (``worker_options``: :class:`CeleryWorker`'s own)."""
    from tournament.web import create_app

    made: list[WorkersMode] = []

    def start(
        worker_env: dict[str, str] | None = None,
        worker_options: dict[str, Any] | None = None,
        **config: Any,
    ) -> WorkersMode:
        worker = CeleryWorker(
            tmp_path / "worker",
            worker_environ(pg_db, own_redis, tmp_path, **(worker_env or {})),
            **(worker_options or {}),
        )
        worker.start()
        app = create_app(web_config(pg_db, tmp_path, REDIS_URL=own_redis.url, **config))
        token = admin_token(app)
        served = Served(app)
        mode = WorkersMode(
            pg_db, own_redis, served, Http(served.port, token), worker, pg_db.engine()
        )
        made.append(mode)
        return mode

    yield start
    for mode in made:
        mode.worker.kill()
        mode.served.close()
        mode.engine.dispose()


# --- a club's evening over HTTP ---------------------------------------------------------


def create_swiss(http: Http, tid: str, players: int, rounds: int) -> None:
    http.ok("POST", "/api/v1/tournaments", {
        "name": "Live Cup", "id": tid, "format": "swiss", "best_of": 1, "seed": 7,
        "options": {"rounds": rounds},
    })  # fmt: skip
    for number in range(1, players + 1):
        http.ok("POST", f"/api/v1/tournaments/{tid}/players",
                {"name": f"Player {number:02d}", "rating": 2000 - number})  # fmt: skip


def draw(http: Http, tid: str) -> list[tuple[str, int]]:
    """Draw the next round: its matches, each with the player who wins it here."""
    answer = http.ok("POST", f"/api/v1/tournaments/{tid}/rounds", {})
    return [(t["match_id"], t["players"][0]) for t in answer["round"]["tables"]]


def post_result(http: Http, tid: str, match_id: str) -> Reply:
    """The match's sheet: one Bummerl, won by its first player."""
    return http.call(
        "POST", f"/api/v1/tournaments/{tid}/matches/{match_id}/results",
        {"tallies": [WON_BY_FIRST], "signed": True},
        Idempotency_Key=f"{tid}-{match_id}",
    )  # fmt: skip


def standings(http: Http, tid: str) -> dict[str, Any]:
    found: dict[str, Any] = http.ok("GET", f"/api/v1/tournaments/{tid}/standings")
    return found


def points(body: dict[str, Any]) -> dict[int, float]:
    return {row["player_id"]: row["points"] for row in body["rows"]}


def result_of(match_id: str) -> Callable[[Event], bool]:
    """The live stream's ``result`` event that names ``match_id``."""
    return lambda e: e.kind == "result" and e.data is not None and match_id in e.data["matches"]

"""bench/api.py's stage: a scratch schema of PostgreSQL, the tournaments and the scorer's
token set up in it through the domain, and the check of what the result writes stored.

Everything is made as the service makes it -- tournaments through
:class:`~tournament.app.service.TournamentService` and the domain's commands, the
account and its token through :class:`~tournament.accounts.service.Accounts` -- on the
same schema the server under test is started on.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import subprocess
import uuid
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher

from tournament.accounts.roles import Role
from tournament.accounts.service import Accounts
from tournament.app.service import TournamentService
from tournament.db import make_engine
from tournament.domain.commands.registration import register_player
from tournament.domain.commands.rounds import start_round
from tournament.domain.testing import Builder, random_match
from tournament.eventstore import SQLEventStore, migrate

PG_URL = os.environ.get(
    "SCHNAPSEN_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
SCORER = "scorer@bench.test"
ORGANISER = "organiser@bench.test"
PASSWORD = "bench password 1"
#: Each posted sheet: best of 3 won 2:0, the loser scoring one hand in each Bummerl (a
#: Bummerl won to 7 would count 2 by itself, R19, and the second tally be refused).
TALLIES = ["7 4 1 0 / 7 5", "7 4 1 0 / 7 5"]


@contextlib.contextmanager
def scratch_schema(url: str) -> Iterator[str]:
    """A fresh schema, migrated; yields the URL that puts it first on the search path
    (as tests/databases.py's ``schema_url``). Dropped afterwards, whatever happens."""
    schema = f"bench_api_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    try:
        engine = make_engine(url, connect_args={"options": f"-csearch_path={schema}"})
        migrate.upgrade(engine)
        engine.dispose()
        yield f"{url}?options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        admin.dispose()


def settings(seed: int) -> dict[str, Any]:
    return {
        "name": "Bench Open",
        "format": "swiss",
        "best_of": 3,
        "seed": seed,
        "options": {"rounds": 5},
    }


def tournament(
    service: TournamentService, tid: str, players: int, *, played: int, seed: int
) -> int:
    """``tid`` with ``players`` players and ``played`` rounds played at random (Bummerl
    tallies), then the next round drawn and left open; stored as two commands. Its
    version."""
    service.create(tid, settings(seed))
    b = Builder(list(service.events(tid)))  # type: ignore[arg-type]  # folds stored ones too
    done = len(b.events)
    for number in range(1, players + 1):
        # Ratings fall with the start number and stay within 0-4000 (T-player).
        rating = 4000 * (players - number) // players
        b.add(register_player(b.state, f"Player {number}", club=f"Club {number % 17}",
                              rating=rating))  # fmt: skip
    rng = random.Random(seed)
    for _ in range(played):
        b.add(start_round(b.state))
        for mid in b.state.rounds[-1].matches:
            random_match(b, b.state.matches[mid], rng)
    b.add(start_round(b.state))
    new = b.events[done:]
    return service.execute(tid, lambda t: new)[-1].version


def open_matches(service: TournamentService, tid: str) -> list[str]:
    """The matches of the tournament's open round that wait for a result (no bye)."""
    t = service.state(tid)
    return [mid for mid in t.rounds[-1].matches if not t.matches[mid].decided]


def scorer_token(url: str, tids: list[str]) -> str:
    """A token of an account that is scorer in ``tids`` (not an admin: the role is looked
    up on every write, as for the desk's scorers)."""
    # Cheap password hashing: the bench signs in by token (a SHA-256 lookup), never by
    # password, and argon2's defaults would cost seconds here on a busy machine.
    accounts = Accounts(url, hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    try:
        accounts.add(ORGANISER, PASSWORD, admin=True)
        accounts.add(SCORER, PASSWORD)
        for tid in tids:
            accounts.grant(SCORER, tid, Role.SCORER, by=ORGANISER)
        _, secret = accounts.create_token(SCORER, "bench")
        return secret
    finally:
        accounts.close()


@dataclasses.dataclass
class Stored:
    """What the event store holds of the posted matches."""

    lost: list[str]  # posted, not decided exactly by its sheet
    doubled: list[str]  # more result events than the sheet, or from more than one request
    others_decided: int  # of the open matches, decided though nobody posted them


def check_stored(url: str, tid: str, posted: list[str], open_before: list[str]) -> Stored:
    """Read the tournament back from the store (a new service: nothing cached): every
    posted match decided, by exactly the sheet's result events, all from one request."""
    store = SQLEventStore(url)
    try:
        service = TournamentService(store)
        t = service.state(tid)
        results: dict[str, list[Any]] = defaultdict(list)
        for event in service.events(tid):
            if event.type.startswith("result.") and "match_id" in event.payload:
                results[str(event.payload["match_id"])].append(event)
    finally:
        store.close()
    lost, doubled = [], []
    for mid in posted:
        events = results.get(mid, [])
        requests = {e.metadata.get("request_id") for e in events}
        result_ids = [e.payload.get("result_id") for e in events]
        if (
            len(events) > len(TALLIES)
            or len(requests) > 1
            or len(set(result_ids)) < len(result_ids)
        ):
            doubled.append(mid)
        elif not t.matches[mid].decided or len(events) < len(TALLIES):
            lost.append(mid)
    wanted = set(posted)
    others = sum(1 for mid in open_before if mid not in wanted and t.matches[mid].decided)
    return Stored(lost, doubled, others)


def uptime() -> str:
    """The machine's load now (``uptime``), for a benchmark's report: the machine is shared."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())

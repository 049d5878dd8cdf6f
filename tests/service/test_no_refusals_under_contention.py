"""Many writers on one tournament at once: every command is decided on the newest state
under the tournament's lock, so none is refused, lost or doubled (trial 2, F9: up to 18 %
refused on PostgreSQL before). Writers are processes of their own, each with its own
service and connections, calling the service in-process (as the web app's workers will).
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from typing import Any

import pytest

from tests.databases import Database
from tournament.app.service import TournamentService
from tournament.domain.commands.registration import register_player
from tournament.domain.model.errors import DomainError
from tournament.eventstore import SQLEventStore
from tournament.eventstore.verify import verify

WRITERS, COMMANDS = 16, 60


def _writer(db: Database, writer: int, count: int, results: Any) -> None:
    """Register ``count`` players one command at a time; report what was refused."""
    engine = db.engine()  # never the parent's: connections do not survive a fork
    service = TournamentService(SQLEventStore(engine))
    refused: list[str] = []
    for n in range(count):
        try:
            service.execute(
                "club", lambda t, n=n: register_player(t, f"W{writer:02d} P{n:02d}", actor="desk")
            )
        except DomainError as error:
            refused.append(error.line())
    engine.dispose()
    results.put((writer, refused))


def test_sixteen_writers_times_sixty_commands_none_refused_lost_or_doubled(db: Database) -> None:
    engine = db.engine()
    service = TournamentService(SQLEventStore(engine))
    service.create("club", {"name": "Vereinsmeisterschaft", "format": "swiss"})
    context = multiprocessing.get_context("fork")  # a fork starts in ms: no re-import
    results = context.Queue()
    writers = [
        context.Process(target=_writer, args=(db, w, COMMANDS, results)) for w in range(WRITERS)
    ]
    for process in writers:
        process.start()
    reports = dict(results.get(timeout=300) for _ in writers)
    for process in writers:
        process.join(30)
        assert process.exitcode == 0

    assert {w: refused for w, refused in reports.items() if refused} == {}  # 0 refused
    t = service.state("club")
    names = Counter(p.name for p in t.players.values())
    expected = {f"W{w:02d} P{n:02d}" for w in range(WRITERS) for n in range(COMMANDS)}
    assert set(names) == expected  # 0 lost
    assert max(names.values()) == 1  # 0 duplicated
    # Start numbers are the next free one at the moment of each decision: dense, in order.
    assert sorted(t.players) == list(range(1, WRITERS * COMMANDS + 1))
    events = service.events("club")
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert len(events) == 1 + WRITERS * COMMANDS
    assert verify(SQLEventStore(engine)).ok
    engine.dispose()


@pytest.fixture(autouse=True)
def _no_leftover_children() -> Any:
    yield
    for child in multiprocessing.active_children():  # only after a failure
        child.kill()

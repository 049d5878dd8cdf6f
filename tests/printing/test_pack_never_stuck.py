"""A print pack never stays "queued" for ever (trial 5, P8): a rendering that fails (the
store busy, "database is locked" on SQLite) is tried again a bounded number of times,
then the pack is marked failed with the reason; asking again for a failed pack, or for a
pack stuck long in the queue (its thread died), renders it again.

The failure is real and comes in through the renderer the queue is given (the seam
``render_pack(renderer=...)``), not through a switch in the service."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from tests.printing.helpers import require_weasyprint
from tests.web.conftest import Web
from tests.web.played import swiss
from tournament.app.service import TournamentService
from tournament.app.services import services
from tournament.eventstore import SQLEventStore
from tournament.printing.packs import render
from tournament.printing.queue import (
    DONE,
    FAILED,
    QUEUED,
    get_pack,
    pack_pdf,
    render_pack,
    request_pack,
)
from tournament.projections.tables import print_packs

require_weasyprint()

NO_PAUSE = (0.0, 0.0)


class Busy:
    """A renderer whose first ``failures`` tries find the store locked, then renders."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.tries = 0

    def __call__(self, found: Any, footer: str) -> tuple[bytes, int]:
        self.tries += 1
        if self.tries <= self.failures:
            raise sqlite3.OperationalError("database is locked")
        return render(found, footer)


def _store(service: TournamentService) -> SQLEventStore:
    store = service.store
    assert isinstance(store, SQLEventStore)
    return store


def test_a_pack_that_found_the_store_locked_is_tried_again_and_rendered(
    service: TournamentService,
) -> None:
    store = _store(service)
    pack, _ = request_pack(store.engine, "t1", "pairings", 2, service.state("t1").version, "o")
    busy = Busy(failures=1)
    assert render_pack(store, service, pack.id, renderer=busy, pauses=NO_PAUSE) == DONE
    assert busy.tries == 2
    assert pack_pdf(store.engine, "t1", pack.id) is not None


def test_a_pack_that_keeps_failing_is_marked_failed_with_the_reason_after_three_tries(
    service: TournamentService,
) -> None:
    store = _store(service)
    pack, _ = request_pack(store.engine, "t1", "pairings", 2, service.state("t1").version, "o")
    busy = Busy(failures=99)
    assert render_pack(store, service, pack.id, renderer=busy, pauses=NO_PAUSE) == FAILED
    assert busy.tries == 3, "bounded: three tries, then it says so"
    failed = get_pack(store.engine, "t1", pack.id)
    assert failed is not None
    assert failed.status == FAILED and failed.error == "database is locked"


def test_asking_again_for_a_failed_pack_renders_a_new_one(service: TournamentService) -> None:
    store = _store(service)
    version = service.state("t1").version
    pack, _ = request_pack(store.engine, "t1", "pairings", 2, version, "o")
    render_pack(store, service, pack.id, renderer=Busy(failures=99), pauses=NO_PAUSE)
    again, new = request_pack(store.engine, "t1", "pairings", 2, version, "o")
    assert new and again.id != pack.id and again.status == QUEUED
    assert render_pack(store, service, again.id, pauses=NO_PAUSE) == DONE


def test_a_pack_left_queued_by_a_dead_thread_is_rendered_again_when_asked_for_again(
    service: TournamentService,
) -> None:
    store = _store(service)
    version = service.state("t1").version
    pack, new = request_pack(store.engine, "t1", "table-cards", 2, version, "o", "en")
    assert new  # ...and its thread died before it wrote a word: the pack stays queued
    fresh, new = request_pack(store.engine, "t1", "table-cards", 2, version, "o", "en")
    assert not new and fresh.id == pack.id, "a pack just asked for is not rendered twice"
    stuck, new = request_pack(
        store.engine, "t1", "table-cards", 2, version, "o", "en", stale_after=timedelta(0)
    )
    assert new and stuck.id == pack.id and stuck.status == QUEUED
    assert render_pack(store, service, stuck.id, pauses=NO_PAUSE) == DONE


def test_a_rendered_pack_is_never_rendered_again_however_old(service: TournamentService) -> None:
    store = _store(service)
    version = service.state("t1").version
    pack, _ = request_pack(store.engine, "t1", "pairings", 2, version, "o")
    assert render_pack(store, service, pack.id) == DONE
    same, new = request_pack(
        store.engine, "t1", "pairings", 2, version, "o", stale_after=timedelta(0)
    )
    assert not new and same.id == pack.id and same.status == DONE


def test_over_the_api_a_failed_pack_says_why_and_asking_again_renders_it(web: Web) -> None:
    tid = swiss(web, rounds=1)
    with web.app.app_context():
        found = services()
        store = found.store
        assert isinstance(store, SQLEventStore)
        version = found.tournaments.state(tid).version
        pack, _ = request_pack(store.engine, tid, "pairings", 1, version, "o", "en")
        locked = Busy(failures=99)
        render_pack(store, found.tournaments, pack.id, renderer=locked, pauses=NO_PAUSE)
    status = web.ok("GET", f"/api/v1/tournaments/{tid}/print-packs/{pack.id}")
    assert status["status"] == "failed" and status["error"] == "database is locked"
    pdf = web.get(f"/api/v1/tournaments/{tid}/print-packs/{pack.id}/pdf")
    assert pdf.status_code == 409 and "database is locked" in pdf.get_json()["detail"]
    again = web.ok(
        "POST", f"/api/v1/tournaments/{tid}/print-packs", {"kind": "pairings", "lang": "en"}
    )
    assert again["id"] != pack.id and again["status"] == "done"


def test_over_the_api_a_pack_stuck_in_the_queue_renders_when_asked_for_again(web: Web) -> None:
    tid = swiss(web, rounds=1)
    with web.app.app_context():
        found = services()
        store = found.store
        assert isinstance(store, SQLEventStore)
        version = found.tournaments.state(tid).version
        pack, _ = request_pack(store.engine, tid, "pairings", 1, version, "o", "en")
        # Its thread died three minutes ago, before it could write a word.
        with store.engine.begin() as conn:
            conn.execute(
                sa.update(print_packs)
                .where(print_packs.c.id == pack.id)
                .values(requested_at=datetime.now(UTC) - timedelta(minutes=3))
            )
    again = web.ok(
        "POST", f"/api/v1/tournaments/{tid}/print-packs", {"kind": "pairings", "lang": "en"}
    )
    assert again["id"] == pack.id and again["status"] == "done"

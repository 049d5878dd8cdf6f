"""A print pack that failed says so at the desk, with the reason and a button that asks
for it again (trial 5, P8): the organiser is never left looking at "Rendering…" for a
pack that will not come."""

from __future__ import annotations

import sqlite3
from typing import Any

from tests.pages.markup import elements
from tests.pages.test_desk_rounds import page, signed_in
from tests.printing.helpers import require_weasyprint
from tests.web.conftest import Web
from tests.web.test_sign_in import csrf_of
from tournament.app.services import services
from tournament.eventstore import SQLEventStore
from tournament.printing.queue import FAILED, render_pack, request_pack

require_weasyprint()


def locked(found: Any, footer: str) -> tuple[bytes, int]:
    raise sqlite3.OperationalError("database is locked")


def test_a_failed_pack_says_why_and_try_again_renders_it(web: Web, club: str) -> None:
    signed_in(web)
    with web.app.app_context():
        found = services()
        store = found.store
        assert isinstance(store, SQLEventStore)
        version = found.tournaments.state(club).version
        pack, _ = request_pack(store.engine, club, "pairings", 3, version, "admin", "en")
        status = render_pack(store, found.tournaments, pack.id, renderer=locked, pauses=(0, 0))
        assert status == FAILED
    html = page(web, f"/desk/t/{club}/rounds/print/{pack.id}?lang=en")
    assert "The PDF could not be made: database is locked" in html
    assert 'hx-trigger="every 1s"' not in html, "a failed pack is not polled for ever"
    retry = next(e for e in elements(html) if e.attrs.get("id") == "pack-retry")
    assert retry.text.strip() == "Try again"
    reply = web.client.post(
        f"/desk/t/{club}/rounds/print?lang=en",
        data={"csrf_token": csrf_of(html), "kind": "pairings", "round": "3"},
    )
    assert reply.status_code == 303 and pack.id not in reply.headers["Location"]
    again = page(web, reply.headers["Location"] + "?lang=en")
    link = next(e for e in elements(again) if e.attrs.get("id") == "pack-pdf")
    assert web.client.get(link.attrs["href"]).data.startswith(b"%PDF")

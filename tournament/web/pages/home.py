"""The start page at ``/`` (O-L3): the first address ``./dev serve`` prints.

Everybody sees the tournaments of this service, each a link to its public page
(``/t/<tid>``: every tournament's standings are public, as ``GET /api/v1/tournaments``
lists them); a signed-in account also gets the link to the organiser's desk, anyone else
the way to sign in. A browser asking for an address that does not exist gets a page in
its language (:func:`tournament.web.problems`), a JSON client keeps problem+json.
"""

from __future__ import annotations

from typing import Any

from flask import render_template

from tournament.app.services import services
from tournament.domain.model.errors import NotFoundError
from tournament.web.auth import caller
from tournament.web.pages.desk import desk_blueprint
from tournament.web.pages.desk_setup import tournament_row

pages = desk_blueprint("home", __name__)


@pages.get("/")
def start_page() -> Any:
    found = services().tournaments
    rows = []
    for tid in found.tournament_ids():
        try:
            t = found.state(tid)
        except NotFoundError:
            continue
        with found.reading():
            rows.append(tournament_row(tid, t))
    rows.sort(key=lambda row: (row["date_iso"], row["name"]), reverse=True)
    signed_in = caller().account_id is not None
    return render_template("home/start.html", rows=rows, signed_in=signed_in)

"""Importing a players CSV at the desk (issue 11): paste it or upload it, see every row
as it would be registered with the refusals per row (nothing stored), then "import all"
-- all rows or none, with the domain's import and under the list's content key, as
``POST /api/v1/tournaments/{tid}/players/import`` and ``tournament players import`` do
(:mod:`tournament.web.api.player_import`): the same list is never imported twice.
"""

from __future__ import annotations

import io
from typing import Any

from flask import flash, redirect, render_template, request
from flask_babel import gettext

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain.commands.csvio import (
    PLAYER_COLUMNS,
    CsvImportError,
    import_key,
    import_players,
)
from tournament.domain.commands.csvread import CP1252, read_rows, read_text
from tournament.domain.model import events as ev
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.domain.views.spellings import possible_duplicates
from tournament.eventstore.api import NewEvent
from tournament.web.api.player_import import KIND
from tournament.web.auth import caller, requires
from tournament.web.body_caps import CSV, accepts_body
from tournament.web.i18n import local_datetime
from tournament.web.pages.desk import desk_blueprint, desk_context, refusal
from tournament.web.pages.messages import describe_rows, say
from tournament.web.pages.page_writes import page_metadata

pages = desk_blueprint("desk_import", __name__)


def _csv_text() -> tuple[str, str | None]:
    """The uploaded file's text and the encoding it was read in (UTF-8 or Excel's
    Windows-1252, O-L2), else the pasted text (no encoding: the browser sent text).
    Raises CsvImportError for a file in neither."""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        return read_text(upload.read())
    return request.form.get("csv", "").replace("\r\n", "\n"), None


def _in_language(error: CsvImportError) -> list[dict[str, Any]]:
    """The problems of a refused file, each in the reader's language (O-L6)."""
    said = describe_rows(error)
    return [{**p, "message": m} for p, (_, m) in zip(error.to_json(), said, strict=True)]


def _page(tid: str, status: int = 200, **values: Any) -> tuple[str, int]:
    name = services().tournaments.state(tid).settings
    html = render_template(
        "desk/players/import.html",
        **desk_context(tid, area="players", tournament_name=name.name if name else tid, **values),
    )
    return html, status


@pages.route("/desk/t/<tid>/players/import", methods=["GET", "POST"])
@requires(Role.ORGANISER)
@accepts_body(CSV)
def import_page(tid: str) -> Any:
    if request.method == "GET":
        return _page(tid)
    try:
        text, encoding = _csv_text()
    except CsvImportError as error:
        return _page(tid, 422, problems=_in_language(error))
    if not text.strip():
        return _page(tid, 422, problems=[{"row": 1, "field": "file", "rule": "T-csv",
                     "message": gettext("Paste the list or choose a file.")}])  # fmt: skip
    if request.form.get("action") == "import":
        return _import_all(tid, text)
    return _preview(tid, text, encoding=encoding)


def _preview(
    tid: str, text: str, status: int = 200, encoding: str | None = None
) -> tuple[str, int]:
    """Every row, each with what the import would say of it; nothing stored."""
    try:
        rows = read_rows(io.StringIO(text), ("name",), PLAYER_COLUMNS, "players")
    except CsvImportError as error:
        return _page(tid, 422, problems=_in_language(error), csv=text)
    by_line: dict[int, list[str]] = {}
    try:
        import_players(services().tournaments.events(tid), io.StringIO(text), actor=caller().actor)
    except CsvImportError as error:
        # Each row's refusal in the reader's language (O-L6), as the domain coded it.
        for line, message in describe_rows(error):
            by_line.setdefault(line, []).append(message)
    # Possible duplicates by spelling: a warning beside the row, never a refusal (O-L2).
    t = services().tournaments.state(tid)
    registered = [(p.id, p.name, p.club) for p in t.players.values()]
    listed = [(line, row.get("name", ""), row.get("club", "")) for line, row in rows]
    warned: dict[int, list[str]] = {}
    for line, warning in possible_duplicates(registered, listed):
        warned.setdefault(line, []).append(say(warning))
    shown = [
        {"line": line, **row, "problems": by_line.get(line, []), "warnings": warned.get(line, [])}
        for line, row in rows
    ]
    bad = sum(1 for row in shown if row["problems"])
    return _page(
        tid, 422 if bad else status, rows=shown, bad=bad, csv=text,
        warned=sum(1 for row in shown if row["warnings"]),
        cp1252=encoding == CP1252,
    )  # fmt: skip


def _import_all(tid: str, text: str) -> Any:
    def command(t: Tournament) -> list[NewEvent]:
        return import_players(services().tournaments.events(tid), io.StringIO(text),
                              actor=caller().actor)  # fmt: skip

    try:
        done = services().tournaments.submit(
            tid, command, idempotency_key=import_key(KIND, tid, text), metadata=page_metadata()
        )
    except CsvImportError:
        return _preview(tid, text)
    except DomainError as error:
        return _page(tid, 422, problems=[{"row": None, **error.to_json(),
                                          "message": refusal(error)}], csv=text)  # fmt: skip
    if done.replayed:
        first = done.events[0]
        message = gettext(
            "This list was imported already, at %(when)s; nothing stored. A changed list is a "
            "new import (T-csv).",
            when=local_datetime(first.recorded_at, "short"),
        )
        return _page(tid, 409, problems=[{"row": None, "field": "file", "rule": "T-csv",
                                          "message": message}], csv=text)  # fmt: skip
    count = sum(1 for e in done.events if e.type == ev.PLAYER_REGISTERED)
    flash(gettext("%(n)s players imported.", n=count), "ok")
    return redirect(f"/desk/t/{tid}/players", code=303)

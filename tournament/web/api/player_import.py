"""A players CSV uploaded to the API (``POST .../players/import``), imported as
``tournament players import`` imports a file: one append, all rows or none, and the same
list never twice.

The events are stored under the list's content key
(:func:`~tournament.domain.commands.csvio.import_key`), the key the command line uses: a list
imported by either is found by both, however it was saved. A client's
``Idempotency-Key`` goes into the events' metadata, so that a retry of the request that
stored them is answered as the first time, and the list sent again under another key (or
none) is refused as already imported (409).
"""

from __future__ import annotations

import io
from typing import Any

from flask import Response, request

from tournament.app.services import services
from tournament.domain.commands.csvio import CsvImportError, decode, import_key, import_players
from tournament.domain.model import events as ev
from tournament.domain.model.state import Tournament
from tournament.eventstore.api import NewEvent, StoredEvent
from tournament.web.auth import caller
from tournament.web.problems import Problem, invalid
from tournament.web.writes import event_summary, idempotency_key, refuse_other_request, write

#: How the upload is documented in /openapi.json (the body is not a JSON model).
IMPORT_BODY: dict[str, Any] = {
    "required": True,
    "description": "a players CSV (docs/csv-formats.md): name, club, category, rating, "
    "player_id; UTF-8, commas or semicolons, English or German column names",
    "content": {
        "text/csv": {
            "schema": {"type": "string"},
            "example": "name,club,rating\nAnna Huber,SC Ried,1520\n",
        },
        "multipart/form-data": {
            "schema": {
                "type": "object",
                "properties": {"file": {"type": "string", "format": "binary"}},
                "required": ["file"],
            }
        },
    },
}
#: Media types a CSV arrives as besides text/csv (spreadsheet programs and curl differ).
CSV_TYPES = frozenset({"text/csv", "text/plain", "application/csv", "application/vnd.ms-excel"})
KIND = import_players.__name__


def csv_import(tid: str, only_new: bool) -> Response:
    # The body is read (and kept) before the form is parsed: the request's fingerprint
    # (writes.fingerprint) is of these bytes, whatever the media type.
    data = request.get_data()
    if request.mimetype == "multipart/form-data":
        upload = request.files.get("file")
        if upload is None:
            raise invalid("file", "a multipart/form-data upload sends the CSV as the field 'file'")
        data = upload.read()
    elif request.mimetype not in CSV_TYPES:
        raise Problem(
            415,
            "Unsupported media type",
            f"{request.mimetype or 'no Content-Type'}: send the CSV as text/csv, or as the "
            "field 'file' of multipart/form-data",
            field="Content-Type",
        )
    try:
        text = decode(data)
        client = idempotency_key()
        if client is not None:
            refuse_key_of_another_request(tid, client)

        def command(t: Tournament) -> list[NewEvent]:
            source = io.StringIO(text)
            events = services().tournaments.events(tid)
            return import_players(events, source, actor=caller().actor, only_new=only_new)

        return write(
            tid,
            command,
            imported,
            status=201,
            store_key=import_key(KIND, tid, text),
            on_replay=lambda events: refuse_reimport(events, client),
        )
    except CsvImportError as error:
        raise bad_file(error, only_new) from None


def imported(events: list[StoredEvent]) -> dict[str, Any]:
    ids = [e.payload["player_id"] for e in events if e.type == ev.PLAYER_REGISTERED]
    return {
        "imported": len(ids),
        "player_ids": ids,
        "changed": True,
        "version": events[-1].version,
        "events": event_summary(events),
    }


def refuse_key_of_another_request(tid: str, client: str) -> None:
    """422 when the client's key was used for another request: a write stored under it,
    or another list imported with it (its events carry it)."""
    used = services().store.read_key(client)
    if used is not None:
        refuse_other_request(used.events)
    for event in services().tournaments.events(tid):
        if event.metadata.get("idempotency_key") == client:
            refuse_other_request([event])  # the same request passes: its retry is answered
            return


def refuse_reimport(events: list[StoredEvent], client: str | None) -> None:
    """The list was imported before: a retry of that request (its key, its bytes) is
    answered as the first time; anything else is refused as the command line refuses it."""
    first = events[0]
    if client is not None and first.metadata.get("idempotency_key") == client:
        refuse_other_request(events)
        return
    action = str(first.metadata.get("correlation_id") or "")[:8] or "-"
    raise Problem(
        409,
        "Conflicts with what is recorded",
        f"file: this list was imported at {first.recorded_at.isoformat(timespec='seconds')} "
        f"as action {action} (events {first.version}-{events[-1].version}); nothing stored. "
        "A changed list (another row, a corrected value) is a new import",
        field="file",
        rule="T-csv",
        imported_at=first.recorded_at.isoformat(),
        versions=[first.version, events[-1].version],
    )


def bad_file(error: CsvImportError, only_new: bool) -> Problem:
    """422 naming every bad row: its line in the file, field, rule and what is wrong."""
    rows = error.to_json()
    hint: dict[str, Any] = {}
    if not only_new and any("is already registered as player" in r["message"] for r in rows):
        hint["hint"] = "players registered already: only_new=true leaves them out"
    first = rows[0]
    return Problem(
        422,
        "Invalid CSV file",
        error.text(),
        field=first["field"],
        rule=first["rule"],
        row=first["row"],
        errors=rows,
        **hint,
    )

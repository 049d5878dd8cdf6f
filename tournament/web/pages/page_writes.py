"""How the setup and players pages write: the API's path (the same domain command, the
same service, so projections are nudged by the service's ``committed`` listeners), with
metadata saying the write came from a page, and a refusal caught so the page can show it
beside the field at fault (nothing stored: the service stores only what a command
returned)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from flask import request

from tournament.app.services import services
from tournament.domain.model.errors import DomainError
from tournament.domain.model.state import Tournament
from tournament.eventstore.api import NewEvent, StoredEvent
from tournament.web.pages.desk import refusal
from tournament.web.writes import metadata

Command = Callable[[Tournament], list[NewEvent]]


def page_metadata() -> dict[str, str]:
    """As :func:`tournament.web.writes.metadata`, with ``via: page`` and the form's
    fingerprint as ``request`` (the API's fingerprint reads the raw body, which a parsed
    form no longer has): every desk page stores its events with this."""
    return {**metadata(via="page"), "request": form_fingerprint()}


def form_fingerprint() -> str:
    """What makes two posts of a form the same post: its path and fields (the CSRF token
    aside, it changes with the session)."""
    digest = hashlib.sha256(request.path.encode() + b"\0")
    for name, value in sorted(request.form.items(multi=True)):
        if name != "csrf_token":
            digest.update(f"{name}={value}".encode() + b"\0")
    return digest.hexdigest()


def execute(tid: str, command: Command, **options: Any) -> list[StoredEvent]:
    """``command`` decided on the newest state and stored (raises its DomainError)."""
    return services().tournaments.execute(tid, command, metadata=page_metadata(), **options)


def field_errors(
    error: DomainError, known: set[str], aliases: dict[str, str] | None = None
) -> dict[str, str]:
    """The refusal keyed by the form field it names (``_form`` when the form has no such
    field): the page shows it beside that field and in the summary on top."""
    field = (aliases or {}).get(error.field, error.field)
    return {field if field in known else "_form": refusal(error)}

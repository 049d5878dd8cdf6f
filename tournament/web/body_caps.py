"""Request bodies are capped before anything parses them (trial 2, F3 and F5).

One request must never hold the service for a minute: a 12 MB body of a million JSON
keys cost a pydantic error each (49 s and a 72 MB answer), and 100,000 nested ``[``
failed the JSON decoder with a RecursionError (500). Before a view, before even the
check of who asks (so anonymous routes are capped first of all):

- the size: ``BODY_LIMIT`` bytes (1 MB: a JSON request of this API is a few KB), more
  for the views marked with :func:`accepts_body` (a players CSV: ``CSV_BODY_LIMIT``,
  4 MB; a backup: ``MAX_CONTENT_LENGTH``, 16 MB) -> 413. A body without a
  ``Content-Length`` (chunked) is cut at the same size as it is read (Flask's
  ``max_content_length``), so waitress and gunicorn alike stop it;
- a JSON body's nesting (``JSON_MAX_DEPTH``, 32) and its number of object keys and array
  items (``JSON_MAX_MEMBERS``, 10,000) -> 422 naming the body, before a model sees it.

And a refusal lists at most :data:`tournament.web.problems.MAX_ERRORS` errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

from flask import Flask, current_app, request
from flask_babel import gettext

from tournament.web.page_problems import is_page
from tournament.web.problems import Problem

F = TypeVar("F", bound=Callable[..., Any])

#: The config key of a view's body limit unless it says otherwise.
DEFAULT: Final = "BODY_LIMIT"
#: A players CSV (an upload or the API's text/csv).
CSV: Final = "CSV_BODY_LIMIT"
#: A whole backup (``POST /api/v1/import``).
BACKUP: Final = "MAX_CONTENT_LENGTH"

LIMITS: Final = {
    DEFAULT: 1024 * 1024,
    # A federation's list of 20,000 players is ~1 MB; 330,000 rows took 40 s to refuse.
    CSV: 4 * 1024 * 1024,
    BACKUP: 16 * 1024 * 1024,
    "JSON_MAX_DEPTH": 32,
    "JSON_MAX_MEMBERS": 10_000,
}


#: Methods whose body is read (a GET's never is: a live stream must not wait on it).
_BODIES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def accepts_body(limit: str) -> Callable[[F], F]:
    """Mark a view that takes a bigger body than a JSON request (:data:`CSV`,
    :data:`BACKUP`)."""

    def mark(view: F) -> F:
        view.body_limit = limit  # type: ignore[attr-defined]
        return view

    return mark


def _limit() -> int:
    key = DEFAULT
    if request.url_rule is not None and request.endpoint is not None:
        view = current_app.view_functions.get(request.endpoint)
        key = getattr(view, "body_limit", DEFAULT)
    return int(current_app.config[key])


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):g} MB"


def check_body() -> None:
    """Before every request: refuse a body too big, too deep or too wide (see module)."""
    limit = _limit()
    # Flask cuts a body read past this (also one sent chunked, without a length): 413.
    request.max_content_length = limit
    length = request.content_length
    if length is not None and length > limit:
        raise _too_large(length, limit)
    if length is None and request.method in _BODIES:
        # Sent chunked (no Content-Length): Werkzeug would cut it at the limit without a
        # word, and a CSV cut short is another list. Read it now (kept for the view).
        if len(request.get_data()) >= limit:
            raise _too_large(None, limit)
        length = len(request.get_data())
    if not length or not request.is_json:
        return
    try:
        body = request.get_json(silent=True)  # cached: the view's model reads this
    except RecursionError:  # the decoder's own limit (~1,000 levels) came first
        raise _too_nested() from None
    _check_shape(body)


def _too_large(length: int | None, limit: int) -> Problem:
    size = "is longer" if length is None else f"has {length} bytes"
    detail = f"body: this route takes at most {limit} bytes ({_megabytes(limit)}); this one {size}"
    if is_page():  # the desk's CSV upload: in the organiser's language
        detail = gettext("The file is too big: at most %(size)s.", size=_megabytes(limit))
    return Problem(413, "Request too large", detail, field="body", limit=limit)


def _too_nested() -> Problem:
    depth = int(current_app.config["JSON_MAX_DEPTH"])
    return Problem(
        422,
        "Invalid request",
        f"body: JSON nested deeper than {depth} levels",
        field="body",
        errors=[{"field": "body", "message": f"nested deeper than {depth} levels"}],
    )


def _check_shape(body: Any) -> None:
    """Walk ``body`` without recursion: its depth and its members (keys and items)."""
    depth_limit = int(current_app.config["JSON_MAX_DEPTH"])
    member_limit = int(current_app.config["JSON_MAX_MEMBERS"])
    members = 0
    pending: list[tuple[Any, int]] = [(body, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > depth_limit:
            raise _too_nested()
        members += len(children)
        if members > member_limit:
            raise Problem(
                422,
                "Invalid request",
                f"body: more than {member_limit} keys and items in all",
                field="body",
                errors=[{"field": "body", "message": f"more than {member_limit} keys and items"}],
            )
        pending.extend((child, depth + 1) for child in children)


def install(app: Flask) -> None:
    """Cap every request's body on ``app`` (before every other check: call this before
    :func:`tournament.web.auth.install`)."""
    for key, value in LIMITS.items():
        app.config.setdefault(key, value)
    app.before_request(check_body)

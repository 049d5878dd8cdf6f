"""Every error the service answers is RFC 9457 ``application/problem+json``.

A body names what is wrong and where: ``field`` and ``rule`` (a rule id of docs/rules.md such
as ``R13``, or a tournament rule ``T-...`` of docs/tournaments.md) for a refusal of the
domain, ``errors`` (each with its ``field`` or ``row``) for bad input, ``request_id``
always, so an organiser's screenshot of a 500 leads to its log line::

    {"type": "https://schnapsen.example/problems/domain", "title": "Refused by the rules",
     "status": 422, "detail": "game_points: a hand is worth 1, 2 or 3 game points (R13)",
     "field": "game_points", "rule": "R13", "request_id": "5f0c..."}

Nothing here decides anything: views raise :class:`Problem` or a domain error and the
handlers registered by :func:`install` turn it into the response.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import Flask, Response, current_app, g, json, request
from pydantic import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.words.messages import plain
from tournament.eventstore.errors import IdempotencyKeyReusedError
from tournament.eventstore.failures import (
    DISK_ERROR,
    DISK_FULL,
    NO_CONNECTION,
    READ_ONLY,
    UNREACHABLE,
    first_line,
    outage,
)
from tournament.eventstore.sqlite_connections import StoreBusyError, is_busy
from tournament.web.page_problems import is_page, page_problem
from tournament.web.plain_structlog import structlog

PROBLEM_JSON = "application/problem+json"
#: ``type`` URIs of the problems (documented in docs/api.md; never fetched by a client).
TYPE_BASE = "https://schnapsen-tournament.invalid/problems/"


class Problem(Exception):
    """An error response: raised by a view, answered as problem+json."""

    def __init__(
        self,
        status: int,
        title: str,
        detail: str,
        *,
        kind: str | None = None,
        headers: Mapping[str, str] | None = None,
        **extensions: Any,
    ) -> None:
        super().__init__(detail)
        self.status, self.title, self.detail = status, title, detail
        self.kind = kind or _KINDS.get(status, "error")
        self.headers = dict(headers or {})
        self.extensions = extensions


_KINDS = {
    400: "bad-request",
    401: "unauthenticated",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    409: "conflict",
    412: "precondition-failed",
    413: "too-large",
    415: "unsupported-media-type",
    422: "invalid",
    428: "precondition-required",
    429: "too-many-requests",
    500: "server-error",
    503: "unavailable",
}

#: Seconds a client is told to wait after a 503 for a busy database.
BUSY_RETRY_AFTER = 2


def response(problem: Problem) -> Response:
    if is_page():  # a page of the desk: a page answers, never JSON
        answer = page_problem(problem.status, problem.title, problem.detail)
        for name in ("Allow", "Retry-After"):
            if name in problem.headers:
                answer.headers[name] = problem.headers[name]
        return answer
    body: dict[str, Any] = {
        "type": TYPE_BASE + problem.kind,
        "title": problem.title,
        "status": problem.status,
        "detail": problem.detail,
        "instance": request.path,
        **problem.extensions,
        "request_id": request_id(),
    }
    answer = Response(
        json.dumps(body, ensure_ascii=False), status=problem.status, mimetype=PROBLEM_JSON
    )
    answer.headers.update(problem.headers)
    return answer


def request_id() -> str:
    """This request's id (the ``X-Request-ID`` answered and logged with every line)."""
    return str(getattr(g, "request_id", "") or "-")


def from_domain(error: DomainError) -> Problem:
    """A refusal of the rules: 404 for what is not there, 409 for what contradicts the
    record (a decided match, a started round), 422 for the rest."""
    if isinstance(error, NotFoundError):
        status, title = 404, "Not found"
    elif isinstance(error, ConflictError):
        status, title = 409, "Conflicts with what is recorded"
    else:
        status, title = 422, "Refused by the rules"
    # code and params: a client renders the refusal in its own language (docs/api.md).
    coded: dict[str, Any] = {}
    if error.code is not None:
        coded = {"code": error.code, "params": plain(error.params)}
    return Problem(
        status,
        title,
        error.line(),
        kind="domain" if status == 422 else None,
        field=error.field,
        rule=error.rule,
        **coded,
        errors=[error.to_json()],
    )


#: Errors a refusal lists at most (and says how many more there were): a body of a
#: million unknown keys answered 72 MB of them (trial 2, F3).
MAX_ERRORS = 20


def from_validation(error: ValidationError, where: str = "body") -> Problem:
    """Input that does not fit the operation's schema: the fields at fault, by their
    path (``body.hands[2].winner``, ``query.round``), the first :data:`MAX_ERRORS` of
    them."""
    errors = []
    found = error.error_count()
    for item in error.errors(include_url=False)[:MAX_ERRORS]:
        location = ".".join(str(part) for part in (where, *item.get("loc", ())))
        errors.append({"field": location, "message": item.get("msg", "invalid")})
    first = errors[0] if errors else {"field": where, "message": "invalid"}
    return Problem(
        422,
        "Invalid request",
        f"{first['field']}: {first['message']}" + (f" (and {found - 1} more)" if found > 1 else ""),
        field=first["field"],
        errors=errors,
    )


def invalid(field: str, message: str, *, rule: str | None = None) -> Problem:
    """422 naming one field."""
    extra: dict[str, Any] = {"field": field, "errors": [{"field": field, "message": message}]}
    if rule:
        extra["rule"] = rule
    return Problem(422, "Invalid request", f"{field}: {message}", **extra)


def key_reused() -> Problem:
    """An Idempotency-Key a request for another tournament stored: a client's mistake,
    refused as a reuse for another request is (writes.refuse_other_request), not a 500."""
    return invalid(
        "Idempotency-Key",
        "this key was used for another request (another tournament): use a new key for a "
        "new request (nothing stored)",
    )


def _http(error: HTTPException) -> Response:
    status = error.code or 500
    headers: dict[str, str] = {}
    detail = error.description or error.name
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        allowed = sorted(set(error.valid_methods))
        headers["Allow"] = ", ".join(allowed)
        detail = f"{request.method} is not allowed here; allowed: {', '.join(allowed)}"
    elif status == 404:
        detail = f"there is nothing at {request.path}"
        if _wants_a_page():  # a browser gets a page in its language, never raw JSON (O-L3)
            from flask_babel import gettext

            g.page = g.localized = True
            detail = gettext("There is nothing at %(path)s.", path=request.path)
    original = error.get_response().headers
    for name in ("Retry-After", "WWW-Authenticate"):
        if name in original:
            headers[name] = original[name]
    return response(Problem(status, error.name, detail, headers=headers))


def _wants_a_page() -> bool:
    """A browser's request outside the API: it prefers HTML to JSON (``*/*`` alone, as
    curl sends it, prefers JSON)."""
    if request.path.startswith("/api/"):
        return False
    offered = ["application/problem+json", "application/json", "text/html"]
    return request.accept_mimetypes.best_match(offered) == "text/html"


def busy() -> Problem:
    """The database's write lock was not free in time (hundreds of online tables'
    moves at once, or a long write of another process): nothing was stored, try again."""
    from flask_babel import gettext

    detail = "the service is busy and stored nothing of this request; try again in a moment"
    if is_page():  # a page shows it in the reader's language
        detail = gettext(
            "The service is busy and stored nothing of this request: try again in a moment."
        )
    return Problem(503, "Service busy", detail, headers={"Retry-After": str(BUSY_RETRY_AFTER)})


#: Seconds a client is told to wait after a 503 for a database away or full (a restart
#: takes seconds; a full disk needs the operator, and a retry every half minute is cheap).
OUTAGE_RETRY_AFTER = {DISK_FULL: 30, READ_ONLY: 30, DISK_ERROR: 30}
_OUTAGE_DETAILS = {
    UNREACHABLE: "the database is unreachable (a restart?)",
    NO_CONNECTION: "the database has no connection free",
    DISK_FULL: "the database's disk is full",
    READ_ONLY: "the database is read-only",
    DISK_ERROR: "the database's disk failed to read or write",
}


def unavailable(cause: str) -> Problem:
    """The database cannot serve now (:func:`tournament.eventstore.failures.outage`):
    nothing of the request was stored; try again after Retry-After. A page says it in
    the reader's language."""
    from flask_babel import gettext

    detail = f"{_OUTAGE_DETAILS[cause]}; nothing of this request was stored: try again later"
    if is_page() or _wants_a_page():
        g.page = g.localized = True
        pages = {
            UNREACHABLE: gettext("The database cannot be reached (is it restarting?)."),
            NO_CONNECTION: gettext("The database has no connection free."),
            DISK_FULL: gettext("The database's disk is full."),
            READ_ONLY: gettext("The database is read-only."),
            DISK_ERROR: gettext("The database's disk failed to read or write."),
        }
        detail = (
            pages[cause]
            + " "
            + gettext("Nothing of this request was stored: try again in a moment.")
        )
    retry = OUTAGE_RETRY_AFTER.get(cause, 5)
    return Problem(
        503, "Database unavailable", detail, kind="unavailable", cause=cause,
        headers={"Retry-After": str(retry)},
    )  # fmt: skip


def _unexpected(error: Exception) -> Response:
    if is_busy(error):  # SQLite's "database is locked" from any writer: 503, never 500
        structlog.get_logger("schnapsen.error").warning("database busy", error=str(error))
        return response(busy())
    cause = outage(error)
    if cause is not None:  # the database away, restarting or full: 503, never 500
        from tournament.web.readiness import note_outage

        note_outage(current_app, cause)
        structlog.get_logger("schnapsen.error").warning(
            "database unavailable", cause=cause, error=first_line(error)
        )
        return response(unavailable(cause))
    # One JSON line with the request id and the traceback (ops.configure_logging).
    structlog.get_logger("schnapsen.error").error("unexpected error", exc_info=error)
    return response(
        Problem(
            500,
            "Server error",
            "the service failed on this request; nothing was stored by it. Quote the "
            "request_id to the operator (it names the log line)",
        )
    )


def install(app: Flask) -> None:
    """Answer every error of ``app`` as problem+json."""
    app.register_error_handler(Problem, response)
    app.register_error_handler(DomainError, lambda error: response(from_domain(error)))
    app.register_error_handler(HTTPException, _http)
    app.register_error_handler(StoreBusyError, lambda error: response(busy()))
    app.register_error_handler(IdempotencyKeyReusedError, lambda error: response(key_reused()))
    app.register_error_handler(Exception, _unexpected)


def validation_callback(error: ValidationError) -> Response:
    """flask-openapi3's hook for a request that does not fit its models."""
    where = _where(error)
    if where == "body" and request.get_data() and request.get_json(silent=True) is None:
        return response(
            invalid("body", "not JSON: send a JSON object (Content-Type: application/json)")
        )
    return response(from_validation(error, where))


def _where(error: ValidationError) -> str:
    # flask-openapi3 validates header, cookie, path, query, then the body, one model each;
    # the model's title names which one failed.
    title = (error.title or "").lower()
    for part in ("header", "cookie", "path", "query", "form"):
        if part in title:
            return part
    return "body"


def documented(statuses: Sequence[int]) -> dict[str | int, Any]:
    """The ``responses`` of an operation for these problem statuses (OpenAPI)."""
    from tournament.web.api.models import ProblemDetails

    return {status: ProblemDetails for status in statuses}

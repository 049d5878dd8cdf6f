"""The short way for the service's hottest request: a plain ``GET
/api/v1/tournaments/<tid>/standings`` (the projector and every phone in the hall, every
few seconds), answered before Flask makes a request of it (issue 22, trial 9's P1).

Through Flask that answer cost three times a trivial Flask app's: the request context,
seven before/after hooks (request id, body caps, caller, CSRF, limiter, language,
security headers), the query's validation and the response object -- for a request that
needs none of them but the id, the headers, the log line and the metrics. Here it takes
the same versions (:func:`tournament.web.projected.held_fresh`: known to this process, or
one lookup) and the bytes :func:`tournament.web.reads.versioned` made for that version,
and answers what the long way answers, header for header
(tests/web/test_standings_shortcut.py compares them).

Still needed once the versions are known without a query (trial 9's P1 target, >= 0.5x
a Flask hello under gunicorn): Flask's own path costs ~1.7-1.8 ms of worker CPU per
standings GET, 200 or 304 (request context, hooks, validation, response object), and
measured 0.40x of the hello; this one 0.6-0.7 ms, at or above the hello
(bench/standings_get.py).

Only the plainest request is taken: GET, no query, no body, no ``Authorization``, no
session cookie, ``Accept`` absent, ``*/*`` or JSON, a well-formed id; and only when the
projection is fresh, this process holds its body (or the client has it: 304). Anything
else -- a stale table, one never projected, the first request of a version, a database
that does not answer, a bad id -- goes the long way, which waits, works out, or answers
the problem as before.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from werkzeug.http import parse_etags

from tournament.json_logs import redact_path
from tournament.web import headers as security
from tournament.web import metrics, ops
from tournament.web.api.standings import cache_name
from tournament.web.projected_reads import held_fresh
from tournament.web.reads import BODIES, JSON, body_key, entity_tag, not_modified_by

#: The route as Flask has it (the metrics' label), and the paths it takes here: the ids
#: :class:`tournament.web.api.models.TournamentPath` accepts.
ROUTE = "/api/v1/tournaments/<tid>/standings"
_PATH = re.compile(r"/api/v1/tournaments/([A-Za-z0-9_-]{1,120})/standings")
#: ``Accept`` values that make the JSON answer (as ``_negotiate`` decides for them).
_JSON_ACCEPTS = frozenset({"", "*/*", JSON, "application/*"})

#: A plain request's query: no as_of, round, group or category.
_NOTHING_ASKED = (None, None, None, None)

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class StandingsShortcut:
    """WSGI middleware in front of ``app``'s own ``wsgi_app`` (``inner``)."""

    def __init__(self, app: Flask, inner: WSGIApp) -> None:
        self.app = app
        self.inner = inner

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("REQUEST_METHOD") == "GET" and not environ.get("QUERY_STRING"):
            asked = _PATH.fullmatch(environ.get("PATH_INFO", ""))
            if asked is not None and self._plain(environ):
                started = time.perf_counter()
                # Bound first, as the long way does (which binds it again if it answers).
                request_id = ops.request_id_for(environ.get("HTTP_X_REQUEST_ID", ""))
                answer = self._answer(environ, asked.group(1))
                if answer is not None:
                    return self._send(environ, start_response, started, request_id, *answer)
        return self.inner(environ, start_response)

    def _plain(self, environ: dict[str, Any]) -> bool:
        """A request that needs nothing of the long way's hooks: no caller to identify
        (no token, no session cookie), no body to cap, JSON wanted."""
        if environ.get("HTTP_AUTHORIZATION") or environ.get("HTTP_TRANSFER_ENCODING"):
            return False
        if environ.get("CONTENT_LENGTH", "") not in ("", "0"):
            return False
        if self.app.config["SESSION_COOKIE_NAME"] in environ.get("HTTP_COOKIE", ""):
            return False
        return environ.get("HTTP_ACCEPT", "").strip() in _JSON_ACCEPTS

    def _answer(self, environ: dict[str, Any], tid: str) -> tuple[int, bytes, str] | None:
        """(status, body, ETag), or None: go the long way."""
        try:
            reading = held_fresh(self.app, tid, "standings")
        except Exception:  # the long way answers the problem, as it would have
            return None
        if reading is None:
            return None
        # As get_standings and versioned() make it for this request (JSON, no query).
        tag = entity_tag(reading.version, "json")
        if not_modified_by(tag, parse_etags(environ.get("HTTP_IF_NONE_MATCH"))):
            return 304, b"", tag
        found = self.app.extensions.get(BODIES)
        key = body_key(cache_name(tid, _NOTHING_ASKED, False), reading.version, "json", JSON)
        body = found.held(key) if found is not None else None
        if body is None:
            return None  # not made yet for this version: the long way makes it
        return 200, body, tag

    def _send(
        self, environ: dict[str, Any], start_response: Callable[..., Any], started: float,
        request_id: str, status: int, body: bytes, tag: str,
    ) -> list[bytes]:  # fmt: skip
        sent: list[tuple[str, str]] = []
        if status == 200:
            sent += [("Content-Type", JSON), ("Content-Length", str(len(body)))]
        sent += [
            ("ETag", tag),
            ("Cache-Control", "no-cache"),
            ("Vary", "Accept, Authorization"),
            ("Content-Security-Policy", security.POLICY),
            *security.HEADERS.items(),
            ("X-Request-ID", request_id),
        ]
        seconds = time.perf_counter() - started
        counted = metrics.of(self.app)
        if counted is not None:
            counted.observe_route("GET", ROUTE, status, seconds)
        ops.access_line(
            "GET", redact_path(environ["PATH_INFO"]), status, seconds, None,
            environ.get("REMOTE_ADDR"),
        )  # fmt: skip
        start_response("200 OK" if status == 200 else "304 NOT MODIFIED", sent)
        return [body] if body else []


def install(app: Flask) -> None:
    """Answer plain standings GETs the short way (before ProxyFix wraps the app: the
    log's ``remote`` is the client's address, as the long way logs it)."""
    app.wsgi_app = StandingsShortcut(app, app.wsgi_app)  # type: ignore[method-assign]

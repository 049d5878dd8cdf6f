"""Errors as pages (issue 11): whether a request is a page of the desk, and a problem
rendered as one (``errors/problem.html``, in the reader's language; 401 goes to sign in).

The error handling (:mod:`tournament.web.problems`), the role checks (:mod:`tournament.web.auth`)
and the body caps ask this module, not a page: the desk's pages
(:mod:`tournament.web.pages.desk`) mark themselves through it.
"""

from __future__ import annotations

from urllib.parse import quote

from flask import Response, g, render_template, request
from flask_babel import gettext

#: The desk's blueprints: the app's own checks (signing in, roles) run before a
#: blueprint's ``before_request``, so a refusal there knows a page by its blueprint.
DESK_BLUEPRINTS: set[str] = set()


def mark_page() -> None:
    """This request is a page: errors answer as pages, in the reader's language."""
    g.page = True
    g.localized = True


def is_page() -> bool:
    return bool(g.get("page")) or request.blueprint in DESK_BLUEPRINTS


def page_problem(status: int, title: str, detail: str) -> Response:
    """A problem as a page: 401 goes to sign in and back, the rest is shown."""
    if status == 401:
        target = f"/login?next={quote(request.full_path.rstrip('?'))}"
        return Response(status=303, headers={"Location": target})
    titles = {
        403: gettext("Not allowed"),
        404: gettext("Not found"),
        409: gettext("Conflicts with what is recorded"),
        422: gettext("Refused by the rules"),
        429: gettext("Too many attempts: wait a moment"),
    }
    html = render_template(
        "errors/problem.html",
        status=status,
        title=titles.get(status, gettext("Something went wrong")) if status >= 400 else title,
        detail=detail,
        back=request.referrer or "/desk",
    )
    return Response(html, status=status, mimetype="text/html")

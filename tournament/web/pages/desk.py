"""What every page of the organiser's desk shares (issue 11): the blueprints, signing in
first, errors as pages, and the domain's refusals in the reader's language.

The desk lives under ``/desk`` (the list of one's tournaments, a new tournament) and
``/desk/t/<tid>/...`` (one tournament), so the role check of :mod:`tournament.web.auth`
finds the tournament in the route's ``tid`` as the API's does. Each area is a module of
its own with its own blueprint made by :func:`desk_blueprint`; a page marks what it needs
with ``@requires(Role.ORGANISER)`` (or ``SCORER``, ``ACCOUNT``) like an API route.

A page is not the API: a visitor who is not signed in is sent to ``/login`` and comes back;
a refusal renders ``errors/problem.html`` in the reader's language, never JSON
(:func:`tournament.web.page_problems.page_problem`, which :func:`tournament.web.problems.response`
calls for a request that :func:`~tournament.web.page_problems.is_page` marks).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from flask_babel import gettext
from flask_wtf.csrf import generate_csrf

from tournament.accounts.roles import Role
from tournament.domain.model.errors import DomainError
from tournament.web.auth import caller
from tournament.web.page_problems import DESK_BLUEPRINTS, mark_page
from tournament.web.pages.messages import describe


def desk_blueprint(name: str, import_name: str) -> Blueprint:
    """A blueprint of desk pages: each of its requests is a localized page."""
    blueprint = Blueprint(name, import_name)
    blueprint.before_request(mark_page)
    DESK_BLUEPRINTS.add(name)
    return blueprint


def refusal(error: DomainError) -> str:
    """A refusal of the rules in the reader's language, naming field and rule."""
    return describe(error)


def desk_context(tid: str | None = None, **values: Any) -> dict[str, Any]:
    """What the desk layout needs besides the page's own values: ``may_open(need)`` tells
    the nav whether the caller's role in ``tid`` opens a page that needs ``need`` (a
    scorer sees no link that would only refuse them)."""
    role = caller().role_in(tid) if tid else Role.PUBLIC

    def may_open(need: str) -> bool:
        return role >= Role.parse(need)

    return {"tid": tid, "csrf_token": generate_csrf(), "what": gettext, "may_open": may_open,
            **values}  # fmt: skip

"""Who is asking, and may they: API tokens (``Authorization: Bearer``), session logins
for pages, and the role each route needs.

Every route says what it needs where it is written::

    @api.post("/tournaments/<tid>/rounds/<int:n>/cancel")
    @requires(Role.ORGANISER)
    def cancel_round(path: RoundPath): ...

Roles are per tournament (the route's ``tid``): public < scorer < organiser < owner
(:class:`tournament.accounts.roles.Role`); an admin acts as owner everywhere.
``requires(ACCOUNT)`` asks only for a signed-in account (creating a tournament makes its
creator the owner), ``requires(ADMIN)`` for an admin (restoring a backup). A route
without a requirement is a read for everyone; a write without one is refused, so a route
someone forgot to mark fails closed (and tests/web/test_roles_on_every_route.py fails).

A session login (pages) writes only with its CSRF token (``X-CSRFToken`` header or the
form's ``csrf_token``); a token in the header is not sent by a browser on its own, so it
needs none.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Final, TypeVar

from flask import Flask, current_app, g, request, session
from flask_wtf.csrf import CSRFError, CSRFProtect

from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.web.page_problems import is_page
from tournament.web.plain_structlog import structlog
from tournament.web.problems import Problem

F = TypeVar("F", bound=Callable[..., Any])

#: A signed-in account, whatever its roles.
ACCOUNT: Final = "account"
#: An admin account.
ADMIN: Final = "admin"
#: Anyone, also for a write: logging in, the first organiser's setup link.
ANYONE: Final = "anyone"

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

csrf = CSRFProtect()


@dataclasses.dataclass(frozen=True)
class Caller:
    """Who made the request: an account (by token or session) or nobody."""

    account_id: int | None = None
    email: str | None = None
    admin: bool = False
    by_session: bool = False

    @property
    def actor(self) -> str:
        """Who the log records as having done it: the account, never a name the request
        typed (trial 2, F12)."""
        return self.email or "anonymous"

    def role_in(self, tournament_id: str) -> Role:
        if self.account_id is None:
            return Role.PUBLIC
        if self.admin:
            return Role.OWNER
        return services().accounts.role_of(self.account_id, tournament_id)


def requires(need: Role | str) -> Callable[[F], F]:
    """Mark a view with what its caller needs (checked before the view runs)."""

    def mark(view: F) -> F:
        view.required = need  # type: ignore[attr-defined]
        return view

    return mark


def required_of(view: Callable[..., Any] | None) -> Role | str | None:
    return getattr(view, "required", None)


def caller() -> Caller:
    found: Caller = g.caller
    return found


def _identify() -> Caller:
    header = request.headers.get("Authorization", "")
    if header:
        scheme, _, secret = header.partition(" ")
        if scheme.lower() != "bearer" or not secret.strip():
            raise _unauthenticated("Authorization: send 'Bearer <token>'", "invalid_request")
        account = services().accounts.account_for_token(secret.strip())
        if account is None:
            raise _unauthenticated("the token is unknown or revoked", "invalid_token")
        return Caller(account.id, account.email, account.admin)
    if current_app.config["SESSION_COOKIE_NAME"] not in request.cookies:
        return Caller()  # no session to open (a script, a phone reading the standings)
    account_id = session.get("account_id")
    if isinstance(account_id, int):
        account = services().accounts.get(account_id)
        # A session signed in before the account signed out or changed its password is
        # over (server side: a copied cookie too; trial 2, F4).
        if account is not None and session.get("generation") == account.session_generation:
            return Caller(account.id, account.email, account.admin, by_session=True)
        session.clear()
    return Caller()


def _unauthenticated(detail: str, error: str | None = None) -> Problem:
    challenge = 'Bearer realm="schnapsen"' + (f', error="{error}"' if error else "")
    return Problem(401, "Not signed in", detail, headers={"WWW-Authenticate": challenge})


def _check() -> None:
    """Before every request: who it is, and whether the route lets them."""
    if request.routing_exception is not None:
        g.caller = Caller()
        return  # no such route or method: the 404 or 405 answers, whoever asks
    if request.endpoint == "metrics":
        g.caller = Caller()
        return  # its own check: the loopback, or the metrics token (not an account's)
    g.caller = who = _identify()
    view = _view()
    if view is None:
        return  # no route: the 404 or 405 answers
    need = required_of(view)
    if need is None:
        if request.method in SAFE_METHODS:
            return
        need = ADMIN  # fail closed: a write nobody marked
    if need == ANYONE:
        # The sign-in forms carry a CSRF token (no other site may sign a browser in). A
        # JSON body cannot come from another site's form: a browser sends one across
        # sites only after a CORS preflight, which this service never allows; so a
        # script's POST /api/v1/tokens needs none.
        if request.method not in SAFE_METHODS and not request.is_json:
            csrf.protect()
        return
    if who.account_id is None:
        raise _unauthenticated(
            "this needs a signed-in account: send 'Authorization: Bearer <token>'"
        )
    if who.by_session and request.method not in SAFE_METHODS:
        csrf.protect()
    if need == ACCOUNT:
        return
    if need == ADMIN:
        if not who.admin:
            raise Problem(403, "Forbidden", "this needs an admin account")
        return
    assert isinstance(need, Role)
    tournament_id = (request.view_args or {}).get("tid")
    if tournament_id is None:
        raise Problem(403, "Forbidden", "this route has no tournament to hold a role in")
    has = who.role_in(str(tournament_id))
    if has < need:
        raise Problem(
            403,
            "Forbidden",
            f"this needs the role {need.name.lower()} in tournament {tournament_id!r}; "
            f"{who.email} has {has.name.lower()}",
            required_role=need.name.lower(),
            role=has.name.lower(),
        )


def _view() -> Callable[..., Any] | None:
    from flask import current_app

    if request.url_rule is None or request.endpoint is None:
        return None
    view: Callable[..., Any] | None = current_app.view_functions.get(request.endpoint)
    return view


def _csrf_problem(error: CSRFError) -> Problem:
    if _a_browsers_form():
        # A page in the reader's language with a way back, never problem+json (operator
        # F2); the reason in English goes to the log for the operator.
        from flask_babel import gettext

        g.page = g.localized = True
        structlog.get_logger("schnapsen.csrf").warning(
            "form refused", reason=error.description, host=request.host
        )
        detail = gettext(
            "This form was not accepted: it did not come from a page of this service as "
            "the service sees it (the page is too old, or the address differs). Go back, "
            "reload the page and send the form again."
        )
        return Problem(403, "Forbidden", detail, kind="csrf")
    return Problem(
        403,
        "Forbidden",
        f"CSRF: {error.description} (a signed-in page sends its csrf_token; a script uses "
        "a token: Authorization: Bearer)",
        kind="csrf",
    )


#: What a browser's HTML form sends: anything else (JSON) is a script's.
FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def _a_browsers_form() -> bool:
    """A form posted by a browser to a page (not the API): its refusal is a page."""
    if request.path.startswith("/api/"):
        return False
    return is_page() or request.mimetype in FORM_TYPES


def install(app: Flask) -> None:
    app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", False)  # checked in _check, as needed
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a laptop session lasts the evening
    csrf.init_app(app)
    app.before_request(_check)
    app.register_error_handler(CSRFError, lambda e: _raise(_csrf_problem(e)))


def _raise(problem: Problem) -> Any:
    from tournament.web.problems import response

    return response(problem)

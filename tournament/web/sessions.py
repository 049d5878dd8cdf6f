"""Signing in for pages: ``/login``, ``/logout`` and the first organiser's ``/setup``.

Pages sign in (``templates/sessions/form.html``, German or English) with a session
cookie: HttpOnly, SameSite=Lax, Secure behind TLS (:mod:`tournament.web.settings`), and
every form carries a CSRF token.
Login attempts are rate-limited per address (Flask-Limiter: in memory on a laptop, in
Redis when one is configured, so every web process counts the same attempts).

``/setup?token=...`` works only while there is no account, only with the one-time token
``./dev serve`` printed, and only once: it creates the first organiser (an admin).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, g, redirect, render_template, request, session, url_for
from flask_babel import gettext
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from tournament.accounts.errors import AccountError
from tournament.web.auth import ANYONE, requires
from tournament.web.services import services

pages = Blueprint("sessions", __name__)


def _form(title: str, button: str, *, message: str = "", status: int = 200, setup: bool = False,
          token: str = "", email: str = "") -> tuple[str, int]:  # fmt: skip
    g.localized = True  # the same URL answers in German or English
    # A sign-in form posts to /login wherever it is shown: on /setup after the first
    # account exists it would post back to /setup, which answers 410 again.
    action = "" if setup else url_for("sessions.login", next=request.args.get("next") or None)
    html = render_template(
        "sessions/form.html", title=title, button=button, message=message, csrf=generate_csrf(),
        setup=setup, token=token, email=email, action=action,
    )  # fmt: skip
    return html, status


@pages.route("/login", methods=["GET", "POST"])
@requires(ANYONE)
def login() -> Response | tuple[str, int]:
    if request.method == "GET":
        return _form(gettext("Sign in"), gettext("Sign in"))
    email = request.form.get("email", "")
    account = services().accounts.authenticate(email, request.form.get("password", ""))
    if account is None:
        wrong = gettext("Wrong email or password.")
        return _form(gettext("Sign in"), gettext("Sign in"), message=wrong, status=401, email=email)
    _sign_in(account.id)
    return redirect(_next_page(), code=303)


@pages.post("/logout")
@requires(ANYONE)
def logout() -> Response:
    session.clear()
    return redirect("/login", code=303)


@pages.route("/setup", methods=["GET", "POST"])
@requires(ANYONE)
def setup() -> Response | tuple[str, int]:
    token = request.values.get("token", "")
    title = gettext("Create the first organiser")
    if services().accounts.count():
        done = gettext("The service is set up already: sign in.")
        return _form(gettext("Sign in"), gettext("Sign in"), message=done, status=410)
    if request.method == "GET":
        return _form(title, gettext("Create"), setup=True, token=token)
    email = request.form.get("email", "")
    try:
        account = services().accounts.complete_setup(token, email, request.form.get("password", ""))
    except AccountError as error:
        return _form(title, gettext("Create"), message=error.line(), status=422, setup=True,
                     token=token, email=email)  # fmt: skip
    _sign_in(account.id)
    return redirect("/desk", code=303)


def _sign_in(account_id: int) -> None:
    session.clear()  # a new session on sign-in: no fixation
    session["account_id"] = account_id
    session.permanent = True


def _next_page() -> str:
    target = request.args.get("next", "/desk")
    # Only a path of this site: never an open redirect to another host.
    return target if target.startswith("/") and not target.startswith("//") else "/desk"


def install(app: Flask) -> None:
    """Register the pages on ``app``, with a limiter of its own (storage from the app's
    config)."""
    limiter = Limiter(
        get_remote_address,
        app=app,
        default_limits=[],
        headers_enabled=True,
        storage_uri=app.config["RATELIMIT_STORAGE_URI"],
    )
    # Only the sign-in views have a limit, and each checks it in its own wrapper
    # (limit_logins); the limiter's check before every request found nothing to do at a
    # cost of ~12% of a standings GET (bench/api.py).
    app.before_request_funcs[None].remove(limiter._check_request_limit)
    app.extensions["login_limiter"] = limiter
    app.register_blueprint(pages)


def limit_logins(app: Flask, endpoints: tuple[str, ...]) -> None:
    """Rate-limit the POSTs of ``endpoints`` (those that take a password or a setup
    token) by ``LOGIN_RATE_LIMIT`` per address. The registered views are wrapped: the
    limiter checks a limit where its decorator wraps the view that runs."""
    limiter: Limiter = app.extensions["login_limiter"]
    limit = str(app.config["LOGIN_RATE_LIMIT"])
    for endpoint in endpoints:
        view: Any = app.view_functions[endpoint]
        app.view_functions[endpoint] = limiter.limit(limit, methods=["POST"])(view)

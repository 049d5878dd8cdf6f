"""Signing in for pages: ``/login``, ``/logout`` and the first organiser's ``/setup``.

Pages sign in (``templates/sessions/form.html``, German or English) with a session
cookie: HttpOnly, SameSite=Lax, Secure behind TLS (:mod:`tournament.web.settings`), and
every form carries a CSRF token.
Refused login attempts are rate-limited per address and per account (Flask-Limiter: in
memory on a laptop, in Redis when one is configured, so every web process counts the same
attempts); a sign-in that succeeds counts for neither.

``/setup?token=...`` works only while there is no account, only with the one-time token
``./dev serve`` printed, and only once: it creates the first organiser (an admin).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from flask import Flask, Request, g, redirect, render_template, request, session, url_for
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_babel import gettext
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from tournament.accounts.errors import AccountError
from tournament.app.services import services
from tournament.web.auth import ACCOUNT, ANYONE, caller, requires
from tournament.web.lazy_limiter import LazyLimiter, View
from tournament.web.pages.desk import desk_blueprint

if TYPE_CHECKING:
    from flask_limiter import Limiter

# A page blueprint: a refusal (429 while limited, a CSRF failure) answers as a page in
# the reader's language, never JSON.
pages = desk_blueprint("sessions", __name__)


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
    _sign_in(account.id, account.session_generation)
    return redirect(_next_page(), code=303)


@pages.post("/logout")
@requires(ANYONE)
def logout() -> Response:
    # Server side: every session of the account ends, also a copy of this cookie (a
    # synced browser profile, a backup of the club laptop; trial 2, F4).
    account_id = session.get("account_id")
    if isinstance(account_id, int):
        services().accounts.end_sessions(account_id)
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
    _sign_in(account.id, account.session_generation)
    return redirect("/desk", code=303)


#: The signed-in account's own page under /desk (a desk page: signed out, it asks to sign
#: in and comes back).
account_pages = desk_blueprint("account", __name__)


@account_pages.route("/desk/password", methods=["GET", "POST"])
@requires(ACCOUNT)
def password() -> Response | tuple[str, int]:
    """A new password for the signed-in account: every other session of it ends (the
    generation moves on), this browser stays signed in."""
    g.localized = True
    email = caller().email or ""
    message, status = "", 200
    if request.method == "POST":
        accounts = services().accounts
        if accounts.authenticate(email, request.form.get("password", "")) is None:
            message, status = gettext("The current password is wrong."), 401
        else:
            try:
                accounts.set_password(email, request.form.get("new_password", ""))
            except AccountError as error:
                message, status = error.line(), 422
            else:
                account = accounts.by_email(email)
                assert account is not None
                _sign_in(account.id, account.session_generation)
                return redirect("/desk", code=303)
    html = render_template("sessions/password.html", message=message, csrf=generate_csrf(),
                           email=email)  # fmt: skip
    return html, status


def _sign_in(account_id: int, generation: int) -> None:
    session.clear()  # a new session on sign-in: no fixation
    session["account_id"] = account_id
    # The session lasts while the account keeps this generation (auth._identify).
    session["generation"] = generation
    session.permanent = True


def _next_page() -> str:
    return local_path(request.args.get("next"))


#: ASCII whitespace and control characters: a browser drops them anywhere in a URL, and
#: Werkzeug drops a TAB when it builds ``Location`` (trial 2, F1: ``/%09/evil`` left the
#: site as ``//evil``).
_DROPPED = re.compile(r"[\x00-\x20\x7f]")


def local_path(target: str | None, default: str = "/desk") -> str:
    """``target`` if it is a path of this site, else ``default``: never an open redirect
    to another host.

    It is judged as a browser would read it: without whitespace and control characters,
    with ``\\`` as ``/``, and percent-decoded as often as it decodes; each of those forms
    must be a path with one leading ``/`` and no scheme or host.

    >>> local_path("/t/cup?lang=de")
    '/t/cup?lang=de'
    >>> [local_path(bad) for bad in ("/\\t/evil", "/%5Cevil", "//evil", "https://evil")]
    ['/desk', '/desk', '/desk', '/desk']
    """
    if not target:
        return default
    cleaned = _DROPPED.sub("", target).replace("\\", "/")
    form = cleaned
    for _ in range(4):  # /%252F... decodes twice; a fifth level is refused below
        if not _is_local(form):
            return default
        decoded = _DROPPED.sub("", unquote(form)).replace("\\", "/")
        if decoded == form:
            return cleaned
        form = decoded
    return default


def _is_local(form: str) -> bool:
    parts = urlsplit(form)
    return (
        form.startswith("/")
        and not form.startswith("//")
        and parts.scheme == ""
        and parts.netloc == ""
    )


class _CookieSessions(SecureCookieSessionInterface):
    """Flask's signed cookie sessions, without making the cookie's signer for a request
    that sends no session cookie (a phone polling the standings, a script): its session
    is empty either way (trial 9, P1)."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if app.config["SESSION_COOKIE_NAME"] not in request.cookies and app.secret_key:
            return self.session_class()
        return super().open_session(app, request)


def install(app: Flask) -> None:
    """Register the pages on ``app``, with a limiter of its own (storage from the app's
    config), made on first use (:mod:`tournament.web.lazy_limiter`). Only the sign-in
    and table-code views have a limit, and each checks it in its own wrapper: the
    limiter's check before every request would find nothing to do at a cost of ~12% of a
    standings GET (bench/api.py), and is never registered."""
    app.session_interface = _CookieSessions()
    app.extensions["login_limiter"] = LazyLimiter(app)
    app.register_blueprint(pages)
    app.register_blueprint(account_pages)


def limit_logins(app: Flask, endpoints: tuple[str, ...]) -> None:
    """Rate-limit the POSTs of ``endpoints`` (those that take a password or a setup
    token) by ``LOGIN_RATE_LIMIT`` per address, and by ``LOGIN_ACCOUNT_RATE_LIMIT`` per
    account (the email the request names, counted across all of them). Only refused
    attempts count: an organiser who signs in rightly uses up nothing (trial 2, F12). The
    registered views are wrapped: the limiter checks a limit where its decorator wraps the
    view that runs."""
    lazy: LazyLimiter = app.extensions["login_limiter"]
    per_address = str(app.config["LOGIN_RATE_LIMIT"])
    shared: list[Any] = []  # the one per-account limit of all of them

    def limits(limiter: Limiter) -> Any:
        if not shared:
            shared.append(
                limiter.shared_limit(
                    str(app.config["LOGIN_ACCOUNT_RATE_LIMIT"]),
                    scope="login-account",
                    key_func=_named_account,
                    methods=["POST"],
                    deduct_when=_refused,
                )
            )
        address = limiter.limit(per_address, methods=["POST"], deduct_when=_refused)

        def wrap(view: View) -> View:
            return shared[0](address(view))  # type: ignore[no-any-return]

        return wrap

    for endpoint in endpoints:
        app.view_functions[endpoint] = lazy.decorate(limits, app.view_functions[endpoint])


def _refused(response: Response) -> bool:
    """An attempt that counts: refused, but not by the limit itself (a client that keeps
    knocking while limited is not locked out longer)."""
    return response.status_code >= 400 and response.status_code != 429


def _named_account(*_: Any) -> str:
    """The account an attempt names (its email, as the accounts compare them); empty when
    it names none, all such attempts share one count (they sign nobody in)."""
    email = request.form.get("email")
    if request.endpoint == "account.password":  # the signed-in account, whatever is sent
        email = caller().email
    if email is None and request.is_json:
        body = request.get_json(silent=True)
        email = body.get("email") if isinstance(body, dict) else None
    if not isinstance(email, str) or not email.strip():
        return "account:-"
    return "account:" + email.strip().lower()[:300]

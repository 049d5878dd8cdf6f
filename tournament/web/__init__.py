"""The web service: the JSON API (``/api/v1``), its OpenAPI document and docs page,
sign-in for pages, and the operator's endpoints.

    from tournament.web import create_app
    app = create_app()                       # configured from the environment
    app = create_app({"DATABASE_URL": "sqlite:////tmp/x.sqlite3", "SECRET_KEY": "..."})

Views are thin: they parse the request, call the same domain commands and
:class:`~tournament.app.service.TournamentService` as the command line, and shape the
answer; every error is problem+json (:mod:`tournament.web.problems`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask_openapi3.models.info import Info
from flask_openapi3.openapi import OpenAPI

from tournament.version import describe
from tournament.web import auth, body_caps, headers, ops, problems
from tournament.web.lazy_routes import LazyBuildRule
from tournament.web.settings import from_environment, secret_key

API_VERSION = "1.0.0"

SECURITY_SCHEMES: dict[str, Any] = {
    "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "an API token: `tournament tokens create EMAIL --name NAME`, or "
        "POST /api/v1/tokens with the account's email and password",
    },
    "session": {"type": "apiKey", "in": "cookie", "name": "session"},
}


def create_app(config: Mapping[str, Any] | None = None) -> OpenAPI:
    """The app, configured from the environment with ``config`` laid over it."""
    settings = {**from_environment(), **(config or {})}
    app = OpenAPI(
        __name__,
        info=Info(
            title="Schnapsen tournament service",
            version=API_VERSION,
            description="Run Schnapsen tournaments: players, rounds, results, standings. "
            "Errors are application/problem+json (RFC 9457). Writes take If-Match (the "
            "tournament's ETag) and Idempotency-Key. See docs/api.md.",
        ),
        security_schemes=SECURITY_SCHEMES,
        # Every operation may answer these (a client handles them alike everywhere).
        responses={
            status: problems_model() for status in (401, 403, 404, 409, 412, 413, 422, 429, 500)
        },
        validation_error_status=422,
        validation_error_model=problems_model(),
        validation_error_callback=problems.validation_callback,
        doc_ui=False,
        instance_path=str(Path(settings["INSTANCE_PATH"]).absolute()),
        instance_relative_config=False,
    )
    # url_for's builders are compiled on first use, not for every route at start.
    app.url_rule_class = LazyBuildRule
    app.config.update(settings)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(Path(app.instance_path))
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    # The release in every page's footer (operator F12), the one /readyz names too.
    app.jinja_env.globals["release"] = describe()

    from tournament.app.services import open_services
    from tournament.web import live

    found = open_services(app, app.config["DATABASE_URL"])
    ops.configure_logging()
    ops.install(app, metrics=app.config.get("METRICS", True))
    # Projections and live updates: in this process, or by the workers (REDIS_URL).
    live.install(app, found)
    headers.install(app)  # CSP, frame-ancestors, nosniff, Referrer-Policy on every answer
    body_caps.install(app)  # before auth: no request is parsed before its size is known
    auth.install(app)
    problems.install(app)

    from tournament.web import api, docs_ui, pages, sessions

    sessions.install(app)
    api.register(app)
    pages.register(app)  # the HTML pages and their German and English (issue 11)
    sessions.limit_logins(
        app, ("sessions.login", "sessions.setup", "account.password", "tokens.create_token")
    )
    app.register_blueprint(docs_ui.docs_ui)  # its document is made on first need
    from tournament.web import standings_shortcut

    standings_shortcut.install(app)  # the hottest read, answered before Flask's request
    hops = int(app.config.get("PROXY_HOPS") or 0)
    if hops:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
    return app


def close_app(app: Any) -> None:
    """Stop what ``app`` started and close its database connections: its live streams
    and threads (the projections, the online tables' sweep, the Redis subscription)
    first, as they use the database, then the store's and the accounts' connections.
    What ``serve`` does as it stops, and what a test does with an app it made; an app
    closed twice is closed once (its pools open again if it is used after)."""
    from tournament.app.services import KEY as SERVICES
    from tournament.web.live import KEY as LIVE

    live = app.extensions.get(LIVE)
    if live is not None:
        live.stop()
    found = app.extensions.get(SERVICES)
    if found is not None:
        found.close()


def problems_model() -> Any:
    from tournament.web.api.models import ProblemDetails

    return ProblemDetails

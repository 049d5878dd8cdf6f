"""``/openapi.json`` and the docs page ``/docs``: Swagger UI from the installed
flask-openapi3-swagger wheel, nothing from a CDN (club halls are often offline)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import flask_openapi3_swagger
from flask import Blueprint, Response, current_app, jsonify, redirect, render_template_string
from flask_openapi3.openapi import OpenAPI
from flask_openapi3_swagger.templates import swagger_html_string
from werkzeug.wrappers import Response as BaseResponse

_SWAGGER = Path(flask_openapi3_swagger.__file__).parent / "templates" / "swagger"

docs_ui = Blueprint(
    "docs_ui", __name__, static_folder=str(_SWAGGER), static_url_path="/docs/swagger"
)


#: Problems any operation may answer (declared app-wide: a client handles them alike
#: everywhere); an operation adds its own.
COMMON_PROBLEMS = {
    401: "Not signed in, or the token is unknown or revoked",
    403: "The caller's role is too small (or a page's CSRF token is missing)",
    404: "The tournament, player, round, match or result is not there",
    406: "The Accept header asks for a form this operation cannot give",
    409: "It contradicts what is recorded",
    412: "If-Match names another version of the tournament",
    413: "The body is bigger than the operation takes (limit, in bytes)",
    415: "The body's Content-Type is not one this operation reads",
    422: "Invalid input, naming the field, row or rule at fault",
    429: "Too many attempts: wait Retry-After seconds",
    500: "The service failed; quote the request_id",
}


#: Where an app notes that its document is made (app.extensions).
DOCUMENTED = "schnapsen_openapi_documented"
_finishing = threading.Lock()


def api_document(app: OpenAPI) -> dict[str, Any]:
    """The app's OpenAPI document, made on first need (speed P10: not at start-up)."""
    from tournament.web.api.blueprint import document_blueprints

    with _finishing:
        if not app.extensions.get(DOCUMENTED):
            document_blueprints(app)
            finish_document(app)
            app.extensions[DOCUMENTED] = True
    found: dict[str, Any] = app.api_doc
    return found


def finish_document(app: OpenAPI) -> None:
    """Say in the document which operations need a signed-in caller (``requires``):
    the routes declare it once, for the check and for the document alike; and that
    every error answer is problem+json."""
    import re

    from tournament.web.auth import ANYONE, required_of

    paths = app.api_doc["paths"]
    problem_ref = {"schema": {"$ref": "#/components/schemas/Problem"}}
    for operations in paths.values():
        for operation in operations.values():
            answers = operation.setdefault("responses", {})
            for status, title in COMMON_PROBLEMS.items():
                answers.setdefault(str(status), {"description": title})
            for status, answer in answers.items():
                # An error is problem+json (problems.py), whatever model documents it.
                if str(status)[0] in "45":
                    answer["content"] = {"application/problem+json": problem_ref}
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        need = required_of(app.view_functions[rule.endpoint])
        if path not in paths or need is None or need == ANYONE:
            continue
        for method in rule.methods or ():
            operation = paths[path].get(method.lower())
            if operation is not None:
                operation["security"] = [{"bearer": []}, {"session": []}]
                operation.setdefault("x-required-role", getattr(need, "name", str(need)).lower())
    from tournament.web import openapi_headers

    openapi_headers.declare(app.api_doc)  # Idempotency-Key, If-Match, ETag, Location ...
    openapi_headers.keep_property_names(app.api_doc)


@docs_ui.get("/openapi.json")
def openapi_json() -> Response:
    return jsonify(api_document(current_app))  # type: ignore[arg-type]


@docs_ui.get("/docs")
def docs_redirect() -> BaseResponse:
    return redirect("/docs/", code=308)  # the page's assets are relative to /docs/


@docs_ui.get("/docs/")
def docs_page() -> str:
    return render_template_string(
        swagger_html_string,
        doc_url="/openapi.json",
        swagger_config={"persistAuthorization": True, "validatorUrl": None},
        oauth_config=None,
    )

"""``/openapi.json`` and the docs page ``/docs``: Swagger UI from the installed
flask-openapi3-swagger wheel, nothing from a CDN (club halls are often offline)."""

from __future__ import annotations

from pathlib import Path

import flask_openapi3_swagger
from flask import Blueprint, Response, current_app, jsonify, redirect, render_template_string
from flask_openapi3.openapi import OpenAPI
from flask_openapi3_swagger.templates import swagger_html_string
from werkzeug.wrappers import Response as BaseResponse

_SWAGGER = Path(flask_openapi3_swagger.__file__).parent / "templates" / "swagger"

docs_ui = Blueprint(
    "docs_ui", __name__, static_folder=str(_SWAGGER), static_url_path="/docs/swagger"
)


def finish_document(app: OpenAPI) -> None:
    """Say in the document which operations need a signed-in caller (``requires``):
    the routes declare it once, for the check and for the document alike."""
    import re

    from tournament.web.auth import ANYONE, required_of

    paths = app.api_doc["paths"]
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


@docs_ui.get("/openapi.json")
def openapi_json() -> Response:
    return jsonify(current_app.api_doc)  # type: ignore[attr-defined]


@docs_ui.get("/docs")
def docs_redirect() -> BaseResponse:
    return redirect("/docs/", code=308)  # the page's assets are relative to /docs/


@docs_ui.get("/docs/")
def docs_page() -> str:
    return render_template_string(
        swagger_html_string,
        doc_url="/openapi.json",
        swagger_config={"persistAuthorization": True},
        oauth_config=None,
    )

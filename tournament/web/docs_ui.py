"""``/openapi.json`` and the docs page ``/docs``: Swagger UI from the installed
flask-openapi3-swagger wheel, nothing from a CDN (club halls are often offline)."""

from __future__ import annotations

from pathlib import Path

import flask_openapi3_swagger
from flask import Blueprint, Response, current_app, jsonify, redirect, render_template_string
from flask_openapi3_swagger.templates import swagger_html_string
from werkzeug.wrappers import Response as BaseResponse

_SWAGGER = Path(flask_openapi3_swagger.__file__).parent / "templates" / "swagger"

docs_ui = Blueprint(
    "docs_ui", __name__, static_folder=str(_SWAGGER), static_url_path="/docs/swagger"
)


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

"""A trivial Flask app, the baseline of bench/standings_get.py: under the same gunicorn
settings as the service, ``/hello`` answers 5 bytes and ``/blob`` the same number of bytes
as the standings under test (``HELLO_BLOB_BYTES``), so that the ratio says what the
service costs over Flask and gunicorn themselves.

    gunicorn --worker-class gthread --threads 8 'hello_app:create_app()'
"""

from __future__ import annotations

import os

from flask import Flask, Response


def create_app() -> Flask:
    app = Flask(__name__)
    blob = b"x" * int(os.environ.get("HELLO_BLOB_BYTES", "27880"))

    @app.get("/hello")
    def hello() -> Response:
        return Response(b"hello", mimetype="text/plain")

    @app.get("/healthz")  # what bench/api.py's gunicorn() waits for
    def healthz() -> Response:
        return Response(b"ok", mimetype="text/plain")

    @app.get("/blob")
    def blob_view() -> Response:
        return Response(blob, mimetype="application/json")

    return app

"""Browser security headers on every answer, pages and API alike (trial 2, F13).

- ``Content-Security-Policy``: scripts, styles, images and connections from this site
  only, and no inline script (every page's script is a file under ``static/``; data for
  a script travels in ``data-`` attributes). A name that slipped through the escaping
  could still not run. ``frame-ancestors 'none'``: no other page (another port on the
  club laptop is the same site) frames the desk to click through it.
- ``X-Frame-Options: DENY`` says the same to older browsers.
- ``X-Content-Type-Options: nosniff``: a CSV or a player's name is never run as a script.
- ``Referrer-Policy: same-origin``: a table code or a seat's link in the address never
  travels to another site.

The API docs page (``/docs/``, Swagger UI from its wheel) starts with an inline script
and draws with inline styles: it has a policy of its own that allows them there, and only
there. Nothing of a signed-in session is on that page.

htmx injects a ``<style>`` for its indicators unless told not to: the pages say
``htmx-config`` ``{"includeIndicatorStyles": false}`` and app.css has the rules.
"""

from __future__ import annotations

from flask import Flask, Response, request

#: Every page and answer but the docs page.
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
#: Swagger UI at /docs/: its own start script and inline styles.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def _add(response: Response) -> Response:
    docs = request.path == "/docs/" or request.path.startswith("/docs/swagger/")
    response.headers.setdefault("Content-Security-Policy", DOCS_POLICY if docs else POLICY)
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def install(app: Flask) -> None:
    app.after_request(_add)

"""The pages: server-rendered HTML over the same domain calls and projection documents as
the API (issue 11). One module per area, each a blueprint; :func:`register` is what
``create_app`` calls.

Templates are in ``tournament/web/templates`` (``base.html``, ``macros.html``, a folder per
area), styles and the small hand-written script in ``tournament/web/static``, htmx and its
SSE extension vendored in ``static/vendor`` (no CDN: a club's room often has no internet).
"""

from __future__ import annotations

from flask import Flask

from tournament.web import i18n


def register(app: Flask) -> None:
    """German and English, then every area's pages."""
    from tournament.web.pages import public

    i18n.install(app)
    app.register_blueprint(public.pages)

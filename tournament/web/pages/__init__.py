"""The pages: server-rendered HTML over the same domain calls and projection documents as
the API (issue 11). One module per area, each with its own blueprint named ``pages``;
:func:`register` (what ``create_app`` calls) registers every module of this package that
has one, so a new area is a new module and nothing else.

Templates are in ``tournament/web/templates`` (``base.html``, ``macros.html``, a folder per
area; the organiser's desk extends ``desk/base.html``, see :mod:`.desk`), styles and the
small hand-written scripts in ``tournament/web/static``, htmx and its SSE extension
vendored in ``static/vendor`` (no CDN: a club's room often has no internet).
"""

from __future__ import annotations

import importlib
import pkgutil

from flask import Blueprint, Flask

from tournament.web import i18n


def register(app: Flask) -> None:
    """German and English, then every area's pages (in the order of their names)."""
    i18n.install(app)
    for found in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{found.name}")
        blueprint = getattr(module, "pages", None)
        if isinstance(blueprint, Blueprint):
            app.register_blueprint(blueprint)

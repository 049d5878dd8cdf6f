"""``/favicon.ico``: a browser asks for it on every page whatever the page links, and a 404
there is an error in the console of every page (browser trial, polish 1). The pages link
``static/favicon.svg`` (base.html); this answers the old address with the same card and
heart as an ICO, cached a day: it never changes within a release. The CSP's
``img-src 'self'`` (tournament/web/headers.py) already allows both.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from flask import Blueprint, Response, send_from_directory

pages = Blueprint("favicon", __name__)

STATIC: Final = Path(__file__).resolve().parents[1] / "static"
#: A day: the icon changes with a release at most, and a browser asks again after that.
MAX_AGE: Final = 86_400


@pages.get("/favicon.ico")
def favicon() -> Response:
    return send_from_directory(
        STATIC, "favicon.ico", mimetype="image/vnd.microsoft.icon", max_age=MAX_AGE
    )

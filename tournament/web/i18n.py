"""German and English for the pages (Flask-Babel).

The locale of a request: ``?lang=de|en`` (then remembered in a ``lang`` cookie for a
year, so a phone that switched once stays switched), else that cookie, else the
browser's ``Accept-Language`` (de or en), else German -- the clubs are Austrian.
English is the source language: every msgid is English, the German catalog is
``tournament/translations/de/LC_MESSAGES/messages.po`` (``babel.cfg`` at the repo root
says what ``pybabel extract`` reads).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final
from urllib.parse import urlencode

from flask import Flask, g, request
from flask_babel import Babel, get_locale
from werkzeug.wrappers import Response

LANGUAGES: Final = ("de", "en")
DEFAULT: Final = "de"
COOKIE: Final = "lang"
COOKIE_AGE: Final = 365 * 24 * 3600
TRANSLATIONS: Final = Path(__file__).resolve().parent.parent / "translations"
#: What the language switch shows: each language in its own words.
LANGUAGE_NAMES: Final = {"de": "Deutsch", "en": "English"}


def chosen_by_query() -> str | None:
    """The ``?lang=`` of this request, if it names a language of ours."""
    asked = request.args.get("lang", "")
    return asked if asked in LANGUAGES else None


def select_locale() -> str:
    """The request's language (the order is in the module's docstring)."""
    asked = chosen_by_query()
    if asked is not None:
        return asked
    kept = request.cookies.get(COOKIE, "")
    if kept in LANGUAGES:
        return kept
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT


def current_language() -> str:
    return str(get_locale() or DEFAULT)


def language_url(lang: str) -> str:
    """This page in ``lang``: the same path and query with ``lang`` set."""
    args = {k: v for k, v in request.args.items() if k != "lang"}
    return f"{request.path}?{urlencode({**args, 'lang': lang})}"


def _remember(response: Response) -> Response:
    asked = chosen_by_query()
    if asked is not None and request.cookies.get(COOKIE) != asked:
        response.set_cookie(COOKIE, asked, max_age=COOKIE_AGE, samesite="Lax", httponly=True)
    # The same URL answers in another language by cookie or Accept-Language.
    if g.get("localized"):
        response.vary.update(("Accept-Language", "Cookie"))
    return response


def _template_globals() -> dict[str, Any]:
    return {
        "current_language": current_language,
        "language_url": language_url,
        "language_names": LANGUAGE_NAMES,
    }


def install(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_DEFAULT_TIMEZONE", "Europe/Vienna")
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_locale)
    app.context_processor(_template_globals)
    app.after_request(_remember)

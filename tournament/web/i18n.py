"""German and English for the pages (Flask-Babel).

The locale of a request: ``?lang=de|en`` (then remembered in a ``lang`` cookie for a
year, so a phone that switched once stays switched), else that cookie, else the
browser's ``Accept-Language`` (de or en), else German -- the clubs are Austrian.
English is the source language: every msgid is English, the German catalog is
``tournament/translations/de/LC_MESSAGES/messages.po`` (``babel.cfg`` at the repo root
says what ``pybabel extract`` reads).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlencode

from babel import dates
from flask import Flask, g, request
from flask_babel import Babel, get_locale, get_timezone
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


#: The locale whose conventions dates and numbers follow: English pages are read in
#: Europe, so a date is day-month (en_GB), never the US month-day (O-L6: "12/7/26").
FORMATS: Final = {"en": "en_GB", "de": "de_AT"}


def formatting_locale() -> str:
    """The locale dates and numbers are written in on this page."""
    return FORMATS.get(current_language(), current_language())


def local_date(day: dt.date, style: str = "medium") -> str:
    """``day`` as the reader writes it: 07.12.2026 / 7 Dec 2026 (medium), 07.12.26 /
    07/12/2026 (short), 7. Dezember 2026 / 7 December 2026 (long)."""
    return str(dates.format_date(day, style, locale=formatting_locale()))


def local_datetime(moment: dt.datetime, style: str = "short") -> str:
    """``moment`` in the service's time zone, as the reader writes it (see
    :func:`local_date`); a moment without a zone is UTC (SQLite gives it so)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return str(
        dates.format_datetime(moment, style, tzinfo=get_timezone(), locale=formatting_locale())
    )


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

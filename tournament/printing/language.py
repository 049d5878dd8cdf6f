"""The language a print pack is rendered in (German or English), outside any request.

A pack renders in a Celery worker or a thread, where Flask-Babel has no request and no
locale: so a pack carries its language, and this module loads the pages' catalog
(``tournament/translations``, the one ``babel.cfg`` extracts) with Babel for it, gives
the Jinja templates its ``_()`` (``jinja2.ext.i18n``) and writes numbers in the
locale's form. English is the source language (every msgid is English): ``en`` is the
catalog-less identity.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Final

from babel import Locale
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations
from flask_babel.speaklater import LazyString

LANGUAGES: Final = ("de", "en")
#: The clubs are Austrian: a pack asked for without a language is German.
DEFAULT: Final = "de"
_CATALOG: Final = Path(__file__).resolve().parent.parent / "translations"


def N_(message: str) -> str:
    """Marks ``message`` for extraction (``N_`` is one of babel's keywords); it is
    translated where it is shown."""
    return message


@dataclasses.dataclass(frozen=True)
class Language:
    """A pack's language: its catalog and its locale."""

    code: str
    translations: NullTranslations
    locale: Locale

    def gettext(self, message: str, **values: object) -> str:
        """``message`` in this language, ``%(name)s`` filled from ``values``."""
        text = self.translations.ugettext(message)
        return text % values if values else text

    def lazy(self, message: LazyString | str) -> str:
        """A word the pages keep as a ``lazy_gettext`` constant (``words.py``), in this
        language: its msgid (the lazy string's argument), looked up in this catalog, so
        the pages' and the packs' words are the same entries."""
        if isinstance(message, LazyString):
            message = str(message._args[0])  # the msgid lazy_gettext was given
        return self.gettext(message)

    def number(self, value: float | int) -> str:
        """``value`` in the locale's form (``1,5`` in German, ``1.5`` in English)."""
        return format_decimal(value, locale=self.locale)


@functools.cache
def language(code: str | None) -> Language:
    """The language ``code`` (``de`` or ``en``; anything else: :data:`DEFAULT`), its
    catalog loaded once per process."""
    code = code if code in LANGUAGES else DEFAULT
    assert code is not None
    found: NullTranslations = Translations.load(str(_CATALOG), [code])
    return Language(code, found, Locale.parse(code))

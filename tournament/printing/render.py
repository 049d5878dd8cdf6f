"""HTML to PDF: the print packs' Jinja templates (``templates/``, sharing ``print.css``)
rendered with WeasyPrint, in the pack's language (one Jinja environment per language,
its ``_()`` from :mod:`tournament.printing.language`, not from a request). WeasyPrint
needs the system's pango; a machine without it gets :class:`PrintingUnavailable`, saying
so, when a pack is rendered (not when it is asked for).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from tournament.printing.language import DEFAULT, language

_TEMPLATES = Path(__file__).parent / "templates"


class PrintingUnavailable(Exception):
    """WeasyPrint (or the pango it needs) is not installed here."""


def css_string(value: object) -> Markup:
    """``value`` as the inside of a CSS string (a page footer's ``content``): HTML
    escaping does not apply inside ``<style>``, so quotes, backslashes, line ends and
    ``<`` (which could end the style element) are escaped the CSS way."""
    out = []
    for char in str(value):
        if char in "\\\"'<>&" or ord(char) < 32:
            out.append(f"\\{ord(char):x} ")
        else:
            out.append(char)
    return Markup("".join(out))


@functools.cache
def templates(lang: str = DEFAULT) -> Environment:
    """The templates in language ``lang``, loaded once per process and language (a
    worker renders many packs): ``_()``/``ngettext()`` say the pack's language, the
    ``number`` filter writes a number the locale's way."""
    words = language(lang)
    env = Environment(
        loader=FileSystemLoader(_TEMPLATES),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(words.translations, newstyle=True)  # type: ignore[attr-defined]
    env.filters["css_string"] = css_string
    env.filters["number"] = words.number
    env.globals["lang"] = words.code
    return env


def html(template: str, context: Mapping[str, Any], lang: str = DEFAULT) -> str:
    """Template ``template`` filled with ``context`` in language ``lang``: the HTML a
    pack's PDF is made of."""
    return templates(lang).get_template(template).render(**context)


def pdf(markup: str) -> tuple[bytes, int]:
    """``markup`` as a PDF, and its number of pages."""
    try:
        import weasyprint
    except (ImportError, OSError) as error:  # OSError: pango is missing
        raise PrintingUnavailable(f"PDF rendering is not available here: {error}") from None
    document = weasyprint.HTML(string=markup, base_url=str(_TEMPLATES)).render()
    return document.write_pdf(), len(document.pages)

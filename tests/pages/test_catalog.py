"""Every string the pages show has its German translation (issue 11: "a test fails on any
untranslated string"), and the compiled catalog the app loads is the one in the .po.

The strings are extracted as ``pybabel extract -F babel.cfg -k _l -k N_`` extracts them (babel's
own API, the same mapping file), so a new ``_("...")`` in a template or a page module fails
here until ``messages.po`` has it in German and the .mo is compiled again (babel.cfg says
how).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "tournament" / "translations" / "de" / "LC_MESSAGES"
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "_l": None,
    "N_": None,
    "lazy_gettext": None,
    "lazy_ngettext": (1, 2),
}
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def extracted() -> Iterator[tuple[str, str | tuple[str, ...]]]:
    """(file, msgid) of every translatable string babel.cfg points at."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]

    def under_tournament(path: str) -> bool:  # no walk through .venv, .git, tests ...
        relative = os.path.relpath(path, ROOT)
        return relative == "." or relative.split(os.sep)[0] == "tournament"

    for filename, _lineno, message, _comments, _context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS, directory_filter=under_tournament
    ):
        yield filename, message


def german() -> Catalog:
    with (CATALOG / "messages.po").open("rb") as po:
        return read_po(po, locale="de")


def test_the_extraction_finds_the_pages_strings() -> None:
    files = {name for name, _ in extracted()}
    assert "tournament/web/templates/base.html" in files
    assert "tournament/i18n/words.py" in files
    # The print packs render in German or English too (babel.cfg reads them).
    assert "tournament/printing/templates/table_cards.html" in files
    assert "tournament/printing/packs.py" in files
    assert "tournament/domain/words/messages.py" in files  # the domain's refusals (issue 11)
    assert len({message for _, message in extracted()}) > 50


def test_every_string_of_the_pages_has_a_german_translation() -> None:
    catalog = german()
    untranslated = []
    for filename, message in extracted():
        msgid = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(msgid)
        strings = entry.string if entry is not None else ""
        filled = all(strings) if isinstance(strings, tuple) else bool(strings)
        if entry is None or not filled or entry.fuzzy:
            untranslated.append(f"{filename}: {msgid!r}")
    assert untranslated == [], "translate these in messages.po:\n" + "\n".join(untranslated)


def test_a_translation_keeps_every_placeholder_of_its_english() -> None:
    for entry in german():
        if not entry.id:
            continue
        english = entry.id if isinstance(entry.id, str) else entry.id[0]
        strings = entry.string if isinstance(entry.string, tuple) else (str(entry.string),)
        for text in strings:
            assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(english)), (
                english
            )


def _key(value: object) -> object:
    """A plural entry's ids and strings as a tuple (read_mo gives lists)."""
    return tuple(value) if isinstance(value, list | tuple) else value


def test_the_compiled_catalog_is_the_po_s() -> None:
    po = {_key(entry.id): _key(entry.string) for entry in german() if entry.id and not entry.fuzzy}
    with (CATALOG / "messages.mo").open("rb") as mo:
        compiled = {_key(entry.id): _key(entry.string) for entry in read_mo(mo) if entry.id}
    assert compiled == po, "run: pybabel compile -d tournament/translations"

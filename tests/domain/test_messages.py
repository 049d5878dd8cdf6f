"""The domain's refusals as codes with params (issue 11: "give errors a code and
parameters so they render in either language"): one catalog of English templates,
tournament/domain/words/messages.py, that the raise sites fill and the pages translate.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from decimal import Decimal
from enum import StrEnum
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tournament.domain.commands.rounds import start_round
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.domain.model.state import fold
from tournament.domain.model.tally import SEATS, tally_hands, tally_payload
from tournament.domain.testing import registered
from tournament.domain.words.messages import (
    ALL_TEMPLATES,
    EVERY_TEMPLATE,
    TEMPLATES,
    WORDS,
    english,
)
from tournament.formats.messages import FORMAT_TEMPLATES
from tournament.formats.model import FormatError

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = ROOT / "tournament" / "domain"
#: The I/O edge raises the service's own refusals (``service.*``) from the same catalog.
APP = ROOT / "tournament" / "app"
FORMATS = ROOT / "tournament" / "formats"
PO = ROOT / "tournament" / "translations" / "de" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def raise_sites() -> Iterator[tuple[str, int, str, set[str] | None]]:
    """(file, line, code, the param names it passes -- None when not a dict literal) of
    every ``code="..."`` in the domain's and the formats' modules."""
    for path in sorted([*DOMAIN.rglob("*.py"), *APP.glob("*.py"), *FORMATS.glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            keywords = {str(k.arg): k.value for k in node.keywords}
            # a piece's code; the domain's other words (tournament/domain/words/wording.py)
            if isinstance(node.func, ast.Name) and node.func.id in ("Phrase", "english"):
                keywords = dict(zip(("code", "params"), node.args, strict=False)) | keywords
            code = keywords.get("code")
            # One code, or either of two (``"a.one" if count == 1 else "a.many"``).
            codes = [code.body, code.orelse] if isinstance(code, ast.IfExp) else [code]
            given = keywords.get("params")
            names: set[str] | None = set()
            if isinstance(given, ast.Dict) and None not in given.keys:  # no **unpacking
                names = {str(k.value) for k in given.keys if isinstance(k, ast.Constant)}
            elif given is not None:
                names = None
            for each in codes:
                if isinstance(each, ast.Constant) and isinstance(each.value, str):
                    yield path.name, node.lineno, each.value, names


SITES = list(raise_sites())


def test_the_domain_raises_with_codes_of_the_catalog() -> None:
    assert len(SITES) > 200
    unknown = [f"{f}:{line} {code}" for f, line, code, _ in SITES if code not in EVERY_TEMPLATE]
    assert unknown == []


def test_every_code_of_the_catalog_is_raised_somewhere() -> None:
    assert set(ALL_TEMPLATES) - {code for _, _, code, _ in SITES} == set()


def test_each_raise_site_passes_exactly_the_params_its_template_names() -> None:
    wrong = []
    for filename, line, code, names in SITES:
        wanted = set(PLACEHOLDER.findall(EVERY_TEMPLATE[code]))
        if names is not None and names != wanted:
            wrong.append(
                f"{filename}:{line} {code}: passes {sorted(names)}, needs {sorted(wanted)}"
            )
    assert wrong == []


def test_codes_are_dotted_by_a_module_of_the_domain_or_of_the_formats() -> None:
    modules = {path.stem for path in [*DOMAIN.rglob("*.py"), *APP.glob("*.py")]}
    for code in TEMPLATES:
        assert re.fullmatch(r"[a-z_]+\.[a-z_0-9]+", code)
        assert code.split(".")[0] in modules, code
    formats = {path.stem for path in FORMATS.glob("*.py")}
    for code in FORMAT_TEMPLATES:
        assert re.fullmatch(r"formats\.[a-z_]+\.[a-z_0-9]+", code)
        assert code.split(".")[1] in formats, code
    assert set(ALL_TEMPLATES) == set(TEMPLATES) | set(FORMAT_TEMPLATES)
    assert not set(TEMPLATES) & set(FORMAT_TEMPLATES)


@pytest.mark.parametrize("code", sorted(ALL_TEMPLATES))
def test_the_english_message_is_the_template_filled_with_the_params(code: str) -> None:
    params = {name: f"<{name}>" for name in PLACEHOLDER.findall(ALL_TEMPLATES[code])}
    error = DomainError("field", "R0", code=code, params=params)
    assert error.message == ALL_TEMPLATES[code] % params == english(code, error.params)
    assert error.code == code and error.params == params
    # A literal percent sign would have to be written %% (none of the templates need one).
    assert "%" not in PLACEHOLDER.sub("", ALL_TEMPLATES[code])


def test_a_refused_tally_keeps_its_english_text_word_for_word() -> None:
    """R13: a hand gives 1, 2 or 3 game points, so a count cannot drop by 4."""
    with pytest.raises(DomainError) as caught:
        tally_payload("7 5 1 0 / 7")
    error = caught.value
    assert error.code == "tally.step_too_large" and error.rule == "R13"
    assert error.message == (
        "hand 2: the first column's player's count goes from 5 to 1, a step of 4; "
        "a hand gives 1, 2 or 3 game points"
    )
    assert error.params == {
        "hand": 2,
        "who": "the first column's player",
        "before": 5,
        "after": 1,
        "step": 4,
    }
    assert error.line() == f"tally: {error.message} (R13)"


def test_params_read_as_an_f_string_wrote_them_and_numbers_stay_numbers() -> None:
    class Colour(StrEnum):
        RED = "red"

    error = DomainError(
        "f",
        "R0",
        code="settings.not_one_of",
        params={"value": Decimal("1.50"), "allowed": Colour.RED},
    )
    assert error.params == {"value": "1.50", "allowed": f"{Colour.RED}"}
    assert error.message == f"1.50 is not one of {Colour.RED}"
    counted = DomainError("f", "R0", code="tally.two_columns", params={"columns": 3})
    assert counted.params == {"columns": 3}
    assert DomainError("f", "R0", code="tally.two_columns", params={"columns": True}).params == {
        "columns": "True"
    }


def test_the_api_body_names_code_and_params_and_an_error_without_a_code_stays_as_it_was() -> None:
    coded = ConflictError(
        "round", "T-round", code="knockout.bracket_slot_drawn_times", params={"slot": "R2-1"}
    )
    assert coded.to_json() == {
        "field": "round",
        "rule": "T-round",
        "message": "bracket slot R2-1 was drawn 26 times",
        "code": "knockout.bracket_slot_drawn_times",
        "params": {"slot": "R2-1"},
    }
    plain = DomainError("player", "T-player", "a message of its own")
    assert plain.code is None and plain.params == {}
    assert plain.to_json() == {
        "field": "player",
        "rule": "T-player",
        "message": "a message of its own",
    }
    with pytest.raises(TypeError):
        DomainError("player", "T-player")


def test_every_code_has_its_german_translation_with_the_same_placeholders() -> None:
    with PO.open("rb") as po:
        catalog = read_po(po, locale="de")
    for code, template in ALL_TEMPLATES.items():
        entry = catalog.get(template)
        assert entry is not None and entry.string and not entry.fuzzy, code
        assert sorted(PLACEHOLDER.findall(str(entry.string))) == sorted(
            PLACEHOLDER.findall(template)
        ), code
        # A rule the English cites, the German cites too (R18, T-round ...).
        for rule in re.findall(r"\b(?:R\d+|T-[a-z]+)\b", template):
            assert rule in str(entry.string), (code, rule)
    for word in WORDS:
        entry = catalog.get(word)
        assert entry is not None and entry.string, word


def test_the_tally_s_seat_names_are_words_a_page_translates() -> None:
    assert set(SEATS) <= WORDS
    assert tally_hands({"columns": [[7, 4, 1, 0], [7]]})  # the seats only name, never decide


def test_a_format_s_refusal_keeps_its_code_through_the_domain() -> None:
    """T-format: a table pinned for a player is 1 or more; the format refuses table 0 and
    the round's refusal carries the format's code, so a page shows it in German."""
    with pytest.raises(DomainError) as caught:
        start_round(fold(registered(4)), fixed_tables={1: 0})
    error = caught.value
    assert (error.code, error.params, error.rule) == (
        "formats.tables.table_must_more_got",
        {"number": 0},
        "T-format",
    )
    assert error.line() == "fixed_tables['1']: table must be 1 or more, got 0 (T-format)"
    assert FormatError("x", "as it was").code is None

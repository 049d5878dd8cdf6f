"""Every refusal a player or organiser meets on a German page is German (O-L6, P4): the
domain's catalogue has a German entry for each code, the desk pages raise no English
sentence of their own, and a refused tally -- the second of two on a sheet -- reads in
German on the players' report page and at the desk."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.pages.test_catalog import ROOT, german
from tests.pages.test_desk_sheets import SHEETS, shown, signed_in
from tests.pages.test_report import codes, first_match, post
from tests.web.conftest import Web
from tests.web.played import state
from tournament.domain.commands.reports import OWN_REASONS
from tournament.domain.words.messages import ALL_TEMPLATES, EVERY_TEMPLATE, WORDS
from tournament.web.pages.messages import FIELD_NAMES, PAGE_TEMPLATES

#: Bummerl 2's second column jumps to 9: a count runs from 7 to 0 (R17).
BAD_SECOND = {"bummerl_1": "7 4 1 0 / 7 6", "bummerl_2": "7 4 2 0 / 7 5 3 9", "bummerl_3": ""}
ERRORS = {"DomainError", "ConflictError", "NotFoundError"}


def test_every_code_of_the_domain_s_catalogue_has_a_german_entry() -> None:
    catalog = german()
    codes_ = {**EVERY_TEMPLATE, **ALL_TEMPLATES, **PAGE_TEMPLATES}
    english = list(codes_.values()) + sorted(WORDS | FIELD_NAMES | OWN_REASONS)
    missing = [e for e in english if catalog.get(e) is None or not catalog.get(e).string]
    assert missing == [], "no German for:\n" + "\n".join(missing)


def test_no_desk_or_domain_refusal_is_an_english_sentence_without_a_code() -> None:
    """A refusal raised with a literal English message (no ``code=``) would reach a
    German page in English; the pages and the domain raise with codes."""
    found = []
    for folder in ("tournament/domain", "tournament/web/pages"):
        for path in sorted((ROOT / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                literal = len(node.args) >= 3 and isinstance(
                    node.args[2], ast.Constant | ast.JoinedStr
                )
                if node.func.id in ERRORS and literal:
                    found.append(f"{Path(path).relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_a_refused_second_tally_reads_in_german_on_the_report_page(web: Web, club: str) -> None:
    mid = first_match(web, club)
    a, _ = codes(web, club, mid)
    status, html = post(web, a, {"action": "report", **BAD_SECOND}, lang="de")
    assert status == 422, html
    said = "Zeile 2 von 2: Partie 3.1, Bummerl 2: Spiel 3: ein Stand läuft von 7 bis 0"
    assert f"{said}, nicht 9 (R17)" in html
    assert "tally:" not in html and "a count runs" not in html
    assert not state(web, club).matches[mid].entries


def test_a_refused_second_tally_reads_in_german_at_the_desk(web: Web, club: str) -> None:
    token = signed_in(web)
    before = state(web, club).version
    sheet = {"csrf_token": token, "key": "b" * 32, "table": "1", **shown(web, "1"), **BAD_SECOND}
    html = web.client.post(f"{SHEETS}?lang=de", data=sheet).get_data(as_text=True)
    assert "ein Stand läuft von 7 bis 0, nicht 9 (R17)" in html
    assert "a count runs" not in html and "tally 2 of 2" not in html
    assert state(web, club).version == before


def test_the_reports_differ_reads_in_german_on_the_report_page(web: Web, club: str) -> None:
    mid = first_match(web, club)
    a, b = codes(web, club, mid)
    post(web, a, {"action": "report", "bummerl_1": "7 4 1 0 / 7 6", "bummerl_2": "7 5 2 0 / 7 6"})
    other = {"bummerl_1": "7 6 / 7 4 1 0", "bummerl_2": "7 6 / 7 5 2 0", "bummerl_3": ""}
    post(web, b, {"action": "report", **other})
    html = web.client.get(f"/r/{a}?lang=de").get_data(as_text=True)
    assert "die beiden Berichte unterscheiden sich" in html
    assert "the two reports differ" not in html


def test_what_a_page_says_instead_of_cli_advice_keeps_the_domain_s_params() -> None:
    """O-L6: the desk's wording of a refusal that advises a CLI command fills from the
    same params as the domain's template, and names no command."""
    import re

    from tournament.web.pages.messages import ON_THE_PAGE

    placeholder = re.compile(r"%\((\w+)\)s")
    for code, page_words in ON_THE_PAGE.items():
        domain = EVERY_TEMPLATE[code]
        assert set(placeholder.findall(page_words)) <= set(placeholder.findall(domain)), code
        assert "`" not in page_words and "tournament players" not in page_words, code
        assert not re.search(r"tournament (round|results|live|log)\b", page_words), code
        assert "--" not in page_words and "results correct" not in page_words, code

"""The standings and the crosstable printed from the desk (O-M3): buttons on the print
page, reached from the rounds page, in the same flow as a round's packs -- the PDF in
the desk's language, the pack as the print-packs API makes it."""

from __future__ import annotations

import io

import pytest

from tests.pages.markup import elements
from tests.pages.test_desk_rounds import page, signed_in
from tests.web.conftest import Web
from tests.web.played import state
from tests.web.test_sign_in import csrf_of

pypdf = pytest.importorskip("pypdf")


def printed(web: Web, tid: str, kind: str, lang: str) -> tuple[str, str]:
    """The print page after asking for ``kind``, and the text of its PDF."""
    html = page(web, f"/desk/t/{tid}/rounds/print?lang={lang}")
    reply = web.client.post(
        f"/desk/t/{tid}/rounds/print?lang={lang}", data={"csrf_token": csrf_of(html), "kind": kind}
    )
    assert reply.status_code == 303
    status = page(web, reply.headers["Location"] + f"?lang={lang}")
    link = next(e for e in elements(status) if e.attrs.get("id") == "pack-pdf")
    pdf = web.client.get(link.attrs["href"]).data
    return status, "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def test_the_rounds_page_leads_to_the_standings_and_crosstable_buttons(web: Web, club: str) -> None:
    signed_in(web)
    rounds = page(web, f"/desk/t/{club}/rounds?lang=en")
    link = next(e for e in elements(rounds) if e.attrs.get("id") == "print-standings")
    html = page(web, link.attrs["href"] + "?lang=en")
    assert "Standings (PDF)" in html and "Crosstable (PDF)" in html
    assert "Pairings list (PDF)" in html  # the round's packs on the same page
    german = page(web, link.attrs["href"] + "?lang=de")
    assert "Tabelle (PDF)" in german and "Kreuztabelle (PDF)" in german


def test_the_standings_pdf_is_printed_from_the_desk_with_every_player(web: Web, club: str) -> None:
    signed_in(web)
    status, text = printed(web, club, "standings", "de")
    assert "Tabelle (PDF)" in status
    for player in state(web, club).players.values():
        assert player.name in text


def test_the_crosstable_pdf_is_printed_from_the_desk(web: Web, club: str) -> None:
    signed_in(web)
    status, text = printed(web, club, "crosstable", "en")
    assert "Crosstable (PDF)" in status and "round" not in status.split("pack-status")[1][:200]
    assert "Anna Huber" in text


def test_the_print_page_has_the_printout_language_beside_its_buttons(web: Web, club: str) -> None:
    """N-L5 (organisers.md §6): a German desk prints an English standings list."""
    signed_in(web)
    html = page(web, f"/desk/t/{club}/rounds/print?lang=de")
    select = next(e for e in elements(html) if e.attrs.get("id") == "print-lang")
    assert select.attrs.get("name") == "lang" and "Sprache des Ausdrucks" in html
    form = html[html.index('id="print-form"') :]
    form = form[: form.index("</form>")]  # one form: the language goes with every button
    assert 'id="print-lang"' in form and 'value="standings"' in form and 'value="pairings"' in form
    form_data = {"csrf_token": csrf_of(html), "kind": "standings", "lang": "en"}
    reply = web.client.post(f"/desk/t/{club}/rounds/print?lang=de", data=form_data)
    assert reply.status_code == 303
    status = page(web, reply.headers["Location"] + "?lang=de")
    link = next(e for e in elements(status) if e.attrs.get("id") == "pack-pdf")
    pdf = web.client.get(link.attrs["href"]).data
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "Standings" in text and "Tabelle" not in text

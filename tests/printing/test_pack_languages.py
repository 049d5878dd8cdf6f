"""A print pack is German or English (issue 11: "German and English ... every string a user
can see is translated"): the same pack of the same version renders in either, with the
same names, codes and seal; the two are two packs, the same language asked twice is one.
German is the default: the clubs are Austrian."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pages.test_desk_rounds import page, signed_in
from tests.printing.helpers import pdf_text, require_weasyprint
from tests.web.conftest import Web, make_web
from tests.web.played import NAMES, run, swiss
from tests.web.test_sign_in import csrf_of
from tournament.app.service import TournamentService
from tournament.domain.commands.rounds import start_round
from tournament.domain.commands.tablecodes import round_codes
from tournament.eventstore import SQLEventStore
from tournament.printing.language import language
from tournament.printing.queue import DONE, Pack, pack_pdf, render_pack, request_pack

require_weasyprint()

SECRET = b"the club's secret"


def rendered(service: TournamentService, kind: str, round: int | None, lang: str) -> str:
    """The text of ``kind``'s pack in ``lang``, asked for and rendered through the queue."""
    store = service.store
    assert isinstance(store, SQLEventStore)
    version = service.state("t1").version
    pack, _ = request_pack(store.engine, "t1", kind, round, version, "organiser", lang)
    assert pack.lang == lang
    assert render_pack(store, service, pack.id, "https://club.example/", SECRET) == DONE
    data = pack_pdf(store.engine, "t1", pack.id)
    assert data is not None
    return pdf_text(data)


def seal(service: TournamentService) -> str:
    store = service.store
    assert isinstance(store, SQLEventStore)
    latest = store.latest_seal()
    assert latest is not None
    return latest.short


#: What each kind says in German and in English (never the other language's words).
HEADINGS = {
    "table-cards": (
        ["Tisch", "Runde 2", "gibt zuerst (R18)", "MELDECODE VON", "Siegel", "Partie"],
        ["Table", "Round 2", "deals first (R18)", "REPORT CODE OF", "Seal", "Match"],
    ),
    "scoresheets": (
        ["Spielbericht", "Tisch", "Unterschrift A", "Sieger", "hier schneiden"],
        ["Scoresheet", "Table", "Signature A", "Winner", "cut here"],
    ),
    "pairings": (
        ["Runde 2", "Spieler A", "Ergebnis", "Schweizer System, Runde 2 von"],
        ["Round 2", "Player A", "Result", "Swiss round 2 of"],
    ),
    "standings": (
        ["Tabelle", "Verein", "Pkt", "SPD", "DV"],
        ["Freitagsturnier: Standings", "Club", "Pts", "GPD", "DE"],
    ),
    "crosstable": (["Kreuztabelle", "nach 2 Runden", "Verein"], ["Crosstable", "after 2 rounds"]),
}


@pytest.mark.parametrize("kind", list(HEADINGS))
def test_the_same_pack_in_german_and_in_english(service: TournamentService, kind: str) -> None:
    round = 2 if kind in ("table-cards", "scoresheets", "pairings") else None
    german, english = rendered(service, kind, round, "de"), rendered(service, kind, round, "en")
    de_words, en_words = HEADINGS[kind]
    for word in de_words:
        assert word in german, (word, german[:400])
    for word in en_words:
        assert word in english, (word, english[:400])
    for text in (german, english):  # the names and the log's seal in both
        assert seal(service) in text
        t = service.state("t1")
        playing = {t.players[p].name for mid in t.rounds[1].matches for p in t.matches[mid].players}
        assert all(name in text for name in playing)
    assert "Tisch" not in english and "Runde" not in english
    assert "Table " not in german and "Round " not in german


def test_the_table_cards_print_the_same_codes_in_either_language(
    service: TournamentService,
) -> None:
    german = rendered(service, "table-cards", 2, "de")
    english = rendered(service, "table-cards", 2, "en")
    codes = round_codes(SECRET, service.state("t1"), 2)
    assert codes
    for pair in codes.values():
        for code in (pair,) if isinstance(pair, str) else pair:
            assert code in german and code in english
            assert f"club.example/r/{code}" in german and f"club.example/r/{code}" in english


def test_german_and_english_of_one_version_are_two_packs_the_same_language_twice_one(
    service: TournamentService,
) -> None:
    store = service.store
    assert isinstance(store, SQLEventStore)
    version = service.state("t1").version

    def ask(lang: str) -> tuple[Pack, bool]:
        return request_pack(store.engine, "t1", "standings", None, version, "o", lang)

    german, new_de = ask("de")
    english, new_en = ask("en")
    again, new_again = ask("de")
    assert new_de and new_en and not new_again
    assert german.id != english.id and again.id == german.id
    assert (german.lang, english.lang) == ("de", "en")
    with pytest.raises(ValueError, match="lang: 'fr' is not one of de, en"):
        ask("fr")


def test_numbers_are_written_the_locales_way() -> None:
    assert language("de").number(1.5) == "1,5" and language("en").number(1.5) == "1.5"
    assert language("de").number(12500) == "12.500" and language("en").number(12500) == "12,500"
    assert language(None).code == "de" and language("fr").code == "de"  # the clubs are Austrian


# --- over the API and from the desk ----------------------------------------------------------
@pytest.fixture
def web(tmp_path: Path) -> Web:
    return make_web(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path, PROJECTION_WAIT=0)


def test_the_api_takes_a_language_and_a_script_gets_german_without_one(web: Web) -> None:
    tid = swiss(web, rounds=1)
    url = f"/api/v1/tournaments/{tid}/print-packs"
    english = web.ok("POST", url, {"kind": "pairings", "lang": "en"})
    again = web.ok("POST", url, {"kind": "pairings", "lang": "en"})
    german = web.ok("POST", url, {"kind": "pairings"})
    assert english["id"] == again["id"] and english["lang"] == "en"
    assert german["id"] != english["id"] and german["lang"] == "de"
    assert "Round 1" in pdf_text(web.get(english["pdf"]).data)
    text = pdf_text(web.get(german["pdf"]).data)
    assert "Runde 1" in text and all(name in text for name, _ in NAMES)
    pdf = web.get(english["pdf"])
    name = f"{tid}-pairings-1-{english['version']}-en.pdf"
    assert pdf.headers["Content-Disposition"] == f'attachment; filename="{name}"'
    refused = web.post(url, {"kind": "pairings", "lang": "fr"})
    assert refused.status_code == 422


def test_the_desks_print_button_prints_in_the_pages_language(web: Web) -> None:
    tid = swiss(web, "club", rounds=2)
    run(web, tid, lambda t: start_round(t))
    signed_in(web)
    for lang, word in (("en", "Table"), ("de", "Tisch")):
        html = page(web, f"/desk/t/{tid}/rounds?lang={lang}")  # the page remembers it
        reply = web.client.post(
            f"/desk/t/{tid}/rounds/print",
            data={"csrf_token": csrf_of(html), "kind": "table-cards", "round": "3"},
        )
        assert reply.status_code == 303
        pack_id = reply.headers["Location"].rsplit("/", 1)[-1]
        status = web.client.get(f"/api/v1/tournaments/{tid}/print-packs/{pack_id}").get_json()
        assert status["lang"] == lang and status["status"] == "done", status
        text = pdf_text(web.client.get(status["pdf"]).data)
        assert word in text and status["seal"] in text


def test_a_signed_in_page_asking_the_api_gets_its_own_language(web: Web) -> None:
    tid = swiss(web, "club", rounds=1)
    signed_in(web)
    html = page(web, f"/desk/t/{tid}/rounds?lang=en")  # the reader switched to English
    asked = web.client.post(
        f"/api/v1/tournaments/{tid}/print-packs",
        json={"kind": "standings"},
        headers={"X-CSRFToken": csrf_of(html)},
    )
    assert asked.status_code == 202 and asked.get_json()["lang"] == "en"

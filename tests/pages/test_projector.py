"""The projector page ``/t/<tid>/projector`` (issue 11): every screen of the rotation in
the markup (standings, pairings by table, where do I sit, the bracket only for a
tournament that has one), long standings cut into pages that fit the screen, a QR code
of the public page, the live stream's wiring, in German and English."""

from __future__ import annotations

import random

import pytest

from tests.pages.markup import elements, unlabelled, words
from tests.web.conftest import Web
from tests.web.played import NAMES, play_round, register
from tournament.i18n.public_words import heading_words
from tournament.web import server
from tournament.web.pages.projector import STANDINGS_ROWS


def page(web: Web, path: str) -> str:
    reply = web.client.get(path)
    assert reply.status_code == 200, reply.get_data(as_text=True)
    assert reply.mimetype == "text/html"
    html: str = reply.get_data(as_text=True)
    return html


def screens(html: str) -> list[str]:
    """The screens' keys in rotation order (standings-1, pairings-1, ...)."""
    return [e.attrs["data-key"] for e in elements(html) if "data-key" in e.attrs]


def test_a_swiss_in_play_rotates_standings_pairings_and_where_do_i_sit(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/projector?lang=en")
    assert screens(html) == ["standings-1", "pairings-1", "seats-1"]  # no bracket in a Swiss
    found = elements(html)
    # The first screen shows, the others wait hidden for projector.js.
    sections = [e for e in found if e.tag == "section"]
    assert ["hidden" in e.attrs for e in sections] == [False, True, True]
    headings = [words(e.text) for e in found if e.tag == "h2"]
    assert headings == ["Standings", "Round 3: pairings by table", "Where do I sit?"]
    rows = [e for e in found if e.tag == "th" and e.attrs.get("scope") == "row"]
    assert len(rows) == 8 + 4  # eight players, four tables
    seats = [words(e.text) for e in found if e.tag == "li"]
    assert len(seats) == 8 and all(" table " in seat for seat in seats)


def test_the_projector_speaks_german_too(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/projector?lang=de")
    assert '<html lang="de">' in html
    headings = [words(e.text) for e in elements(html) if e.tag == "h2"]
    assert headings == ["Tabelle", "Runde 3: Paarungen nach Tisch", "Wo sitze ich?"]
    assert "Die Tabelle am Handy" in html and "Tisch " in html


def test_long_standings_are_paged_to_fit_the_screen(web: Web) -> None:
    tid = web.tournament("big", format="swiss", options={"rounds": 3})
    many = [(f"Spieler {n:02d}", "") for n in range(1, 31)]
    register(web, tid, many)
    html = page(web, f"/t/{tid}/projector?lang=en")
    assert screens(html) == ["standings-1", "standings-2", "standings-3"]
    found = elements(html)
    rows = [words(e.text) for e in found if e.tag == "th" and e.attrs.get("scope") == "row"]
    assert len(rows) == 30 and STANDINGS_ROWS == 12
    pages = [words(e.text) for e in found if e.tag == "span" and e.attrs.get("class") == "page-of"]
    assert pages == ["page 1 of 3", "page 2 of 3", "page 3 of 3"]
    # 12, 12 and 6 rows: each table its own page's.
    tables = html.split('<table class="big standings">')[1:]
    assert [part.split("</table>")[0].count('scope="row"') for part in tables] == [12, 12, 6]


def test_a_knockout_shows_its_bracket(web: Web) -> None:
    tid = web.tournament("ko", format="single_elimination")
    register(web, tid, NAMES)
    play_round(web, tid, random.Random(3))
    html = page(web, f"/t/{tid}/projector?lang=en")
    assert "bracket-1" in screens(html)
    bracket = html.split('data-kind="bracket"')[1]
    for name, _ in NAMES:
        assert name in bracket
    assert 'class="side one-line winner"' in bracket  # round 1 is decided: its winners stand out
    headings = [words(e.text) for e in elements(html) if e.tag == "h3"]
    assert headings == ["Quarter-finals", "Semi-finals", "Final"]  # 8 players
    german = page(web, f"/t/{tid}/projector?lang=de")
    assert "Turnierbaum" in german
    # The document names the rounds in English (roundview.bracket_heading); the page
    # says them in the reader's language.
    headings = [words(e.text) for e in elements(german) if e.tag == "h3"]
    assert headings == ["Viertelfinale", "Halbfinale", "Finale"]


def test_a_bracket_round_is_named_in_the_readers_language(web: Web) -> None:
    with web.app.test_request_context("/?lang=de"):
        assert heading_words("Round of 16") == "Runde der letzten 16"
        assert heading_words("Losers bracket, round 3") == "Verliererrunde, Runde 3"
        assert heading_words("Grand final (reset)") == "Großes Finale (Entscheidung)"
        assert heading_words("Something new") == "Something new"  # shown, never a gap


def test_a_qr_code_leads_to_the_public_page(
    web: Web, club: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The projector is opened on the laptop (localhost): phones reach the club network's
    # address instead, as the table cards' codes (tournament.web.public_url.qr_base).
    monkeypatch.setattr(server, "lan_address", lambda: "192.168.1.20")
    web.app.config["SERVE_LISTEN"] = "0.0.0.0"  # ./dev serve --lan
    html = page(web, f"/t/{club}/projector?lang=en")
    qr = next(e for e in elements(html) if e.attrs.get("class") == "qr-code")
    assert qr.attrs["role"] == "img"
    assert qr.attrs["aria-label"] == f"QR code of the standings page: http://192.168.1.20/t/{club}"
    assert "<svg" in html.split('class="qr-code"')[1].split("</figure>")[0]
    assert f"http://192.168.1.20/t/{club}</span>" in html


def test_the_screens_follow_the_live_stream_and_rotate_every_n_seconds(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/projector?every=5")
    found = elements(html)
    live = next(e for e in found if "sse-connect" in e.attrs)
    assert live.attrs["sse-connect"] == f"/api/v1/tournaments/{club}/live"
    assert live.attrs["hx-ext"] == "sse" and live.attrs["data-every"] == "5"
    container = next(e for e in found if e.attrs.get("id") == "screens")
    assert container.attrs["hx-get"] == f"/t/{club}/projector/screens"
    assert container.attrs["hx-trigger"] == "sse:standings"
    assert 'data-every="12"' in page(web, f"/t/{club}/projector")  # the default
    assert 'data-every="12"' in page(web, f"/t/{club}/projector?every=nonsense")
    fragment = page(web, f"/t/{club}/projector/screens?lang=en")
    assert "<html" not in fragment and screens(fragment) == screens(html)


def test_nothing_is_fetched_from_outside(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/projector")
    for e in elements(html):
        for attr in ("src", "href"):
            assert not e.attrs.get(attr, "/").startswith(("http:", "https:", "//")), e
    css = web.client.get("/static/projector.css")
    assert "url(" not in css.get_data(as_text=True)
    css.close()


def test_every_element_is_labelled_and_an_unknown_tournament_is_a_404(web: Web, club: str) -> None:
    for lang in ("de", "en"):
        html = page(web, f"/t/{club}/projector?lang={lang}")
        assert unlabelled(html) == [], lang
    assert web.client.get("/t/nope/projector").status_code == 404
    assert web.client.get("/t/nope/projector/screens").status_code == 404


def test_a_tournament_before_its_first_round_shows_the_standings_alone(web: Web) -> None:
    tid = web.tournament("empty")
    html = page(web, f"/t/{tid}/projector?lang=en")
    assert screens(html) == ["standings-1"] and "No players yet." in html

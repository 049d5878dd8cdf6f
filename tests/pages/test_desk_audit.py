"""The audit log (issue 11): every event with who, when (the locale's form), from where
and the seal that covers it; newest first, 100 a page; filtered by match or player."""

from __future__ import annotations

import pytest

from tests.pages.test_desk_sheets import SHEETS, STRAIGHT, shown, signed_in
from tests.web.conftest import Web
from tests.web.played import state
from tournament.app.services import services
from tournament.web.pages import desk_audit

AUDIT = "/desk/t/club/audit"


def number(version: int) -> str:
    """The cell of an event's number (its version in the tournament's stream)."""
    return f'<td data-label="#">{version}</td>'


def test_a_sheet_entered_at_the_desk_shows_who_from_where_and_the_seal(web: Web, club: str) -> None:
    token = signed_in(web)
    web.client.post(SHEETS, data={"csrf_token": token, "key": "7" * 32, "table": "1",
                                  **shown(web, "1"),
                                  "bummerl_1": STRAIGHT, "bummerl_2": STRAIGHT})  # fmt: skip
    html = web.client.get(f"{AUDIT}?lang=en").get_data(as_text=True)
    assert "Bummerl tally recorded" in html and "7 4 1 0 / 7 6" in html
    assert "admin@club.at" in html and "paper, desk page" in html
    with web.app.app_context():
        seals = services().store.seals()
    assert seals  # rounds 1 and 2 ended: the log was sealed at each end
    assert seals[0].short in html  # round 1's events carry the first seal
    assert "not sealed yet" in html  # round 3's sheet comes after the last seal
    de = web.client.get(f"{AUDIT}?lang=de").get_data(as_text=True)
    assert "Bummerl-Abrechnung erfasst" in de and "Papier" in de


def test_newest_first_a_page_at_a_time(
    web: Web, club: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert desk_audit.PER_PAGE == 100
    monkeypatch.setattr(desk_audit, "PER_PAGE", 20)  # the club's log has 30 events
    signed_in(web)
    total = state(web, club).version
    first = web.client.get(f"{AUDIT}?lang=en").get_data(as_text=True)
    assert number(total) in first and number(1) not in first
    assert first.count("<tr>") == 20 + 1  # the heading's row
    assert first.index(number(total)) < first.index(number(total - 1))
    last = web.client.get(f"{AUDIT}?lang=en&page=2").get_data(as_text=True)
    assert number(1) in last and "Tournament created" in last


def test_filtered_by_match_and_by_player(web: Web, club: str) -> None:
    signed_in(web)
    t = state(web, club)
    html = web.client.get(f"{AUDIT}?lang=en&match=1.1").get_data(as_text=True)
    assert "match 1.1" in html and "match 1.2" not in html
    player = t.matches["1.1"].players[0]
    mine = web.client.get(f"{AUDIT}?lang=en&player={player}").get_data(as_text=True)
    assert "match 1.1" in mine and "Player registered" in mine


def test_a_filter_naming_nothing_says_so(web: Web, club: str) -> None:
    signed_in(web)
    reply = web.client.get(f"{AUDIT}?lang=en&player=99")
    assert reply.status_code == 200 and "start number &#39;99&#39;" in reply.get_data(as_text=True)
    other = web.client.get(f"{AUDIT}?lang=en&match=9.1").get_data(as_text=True)
    assert "round 9 is not drawn yet" in other


def test_what_each_event_did_reads_in_german_from_its_code(web: Web, club: str) -> None:
    """The events' words (tournament.domain.views.eventwords) in the reader's language; English
    as ``tournament log`` prints them."""
    token = signed_in(web)
    web.client.post(SHEETS, data={"csrf_token": token, "key": "7" * 32, "table": "1",
                                  **shown(web, "1"),
                                  "bummerl_1": STRAIGHT, "bummerl_2": STRAIGHT})  # fmt: skip
    en = web.client.get(f"{AUDIT}?lang=en").get_data(as_text=True)
    assert "match 3.1: Bummerl tally 7 4 1 0 / 7 6 (result" in en
    assert "round 3 drawn (Swiss round 3 of 3): 4 matches; seed" in en
    de = web.client.get(f"{AUDIT}?lang=de").get_data(as_text=True)
    assert "Partie 3.1: Bummerl-Abrechnung 7 4 1 0 / 7 6 (Ergebnis" in de
    assert "Runde 3 ausgelost (Schweizer System, Runde 3 von 3): 4 Partien; Seed" in de
    assert "Anna Huber (1), Kategorie W, Wertung 1900" in de
    assert "Anna Huber (1), category W, rating 1900" in en
    assert "drawn (" not in de and "Bummerl tally" not in de

"""Corrections at the desk (issue 11, T-correction): the recorded sheet with struck hands
struck through, a preview of what a correction changes that stores nothing, and a store
that stores exactly the previewed correction -- refused when anything was stored since."""

from __future__ import annotations

from tests.pages.test_desk_sheets import SHEETS, STRAIGHT, shown, signed_in
from tests.web.conftest import Web
from tests.web.played import run, state
from tournament.domain import commands as c

CORRECT = f"{SHEETS}/3.1/correct"


def entered(web: Web) -> str:
    """Table 1 of round 3 won 2:0 at the desk; the CSRF token."""
    token = signed_in(web)
    web.client.post(SHEETS, data={"csrf_token": token, "key": "9" * 32, "table": "1",
                                  **shown(web, "1"),
                                  "bummerl_1": STRAIGHT, "bummerl_2": STRAIGHT})  # fmt: skip
    return token


def last_result(web: Web) -> str:
    return state(web, "club").matches["3.1"].entries[-1].result_id


def test_the_page_shows_the_recorded_sheet_and_struck_hands_struck_through(
    web: Web, club: str
) -> None:
    entered(web)
    rid = last_result(web)
    run(web, club, lambda t: c.strike_hand(t, rid, 2, by="referee", reason="unreadable"))
    html = web.client.get(f"{CORRECT}?lang=en").get_data(as_text=True)
    assert "7 4 1 0 / 7 6" in html
    assert "<del>" in html and "(struck)" in html


def test_a_preview_says_what_changes_and_stores_nothing(web: Web, club: str) -> None:
    token = entered(web)
    before = state(web, club).version
    reply = web.client.post(f"{CORRECT}?lang=en", data={
        "csrf_token": token, "result": last_result(web), "tally": "7 6 / 7 4 1 0",
        "why": "columns swapped", "action": "preview"})  # fmt: skip
    html = reply.get_data(as_text=True)
    assert reply.status_code == 200
    assert "What the correction would change" in html and "match 3.1" in html
    assert "Bummerl 1:1" in html  # the match is open again after it
    assert state(web, club).version == before


def test_store_stores_the_previewed_correction(web: Web, club: str) -> None:
    token = entered(web)
    t = state(web, club)
    version, rid = t.version, last_result(web)
    stored = web.client.post(CORRECT, data={
        "csrf_token": token, "version": version, "result": rid, "tally": "7 6 / 7 4 1 0",
        "why": "columns swapped", "action": "store"})  # fmt: skip
    assert stored.status_code == 303
    after = state(web, club)
    assert after.corrections[-1]["result_id"] == rid
    assert after.corrections[-1]["reason"] == "columns swapped"
    assert after.matches["3.1"].summary.bummerl == (1, 1)


def test_store_after_something_else_was_stored_stores_nothing(web: Web, club: str) -> None:
    token = entered(web)
    version, rid = state(web, club).version, last_result(web)
    web.client.post(SHEETS, data={"csrf_token": token, "key": "8" * 32, "table": "2",
                                  **shown(web, "2"),
                                  "bummerl_1": STRAIGHT})  # fmt: skip
    moved = state(web, club).version
    stale = web.client.post(f"{CORRECT}?lang=en", data={
        "csrf_token": token, "version": version, "result": rid, "tally": "7 6 / 7 4 1 0",
        "why": "columns swapped", "action": "store"})  # fmt: skip
    assert stale.status_code == 409 and "preview the correction again" in stale.get_data(
        as_text=True
    )
    assert state(web, club).version == moved


def test_a_correction_without_a_reason_is_refused_naming_the_field(web: Web, club: str) -> None:
    token = entered(web)
    reply = web.client.post(f"{CORRECT}?lang=en", data={
        "csrf_token": token, "result": last_result(web), "tally": "7 6 / 7 4 1 0",
        "why": " ", "action": "preview"})  # fmt: skip
    assert reply.status_code == 422 and "why" in reply.get_data(as_text=True)


def test_a_struck_hand_is_previewed_then_stored_and_shown_struck_through(
    web: Web, club: str
) -> None:
    token = entered(web)
    rid = last_result(web)
    strike = {"csrf_token": token, "result": rid, "strike": "4", "why": "unreadable"}
    before = state(web, club).version
    shown = web.client.post(f"{CORRECT}?lang=en", data={**strike, "action": "preview"})
    assert shown.status_code == 200 and "What the correction would change" in shown.get_data(
        as_text=True
    )
    assert state(web, club).version == before
    stored = web.client.post(CORRECT, data={**strike, "version": before, "action": "store"})
    assert stored.status_code == 303
    assert state(web, club).matches["3.1"].entries[-1].struck == frozenset({4})
    assert "<del>" in web.client.get(f"{CORRECT}?lang=en").get_data(as_text=True)


def test_a_strike_with_a_corrected_bummerl_is_refused_as_a_mix(web: Web, club: str) -> None:
    token = entered(web)
    reply = web.client.post(f"{CORRECT}?lang=en", data={
        "csrf_token": token, "result": last_result(web), "strike": "1", "tally": "7 6 / 7 4 1 0",
        "why": "x", "action": "preview"})  # fmt: skip
    assert reply.status_code == 422 and "not several" in reply.get_data(as_text=True)


def test_the_preview_reads_in_german_from_the_same_codes(web: Web, club: str) -> None:
    """The match's result before and after, and the standings' lines, in the catalog's
    German; the English page keeps the domain's English (Preview.lines)."""
    token = entered(web)
    form = {"csrf_token": token, "result": last_result(web), "tally": "7 6 / 7 4 1 0",
            "why": "columns swapped", "action": "preview"}  # fmt: skip
    english = web.client.post(f"{CORRECT}?lang=en", data=form).get_data(as_text=True)
    assert "-&gt; open, Bummerl 1:1, game points" in english
    german = web.client.post(f"{CORRECT}?lang=de", data=form).get_data(as_text=True)
    assert "Partie 3.1 (" in german and "-&gt; offen, Bummerl 1:1, Spielpunkte" in german
    assert "gewinnt, Bummerl 2:0, Spielpunkte" in german
    assert "Partie 3.1 ist wieder offen: ihr entscheidendes Bummerl eintragen" in german
    assert "match 3.1 is open again: enter its deciding Bummerl" in english
    assert "Punkte" in german and "game points" not in german and " wins" not in german

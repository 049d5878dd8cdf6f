"""The whole sheet corrected at the desk in one step (O-M4): its columns swapped, or every
Bummerl replaced, previewed first and stored as one correction -- the match never open
between two corrections."""

from __future__ import annotations

from tests.pages.test_desk_corrections import CORRECT, entered
from tests.web.conftest import Web
from tests.web.played import state


def test_swapping_the_columns_is_previewed_without_an_open_match_then_stored_once(
    web: Web, club: str
) -> None:
    token = entered(web)  # table 1 of round 3: the first column's player 2:0
    t = state(web, club)
    before, players = t.version, t.matches["3.1"].players
    form = {"csrf_token": token, "scope": "sheet", "swap": "on", "why": "columns swapped"}
    shown = web.client.post(f"{CORRECT}?lang=en", data={**form, "action": "preview"})
    html = shown.get_data(as_text=True)
    assert shown.status_code == 200 and "What the correction would change" in html
    assert "open again" not in html and "-&gt; open" not in html
    assert state(web, club).version == before
    stored = web.client.post(CORRECT, data={**form, "version": before, "action": "store"})
    assert stored.status_code == 303
    after = state(web, club)
    match = after.matches["3.1"]
    assert match.decided and match.players[match.summary.winner] == players[1]
    assert match.summary.bummerl == (0, 2)
    assert len({c["sheet"]["id"] for c in after.corrections[-2:]}) == 1


def test_the_whole_sheet_typed_again_replaces_every_bummerl(web: Web, club: str) -> None:
    token = entered(web)
    before = state(web, club).version
    form = {"csrf_token": token, "scope": "sheet", "why": "another sheet",
            "sheet": "7 6 / 7 4 1 0\n7 4 1 0 / 7 6\n7 6 3 / 7 5 2 0"}  # fmt: skip
    stored = web.client.post(CORRECT, data={**form, "version": before, "action": "store"})
    assert stored.status_code == 303
    assert state(web, club).matches["3.1"].summary.bummerl == (1, 2)


def test_swap_and_a_typed_sheet_together_are_refused(web: Web, club: str) -> None:
    token = entered(web)
    before = state(web, club).version
    reply = web.client.post(f"{CORRECT}?lang=en", data={
        "csrf_token": token, "scope": "sheet", "swap": "on", "sheet": "7 6 / 7 4 1 0",
        "why": "x", "action": "preview"})  # fmt: skip
    assert reply.status_code == 422 and "not both" in reply.get_data(as_text=True)
    assert state(web, club).version == before


def test_a_wrong_bummerl_of_the_new_sheet_is_named_in_german(web: Web, club: str) -> None:
    token = entered(web)
    reply = web.client.post(f"{CORRECT}?lang=de", data={
        "csrf_token": token, "scope": "sheet", "sheet": "7 6 / 7 4 1 0\n7 3 0 / 7",
        "why": "x", "action": "preview"})  # fmt: skip
    html = reply.get_data(as_text=True)
    assert reply.status_code == 422 and "Bummerl 2" in html
    assert "Oder den ganzen Spielbericht in einem Schritt berichtigen" in html

"""English left on German pages after the trial (N-L3): the correction preview's ``v``,
``S-N`` and tie-break ids, the audit log's undo reason, the public header's "Best of",
the import's plural and the new-tournament form's "RULES.md"."""

from __future__ import annotations

from tests.pages.markup import words
from tests.pages.public_formats import page
from tests.pages.test_desk_corrections import CORRECT, entered, last_result
from tests.pages.test_desk_import_excel import REGISTERED, upload
from tests.pages.test_desk_players import post, tournament
from tests.pages.test_desk_setup import signed_in as organiser
from tests.pages.test_desk_sheets import SHEETS, versions
from tests.web.conftest import Web


def test_the_correction_preview_names_players_and_tie_breaks_in_german(web: Web, club: str) -> None:
    token = entered(web)
    form = {"csrf_token": token, "result": last_result(web), "tally": "7 6 / 7 4 1 0",
            "why": "columns swapped", "action": "preview"}  # fmt: skip
    german = words(web.client.post(f"{CORRECT}?lang=de", data=form).get_data(as_text=True))
    assert " gegen " in german and " v " not in german
    assert "S-N" not in german and "Siege-Niederlagen" in german
    assert "bummerl diff" not in german and "game point diff" not in german
    english = words(web.client.post(f"{CORRECT}?lang=en", data=form).get_data(as_text=True))
    assert " v " in english  # the domain's English, as Preview.lines gives it


def test_the_audit_log_gives_the_undo_reason_in_german(web: Web, club: str) -> None:
    token = entered(web)
    undone = web.client.post(f"{SHEETS}/undo", data={"csrf_token": token,
                                                     "version": versions(web),
                                                     "confirm": "yes"})  # fmt: skip
    assert undone.status_code == 303
    german = page(web, "/desk/t/club/audit?lang=de")
    assert "undone at the scoresheet desk" not in german
    assert "bei der Eingabe der Spielberichte rückgängig gemacht" in german


def test_the_public_header_says_best_of_in_german(web: Web) -> None:
    tid = tournament(web)
    german = words(page(web, f"/t/{tid}?lang=de"))
    assert "Best of" not in german and "bis zu 3 Bummerl" in german


def test_one_look_alike_in_an_import_is_one_row_in_german(web: Web) -> None:
    tid = tournament(web)
    csrf = organiser(web)
    post(web, f"/desk/t/{tid}/players/import", csrf, csv=REGISTERED, action="import")
    one = "Name;Verein\r\nGuenther Moser;SC Ottakring\r\n".encode("cp1252")
    _, german = upload(web, tid, csrf, one, "de")
    assert "1 Zeile könnte ein schon angemeldeter Spieler sein" in words(german)
    _, english = upload(web, tid, csrf, one, "en")
    assert "1 row may be a player registered already" in words(english)


def test_the_new_tournament_form_names_no_file_of_the_source(web: Web) -> None:
    organiser(web)
    for lang in ("de", "en"):
        html = page(web, f"/desk/new?lang={lang}")
        assert "RULES.md" not in html
    assert "Jede ändert eine Spielregel für dieses Turnier" in words(page(web, "/desk/new?lang=de"))

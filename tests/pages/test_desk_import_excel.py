"""Excel's own CSV at the desk (O-L2): a list saved as plain "CSV" on an Austrian Windows
(Windows-1252, semicolons, German headers) is read, and the preview says how; a row spelt
like a registered player of the same club (Guenther / Günther, Weiss / Weiß) is flagged
as a possible duplicate beside it -- a warning, not a refusal: the list still imports."""

from __future__ import annotations

import io

from tests.pages.test_desk_players import post, tournament
from tests.pages.test_desk_setup import signed_in
from tests.web.conftest import Web
from tests.web.played import state

REGISTERED = "name,club\nGünther Moser,SC Ottakring\nFranz Weiß,\n"
EXCEL = (
    "Name;Verein;Wertung\r\nGuenther Moser;SC Ottakring;1500\r\n"
    "Franz Weiss;SV Linz;1400\r\nÖzlem Öhler;SC Ried;1300\r\n"
)


def upload(web: Web, tid: str, csrf: str, data: bytes, lang: str) -> tuple[int, str]:
    reply = web.client.post(
        f"/desk/t/{tid}/players/import?lang={lang}",
        data={"csrf_token": csrf, "action": "preview", "file": (io.BytesIO(data), "liste.csv")},
        content_type="multipart/form-data",
    )
    return reply.status_code, reply.get_data(as_text=True)


def test_excel_s_windows_1252_csv_is_read_and_the_preview_says_so(web: Web) -> None:
    tid = tournament(web)
    csrf = signed_in(web)
    status, html = upload(web, tid, csrf, EXCEL.encode("cp1252"), "en")
    assert status == 200, html
    assert "read as Windows-1252" in html and "Özlem Öhler" in html
    status, html = upload(web, tid, csrf, EXCEL.encode("utf-8-sig"), "de")
    assert status == 200 and "Windows-1252" not in html and "Özlem Öhler" in html


def test_ue_and_ss_spellings_of_a_registered_player_are_flagged_not_refused(web: Web) -> None:
    tid = tournament(web)
    csrf = signed_in(web)
    post(web, f"/desk/t/{tid}/players/import", csrf, csv=REGISTERED, action="import")
    status, html = upload(web, tid, csrf, EXCEL.encode("cp1252"), "en")
    assert status == 200, html  # a warning: the list may still be imported
    assert "Guenther Moser may be Günther Moser, registered as player 1" in html
    assert "Franz Weiss may be Franz Weiß, registered as player 2" in html  # no club: compared
    assert "Özlem Öhler may be" not in html
    _, german = upload(web, tid, csrf, EXCEL.encode("cp1252"), "de")
    assert "mögliches Duplikat: Guenther Moser könnte Günther Moser sein" in german
    assert "Windows-1252 gelesen" in german
    before = len(state(web, tid).players)
    post(web, f"/desk/t/{tid}/players/import", csrf, csv=EXCEL.replace("\r\n", "\n"),
         action="import")  # fmt: skip
    assert len(state(web, tid).players) == before + 3


def test_a_look_alike_at_another_club_is_not_flagged(web: Web) -> None:
    tid = tournament(web)
    csrf = signed_in(web)
    post(web, f"/desk/t/{tid}/players/import", csrf, csv=REGISTERED, action="import")
    other = "Name;Verein\r\nGuenther Moser;SV Linz\r\n".encode("cp1252")
    _, html = upload(web, tid, csrf, other, "en")
    assert "possible duplicate" not in html


def test_a_refused_row_of_the_preview_reads_in_german(web: Web) -> None:
    tid = tournament(web)
    csrf = signed_in(web)
    post(web, f"/desk/t/{tid}/players/import", csrf, csv=REGISTERED, action="import")
    _, html = upload(web, tid, csrf, REGISTERED.encode(), "de")
    assert "is already registered" not in html and "Günther Moser" in html


def test_a_file_in_neither_encoding_is_refused_in_german(web: Web) -> None:
    """O-L6: the file's own problems (encoding, header) read in the page's language."""
    tid = tournament(web)
    csrf = signed_in(web)
    status, html = upload(web, tid, csrf, b"Name;Verein\r\nJos\x81;X\r\n", "de")
    assert status == 422 and "die Datei ist weder UTF-8 noch Windows-1252 (Byte 0x81)" in html
    status, html = upload(web, tid, csrf, b"Vorname;Verein\r\nAnna;X\r\n", "de")
    assert status == 422 and "die Kopfzeile braucht die Spalte(n) name" in html
    assert "the header needs" not in html

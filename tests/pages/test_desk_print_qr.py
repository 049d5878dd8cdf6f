"""Where the table cards' QR codes lead (issue 11 review): phones must reach it. A desk
opened on the laptop itself (localhost, 127.0.0.1) gave codes that lead to the phone
itself. ``PUBLIC_URL`` (``SCHNAPSEN_PUBLIC_URL``) wins when set; else a loopback desk
address is replaced by the machine's club-network address; a base phones still cannot
open is warned about on the print page, in the reader's language."""

from __future__ import annotations

import io

import pytest

from tests.pages.markup import elements
from tests.pages.test_desk_rounds import page, signed_in
from tests.web.conftest import Web
from tests.web.test_sign_in import csrf_of
from tournament.web import server

pypdf = pytest.importorskip("pypdf")


def print_table_cards(web: Web, tid: str, lang: str = "en") -> tuple[str, str]:
    """The print page of round 3's table cards, and the text of their PDF (no spaces)."""
    signed_in(web)
    html = page(web, f"/desk/t/{tid}/rounds?lang={lang}")
    reply = web.client.post(
        f"/desk/t/{tid}/rounds/print",
        data={"csrf_token": csrf_of(html), "kind": "table-cards", "round": "3"},
    )
    assert reply.status_code == 303
    status = page(web, reply.headers["Location"] + f"?lang={lang}")
    link = next(e for e in elements(status) if e.attrs.get("id") == "pack-pdf")
    pdf = web.client.get(link.attrs["href"]).data
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    return status, "".join(text.split())  # a long link wraps in the card's column


def by_id(html: str, id: str) -> str | None:
    return next((e.text for e in elements(html) if e.attrs.get("id") == id), None)


def test_the_public_url_setting_is_where_the_codes_lead(web: Web, club: str) -> None:
    web.app.config["PUBLIC_URL"] = "https://schnapsen.club.at/"
    status, pdf = print_table_cards(web, club)
    assert "https://schnapsen.club.at/t/club" in pdf
    assert "https://schnapsen.club.at/r/" in pdf and "localhost" not in pdf
    assert "https://schnapsen.club.at/" in (by_id(status, "qr-base") or "")
    assert by_id(status, "qr-unreachable") is None


def test_a_desk_opened_on_localhost_prints_the_club_network_address(
    web: Web, club: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "lan_address", lambda: "192.168.1.20")
    web.app.config["SERVE_LISTEN"] = "0.0.0.0"  # ./dev serve --lan
    status, pdf = print_table_cards(web, club)  # the test client is at http://localhost/
    assert "http://192.168.1.20/t/club" in pdf and "localhost" not in pdf
    assert by_id(status, "qr-unreachable") is None


def test_under_another_server_a_loopback_desk_keeps_its_address_and_warns_opfix_6a(
    web: Web, club: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Operator trial of main, 6a: under gunicorn a desk opened on the loopback printed
    the address of the interface the host's traffic leaves by (192.0.2.2), which phones
    could not open. Only `serve --lan` looks for the club network; a server sets
    SCHNAPSEN_PUBLIC_URL, and without it the print page warns."""
    monkeypatch.setattr(server, "lan_address", lambda: "192.0.2.2")
    status, pdf = print_table_cards(web, club)  # no SERVE_LISTEN: not `serve`
    assert "192.0.2.2" not in pdf and "http://localhost/t/club" in pdf
    assert "phones cannot open it" in (by_id(status, "qr-unreachable") or "")


def test_without_a_club_network_the_print_page_warns_that_phones_cannot_open_the_codes(
    web: Web, club: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "lan_address", lambda: None)
    status, pdf = print_table_cards(web, club, lang="de")
    assert "http://localhost/t/club" in pdf
    warning = by_id(status, "qr-unreachable") or ""
    assert "http://localhost/" in warning and "Handys" in warning


def test_a_server_listening_on_this_computer_only_keeps_its_address_and_warns(
    web: Web, club: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "lan_address", lambda: "192.168.1.20")
    web.app.config["SERVE_LISTEN"] = "127.0.0.1"  # ./dev serve without --lan
    status, pdf = print_table_cards(web, club)
    assert "192.168.1.20" not in pdf
    assert "phones cannot open it" in (by_id(status, "qr-unreachable") or "")

"""The new kinds over ``POST /api/v1/tournaments/{tid}/print-packs``: a round's table
cards link the public page on the host the organiser asked from; a round goes with the
round kinds only."""

from __future__ import annotations

import pytest

from tests.printing.helpers import pdf_text, require_weasyprint
from tests.web.conftest import Web
from tests.web.played import NAMES, swiss

require_weasyprint()


def test_table_cards_link_the_public_page_on_the_host_asked_from(web: Web) -> None:
    tid = swiss(web, rounds=1)
    status = web.ok("POST", f"/api/v1/tournaments/{tid}/print-packs", {"kind": "table-cards"})
    assert status["status"] == "done" and status["round"] == 1 and status["pages"] == 2
    text = pdf_text(web.get(status["pdf"]).data)
    assert "http://localhost/t/club" in text  # the test client's host
    assert all(name in text for name, _ in NAMES) and status["seal"] in text


@pytest.mark.parametrize(
    ("kind", "shown"), [("scoresheets", "Spielbericht"), ("crosstable", "Kreuztabelle")]
)
def test_scoresheets_of_a_round_and_the_crosstable(web: Web, kind: str, shown: str) -> None:
    tid = swiss(web, rounds=2)
    body: dict[str, object] = (
        {"kind": kind, "round": 1} if kind == "scoresheets" else {"kind": kind}
    )
    status = web.ok("POST", f"/api/v1/tournaments/{tid}/print-packs", body)
    assert status["status"] == "done", status
    text = pdf_text(web.get(status["pdf"]).data)
    assert shown in text and status["seal"] in text
    assert all(name in text for name, _ in NAMES)


def test_a_round_goes_with_the_round_kinds_only(web: Web) -> None:
    tid = swiss(web, rounds=1)
    url = f"/api/v1/tournaments/{tid}/print-packs"
    reply = web.post(url, {"kind": "crosstable", "round": 1})
    assert reply.status_code == 422 and reply.get_json()["field"] == "body.round"
    reply = web.post(url, {"kind": "table-cards", "round": 4})
    assert reply.status_code == 422 and "not drawn yet" in reply.get_json()["detail"]

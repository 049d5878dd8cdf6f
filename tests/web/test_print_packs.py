"""Print packs: asked for over the API, rendered away from the request, kept; the PDF
holds the names, the round's tables and the log's seal (issue 10: "Large print packs
(PDF) render in the worker")."""

from __future__ import annotations

import io

import pytest

from tests.conftest import REQUIRE_SERVICES
from tests.web.conftest import Web
from tests.web.played import NAMES, swiss
from tournament.accounts.roles import Role

pypdf = pytest.importorskip("pypdf")


def _weasyprint_loads() -> str | None:
    try:
        import weasyprint  # noqa: F401  (needs the system's pango)
    except (ImportError, OSError) as error:
        return str(error)
    return None


_MISSING = _weasyprint_loads()
if _MISSING is not None:
    if REQUIRE_SERVICES:
        raise RuntimeError(f"PDF rendering is needed in CI: {_MISSING}")
    pytest.skip(f"WeasyPrint cannot render here: {_MISSING}", allow_module_level=True)


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)


def test_standings_pack_renders_with_every_name_and_the_seal(web: Web) -> None:
    tid = swiss(web, rounds=2)
    asked = web.post(f"/api/v1/tournaments/{tid}/print-packs", {"kind": "standings"})
    assert asked.status_code == 202
    pack = asked.get_json()
    assert asked.headers["Location"] == f"/api/v1/tournaments/{tid}/print-packs/{pack['id']}"
    status = web.ok("GET", asked.headers["Location"])  # the tests render at once (inline)
    assert status["status"] == "done" and status["pages"] >= 1, status
    pdf = web.get(status["pdf"])
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert pdf.data.startswith(b"%PDF")
    text = pdf_text(pdf.data)
    for name, _ in NAMES:
        assert name in text
    assert status["seal"] and status["seal"] in text
    assert "nach Runde 2" in text or "after round 2" in text


def test_the_same_pack_of_the_same_version_is_rendered_once(web: Web) -> None:
    tid = swiss(web, rounds=1)
    first = web.ok("POST", f"/api/v1/tournaments/{tid}/print-packs", {"kind": "pairings"})
    again = web.ok("POST", f"/api/v1/tournaments/{tid}/print-packs", {"kind": "pairings"})
    assert first["id"] == again["id"] and first["round"] == 1
    text = pdf_text(web.get(again["pdf"] or first["pdf"] or "").data)
    assert "Runde 1" in text and "Tisch" in text


def test_a_round_that_is_not_drawn_is_refused_naming_it(web: Web) -> None:
    tid = swiss(web, rounds=1)
    reply = web.post(f"/api/v1/tournaments/{tid}/print-packs", {"kind": "pairings", "round": 5})
    assert reply.status_code == 422
    assert reply.get_json()["field"] == "body.round"
    reply = web.post(f"/api/v1/tournaments/{tid}/print-packs", {"kind": "standings", "round": 1})
    assert reply.status_code == 422


def test_print_packs_are_for_organisers(web: Web) -> None:
    tid = swiss(web, rounds=1)
    scorer = web.caller(Role.SCORER, tid)
    reply = web.post(f"/api/v1/tournaments/{tid}/print-packs", {"kind": "standings"}, token=scorer)
    assert reply.status_code == 403
    reply = web.get(f"/api/v1/tournaments/{tid}/print-packs/{'0' * 36}")
    assert reply.status_code == 404

"""Table cards print both seats' report codes with the QR code of each ``/r/<code>`` link
(T-code); the PDF's text holds the codes, and a round's cards still fit two to a page."""

from __future__ import annotations

from tests.printing.helpers import SEAL, evening, page_texts, pdf_text, require_weasyprint
from tests.web.conftest import Web
from tests.web.played import state, swiss
from tournament.domain.commands.tablecodes import match_codes, round_codes
from tournament.printing.packs import document, render
from tournament.printing.render import html

require_weasyprint()

BASE = "http://192.168.1.20:8080/"
SECRET = b"club secret"


def test_each_card_prints_both_codes_and_their_qr_links() -> None:
    b = evening(8, rounds=1, play_last=False)
    codes = round_codes(SECRET, b.state)
    found = document("table-cards", b.state, lambda: b.events, base_url=BASE, codes=codes)
    markup = html(found.template, {**found.context, "footer": SEAL})
    # the public page's QR on each of the 4 cards, and one per seat
    assert markup.count("<svg") == 4 + 8
    data, pages = render(found, SEAL)
    assert pages == 2  # still two cards to a page
    texts = page_texts(data)
    for n, mid in enumerate(sorted(codes, key=lambda m: b.state.matches[m].table)):
        for code in codes[mid]:
            assert code in texts[n // 2]
            assert f"192.168.1.20:8080/r/{code}" in texts[n // 2]
    assert "noch nicht vergeben" not in "\n".join(texts)


def test_each_seat_s_code_is_on_its_own_tear_off_slip_with_its_name() -> None:
    """P1, O-M2: the two codes need not lie side by side: each is on a slip of its own,
    cut off along dashed lines, headed with its player's name, and the player keeps it."""
    b = evening(8, rounds=1, play_last=False)
    codes = round_codes(SECRET, b.state)
    for lang, words, only in (
        ("en", "Cut along the dashed lines: each player keeps only their own code.", "For {} only"),
        ("de", "Entlang der gestrichelten Linien abschneiden", "Nur für {}"),
    ):
        found = document(
            "table-cards", b.state, lambda: b.events, base_url=BASE, codes=codes, lang=lang
        )
        markup = html(found.template, {**found.context, "footer": SEAL}, found.lang)
        cards = markup.split('<section class="half">')[1:]
        for card, mid in zip(
            cards, sorted(codes, key=lambda m: b.state.matches[m].table), strict=True
        ):
            assert words in card
            slips = card.split('<td class="code">')[1:]
            assert len(slips) == 2
            for seat, slip in enumerate(slips):
                name = b.state.players[b.state.matches[mid].players[seat]].name
                assert only.format(name) in slip
                assert codes[mid][seat] in slip and codes[mid][1 - seat] not in slip
        assert render(found, SEAL)[1] == 2, "still two cards to a page"


def test_the_print_pack_of_table_cards_prints_the_codes_the_pages_take(web: Web) -> None:
    tid = swiss(web, rounds=1)
    status = web.ok("POST", f"/api/v1/tournaments/{tid}/print-packs", {"kind": "table-cards"})
    assert status["status"] == "done" and status["pages"] == 2
    text = pdf_text(web.get(status["pdf"]).data)
    t = state(web, tid)
    for mid in t.rounds[-1].matches:
        for code in match_codes(b"test-secret", t, t.matches[mid]):
            assert code in text and f"localhost/r/{code}" in text

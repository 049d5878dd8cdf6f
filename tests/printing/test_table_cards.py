"""Table cards: one per table of a round, two to an A4 page with a cut line between; the
table's number, both players (start number, name, club), who deals first (R18), the
best-of (R20), the round, the public page's QR code, the place of the table's report
code (empty until codes are handed out), and the log's seal on every card."""

from __future__ import annotations

from tests.printing.helpers import SEAL, evening, page_texts, pdf_text, require_weasyprint
from tournament.domain.views.roundview import round_view
from tournament.printing.packs import document, render
from tournament.printing.render import html
from tournament.printing.tables import round_tables

require_weasyprint()

BASE = "http://192.168.1.20:8080/"


def test_every_table_of_the_round_gets_a_card_with_its_players_and_who_deals_first() -> None:
    b = evening(9, rounds=2, play_last=False)
    tables = round_tables(b.state)
    assert [x.table for x in tables.tables] == [1, 2, 3, 4]  # the bye gets no card
    data, count = render(document("table-cards", b.state, lambda: b.events, base_url=BASE), SEAL)
    assert count == 2  # two cards to a page
    text = page_texts(data)
    for n, table in enumerate(tables.tables):
        page = text[n // 2]
        assert f"Tisch {table.table}" in page and f"Partie {table.match_id}" in page
        for seat in table.players:
            assert seat.name in page and str(seat.start) in page
            assert not seat.club or seat.club in page
        dealer = table.first_dealer
        assert dealer is not None, "a Swiss round draws who deals first (R18)"
        assert f"Zuerst gibt {dealer.name} ({dealer.start})" in page
    everything = "\n".join(text)
    assert everything.count(SEAL) == 4, "each card carries the seal: cards are cut apart"
    assert "Runde 2" in everything and "Freitagsturnier" in everything
    assert "Best of 3: gewonnen hat, wer zuerst 2 Bummerl hat (R20)" in everything


def test_the_card_links_the_public_page_with_a_qr_code() -> None:
    b = evening(4, rounds=1, play_last=False)
    found = document("table-cards", b.state, lambda: b.events, base_url=BASE)
    markup = html(found.template, {**found.context, "footer": SEAL})
    assert markup.count("<svg") == 2 and 'class="segno"' in markup
    assert "http://192.168.1.20:8080/t/t1" in pdf_text(render(found, SEAL)[0])
    without = document("table-cards", b.state, lambda: b.events)
    assert "<svg" not in html(without.template, {**without.context, "footer": SEAL})


def test_no_report_code_is_printed_until_the_codes_are_given() -> None:
    b = evening(4, rounds=1, play_last=False)
    blank = pdf_text(render(document("table-cards", b.state, lambda: b.events), SEAL)[0])
    assert blank.count("MELDECODE DIESES TISCHES") == 2
    assert blank.count("noch nicht vergeben") == 2
    coded = document("table-cards", b.state, lambda: b.events, codes={"1.2": "K7QM-22"})
    text = pdf_text(render(coded, SEAL)[0])
    assert "K7QM-22" in text and text.count("noch nicht vergeben") == 1


def test_a_round_of_40_tables_renders_40_cards_on_20_pages() -> None:
    b = evening(80, rounds=1, play_last=False)
    view = round_view(b.state)
    assert len(view.tables) == 40
    data, count = render(document("table-cards", b.state, lambda: b.events, base_url=BASE), SEAL)
    assert count == 20
    text = pdf_text(data)
    for line in view.tables:
        assert f"Partie {line.match_id}" in text
        assert all(p.name in text for p in line.players if p is not None)
    assert text.count(SEAL) == 40

"""A table card of a match played online (T-online) says that its codes' QR codes open
the players' seats: "Online spielen: Code scannen" (the QR leads to ``/r/<code>``, which
opens the game page of an online match); a paper match's card does not."""

from __future__ import annotations

import pytest

from tests.printing.helpers import SEAL, evening, require_weasyprint
from tournament.domain.online import start_online
from tournament.domain.tablecodes import round_codes
from tournament.printing.packs import document
from tournament.printing.render import html

require_weasyprint()

BASE = "http://192.168.1.20:8080/"


@pytest.mark.parametrize(
    ("lang", "line"), [("de", "Online spielen: Code scannen"), ("en", "Play online: scan the code")]
)
def test_only_the_online_table_s_card_says_to_scan_the_code_to_play(lang: str, line: str) -> None:
    b = evening(8, rounds=1, play_last=False)
    online, *paper = sorted(b.state.rounds[-1].matches, key=lambda m: b.state.matches[m].table)
    b.add(start_online(b.state, online, move_seconds=60))
    codes = round_codes(b"club secret", b.state)
    found = document(
        "table-cards", b.state, lambda: b.events, base_url=BASE, codes=codes, lang=lang
    )
    markup = html(found.template, {**found.context, "footer": SEAL}, found.lang)
    cards = markup.split('<section class="half">')[1:]
    assert len(cards) == 1 + len(paper)
    assert cards[0].count(line) == 2  # beside each seat's code and its QR
    assert all(line not in card for card in cards[1:])

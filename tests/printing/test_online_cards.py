"""A table card of a match played online (T-online) says under each code that it is that
player's seat, kept by the phone that takes it with *Take my seat* (the QR leads to
``/r/<code>``, which opens the game page of an online match), instead of the report
wording; a paper match's card does not."""

from __future__ import annotations

import pytest

from tests.printing.helpers import SEAL, evening, require_weasyprint
from tournament.domain.commands.online import start_online
from tournament.domain.commands.tablecodes import round_codes
from tournament.printing.packs import document
from tournament.printing.render import html

require_weasyprint()

BASE = "http://192.168.1.20:8080/"


SEAT_LINES = [
    (
        "de",
        "Nur du scannst diesen Code, mit deinem eigenen Handy, und tippst auf „Meinen Platz "
        "nehmen“: dieses Handy behält den Platz",
        "Meldecode",
    ),
    (
        "en",
        "Only you scan this code, on your own phone, and tap “Take my seat”: that phone keeps "
        "the seat",
        "Report code",
    ),
]


@pytest.mark.parametrize(("lang", "line", "report"), SEAT_LINES)
def test_only_the_online_table_s_card_says_each_code_is_its_player_s_seat(
    lang: str, line: str, report: str
) -> None:
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
    assert report not in cards[0]  # not the report wording (T-online, not T-code)
    assert all(line not in card and report in card for card in cards[1:])

"""One form of address per audience on the German pages (P9): players are addressed as
*du* (the report page, the play page, the public pages, the table card: docs/spieler.md
speaks to players so), organisers as *Sie* (the desk). A scan of the German catalogue by
where each string is used."""

from __future__ import annotations

import re

from tests.pages.test_catalog import german

#: Where a string is for players: the phone's pages, the public pages, the table card.
PLAYERS = (
    "tournament/web/templates/report/",
    "tournament/web/templates/play/",
    "tournament/web/templates/public/",
    "tournament/web/templates/errors/404.html",
    "tournament/web/pages/report.py",
    "tournament/web/pages/play.py",
    "tournament/web/pages/public",
    "tournament/printing/templates/table_cards.html",
)
#: Where a string is for organisers only: the desk.
ORGANISERS = ("tournament/web/templates/desk/", "tournament/web/pages/desk")

SIE = re.compile(r"\b(Sie|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres|Ihnen)\b")
DU = re.compile(r"\b(du|Du|dich|dir|dein|deine|deinen|deinem|deiner|deines|Dein|Deine)\b")


def _strings(where: tuple[str, ...]) -> list[tuple[str, str]]:
    found = []
    for entry in german():
        if not entry.id or not any(loc.startswith(where) for loc, _ in entry.locations):
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        found += [(str(entry.id), str(text)) for text in strings]
    return found


def test_players_are_addressed_as_du_never_as_sie() -> None:
    polite = [f"{english!r}: {text!r}" for english, text in _strings(PLAYERS) if SIE.search(text)]
    assert polite == [], "players are addressed as du:\n" + "\n".join(polite)
    assert any(DU.search(text) for _, text in _strings(PLAYERS))


def test_organisers_are_addressed_as_sie_never_as_du() -> None:
    familiar = [
        f"{english!r}: {text!r}" for english, text in _strings(ORGANISERS) if DU.search(text)
    ]
    assert familiar == [], "organisers are addressed as Sie:\n" + "\n".join(familiar)

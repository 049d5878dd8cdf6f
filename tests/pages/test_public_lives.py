"""The lives format (Preisschnapsen): the public standings, pairings, player pages and the
projector say each player's lives left -- "how many lives do I still have" is the
players' first question (O-L11, docs/formats.md)."""

from __future__ import annotations

import re

from tests.pages.markup import elements, words
from tests.pages.public_formats import page, played
from tests.web.conftest import Web
from tests.web.played import run, state
from tournament.domain.commands.rounds import start_round
from tournament.domain.standings.lives import lives_left


def evening(web: Web) -> tuple[str, dict[int, int]]:
    """Eight players, two lives each, two rounds played and round 3 drawn; lives left."""
    tid = played(web, "lives", "lives", rounds=2, lives=2)
    run(web, tid, lambda t: start_round(t))
    left = lives_left(state(web, tid))
    assert left is not None and set(left.values()) - {2}  # somebody lost a life
    return tid, left


def text(html: str) -> str:
    """The page's words without its tags."""
    return words(re.sub(r"<[^>]+>", " ", html))


def said(n: int) -> str:
    return "out of lives" if n == 0 else "1 life" if n == 1 else f"{n} lives"


def test_the_standings_have_a_lives_column(web: Web) -> None:
    tid, left = evening(web)
    html = page(web, f"/t/{tid}?lang=en")
    assert ">Lives</th>" in html
    found = elements(html)
    order = [int(e.attrs["id"][9:]) for e in found if e.attrs.get("id", "").startswith("standing-")]
    cells = [words(e.text) for e in found if e.tag == "td" and e.attrs.get("class") == "lives"]
    assert cells == [str(left[pid]) for pid in order]
    assert ">Leben</th>" in page(web, f"/t/{tid}?lang=de")


def test_the_pairings_and_seats_say_each_player_s_lives(web: Web) -> None:
    tid, left = evening(web)
    t = state(web, tid)
    html = page(web, f"/t/{tid}/pairings?lang=en")
    for mid in t.rounds[-1].matches:
        for pid in t.matches[mid].players:
            assert f"{t.players[pid].name} ({said(left[pid])})" in text(html)
    german = text(page(web, f"/t/{tid}/pairings?lang=de"))
    assert "Leben)" in german


def test_the_player_page_says_the_lives_left(web: Web) -> None:
    tid, left = evening(web)
    pid = min(left, key=left.__getitem__)
    html = page(web, f"/t/{tid}/players/{pid}?lang=en")
    found = next(e for e in elements(html) if e.attrs.get("id") == "lives-left")
    assert words(found.text) == said(left[pid]) and "Lives left" in html


def test_the_projector_shows_the_lives(web: Web) -> None:
    tid, left = evening(web)
    html = page(web, f"/t/{tid}/projector/screens?lang=en")
    assert ">Lives</th>" in html
    assert any(said(n) in html for n in set(left.values()))


def test_other_formats_show_no_lives(web: Web) -> None:
    tid = played(web, "sw", "swiss", rounds=1)
    assert ">Lives</th>" not in page(web, f"/t/{tid}?lang=en")
    assert "lives" not in page(web, f"/t/{tid}/pairings?lang=en").lower()

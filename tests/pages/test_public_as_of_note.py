"""The public pages "as of round N" say what ``tournament standings --round N`` says when a
result of rounds 1..N was entered or corrected after round N + 1 was drawn (O-M1), and a
player's page as of round N lists the results the table counts, never today's."""

from __future__ import annotations

from tests.pages.markup import elements, words
from tests.pages.public_formats import page
from tests.web.conftest import Web
from tests.web.played import run, state
from tournament.domain import commands as c
from tournament.domain.views.standings_view import standings_view


def swapped_round_2(web: Web, tid: str) -> tuple[str, int]:
    """Round 2's first match corrected (its columns swapped) while round 3 is drawn: the
    match id and the player who won it before the correction."""
    t = state(web, tid)
    mid = t.rounds[1].matches[0]
    match = t.matches[mid]
    winner = match.players[match.summary.winner or 0]
    run(web, tid, lambda t: c.correct_sheet(t, mid, None, by="desk", reason="swapped"))
    return mid, winner


def test_the_past_round_says_it_stood_at_the_draw_and_counts_the_corrections_since(
    web: Web, club: str
) -> None:
    swapped_round_2(web, club)
    with web.app.app_context():
        from tournament.app.services import services

        service = services().tournaments
        cli = standings_view(service.state(club), lambda: service.events(club), round=2).note
    assert "as it stood when round 3 was drawn; 1 result of rounds 1-2 was entered" in cli
    english = page(web, f"/t/{club}?round=2&lang=en")
    assert (
        "As it stood when round 3 was drawn. 1 result of rounds 1–2 was entered or corrected "
        "since: the current standings count it." in words(english)
    )
    german = page(web, f"/t/{club}/standings-fragment?round=2&lang=de")
    assert "Stand bei der Auslosung von Runde 3. 1 Ergebnis der Runden 1–2 wurde seither" in (
        words(german)
    )


def test_a_past_round_without_later_changes_says_only_when_it_was_taken(
    web: Web, club: str
) -> None:
    html = page(web, f"/t/{club}?round=1&lang=en")
    assert "As it stood when round 2 was drawn." in words(html)
    assert "entered or corrected since" not in html


def test_the_player_page_as_of_a_round_shows_the_result_the_table_counts(
    web: Web, club: str
) -> None:
    _, winner = swapped_round_2(web, club)
    html = page(web, f"/t/{club}/players/{winner}?round=2&lang=en")
    row = next(e for e in elements(html) if e.attrs.get("id") == "round-2")
    assert "won" in words(row.text)  # as the table at the end of round 2 counts it
    assert "1 result of rounds 1–2 was entered or corrected since" in words(html)
    now = page(web, f"/t/{club}/players/{winner}?lang=en")
    row_now = next(e for e in elements(now) if e.attrs.get("id") == "round-2")
    assert "lost" in words(row_now.text)

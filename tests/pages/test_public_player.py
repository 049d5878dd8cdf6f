"""A player's page ``/t/<tid>/players/<pid>``: every round (opponent, table, result), every
Bummerl with its hands (R17, R19), the path through the bracket, and where they sit next."""

from __future__ import annotations

from tests.pages.markup import elements, unlabelled, words
from tests.pages.public_formats import page, played
from tests.web.conftest import Web
from tests.web.played import state
from tournament.domain.views.history import player_rounds
from tournament.domain.views.matchdetail import bummerl_lines


def test_every_round_of_a_swiss_player_with_opponent_table_and_result(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/players/1?lang=en")
    t = state(web, club)
    found = elements(html)
    for line in player_rounds(t, 1)[:2]:
        row = next(e for e in found if e.attrs.get("id") == f"round-{line.round}")
        assert line.match is not None
        opponent = t.players[line.match.players[1 - line.seat]].name
        assert opponent in words(row.text) and line.outcome in words(row.text)
    assert unlabelled(html) == []
    assert [e.tag for e in found if e.tag in ("h1", "h2")] == ["h1", "h2"]


def test_every_bummerl_with_its_hands(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/players/1?lang=en")
    t = state(web, club)
    found = elements(html)
    for line in player_rounds(t, 1)[:2]:
        assert line.match is not None
        bummerls = bummerl_lines(t, line.match)
        block = next(e for e in found if e.attrs.get("id") == f"bummerl-{line.round}")
        for b in bummerls:
            assert f"Bummerl {b.number}" in words(block.text)
        hand_rows = html.split(f'id="bummerl-{line.round}"')[1].split("</div>")[0].count("<tr>")
        # A header row per Bummerl, then one row per hand that counts (R17).
        assert hand_rows == sum(len(b.hands) + 1 for b in bummerls)


def test_the_next_table_of_the_round_in_play(web: Web, club: str) -> None:
    t = state(web, club)
    match = next(m for m in t.matches.values() if m.round == 3 and 1 in m.players)
    html = page(web, f"/t/{club}/players/1?lang=en")
    opponent = t.players[match.players[1 - match.seat_of(1)]].name
    assert f"round 3, table {match.table} against {opponent}" in html
    german = page(web, f"/t/{club}/players/1?lang=de")
    assert f"Runde 3, Tisch {match.table} gegen {opponent}" in german


def test_a_past_round_shows_the_rounds_up_to_it(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/players/2?round=1&lang=en")
    ids = [e.attrs["id"] for e in elements(html) if e.attrs.get("id", "").startswith("round-")]
    assert ids == ["round-1"]
    assert "Rank at the end of round 1" in html and "Matches up to round 1" in html


def test_the_path_through_a_double_elimination(web: Web) -> None:
    tid = played(web, "de", "double_elimination", rounds=2)
    answer = web.ok("GET", f"/api/v1/tournaments/{tid}/bracket", token=None)
    mine = [
        s["slot"] for s in answer["slots"] if any(p and p["player_id"] == 1 for p in s["players"])
    ]
    html = page(web, f"/t/{tid}/players/1?lang=en")
    path = next(e for e in elements(html) if e.attrs.get("class") == "path")
    for slot in mine:
        assert f"({slot})" in words(path.text)
    assert "Path through the bracket" in html
    assert "Weg durch den Turnierbaum" in page(web, f"/t/{tid}/players/1?lang=de")


def test_the_players_list_links_every_player(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/players?lang=en")
    links = [e.attrs["href"] for e in elements(html) if e.tag == "a"]
    for pid in range(1, 9):
        assert f"/t/{club}/players/{pid}" in links


def test_a_player_or_tournament_that_is_not_there_is_404(web: Web, club: str) -> None:
    assert web.client.get(f"/t/{club}/players/99").status_code == 404
    assert web.client.get("/t/nowhere/players/1").status_code == 404
    assert web.client.get(f"/t/{club}/players/abc").status_code == 404


def test_a_round_that_is_not_there_is_refused_with_the_rule(web: Web, club: str) -> None:
    reply = web.client.get(f"/t/{club}/players/1?round=9&lang=en")
    assert reply.status_code == 422
    assert "round: 9 is not a round of this tournament; it has rounds 1 to 3 (T-round)" in (
        reply.get_data(as_text=True)
    )


def test_a_knockout_player_page(web: Web) -> None:
    tid = played(web, "ko", "single_elimination", rounds=2)
    html = page(web, f"/t/{tid}/players/1?lang=en")
    assert "Path through the bracket" in html and "Semi-finals" in html

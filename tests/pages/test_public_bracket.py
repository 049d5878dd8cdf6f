"""The bracket page ``/t/<tid>/bracket``: the projection's bracket document (as ``GET
.../bracket``) for single and double elimination and for groups -> knockout, in the
reader's language, scrolling within itself on a phone."""

from __future__ import annotations

import random
import re
from typing import Any

from tests.pages.markup import elements, unlabelled, words
from tests.pages.public_formats import page, played
from tests.web.conftest import Web
from tests.web.played import NAMES, play_round, register, swiss


def bracket(web: Web, tid: str) -> dict[str, Any]:
    answer: dict[str, Any] = web.ok("GET", f"/api/v1/tournaments/{tid}/bracket", token=None)
    return answer


def slots(html: str) -> dict[str, str]:
    return {
        e.attrs["id"].removeprefix("slot-"): words(e.text)
        for e in elements(html)
        if e.tag == "li" and e.attrs.get("class") == "slot"
    }


def test_a_single_elimination_shows_every_slot_of_the_bracket_with_its_winner(web: Web) -> None:
    tid = played(web, "ko", "single_elimination", rounds=1)
    html = page(web, f"/t/{tid}/bracket?lang=en")
    answer = bracket(web, tid)
    shown = slots(html)
    assert list(shown) == [s["slot"] for s in answer["slots"]]
    for s in answer["slots"]:
        assert s["slot"] in shown[s["slot"]]
        for player in s["players"]:
            if player is not None:
                assert player["name"] in shown[s["slot"]]
    # A decided slot marks its winner and gives the winner's Bummerl first (R20).
    found = elements(html)
    winners = [words(e.text) for e in found if "winner" in e.attrs.get("class", "").split()]
    decided = [s for s in answer["slots"] if s["winner"]]
    assert len(winners) == len(decided) > 0
    assert "by forfeit" in html and "2:0 by forfeit" not in html  # each side its own score
    # Later rounds say where their players come from.
    assert "winner of R2-1" in html and "Semi-finals" in html and "Final" in html
    assert unlabelled(html) == []


def test_the_bracket_speaks_german(web: Web) -> None:
    tid = played(web, "ko", "single_elimination", rounds=1)
    html = page(web, f"/t/{tid}/bracket?lang=de")
    assert "Sieger aus R2-1" in html and "Halbfinale" in html and "Turnierbaum" in html
    assert "kampflos" in html


def test_the_bracket_scrolls_within_itself_not_the_page(web: Web) -> None:
    tid = played(web, "ko", "single_elimination", rounds=1)
    html = page(web, f"/t/{tid}/bracket?lang=en")
    region = next(e for e in elements(html) if e.attrs.get("class") == "bracket")
    # A named region that takes keyboard focus: arrow keys scroll it on a phone.
    assert region.attrs["role"] == "region" and region.attrs["tabindex"] == "0"
    css = web.client.get("/static/public.css")
    text = css.get_data(as_text=True)
    css.close()
    assert ".bracket { display: flex; gap: 0.75rem; overflow-x: auto;" in text


def test_before_round_1_the_bracket_is_the_preview_the_seeding_gives(web: Web) -> None:
    web.tournament("ko", format="single_elimination", best_of=3)
    register(web, "ko", NAMES[:6])
    html = page(web, "/t/ko/bracket?lang=en")
    assert "A preview from today's seeding: nothing is drawn yet." in html
    assert "Anna Huber" in slots(html)["R1-1"] and "bye" in slots(html)["R1-1"]


def test_a_double_elimination_shows_winners_losers_and_grand_final(web: Web) -> None:
    tid = played(web, "de", "double_elimination", rounds=2)
    html = page(web, f"/t/{tid}/bracket?lang=en")
    headings = [words(e.text) for e in elements(html) if e.tag == "h3"]
    assert headings == ["Winners bracket", "Losers bracket", "Grand final"]
    assert "loser of W1-1" in html or "Losers bracket, round 1" in html
    shown = slots(html)
    assert {s["slot"] for s in bracket(web, tid)["slots"]} == set(shown)
    german = page(web, f"/t/{tid}/bracket?lang=de")
    assert "Siegerrunde" in german and "Verliererrunde" in german


def test_groups_show_their_tables_then_the_knockout_once_drawn(web: Web) -> None:
    tid = played(web, "gk", "groups_knockout", rounds=3, groups=2, advance=2)
    html = page(web, f"/t/{tid}/bracket?lang=en")
    captions = [words(e.text) for e in elements(html) if e.tag == "caption"]
    assert captions == ["Group 1", "Group 2"]
    assert "The knockout is drawn from the group tables when the group stage is complete." in html
    groups = web.ok("GET", f"/api/v1/tournaments/{tid}/standings", token=None)["groups"]
    for group in groups:
        for row in group["rows"]:
            assert f'href="/t/{tid}/players/{row["player_id"]}#matches"' in html
    play_round(web, tid, random.Random(9))  # the knockout's first round
    drawn = page(web, f"/t/{tid}/bracket?lang=en")
    assert [words(e.text) for e in elements(drawn) if e.tag == "caption"][:2] == [
        "Group 1",
        "Group 2",
    ]
    assert slots(drawn) and "The knockout is drawn" not in drawn


def test_a_swiss_has_no_bracket_and_no_bracket_tab(web: Web) -> None:
    tid = swiss(web, "sw", rounds=1)
    html = page(web, f"/t/{tid}/bracket?lang=en", status=404)
    assert "A Swiss system has no bracket: see the crosstable." in html
    tabs = [words(e.text) for e in elements(page(web, f"/t/{tid}?lang=en")) if e.tag == "a"]
    assert "Bracket" not in tabs and "Crosstable" in tabs


def side_scores(html: str, slot: str) -> list[tuple[str, str]]:
    """(name, own score) of each player's side of ``slot``, as the page shows them."""
    block = html.split(f'id="slot-{slot}"')[1].split("</li>")[0]
    found = re.findall(
        r'<a href="[^"]+">([^<]+)</a>\s*(?:<span class="side-score"[^>]*>(\d+)</span>)?', block
    )
    return [(name, score) for name, score in found]


def test_each_player_s_bummerl_stand_beside_their_own_name(web: Web) -> None:
    """Not one winner-first score under both names (O-L10): the loser's side says the
    loser's Bummerl, whichever side of the slot the winner is on."""
    tid = played(web, "ko", "single_elimination", rounds=2)
    html = page(web, f"/t/{tid}/bracket?lang=en")
    answer = bracket(web, tid)
    checked = 0
    for s in answer["slots"]:
        if not s["result"] or s["result"].get("forfeit"):
            continue
        won, lost = s["result"]["bummerl"]
        winner = s["winner"]["name"]
        expected = [(p["name"], str(won if p["name"] == winner else lost)) for p in s["players"]]
        assert side_scores(html, s["slot"]) == expected
        checked += 1
    assert checked > 0


def test_the_third_place_match_is_named_once(web: Web) -> None:
    tid = played(web, "ko3", "single_elimination", rounds=2, third_place=True)
    html = page(web, f"/t/{tid}/bracket?lang=en")
    assert html.count("Third-place match") == 1
    assert page(web, f"/t/{tid}/bracket?lang=de").count("Partie um Platz 3") == 1

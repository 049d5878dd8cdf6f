"""The standings on ``/t/<tid>``: "as of" any past round with a slider (the table the
API's ``GET .../standings?round=N`` folds from the log, T-round), and every number a link
to the results that make it up; tabs between the public pages; a print stylesheet."""

from __future__ import annotations

from tests.pages.markup import elements, unlabelled, words
from tests.pages.public_formats import page
from tests.web.conftest import Web
from tests.web.played import swiss


def api(web: Web, tid: str, query: str = "") -> list[dict[str, object]]:
    answer = web.ok("GET", f"/api/v1/tournaments/{tid}/standings{query}", token=None)
    rows: list[dict[str, object]] = answer["rows"]
    return rows


def test_the_slider_shows_the_standings_at_the_end_of_a_past_round(web: Web, club: str) -> None:
    past = api(web, club, "?round=1")
    assert past != api(web, club)  # round 2 moved the table
    for path in (f"/t/{club}?round=1&lang=en", f"/t/{club}/standings-fragment?round=1&lang=en"):
        html = page(web, path)
        ids = [
            e.attrs["id"] for e in elements(html) if e.attrs.get("id", "").startswith("standing-")
        ]
        assert ids == [f"standing-{row['player_id']}" for row in past]
        assert "As it stood when round 2 was drawn." in html  # its end: the next draw
        assert "Standings at the end of round 1" in html


def test_the_slider_is_a_labelled_range_of_the_rounds_driving_the_table(
    web: Web, club: str
) -> None:
    html = page(web, f"/t/{club}?lang=en")
    slider = next(e for e in elements(html) if e.attrs.get("id") == "as-of-round")
    assert slider.tag == "input" and slider.attrs["type"] == "range"
    assert (slider.attrs["min"], slider.attrs["max"], slider.attrs["value"]) == ("1", "3", "3")
    assert slider.attrs["name"] == "round"
    assert slider.attrs["hx-get"] == f"/t/{club}/standings-fragment"
    assert slider.attrs["hx-target"] == "#standings"
    ticks = [e.attrs["value"] for e in elements(html) if e.tag == "option"]
    assert ticks == ["1", "2", "3"]
    labels = [e for e in elements(html) if e.tag == "label" and e.attrs.get("for") == "as-of-round"]
    assert words(labels[0].text) == "Standings at the end of round"
    assert unlabelled(html) == []
    # The live refresh keeps the round the slider shows.
    container = next(e for e in elements(html) if e.attrs.get("id") == "standings")
    assert container.attrs["hx-include"] == "#as-of"


def test_the_last_round_is_now(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}?round=3&lang=en")
    assert "As it stands now." in html


def test_a_round_that_is_not_there_is_refused_naming_the_rule(web: Web, club: str) -> None:
    for value in ("9", "0", "two"):
        reply = web.client.get(f"/t/{club}?round={value}&lang=en")
        assert reply.status_code == 422
        html = reply.get_data(as_text=True)
        assert f"round: {value} is not a round of this tournament; it has rounds 1 to 3 " in html
        assert "(T-round)" in html and '<table class="standings">' in html  # now's table


def test_one_round_needs_no_slider(web: Web) -> None:
    tid = swiss(web, "one", rounds=1)
    assert 'id="as-of-round"' not in page(web, f"/t/{tid}?lang=en")


def test_every_number_links_to_the_results_that_make_it_up(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}?lang=en")
    for row in api(web, club):
        pid = row["player_id"]
        player = f"/t/{club}/players/{pid}"
        row_html = html.split(f'id="standing-{pid}"')[1].split("</tr>")[0]
        assert f'<a class="number" href="{player}#matches">{row["points"]}</a>' in row_html
        assert f'href="{player}#bummerl">{row["bummerl_won"]}:{row["bummerl_lost"]}</a>' in (
            row_html
        )
        # The player's page has the matches those points come from: a win is a point.
        matches = page(web, f"{player}?lang=en").split('id="matches"')[1].split("</table>")[0]
        outcomes = [words(cell.text).split(" (")[0] for cell in elements(matches)]
        won, byes = outcomes.count("won"), outcomes.count("bye")
        assert won + byes == row["points"]


def test_a_past_table_links_to_the_results_up_to_its_round(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}?round=1&lang=en")
    assert f'href="/t/{club}/players/1?round=1#matches"' in html


def test_tabs_between_the_public_pages(web: Web, club: str) -> None:
    for path, current in (("", "Standings"), ("/pairings", "Pairings"),
                          ("/crosstable", "Crosstable"), ("/players", "Players")):  # fmt: skip
        html = page(web, f"/t/{club}{path}?lang=en")
        nav = next(e for e in elements(html) if e.tag == "nav" and "tabs" in e.attrs["class"])
        # The last tab is where a player types the code of their table card (T-code).
        assert words(nav.text) == "Standings Pairings Crosstable Players Report a result"
        marked = [e for e in elements(html) if e.attrs.get("aria-current") == "page"]
        assert [words(e.text) for e in marked] == [current]
        assert [e.tag for e in elements(html)].count("h1") == 1


def test_the_pairings_page_has_the_round_and_where_do_i_sit(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/pairings?lang=en")
    assert "Round 3: pairings by table" in html and "Where do I sit?" in html


def test_every_page_prints_without_navigation_badge_or_forms(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}?lang=en")
    assert '<link rel="stylesheet" href="/static/print.css" media="print">' in html
    reply = web.client.get("/static/print.css")
    css = reply.get_data(as_text=True)
    reply.close()
    for hidden in (".tabs", ".desk-nav", ".badge", ".find", ".as-of", ".site-header"):
        assert hidden in css.split("{ display: none !important; }")[0]
    assert "break-inside: avoid" in css and "thead { display: table-header-group; }" in css


def test_the_slider_s_far_end_stays_now_when_the_next_round_is_drawn(web: Web, club: str) -> None:
    # The page was drawn at round 2 (now_at=2) with the slider at its end; round 3 was
    # drawn since: the live refresh asks for round 2 and still gets now.
    html = page(web, f"/t/{club}/standings-fragment?round=2&now_at=2&lang=en")
    assert "As it stands now." in html
    html = page(web, f"/t/{club}/standings-fragment?round=2&lang=en")
    assert "As it stood when round 3 was drawn." in html


def test_moving_the_slider_puts_the_round_in_the_address(web: Web, club: str) -> None:
    moved = {"HX-Request": "true", "HX-Trigger": "as-of-round"}
    reply = web.client.get(f"/t/{club}/standings-fragment?round=1&now_at=3&me=2", headers=moved)
    assert reply.headers["HX-Replace-Url"] == f"/t/{club}?round=1&me=2"
    reply = web.client.get(f"/t/{club}/standings-fragment?round=3&now_at=3", headers=moved)
    assert reply.headers["HX-Replace-Url"] == f"/t/{club}"
    live = {"HX-Request": "true", "HX-Trigger": "standings"}  # the stream's refresh
    reply = web.client.get(f"/t/{club}/standings-fragment?round=1", headers=live)
    assert "HX-Replace-Url" not in reply.headers

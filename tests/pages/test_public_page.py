"""The public tournament page ``/t/<tid>``: standings from the projection, tie-breaks
explained, the round's pairings by table and "where do I sit", in German and English."""

from __future__ import annotations

import random
import re

from tests.pages.markup import elements, unlabelled, words
from tests.web.conftest import Web
from tests.web.played import NAMES, play_round, register, run, state
from tournament.app.services import services
from tournament.domain.commands.registration import register_player
from tournament.domain.commands.rounds import start_round
from tournament.domain.model import events as ev
from tournament.domain.views.roundview import round_view
from tournament.web.pages.public import alphabetical


def page(web: Web, path: str, **headers: str) -> str:
    reply = web.client.get(path, headers=headers)
    assert reply.status_code == 200, reply.get_data(as_text=True)
    assert reply.mimetype == "text/html"
    html: str = reply.get_data(as_text=True)
    return html


def html_lang(html: str) -> str:
    found = re.search(r'<html lang="([a-z]+)"', html)
    assert found is not None
    return found.group(1)


def api_rows(web: Web, tid: str) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = web.ok("GET", f"/api/v1/tournaments/{tid}/standings")["rows"]
    return rows


def test_the_page_needs_no_login_and_shows_every_player_in_the_standings_order(
    web: Web, club: str
) -> None:
    html = page(web, f"/t/{club}", **{"Accept-Language": "en"})
    shown = [
        words(e.text) for e in elements(html) if e.tag == "th" and e.attrs.get("scope") == "row"
    ]
    names = [str(row["name"]) for row in api_rows(web, club)]
    # The standings rows first (by rank, as the API has them), then the pairings' tables.
    assert shown[: len(names)] == names
    assert "<h1>Club Cup</h1>" in html
    assert "Round 3 in play: 0 of 4 matches decided" in html


def test_tie_break_columns_are_explained_by_tap_and_keyboard(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}?lang=en")
    found = elements(html)
    # Each tie-break heading is a link (tap, Tab) to its explanation in an open-able list.
    headings = [e for e in found if e.tag == "a" and "tiebreak" in e.attrs.get("class", "")]
    assert [e.attrs["href"] for e in headings] == [
        "#tb-buchholz", "#tb-bummerl_diff", "#tb-game_point_diff", "#tb-direct_encounter"
    ]  # fmt: skip
    terms = {e.attrs["id"]: words(e.text) for e in found if e.tag == "dt"}
    assert terms["tb-buchholz"] == "Bh Buchholz"
    assert "The sum of the match points of every opponent met; a bye adds nothing." in html
    titles = [e.attrs["title"] for e in found if e.tag == "abbr"]
    assert (
        "Bummerl difference: Bummerl won minus Bummerl lost; a Schneiderbummerl counts 2." in titles
    )
    assert any(e.tag == "details" for e in found) and any(e.tag == "summary" for e in found)


def test_the_tie_breaks_are_explained_in_german_too(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}?lang=de")
    assert "Die Summe der Matchpunkte aller Gegner; ein Freilos zählt nichts." in html
    assert "Was die Feinwertungsspalten bedeuten" in html


def test_pairings_by_table_and_an_alphabetical_where_do_i_sit(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}?lang=en")
    with web.app.app_context():
        view = round_view(state(web, club))
    found = elements(html)
    seats = [words(e.text) for e in found if e.tag == "li" and e.attrs == {}]
    who = [words(e.text) for e in found if e.tag == "span" and e.attrs.get("class") == "who"]
    assert who == sorted(who, key=str.casefold) and len(who) == 8
    for line in view.tables:
        a, b = line.players
        assert b is not None
        assert f"{a.name} table {line.table} against {b.name}" in seats
        assert f"{b.name} table {line.table} against {a.name}" in seats


def test_a_player_with_the_bye_finds_it_in_where_do_i_sit(web: Web) -> None:
    tid = web.tournament("seven", format="swiss", options={"rounds": 3})
    register(web, tid, NAMES[:7])
    run(web, tid, lambda t: start_round(t))
    with web.app.app_context():
        (bye,) = round_view(state(web, tid)).byes
    seats = [words(e.text) for e in elements(page(web, f"/t/{tid}?lang=en")) if e.tag == "li"]
    assert f"{bye.player.name} bye this round" in seats
    assert f"{bye.player.name} Freilos in dieser Runde" in [
        words(e.text) for e in elements(page(web, f"/t/{tid}?lang=de")) if e.tag == "li"
    ]


def test_the_pairings_page_shows_the_round_asked_for_and_links_every_round(web: Web) -> None:
    """Trial 4 (N-L4): ``?round=N`` shows round N's tables and results; "where do I sit"
    belongs to the round being played, not to an earlier one."""
    tid = web.tournament("three", format="swiss", options={"rounds": 3})
    register(web, tid, NAMES)
    rng = random.Random(4)
    play_round(web, tid, rng)
    play_round(web, tid, rng)
    with web.app.app_context():
        first = round_view(state(web, tid), 1)
    earlier = page(web, f"/t/{tid}/pairings?round=1&lang=en")
    assert "Round 1: pairings by table" in earlier and "Where do I sit?" not in earlier
    rows = [words(e.text) for e in elements(earlier) if e.tag == "tr"]
    for line in first.tables:
        a, b = line.players
        assert b is not None
        score = f"{line.bummerl[0]}:{line.bummerl[1]}"
        assert any(a.name in r and b.name in r and r.endswith(score) for r in rows), rows
    now = page(web, f"/t/{tid}/pairings?lang=en")
    assert "Round 2: pairings by table" in now and "Where do I sit?" in now
    links = {e.attrs.get("href") for e in elements(now) if e.tag == "a"}
    assert {f"/t/{tid}/pairings?round=1", f"/t/{tid}/pairings"} <= links


def test_where_do_i_sit_is_gone_once_the_tournament_is_finished(web: Web) -> None:
    tid = web.tournament("two", format="swiss", options={"rounds": 2})
    register(web, tid, NAMES)
    rng = random.Random(5)
    play_round(web, tid, rng)
    play_round(web, tid, rng)
    for path in (f"/t/{tid}?lang=de", f"/t/{tid}/pairings?lang=de"):
        html = page(web, path)
        assert "Beendet nach Runde 2" in html and "Wo sitze ich?" not in html


def test_where_do_i_sit_sorts_as_a_printed_list() -> None:
    names = ["Zach", "Öller", "oberhofer", "Anna"]
    assert sorted(names, key=alphabetical) == ["Anna", "oberhofer", "Öller", "Zach"]


def test_the_language_is_the_query_then_the_cookie_then_the_browser_then_german(
    web: Web, club: str
) -> None:
    assert html_lang(page(web, f"/t/{club}")) == "de"  # nothing said: German
    assert html_lang(page(web, f"/t/{club}", **{"Accept-Language": "en-GB,en;q=0.9"})) == "en"
    german = page(web, f"/t/{club}", **{"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"})
    assert html_lang(german) == "de" and "Wo sitze ich?" in german
    # ?lang= wins over the browser, and is kept in a cookie for the next page.
    switched = web.client.get(f"/t/{club}?lang=en", headers={"Accept-Language": "de"})
    assert html_lang(switched.get_data(as_text=True)) == "en"
    assert "lang=en" in switched.headers["Set-Cookie"]
    assert "Max-Age=31536000" in switched.headers["Set-Cookie"]
    kept = page(web, f"/t/{club}", **{"Accept-Language": "de"})
    assert html_lang(kept) == "en" and "Where do I sit?" in kept
    assert "Accept-Language" in web.client.get(f"/t/{club}").headers["Vary"]


def test_the_language_switch_links_to_the_same_page_in_each_language(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}?lang=de")
    links = {
        e.attrs["hreflang"]: e for e in elements(html) if e.tag == "a" and "hreflang" in e.attrs
    }
    assert (
        links["en"].attrs["href"] == f"/t/{club}?lang=en" and words(links["en"].text) == "English"
    )
    assert links["de"].attrs.get("aria-current") == "true"


def test_numbers_are_in_the_locale_s_form(web: Web, club: str) -> None:
    from babel.numbers import format_decimal

    assert format_decimal(4.5, locale="de") == "4,5"  # a Buchholz of 4.5 in German
    for lang in ("de", "en"):
        html = page(web, f"/t/{club}?lang={lang}")
        cells = [words(e.text) for e in elements(html) if e.tag == "td"]
        for row in api_rows(web, club):
            assert format_decimal(int(str(row["gp_diff"])), locale=lang) in cells


def test_the_date_is_in_the_locale_s_form(web: Web) -> None:
    tid = web.tournament("friday", date="2026-11-27")
    assert "<time>27. November 2026</time>" in page(web, f"/t/{tid}?lang=de")
    assert "<time>27 November 2026</time>" in page(web, f"/t/{tid}?lang=en")  # O-L6


def test_the_stylesheet_is_phone_first_and_has_a_print_form(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert '<link rel="stylesheet" href="/static/app.css">' in html
    reply = web.client.get("/static/app.css")
    css = reply.get_data(as_text=True)
    reply.close()
    assert "@media print" in css
    # Phone first: the base rules are the phone's, only wider screens get a media query.
    assert "@media (min-width:" in css and "@media (max-width:" not in css


def test_the_fragment_is_the_standings_table_alone(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/standings-fragment?lang=en")
    assert "<html" not in html and '<table class="standings">' in html
    for row in api_rows(web, club):  # each name a link to the player's page
        assert f'<a href="/t/{club}/players/{row["player_id"]}">{row["name"]}</a>' in html
    # The page fetches it again on the live stream's `standings` events.
    whole = page(web, f"/t/{club}?lang=en")
    container = next(e for e in elements(whole) if e.attrs.get("id") == "standings")
    assert container.attrs["hx-get"] == f"/t/{club}/standings-fragment"
    assert container.attrs["hx-trigger"] == "sse:standings"
    live = next(e for e in elements(whole) if "sse-connect" in e.attrs)
    assert live.attrs["sse-connect"] == f"/api/v1/tournaments/{club}/live"
    assert live.attrs["hx-ext"] == "sse"


def test_standings_behind_the_log_say_since_when(web: Web, club: str) -> None:
    assert "Not up to date" not in page(web, f"/t/{club}?lang=en")
    # Stored past the service: no projection runs for it (inline projects on commands).
    with web.app.app_context():
        t = services().tournaments.state(club)
        late = register_player(t, "Zoe Zach", rating=1000)
        services().store.append(ev.stream_id(club), late, expected_version=t.version)
    for path in (f"/t/{club}?lang=en", f"/t/{club}/standings-fragment?lang=en"):
        html = page(web, path)
        assert "Not up to date:" in html
        assert re.search(r"lack the results entered since \S+", html), html
    assert "Nicht aktuell:" in page(web, f"/t/{club}?lang=de")


def test_a_tournament_without_rounds_says_so(web: Web) -> None:
    tid = web.tournament("empty")
    html = page(web, f"/t/{tid}?lang=en")
    assert "Registration: no round drawn yet" in html and "No players yet." in html


def test_an_unknown_tournament_is_a_404_page_in_the_chosen_language(web: Web, club: str) -> None:
    for lang, words_of_it in (
        ("de", "Es gibt kein Turnier „nope“"),
        ("en", "There is no tournament “nope”"),
    ):
        reply = web.client.get(f"/t/nope?lang={lang}")
        assert reply.status_code == 404 and reply.mimetype == "text/html"
        html = reply.get_data(as_text=True)
        assert words_of_it in html and html_lang(html) == lang
    assert web.client.get("/t/nope/standings-fragment").status_code == 404


def test_every_element_of_every_page_has_its_label(web: Web, club: str) -> None:
    for path in (f"/t/{club}", f"/t/{club}/standings-fragment", "/t/nope"):
        for lang in ("de", "en"):
            html = web.client.get(f"{path}?lang={lang}").get_data(as_text=True)
            assert unlabelled(html) == [], (path, lang)


def test_the_page_has_landmarks_and_a_skip_link(web: Web, club: str) -> None:
    found = elements(page(web, f"/t/{club}?lang=en"))
    tags = [e.tag for e in found]
    assert {"header", "nav", "main", "footer"} <= set(tags)
    skip = next(e for e in found if e.tag == "a")
    assert skip.attrs["href"] == "#main" and words(skip.text) == "Skip to content"
    assert next(e for e in found if e.tag == "main").attrs["id"] == "main"
    assert next(e for e in found if e.attrs.get("id") == "live-badge").attrs["role"] == "status"


def test_a_round_drawn_or_a_result_in_refreshes_the_pairings_and_the_stage_line(
    web: Web,
) -> None:
    """A page left open from registration on follows play: on the stream's ``round`` and
    ``result`` events it fetches the round's pairings, with the stage line and the "find
    me" box out of band (not only the standings table)."""
    tid = web.tournament("open")
    register(web, tid, NAMES)
    whole = page(web, f"/t/{tid}?lang=en")
    part = next(e for e in elements(whole) if e.attrs.get("id") == "round-part")
    assert part.attrs["hx-get"] == f"/t/{tid}/round-fragment"
    assert part.attrs["hx-trigger"] == "sse:round, sse:result"
    before = page(web, f"/t/{tid}/round-fragment?lang=en")
    assert "Registration: no round drawn yet" in before and "<html" not in before

    run(web, tid, lambda t: start_round(t))
    after = page(web, f"/t/{tid}/round-fragment?lang=en&me=1")
    stage = next(e for e in elements(after) if e.attrs.get("id") == "stage")
    assert stage.attrs["hx-swap-oob"] == "true" and "Round 1 in play" in words(stage.text)
    me = next(e for e in elements(after) if e.attrs.get("id") == "me")
    assert me.attrs["hx-swap-oob"] == "true" and "table" in words(me.text)
    assert "Round 1: pairings by table" in after
    assert web.client.get("/t/nope/round-fragment").status_code == 404

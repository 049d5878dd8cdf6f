""" "Find me" on the public pages: a plain GET form (works without script) that jumps to
one's row in the standings and says one's next table; as you type (htmx) a list of the
players whose names match."""

from __future__ import annotations

from tests.pages.markup import elements, unlabelled, words
from tests.pages.public_formats import page
from tests.web.conftest import Web
from tests.web.played import state


def test_the_form_works_without_script(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}?lang=en")
    form = next(e for e in elements(html) if e.tag == "form" and "find" in e.attrs["class"])
    assert form.attrs["method"] == "get" and form.attrs["action"] == f"/t/{club}/find"
    field = next(e for e in elements(html) if e.attrs.get("id") == "find-name")
    assert field.attrs["name"] == "q" and field.attrs["type"] == "search"
    assert field.attrs["hx-get"] == f"/t/{club}/find-suggestions"  # as you type
    assert unlabelled(html) == []


def test_one_player_found_lands_on_where_they_sit_next_then_their_row(web: Web, club: str) -> None:
    reply = web.client.get(f"/t/{club}/find?q=carla")
    assert reply.status_code == 303
    assert reply.headers["Location"] == f"/t/{club}?me=3#me"  # where I sit first (P6)
    html = page(web, f"/t/{club}?me=3&lang=en")
    row = next(e for e in elements(html) if e.attrs.get("id") == "standing-3")
    assert row.attrs["aria-current"] == "true" and "me" in row.attrs["class"].split()
    t = state(web, club)
    match = next(m for m in t.matches.values() if m.round == 3 and 3 in m.players)
    opponent = t.players[match.players[1 - match.seat_of(3)]].name
    assert f"round 3, table {match.table} against {opponent}" in html
    me = next(e for e in elements(html) if e.attrs.get("id") == "me")
    assert f"table {match.table} against {opponent}" in words(me.text)
    assert 'href="#standing-3"' in html, "the box links my row in the standings"


def test_case_and_accents_aside_every_word_must_match(web: Web, club: str) -> None:
    reply = web.client.get(f"/t/{club}/find?q=ANNA%20h%C3%BAber")  # "ANNA húber"
    assert reply.headers["Location"] == f"/t/{club}?me=1#me"


def test_several_found_are_listed_to_pick_from(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/find?q=er&lang=en")
    found = next(e for e in elements(html) if e.attrs.get("class") == "found")
    names = [words(e.text) for e in elements(html) if e.tag == "a" and "me=" in e.attrs["href"]]
    assert "Anna Huber" in names and "Bernd Maier" in names and len(names) > 1
    assert "table" in words(found.text)


def test_nobody_found_says_so(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/find?q=Zacharias&lang=en")
    assert "Nobody here is called “Zacharias”." in html
    assert "Hier heißt niemand „Zacharias“." in page(web, f"/t/{club}/find?q=Zacharias&lang=de")


def test_as_you_type_the_matches_come_as_a_fragment(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/find-suggestions?q=gru&lang=en")
    assert "<html" not in html
    links = [e for e in elements(html) if e.tag == "a"]
    assert [words(e.text) for e in links] == ["Carla Gruber"]
    assert links[0].attrs["href"] == f"/t/{club}?me=3#me"
    assert page(web, f"/t/{club}/find-suggestions?q=").strip() == ""


def test_what_was_typed_comes_back_as_text_never_as_markup(web: Web, club: str) -> None:
    html = page(web, f"/t/{club}/find?q=%3Cscript%3Ealert(1)%3C/script%3E&lang=en")
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html


def test_an_unknown_tournament_is_404(web: Web) -> None:
    assert web.client.get("/t/nowhere/find?q=anna").status_code == 404
    assert web.client.get("/t/nowhere/find-suggestions?q=anna").status_code == 404

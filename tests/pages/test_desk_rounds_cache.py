"""The desk's rounds page renders its per-table parts (the pairings, the results missing,
the matches the next round waits for, the tables to play online) once per version of the
tournament, language and what the reader may see (issue 22): the page must be the same
byte for byte as one rendered anew, show a new result at the very next load, and never
show one reader what was rendered for another (role, CSRF token, a refusal's choice)."""

from __future__ import annotations

import re

import pytest

from tests.pages.markup import elements
from tests.web.conftest import Web
from tests.web.helpers import tally, win_all
from tests.web.played import state
from tests.web.test_sign_in import csrf_of, sign_in
from tournament.accounts.roles import Role
from tournament.web.pages.fragments import KEY, Fragments

TALLIES = ("7 4 1 0 / 7 5 2", "7 4 2 0 / 7 6")


def signed_in_as(web: Web, role: Role | None) -> None:
    """A fresh browser signed in: the admin (organises every tournament) or ``role``."""
    web.client = web.app.test_client()
    if role is None:
        web.admin()
        assert sign_in(web, "admin@club.at") == 303
    else:
        web.caller(role, "club")
        assert sign_in(web, f"{role.name.lower()}@club.at") == 303


def rounds_page(web: Web, lang: str = "en") -> str:
    reply = web.client.get(f"/desk/t/club/rounds?lang={lang}")
    assert reply.status_code == 200, reply.get_data(as_text=True)
    html: str = reply.get_data(as_text=True)
    return html


def without_csrf(html: str) -> str:
    return re.sub(r'name="csrf_token" value="[^"]*"', 'name="csrf_token" value=""', html)


def csrf_tokens(html: str) -> set[str]:
    return set(re.findall(r'name="csrf_token" value="([^"]*)"', html))


def rendered_anew(web: Web) -> None:
    """From now on every part is rendered for each load (nothing kept)."""
    web.app.extensions[KEY] = Fragments(size=0)


def missing_tables(html: str) -> list[str]:
    part = html.split('class="missing"')[1].split("</p>")[0]
    return re.findall(r"sheets\?table=(\d+)", part)


def blocking_matches(html: str) -> list[str]:
    part = html.split('<ul class="blocking">')[1].split("</ul>")[0]
    return re.findall(r"sheets\?match=([\d.]+)", part)


def online_options(html: str) -> list[str]:
    return [
        e.attrs["value"] for e in elements(html) if e.tag == "option" and "." in e.attrs["value"]
    ]


@pytest.mark.parametrize("role", [None, Role.SCORER])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_page_from_kept_parts_is_byte_for_byte_the_page_rendered_anew(
    web: Web, club: str, role: Role | None, lang: str
) -> None:
    tally(web, club, "3.2", *TALLIES)  # one result in: every part has both kinds of row
    signed_in_as(web, role)
    first = rounds_page(web, lang)  # renders the parts and keeps them
    kept = rounds_page(web, lang)
    rendered_anew(web)
    anew = rounds_page(web, lang)
    assert without_csrf(first) == without_csrf(kept) == without_csrf(anew)
    assert ("3.1" in online_options(kept)) is (role is None)


def test_a_new_result_changes_every_part_at_once(web: Web, club: str) -> None:
    signed_in_as(web, None)
    before = rounds_page(web)
    assert without_csrf(rounds_page(web)) == without_csrf(before)  # from the kept parts
    assert "1" in missing_tables(before) and "3.1" in blocking_matches(before)
    assert "3.1" in online_options(before)
    tally(web, club, "3.1", *TALLIES)
    after = rounds_page(web)
    assert "1" not in missing_tables(after) and "3.1" not in blocking_matches(after)
    assert "3.1" not in online_options(after)
    assert len(missing_tables(after)) == len(missing_tables(before)) - 1
    win_all(web, club)
    done = rounds_page(web)
    assert "Every result of round 3 is in." in done and 'class="blocking"' not in done
    assert 'id="preview-draw"' in done and 'id="online-match"' not in done


def test_a_scorer_never_sees_what_was_kept_for_an_organiser(web: Web, club: str) -> None:
    signed_in_as(web, None)
    started = web.client.post(
        "/desk/t/club/rounds/3.1/online", data={"csrf_token": csrf_of(rounds_page(web))}
    )
    assert started.status_code == 303
    organiser = rounds_page(web)
    signed_in_as(web, Role.SCORER)
    scorer = rounds_page(web)
    assert 'id="online-match"' in organiser and 'id="online-match"' not in scorer
    assert 'class="blocking"' in organiser and 'class="blocking"' not in scorer
    assert "Played online" in organiser and "Played online" not in scorer  # T-online
    assert "sheets?table=1" in scorer  # the parts every reader sees are there
    assert csrf_tokens(scorer).isdisjoint(csrf_tokens(organiser))


def test_each_reader_s_page_carries_their_own_csrf_token(web: Web, club: str) -> None:
    """Two organisers in two browsers: the forms of each carry the token of their own
    session (the parts kept hold none), so a form sent from the page is accepted."""
    signed_in_as(web, None)
    first = rounds_page(web)
    first_client = web.client
    signed_in_as(web, None)
    second = rounds_page(web)
    assert len(csrf_tokens(first)) == 1 and len(csrf_tokens(second)) == 1
    assert csrf_tokens(first) != csrf_tokens(second)
    for client, html in ((first_client, first), (web.client, second)):
        reply = client.post(
            "/desk/t/club/rounds/3.1/online?lang=en",
            data={"csrf_token": csrf_of(html), "move_seconds": "5"},
        )
        assert reply.status_code == 422  # refused for the time, not for the token


def test_a_refused_choice_is_marked_only_on_the_refusal(web: Web, club: str) -> None:
    """The option a refusal marks is the refused request's own: the next load of the
    page, from the kept options, marks none."""
    signed_in_as(web, None)
    html = rounds_page(web)
    reply = web.client.post(
        "/desk/t/club/rounds/online?lang=en",
        data={"csrf_token": csrf_of(html), "match": "3.2", "move_seconds": "5"},
    )
    refused = reply.get_data(as_text=True)
    assert reply.status_code == 422
    assert '<option value="3.2" selected>' in refused
    again = rounds_page(web)
    assert " selected>" not in again.split('id="online-match"')[1].split("</select>")[0]
    assert without_csrf(again) == without_csrf(html)
    assert state(web, club).online == {}

"""The players at the desk (issue 11): adding (T-player), correcting, the CSV import
(preview with the refusal per row and nothing stored, then all rows or none, never the
same list twice: T-csv), check-in from the list (htmx answers the row), seeding
(T-seeding), withdrawing (T-withdrawal), buying back a life (T-lives), and who may."""

from __future__ import annotations

from typing import Any

from tests.pages.markup import unlabelled
from tests.pages.test_desk_setup import signed_in, signed_in_as
from tests.web.conftest import Web
from tests.web.played import state
from tournament.accounts.roles import Role

LIST = "name,club,category,rating\nAnna Huber,SC Ried,,1520\nBerti Gruber,SV Linz,W,1490\n"


def tournament(web: Web, tid: str = "cup", **settings: Any) -> str:
    return web.tournament(tid, **settings)


def post(web: Web, path: str, csrf: str, headers: dict[str, str] | None = None, **form: Any) -> Any:
    return web.client.post(f"{path}?lang=en", data={"csrf_token": csrf, **form}, headers=headers)


def with_listed_players(web: Web, **settings: Any) -> tuple[str, str]:
    """A tournament with LIST's two players imported at the desk, signed in as the admin:
    its id and the session's CSRF token."""
    tid = tournament(web, **settings)
    csrf = signed_in(web)
    post(web, f"/desk/t/{tid}/players/import", csrf, csv=LIST, action="import")
    return tid, csrf


def test_an_added_player_is_listed_with_the_next_start_number(web: Web) -> None:
    tid = tournament(web)
    csrf = signed_in(web)
    reply = post(web, f"/desk/t/{tid}/players", csrf, name="Anna Huber", club="SC Ried",
                 rating="1520")  # fmt: skip
    assert reply.status_code == 303
    page = web.client.get(f"/desk/t/{tid}/players?lang=en").get_data(as_text=True)
    assert 'id="p1"' in page and "Anna Huber" in page and "SC Ried" in page
    assert unlabelled(page) == []


def test_a_player_registered_twice_is_refused_beside_the_name_t_player(web: Web) -> None:
    tid = tournament(web)
    csrf = signed_in(web)
    post(web, f"/desk/t/{tid}/players", csrf, name="Anna Huber", club="SC Ried")
    reply = post(web, f"/desk/t/{tid}/players", csrf, name="Anna Huber", club="SC Ried")
    assert reply.status_code == 422
    page = reply.get_data(as_text=True)
    assert 'id="name-error"' in page and "T-player" in page
    assert len(state(web, tid).players) == 1


def test_a_rating_out_of_range_is_refused_and_nothing_stored(web: Web) -> None:
    tid = tournament(web)
    csrf = signed_in(web)
    reply = post(web, f"/desk/t/{tid}/players", csrf, name="Anna", rating="5000")
    assert reply.status_code == 422 and 'id="rating-error"' in reply.get_data(as_text=True)
    reply = post(web, f"/desk/t/{tid}/players", csrf, name="Anna", rating="viel")
    assert reply.status_code == 422 and 'id="rating-error"' in reply.get_data(as_text=True)
    assert state(web, tid).players == {}


def test_a_correction_changes_only_what_differs(web: Web) -> None:
    tid = tournament(web)
    csrf = signed_in(web)
    post(web, f"/desk/t/{tid}/players", csrf, name="Anna Huber", club="SC Ried")
    page = web.client.get(f"/desk/t/{tid}/players/1/edit?lang=en").get_data(as_text=True)
    assert 'value="Anna Huber"' in page and unlabelled(page) == []
    reply = post(web, f"/desk/t/{tid}/players/1/edit", csrf, name="Anna Huber-Maier",
                 club="SC Ried", category="", rating="")  # fmt: skip
    assert reply.status_code == 303
    assert state(web, tid).players[1].name == "Anna Huber-Maier"


def test_the_csv_preview_shows_each_bad_row_and_stores_nothing_t_csv(web: Web) -> None:
    tid = tournament(web)
    csrf = signed_in(web)
    bad = "name,club,rating\nAnna Huber,SC Ried,1520\n,SC Ried,1400\nBerti,,x\n"
    reply = post(web, f"/desk/t/{tid}/players/import", csrf, csv=bad, action="preview")
    assert reply.status_code == 422
    page = reply.get_data(as_text=True)
    assert "a player needs a name" in page and "is not a whole number" in page
    assert "Import all" not in page
    assert state(web, tid).players == {}
    assert unlabelled(page) == []


def test_import_all_registers_every_row_once_and_never_the_same_list_twice(web: Web) -> None:
    tid = tournament(web)
    csrf = signed_in(web)
    preview = post(web, f"/desk/t/{tid}/players/import", csrf, csv=LIST, action="preview")
    assert preview.status_code == 200 and "Import all 2 players" in preview.get_data(as_text=True)
    assert state(web, tid).players == {}
    reply = post(web, f"/desk/t/{tid}/players/import", csrf, csv=LIST, action="import")
    assert reply.status_code == 303
    assert [p.name for p in state(web, tid).players.values()] == ["Anna Huber", "Berti Gruber"]
    again = post(web, f"/desk/t/{tid}/players/import", csrf, csv=LIST, action="import")
    assert again.status_code == 409 and "imported already" in again.get_data(as_text=True)
    assert len(state(web, tid).players) == 2


def test_an_uploaded_file_is_previewed_like_a_pasted_list(web: Web) -> None:
    import io

    tid = tournament(web)
    csrf = signed_in(web)
    reply = web.client.post(
        f"/desk/t/{tid}/players/import?lang=en",
        data={
            "csrf_token": csrf,
            "action": "preview",
            "file": (io.BytesIO(LIST.encode()), "players.csv"),
        },
        content_type="multipart/form-data",
    )
    assert reply.status_code == 200 and "Berti Gruber" in reply.get_data(as_text=True)


def test_check_in_from_the_list_answers_the_row_to_htmx(web: Web) -> None:
    tid, csrf = with_listed_players(web)
    page = web.client.get(f"/desk/t/{tid}/players?lang=en").get_data(as_text=True)
    assert 'id="player-search"' in page and 'data-search="berti gruber sv linz w"' in page
    row = post(web, f"/desk/t/{tid}/players/2/check-in", csrf, headers={"HX-Request": "true"})
    assert row.status_code == 200
    html = row.get_data(as_text=True)
    assert html.strip().startswith('<tr id="p2"') and "checked-in" in html
    assert state(web, tid).players[2].checked_in
    # Without htmx the page comes back; undoing the check-in works alike.
    assert post(web, f"/desk/t/{tid}/players/2/check-out", csrf).status_code == 303
    assert not state(web, tid).players[2].checked_in


def test_seeding_by_hand_follows_the_order_typed_t_seeding(web: Web) -> None:
    tid, csrf = with_listed_players(web)
    reply = post(web, f"/desk/t/{tid}/players/seeding", csrf, method="manual", order="2 1")
    assert reply.status_code == 303
    assert state(web, tid).players[2].seed == 1
    refused = post(web, f"/desk/t/{tid}/players/seeding", csrf, method="manual", order="2 7")
    assert refused.status_code == 422 and "there is no player 7" in refused.get_data(as_text=True)


def test_a_withdrawn_player_stays_listed_as_withdrawn_t_withdrawal(web: Web) -> None:
    tid, csrf = with_listed_players(web)
    page = web.client.get(f"/desk/t/{tid}/players/1/withdraw?lang=en").get_data(as_text=True)
    assert unlabelled(page) == []
    reply = post(web, f"/desk/t/{tid}/players/1/withdraw", csrf, policy="forfeit", reason="ill")
    assert reply.status_code == 303
    assert not state(web, tid).players[1].active
    again = post(web, f"/desk/t/{tid}/players/1/withdraw", csrf, policy="forfeit")
    assert again.status_code == 422 and "has already withdrawn" in again.get_data(as_text=True)


def test_buying_a_life_is_refused_for_a_player_who_still_has_one_t_lives(web: Web) -> None:
    tid, csrf = with_listed_players(web, format="lives", options={"buy_backs": 1})
    reply = post(web, f"/desk/t/{tid}/players/1/buy-life", csrf)
    assert reply.status_code == 422 and "T-lives" in reply.get_data(as_text=True)


def test_a_scorer_sees_the_players_but_cannot_add_edit_or_check_in(web: Web) -> None:
    tid = tournament(web)
    csrf = signed_in_as(web, "scorer@club.at", tid, Role.SCORER)
    page = web.client.get(f"/desk/t/{tid}/players?lang=en")
    assert page.status_code == 200 and "Add a player" not in page.get_data(as_text=True)
    assert post(web, f"/desk/t/{tid}/players", csrf, name="Anna").status_code == 403
    assert web.client.get(f"/desk/t/{tid}/players/import").status_code == 403
    assert state(web, tid).players == {}

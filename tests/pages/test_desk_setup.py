"""The desk's front door (issue 11): one's tournaments on /desk, creating a tournament on
/desk/new with the domain's settings and their rules (T-settings, R19, R20), refusals
beside the field with nothing stored, and the overview of a tournament."""

from __future__ import annotations

import datetime
from typing import Any

from tests.pages.markup import unlabelled
from tests.web.conftest import Web
from tests.web.test_sign_in import PASSWORD, csrf_of, sign_in
from tournament.accounts.roles import Role
from tournament.app.services import services


def signed_in(web: Web, email: str = "admin@club.at") -> str:
    """Signed in as ``email`` (made if missing); the CSRF token of the session."""
    web.admin()
    if web.accounts.by_email(email) is None:
        web.accounts.add(email, PASSWORD)
    assert sign_in(web, email) == 303
    return csrf_of(web.client.get("/desk?lang=en").get_data(as_text=True))


def signed_in_as(web: Web, email: str, tid: str, role: Role) -> str:
    """Signed in as ``email``, an account (made if missing) holding ``role`` in ``tid``;
    the CSRF token of the session."""
    web.admin()
    if web.accounts.by_email(email) is None:
        web.accounts.add(email, PASSWORD)
    web.accounts.grant(email, tid, role, by="tests")
    return signed_in(web, email)


def create(web: Web, csrf: str, **fields: Any) -> Any:
    form = {"csrf_token": csrf, "name": "Herbstturnier", "id": "herbst", "date": "27.11.2026",
            "format": "swiss", "best_of": "3", "opt-swiss-rounds": "5", **fields}  # fmt: skip
    return web.client.post("/desk/new?lang=en", data=form)


def stored_ids(web: Web) -> list[str]:
    with web.app.app_context():
        return services().tournaments.tournament_ids()


def test_the_desk_sends_a_visitor_to_sign_in_and_back(web: Web) -> None:
    reply = web.client.get("/desk")
    assert reply.status_code == 303
    assert reply.headers["Location"] == "/login?next=/desk"


def test_signing_in_leads_to_the_desk(web: Web) -> None:
    web.admin()
    page = web.client.get("/login").get_data(as_text=True)
    reply = web.client.post(
        "/login", data={"email": "admin@club.at", "password": PASSWORD, "csrf_token": csrf_of(page)}
    )
    assert reply.headers["Location"] == "/desk"


def test_a_created_tournament_appears_on_the_desk_and_its_creator_owns_it(web: Web) -> None:
    csrf = signed_in(web, "anna@club.at")
    reply = create(web, csrf)
    assert reply.status_code == 303, reply.get_data(as_text=True)
    assert reply.headers["Location"] == "/desk/t/herbst"
    desk = web.client.get("/desk?lang=en").get_data(as_text=True)
    assert 'href="/desk/t/herbst"' in desk and "Herbstturnier" in desk and "Owner" in desk
    anna = web.accounts.by_email("anna@club.at")
    assert web.accounts.role_of(anna.id, "herbst") == Role.OWNER
    with web.app.app_context():
        t = services().tournaments.state("herbst")
        assert t.settings is not None
        assert t.settings.date == "2026-11-27" and t.settings.options["rounds"] == 5
        # Stored through a page, by the signed-in account (the audit log says so).
        first = services().tournaments.events("herbst")[0]
        assert first.metadata["via"] == "page" and first.metadata["account"] == "anna@club.at"


def test_an_account_sees_only_the_tournaments_it_holds_a_role_in(web: Web) -> None:
    csrf = signed_in(web, "anna@club.at")
    create(web, csrf)
    web.client.post("/logout", data={"csrf_token": csrf})
    signed_in(web, "berta@club.at")
    assert "herbst" not in web.client.get("/desk?lang=en").get_data(as_text=True)


def test_the_id_is_made_from_the_name_and_date_when_left_empty(web: Web) -> None:
    csrf = signed_in(web)
    reply = create(web, csrf, id="")
    assert reply.headers["Location"] == "/desk/t/herbstturnier-2026-11-27"


def test_every_format_is_offered_with_its_options_and_each_setting_names_its_rule(
    web: Web,
) -> None:
    signed_in(web)
    page = web.client.get("/desk/new?lang=en").get_data(as_text=True)
    for fmt in ("single_elimination", "double_elimination", "round_robin", "swiss",
                "groups_knockout", "lives"):  # fmt: skip
        assert f'value="{fmt}"' in page
    options = ("opt-swiss-rounds", "opt-lives-lives", "opt-lives-buy_backs",
               "opt-groups_knockout-advance",
               "opt-double_elimination-grand_final_reset")  # fmt: skip
    for option in options:
        assert f'id="{option}"' in page
    for rule in ("(R20)", "(R18)", "(R19 off)", "(T-settings)", "(T-withdrawal)"):
        assert rule in page
    assert unlabelled(page) == []


def test_a_two_digit_year_is_refused_beside_the_date_and_nothing_is_stored(web: Web) -> None:
    csrf = signed_in(web)
    reply = create(web, csrf, date="27.11.26")
    assert reply.status_code == 422
    page = reply.get_data(as_text=True)
    assert 'id="date-error"' in page and "27.11.2026" in page and "T-settings" in page
    assert 'value="Herbstturnier"' in page  # what was typed stays
    assert stored_ids(web) == []


def test_a_lives_tournament_with_four_lives_is_refused_naming_the_rule(web: Web) -> None:
    csrf = signed_in(web)
    reply = create(web, csrf, format="lives", **{"opt-lives-lives": "4"})
    assert reply.status_code == 422
    assert "a player has 2 or 3 lives" in reply.get_data(as_text=True)
    assert stored_ids(web) == []


def test_a_word_where_a_number_belongs_is_refused_beside_its_field(web: Web) -> None:
    csrf = signed_in(web)
    reply = create(web, csrf, **{"opt-swiss-rounds": "five"})
    assert reply.status_code == 422
    assert 'id="opt-swiss-rounds-error"' in reply.get_data(as_text=True)
    assert stored_ids(web) == []


def test_an_id_taken_already_is_refused(web: Web) -> None:
    csrf = signed_in(web)
    create(web, csrf)
    reply = create(web, csrf, name="Another")
    assert reply.status_code == 422
    assert 'id="id-error"' in reply.get_data(as_text=True)


def test_tie_breaks_are_reordered_by_buttons_and_stored_in_that_order(web: Web) -> None:
    csrf = signed_in(web)
    order = ["buchholz", "bummerl_diff", "game_point_diff", "direct_encounter", "lot"]
    moved = web.client.post(
        "/desk/new?lang=en",
        data={
            "csrf_token": csrf,
            "name": "X",
            "tiebreak_order": order,
            "tiebreaks_on": order,
            "move": "up:bummerl_diff",
        },
    )
    page = moved.get_data(as_text=True)
    assert moved.status_code == 200 and stored_ids(web) == []
    assert page.index('id="tb-bummerl_diff"') < page.index('id="tb-buchholz"')
    assert 'id="tb-down-bummerl_diff" autofocus' in page
    reply = create(web, csrf, tiebreak_mode="own", tiebreak_order=["wins", *order],
                   tiebreaks_on=["wins", "lot"])  # fmt: skip
    assert reply.status_code == 303
    with web.app.app_context():
        t = services().tournaments.state("herbst")
        assert t.settings is not None and t.settings.tiebreaks == ("wins", "lot")


def test_the_no_schneiderbummerl_variant_turns_r19_off(web: Web) -> None:
    csrf = signed_in(web)
    create(web, csrf, variants=["no-schneiderbummerl"])
    with web.app.app_context():
        t = services().tournaments.state("herbst")
        assert t.settings is not None and t.settings.schneiderbummerl is False


def test_the_overview_shows_settings_counts_and_links_to_the_rounds(web: Web, club: str) -> None:
    signed_in(web)
    page = web.client.get(f"/desk/t/{club}?lang=en").get_data(as_text=True)
    assert "Registered: 8" in page and "Round 3 is being played." in page
    assert f'href="/desk/t/{club}/rounds"' in page
    assert unlabelled(page) == []


def test_a_scorer_reads_the_overview_but_a_stranger_does_not(web: Web, club: str) -> None:
    signed_in_as(web, "scorer@club.at", club, Role.SCORER)
    assert web.client.get(f"/desk/t/{club}").status_code == 200
    signed_in(web, "stranger@club.at")
    assert web.client.get(f"/desk/t/{club}").status_code == 403


def test_a_tournament_without_a_name_is_refused_beside_the_name(web: Web) -> None:
    csrf = signed_in(web)
    reply = create(web, csrf, name="  ", id="")
    assert reply.status_code == 422
    assert 'id="name-error"' in reply.get_data(as_text=True)
    assert stored_ids(web) == []


def test_the_pages_speak_german_when_asked(web: Web) -> None:
    signed_in(web)
    page = web.client.get("/desk/new?lang=de").get_data(as_text=True)
    assert "Neues Turnier" in page and "Best-of" in page
    assert "Anmelden" in web.client.get("/login?lang=de").get_data(as_text=True)


def test_the_suggested_date_is_in_the_page_s_own_form_and_both_forms_are_taken(
    web: Web,
) -> None:
    """N-L1: a German page suggests today as 07.12.2026 (not ISO, which a German
    organiser would type after), an English one as ISO; the server takes either."""
    csrf = signed_in(web)
    today = datetime.date.today()
    german = web.client.get("/desk/new?lang=de").get_data(as_text=True)
    assert f'value="{today.day:02d}.{today.month:02d}.{today.year}"' in german
    english = web.client.get("/desk/new?lang=en").get_data(as_text=True)
    assert f'value="{today.isoformat()}"' in english
    assert create(web, csrf, id="dotted", date="07.12.2026").status_code == 303
    assert create(web, csrf, id="iso", date="2026-12-07").status_code == 303
    assert {"dotted", "iso"} <= set(stored_ids(web))

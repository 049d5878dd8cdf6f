"""The players part of the API (issue 9): register, import, read, correct, check in and
out, withdraw, buy back a life, seed -- the same rules and refusals as ``tournament
players``, through HTTP.

Rounds and results have no route on this branch yet: where a test needs a round drawn or
a result, it makes it with the domain command through the app's own service (as the
command line would), and checks only what the players routes answer.
"""

from __future__ import annotations

import io
from typing import Any

import pytest

from tests.web.conftest import Web
from tournament.accounts.roles import Role
from tournament.app.services import services
from tournament.domain import commands as c

BASE = "/api/v1/tournaments/club"
PLAYERS = f"{BASE}/players"
IMPORT = f"{PLAYERS}/import"
CSV = "text/csv"


def version(web: Web, tid: str = "club") -> int:
    return int(web.ok("GET", f"/api/v1/tournaments/{tid}")["version"])


def add(web: Web, name: str, **fields: Any) -> dict[str, Any]:
    reply: dict[str, Any] = web.ok("POST", PLAYERS, {"name": name, **fields})
    return reply


def field_of(web: Web, *names: str, **settings: Any) -> None:
    """Tournament ``club`` with these players (ratings falling with the start number)."""
    web.tournament("club", **settings)
    for n, name in enumerate(names):
        add(web, name, rating=2000 - n)


def domain(web: Web, command: Any, tid: str = "club") -> None:
    """A round or a result, which have no route on this branch: made by the domain
    command through the app's service, as ``tournament round start`` makes it."""
    with web.app.app_context():
        services().tournaments.execute(tid, command)


def upload(web: Web, text: str | bytes, *, path: str = IMPORT, **kwargs: Any) -> Any:
    data = text.encode() if isinstance(text, str) else text
    return web.call("POST", path, data=data, content_type=CSV, **kwargs)


def problem(reply: Any, status: int) -> dict[str, Any]:
    assert reply.status_code == status, (reply.status_code, reply.get_data(as_text=True))
    assert reply.mimetype == "application/problem+json"
    found: dict[str, Any] = reply.get_json()
    return found


# --- the list and one player -----------------------------------------------------------


def test_the_players_list_is_public_with_every_players_details_and_an_etag(web: Web) -> None:
    field_of(web, "Anna Huber", "Berta Gruber")
    add(web, "Carl Maier", club="SC Ried", category="W", rating=1500)
    reply = web.get(PLAYERS, token=None)
    assert reply.status_code == 200
    players = reply.get_json()["players"]
    assert [p["player_id"] for p in players] == [1, 2, 3]
    carl = players[2]
    assert carl["name"] == "Carl Maier" and carl["club"] == "SC Ried"
    assert carl["category"] == "W" and carl["rating"] == 1500
    assert carl["seed"] is None and not carl["checked_in"] and not carl["withdrawn"]
    assert "lives_left" not in carl  # a Swiss has no lives
    tag = reply.headers["ETag"]
    assert web.get(PLAYERS, token=None, headers={"If-None-Match": tag}).status_code == 304


def test_the_lives_format_lists_lives_left_and_who_may_buy_one_back(web: Web) -> None:
    field_of(web, "A", "B", "C", "D", format="lives", options={"lives": 2, "buy_backs": 1})
    players = web.ok("GET", PLAYERS, token=None)["players"]
    assert {(p["lives_left"], p["lives_bought"], p["may_buy_back"]) for p in players} == {
        (2, 0, False)
    }


def test_one_player_has_their_rounds_as_players_show_gives_them(web: Web) -> None:
    field_of(web, "Anna Huber", "Berta Gruber", "Carl Maier", "Dora Wolf", best_of=1)
    assert web.ok("GET", f"{PLAYERS}/1", token=None)["rounds"] == []
    domain(web, lambda t: c.start_round(t))
    domain(web, lambda t: c.record_forfeit(t, "1.1", winner=t.matches["1.1"].players[0]))
    one = web.ok("GET", f"{PLAYERS}/1", token=None)
    assert one["name"] == "Anna Huber" and one["standing"]["of"] == 4
    (first,) = one["rounds"]
    assert first["round"] == 1 and first["kind"] == "match"
    match = first["match"]
    assert match["match_id"] == "1.1" and match["forfeit"] is True
    assert first["outcome"] in ("won", "lost")
    assert first["text"].startswith("table 1, 1.1: v ")
    assert "by forfeit" in first["text"]


def test_an_unknown_player_is_404_and_so_is_a_start_number_that_is_not_one(web: Web) -> None:
    """A start number is digits in the path: ``players/import`` is the import, never a
    player, so a PATCH to it is 405 rather than a player id refused."""
    field_of(web, "Anna")
    missing = problem(web.get(f"{PLAYERS}/9", token=None), 404)
    assert "there is no player 9" in missing["detail"]
    assert "players/x" in problem(web.get(f"{PLAYERS}/x", token=None), 404)["detail"]
    assert web.patch(f"{PLAYERS}/import", {"name": "x"}).status_code == 405
    assert problem(web.get("/api/v1/tournaments/nope/players", token=None), 404)


# --- registering ------------------------------------------------------------------------


def test_registering_is_201_with_the_stored_player_and_its_location(web: Web) -> None:
    web.tournament("club")
    reply = web.post(PLAYERS, {"name": "Anna  Huber", "club": "SC Ried", "rating": 1520})
    assert reply.status_code == 201
    body = reply.get_json()
    assert body["player"] == {
        "player_id": 1,
        "name": "Anna Huber",  # stored as the domain stores it: spaces made one
        "club": "SC Ried",
        "category": "",
        "rating": 1520,
        "late": False,
        "missed_rounds": 0,
        "missed_rounds_score": None,
        "checked_in": False,
    }
    assert reply.headers["Location"] == f"{PLAYERS}/1"
    assert reply.headers["ETag"] == f'"{body["version"]}"'
    assert [e["type"] for e in body["events"]] == ["player.registered"]
    assert web.ok("GET", reply.headers["Location"])["club"] == "SC Ried"


def test_a_late_entry_scores_its_missed_rounds_and_is_checked_in_with_check_in_in_use(
    web: Web,
) -> None:
    field_of(web, "A", "B", "C", "D")
    web.ok("POST", f"{PLAYERS}/1/check-in")
    web.ok("POST", f"{PLAYERS}/2/check-in")
    domain(web, lambda t: c.start_round(t))
    late = add(web, "Emil", missed_rounds_score="bye")["player"]
    assert late["late"] and late["missed_rounds"] == 1
    assert late["missed_rounds_score"] == "bye" and late["checked_in"]
    listed = web.ok("GET", f"{PLAYERS}/5")
    assert listed["checked_in"] and listed["status"] == "checked in, late"
    assert listed["rounds"][0]["kind"] == "missed" and listed["rounds"][0]["scored_as_bye"]


def test_late_entry_is_refused_where_the_draw_is_fixed(web: Web) -> None:
    field_of(web, "A", "B", "C", "D", format="round_robin")
    domain(web, lambda t: c.start_round(t))
    before = version(web)
    refused = problem(web.post(PLAYERS, {"name": "Emil"}), 409)
    assert refused["rule"] == "T-late-entry"
    assert version(web) == before


def test_a_player_registered_already_is_409_naming_name_and_rule(web: Web) -> None:
    field_of(web, "Anna Huber")
    before = version(web)
    refused = problem(web.post(PLAYERS, {"name": "anna huber"}), 409)
    assert refused["field"] == "name" and refused["rule"] == "T-player"
    assert "already registered as player 1" in refused["detail"]
    assert version(web) == before


@pytest.mark.parametrize(
    ("body", "field", "rule"),
    [
        ({"name": "Anna", "rating": 4001}, "rating", "T-player"),
        ({"name": "Anna\x1b[31m"}, "name", "T-player"),
        ({"name": "   "}, "name", "T-player"),
        ({"name": "Anna", "club": "x" * 101}, "club", "T-player"),
        ({"name": "Anna", "missed_rounds_score": "bye"}, "missed_rounds_score", "T-late-entry"),
        ({"name": "Anna", "rating": "high"}, "body.rating", None),
        ({"name": "Anna", "actor": "Somebody else"}, "body.actor", None),
        ({"club": "SC Ried"}, "body.name", None),
    ],
)
def test_a_bad_registration_is_422_naming_field_and_rule_and_stores_nothing(
    web: Web, body: dict[str, Any], field: str, rule: str | None
) -> None:
    web.tournament("club")
    before = version(web)
    refused = problem(web.post(PLAYERS, body), 422)
    assert refused["field"] == field
    assert refused.get("rule") == rule
    assert version(web) == before
    assert web.ok("GET", PLAYERS)["players"] == []


# --- importing a CSV list ---------------------------------------------------------------

LIST = "name,club,category,rating\nAnna Huber,SC Ried,,1520\nBerta Gruber,,W,1480\n"


def test_a_csv_list_imports_every_row_as_a_player(web: Web) -> None:
    web.tournament("club")
    reply = upload(web, LIST)
    assert reply.status_code == 201, reply.get_json()
    body = reply.get_json()
    assert body["imported"] == 2 and body["player_ids"] == [1, 2]
    players = web.ok("GET", PLAYERS)["players"]
    assert [(p["name"], p["club"], p["category"], p["rating"]) for p in players] == [
        ("Anna Huber", "SC Ried", "", 1520),
        ("Berta Gruber", "", "W", 1480),
    ]
    assert all(e["payload"] for e in body["events"])


def test_a_csv_list_uploads_as_the_file_field_of_a_form_too(web: Web) -> None:
    web.tournament("club")
    form = {"file": (io.BytesIO(LIST.encode()), "players.csv", "text/csv")}
    reply = web.call("POST", IMPORT, data=form, content_type="multipart/form-data")
    assert reply.status_code == 201, reply.get_json()
    assert reply.get_json()["imported"] == 2


def test_a_bad_list_is_422_naming_each_rows_line_field_and_rule_and_stores_nothing(
    web: Web,
) -> None:
    web.tournament("club")
    before = version(web)
    bad = "name,club,rating\nAnna,SC Ried,1500\n,SC Ried,1400\nBerti,,x\nCarl,,9000\n"
    refused = problem(upload(web, bad), 422)
    rows = [(e["row"], e["field"], e["rule"]) for e in refused["errors"]]
    assert rows == [(3, "name", "T-player"), (4, "rating", "T-csv"), (5, "rating", "T-player")]
    assert "a player needs a name" in refused["errors"][0]["message"]
    assert refused["row"] == 3 and refused["field"] == "name"
    assert version(web) == before
    assert web.ok("GET", PLAYERS)["players"] == []


def test_an_excel_file_in_windows_1252_is_read_as_excel_wrote_it(web: Web) -> None:
    web.tournament("club")
    reply = upload(web, "name;club\nJosé Weiß;SC Ödenburg\n".encode("cp1252"))
    assert reply.status_code == 201, reply.get_data(as_text=True)
    (player,) = web.ok("GET", PLAYERS)["players"]
    assert (player["name"], player["club"]) == ("José Weiß", "SC Ödenburg")


@pytest.mark.parametrize(
    ("data", "field", "row"),
    [
        (b"", "file", 1),
        (b"club\nSC Ried\n", "header", 1),
        (b"name\nJos\x81\n", "file", 2),  # neither UTF-8 nor Windows-1252 (0x81 is unused)
        (b'name,club\n"Anna,SC Ried\n', "row", 2),
    ],
)
def test_a_file_that_cannot_be_read_is_422_naming_its_line(
    web: Web, data: bytes, field: str, row: int
) -> None:
    web.tournament("club")
    before = version(web)
    refused = problem(upload(web, data), 422)
    assert (refused["errors"][0]["field"], refused["errors"][0]["row"]) == (field, row)
    assert version(web) == before


def test_an_upload_that_is_not_a_csv_is_refused_saying_how_to_send_it(web: Web) -> None:
    web.tournament("club")
    assert problem(web.post(IMPORT, {"name": "Anna"}), 415)["field"] == "Content-Type"
    form = {"list": (io.BytesIO(LIST.encode()), "players.csv")}
    empty = web.call("POST", IMPORT, data=form, content_type="multipart/form-data")
    assert problem(empty, 422)["field"] == "file"


def test_the_same_list_imported_again_is_409_however_it_was_saved(web: Web) -> None:
    web.tournament("club")
    upload(web, LIST)
    after = version(web)
    excel = "\ufeffSpieler;Verein;Kategorie;Wertung\r\nAnna Huber;SC Ried;;1520\r\n"
    excel += "Berta Gruber;;W;1480\r\n\r\n"
    for again in (LIST, excel):
        refused = problem(upload(web, again), 409)
        assert refused["field"] == "file" and "imported at" in refused["detail"]
    assert version(web) == after
    assert len(web.ok("GET", PLAYERS)["players"]) == 2


def test_a_grown_list_imports_only_its_new_rows_with_only_new(web: Web) -> None:
    web.tournament("club")
    upload(web, LIST)
    grown = LIST + "Carl Maier,SC Ried,,1400\n"
    refused = problem(upload(web, grown), 422)
    assert refused["errors"][0]["row"] == 2 and "only_new=true" in refused["hint"]
    body = upload(web, grown, path=f"{IMPORT}?only_new=true").get_json()
    assert body["player_ids"] == [3]


def test_a_retry_with_the_same_idempotency_key_gets_the_first_answer(web: Web) -> None:
    web.tournament("club")
    key = {"Idempotency-Key": "import-1"}
    first = upload(web, LIST, headers=key)
    after = version(web)
    again = upload(web, LIST, headers=key)
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert version(web) == after
    other = problem(upload(web, "name\nCarl\n", headers=key), 422)
    assert other["field"] == "Idempotency-Key"
    # The same list under another key is a second import: refused, as without a key.
    assert problem(upload(web, LIST, headers={"Idempotency-Key": "import-2"}), 409)
    assert version(web) == after


# --- one player: correct, check in and out, withdraw, buy back ---------------------------


def test_a_correction_says_what_it_replaces_and_a_rating_reseeds(web: Web) -> None:
    field_of(web, "Anna", "Berta")
    web.ok("POST", f"{BASE}/seeding", {"method": "rating"})
    body = web.ok("PATCH", f"{PLAYERS}/2", {"club": "SC Ried", "rating": 2100})
    assert body["changes"] == {"club": "SC Ried", "rating": 2100}
    assert body["previous"] == {"club": "", "rating": 1999}
    assert body["seeding"] == [2, 1]
    assert web.ok("GET", f"{PLAYERS}/2")["seed"] == 1
    cleared = web.ok("PATCH", f"{PLAYERS}/2", {"rating": None})
    assert cleared["changes"] == {"rating": None}


def test_a_correction_to_what_is_recorded_changes_nothing(web: Web) -> None:
    field_of(web, "Anna")
    before = version(web)
    reply = web.patch(f"{PLAYERS}/1", {"name": "Anna"})
    assert reply.status_code == 200
    body = reply.get_json()
    assert body["changed"] is False and body["events"] == [] and body["version"] == before
    assert reply.headers["ETag"] == f'"{before}"'


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({}, 422, "body"),
        ({"name": None}, 422, "body.name"),
        ({"seed": 1}, 422, "body.seed"),
        ({"name": "Berta"}, 409, "name"),  # looks the same as player 2
        ({"rating": -1}, 422, "rating"),
    ],
)
def test_a_bad_correction_is_refused_naming_the_field_and_stores_nothing(
    web: Web, body: dict[str, Any], status: int, field: str
) -> None:
    field_of(web, "Anna", "Berta")
    before = version(web)
    assert problem(web.patch(f"{PLAYERS}/1", body), status)["field"] == field
    assert version(web) == before


def test_the_rating_is_fixed_once_round_1_is_drawn(web: Web) -> None:
    field_of(web, "Anna", "Berta")
    domain(web, lambda t: c.start_round(t))
    refused = problem(web.patch(f"{PLAYERS}/1", {"rating": 100}), 409)
    assert refused["field"] == "rating" and refused["rule"] == "T-seeding"
    assert web.ok("PATCH", f"{PLAYERS}/1", {"club": "SC Ried"})["changed"] is True


def test_checking_in_twice_is_200_saying_nothing_changed(web: Web) -> None:
    field_of(web, "Anna", "Berta")
    first = web.ok("POST", f"{PLAYERS}/1/check-in")
    assert first["changed"] is True and first["checked_in"] is True
    after = version(web)
    again = web.post(f"{PLAYERS}/1/check-in")
    assert again.status_code == 200
    body = again.get_json()
    assert body["changed"] is False and "checked in already" in body["detail"]
    assert body["version"] == after and version(web) == after
    assert [p["checked_in"] for p in web.ok("GET", PLAYERS)["players"]] == [True, False]


def test_checking_out_undoes_a_check_in_until_the_player_is_drawn(web: Web) -> None:
    field_of(web, "Anna", "Berta", "Carl")
    web.ok("POST", f"{PLAYERS}/1/check-in")
    assert web.ok("POST", f"{PLAYERS}/1/check-out")["changed"] is True
    assert web.ok("POST", f"{PLAYERS}/1/check-out")["changed"] is False
    web.ok("POST", f"{PLAYERS}/1/check-in")
    web.ok("POST", f"{PLAYERS}/2/check-in")
    domain(web, lambda t: c.start_round(t))
    refused = problem(web.post(f"{PLAYERS}/1/check-out"), 409)
    assert "withdraw" in refused["detail"] and refused["rule"] == "T-player"


def test_a_withdrawal_forfeits_the_open_match_and_keeps_its_reason(web: Web) -> None:
    field_of(web, "Anna", "Berta")
    domain(web, lambda t: c.start_round(t))
    body = web.ok("POST", f"{PLAYERS}/1/withdraw", {"reason": "ill"})
    assert body["reason"] == "ill" and body["policy"] == "forfeit"
    assert body["forfeited"] == ["1.1"] and body["dropped"] == []
    assert web.ok("GET", f"{PLAYERS}/1")["withdrawn"] is True
    before = version(web)
    again = problem(web.post(f"{PLAYERS}/1/withdraw", {}), 409)
    assert "already withdrawn" in again["detail"]
    refused = problem(web.post(f"{PLAYERS}/1/check-in"), 409)
    assert refused["field"] == "player"
    assert version(web) == before


def test_a_withdrawal_with_a_bad_reason_or_policy_or_no_body_is_422(web: Web) -> None:
    field_of(web, "Anna", "Berta", "Carl")
    before = version(web)
    assert problem(web.post(f"{PLAYERS}/2/withdraw"), 422)["field"] == "body"  # {} at least
    bad = problem(web.post(f"{PLAYERS}/2/withdraw", {"reason": "ill\nvery"}), 422)
    assert bad["field"] == "reason" and bad["rule"] == "T-withdrawal"
    policy = problem(web.post(f"{PLAYERS}/2/withdraw", {"policy": "vanish"}), 422)
    assert policy["field"] == "body.policy"
    assert version(web) == before
    assert web.ok("POST", f"{PLAYERS}/2/withdraw", {"policy": "drop"})["policy"] == "drop"


def test_a_life_is_bought_back_by_a_player_out_of_lives_only(web: Web) -> None:
    field_of(web, "A", "B", "C", "D", format="lives", best_of=1,
             options={"lives": 2, "buy_backs": 1})  # fmt: skip
    refused = problem(web.post(f"{PLAYERS}/1/buy-life"), 409)
    assert refused["rule"] == "T-lives" and "nobody" not in refused["detail"]
    out: list[dict[str, Any]] = []
    while not out:  # rounds until somebody has lost both lives (seat A wins every match)
        domain(web, lambda t: c.start_round(t))
        with web.app.app_context():
            t = services().tournaments.state("club")
            matches = list(t.rounds[-1].matches)
        for mid in matches:
            domain(web, lambda t, m=mid: c.record_forfeit(t, m, winner=t.matches[m].players[0]))
        out = [p for p in web.ok("GET", PLAYERS)["players"] if p["lives_left"] == 0]
    assert all(p["may_buy_back"] for p in out)
    pid = out[0]["player_id"]
    body = web.ok("POST", f"{PLAYERS}/{pid}/buy-life")
    assert body["before_round"] == len(web.ok("GET", f"{PLAYERS}/{pid}")["rounds"]) + 1
    again = web.ok("GET", f"{PLAYERS}/{pid}")
    assert again["lives_left"] == 1 and again["lives_bought"] == 1 and not again["may_buy_back"]


# --- seeding ----------------------------------------------------------------------------


def test_seeding_by_rating_by_hand_and_by_draw(web: Web) -> None:
    field_of(web, "A", "B", "C", "D")
    assert web.ok("POST", f"{BASE}/seeding", {})["order"] == [1, 2, 3, 4]
    manual = web.ok("POST", f"{BASE}/seeding", {"method": "manual", "order": [3, 1, 4, 2]})
    assert manual["order"] == [3, 1, 4, 2]
    assert [p["seed"] for p in web.ok("GET", PLAYERS)["players"]] == [2, 4, 1, 3]
    drawn = web.ok("POST", f"{BASE}/seeding", {"method": "draw", "seed": 12})
    assert drawn["seed"] == 12 and sorted(drawn["order"]) == [1, 2, 3, 4]


def test_a_dry_run_of_a_seeding_answers_the_order_and_stores_nothing(web: Web) -> None:
    field_of(web, "A", "B", "C")
    before = version(web)
    preview = web.ok("POST", f"{BASE}/seeding?dry_run=true", {"method": "draw"})
    assert preview["dry_run"] is True and preview["version"] == before
    assert [e["type"] for e in preview["events"]] == ["players.seeded"]
    assert version(web) == before
    stored = web.ok("POST", f"{BASE}/seeding", {"method": "draw"})
    assert stored["order"] == preview["order"] and stored["seed"] == preview["seed"]


@pytest.mark.parametrize(
    ("body", "field", "text"),
    [
        ({"method": "manual"}, "method", "method manual needs order"),
        ({"order": [1, 2, 3]}, "order", "order goes with method manual"),
        ({"method": "manual", "order": [1, 2, 9]}, "order", "there is no player 9"),
        ({"method": "manual", "order": [1, 2, 2]}, "order", "listed twice"),
        ({"method": "manual", "order": [1, 2]}, "order", "missing: 3"),
        ({"method": "rating", "seed": 4}, "seed", "a seed is for seeding by draw"),
        ({"method": "alphabet"}, "body.method", ""),
    ],
)
def test_a_bad_seeding_is_422_naming_the_field_and_stores_nothing(
    web: Web, body: dict[str, Any], field: str, text: str
) -> None:
    field_of(web, "A", "B", "C")
    before = version(web)
    refused = problem(web.post(f"{BASE}/seeding", body), 422)
    assert refused["field"] == field and text in refused["detail"]
    assert version(web) == before


def test_seeding_is_fixed_once_round_1_is_drawn(web: Web) -> None:
    field_of(web, "A", "B")
    domain(web, lambda t: c.start_round(t))
    assert problem(web.post(f"{BASE}/seeding", {}), 409)["rule"] == "T-seeding"


# --- roles, If-Match, Idempotency-Key --------------------------------------------------

WRITES = [
    ("POST", PLAYERS, {"name": "Emil"}),
    ("POST", IMPORT, None),
    ("PATCH", f"{PLAYERS}/1", {"club": "x"}),
    ("POST", f"{PLAYERS}/1/check-in", None),
    ("POST", f"{PLAYERS}/1/check-out", None),
    ("POST", f"{PLAYERS}/1/withdraw", {"reason": "x"}),
    ("POST", f"{PLAYERS}/1/buy-life", None),
    ("POST", f"{BASE}/seeding", {"method": "rating"}),
]


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_a_scorer_may_not_and_an_organiser_may(web: Web, method: str, path: str, body: Any) -> None:
    field_of(web, "Anna", "Berta")
    before = version(web)
    scorer = web.caller(Role.SCORER, "club")
    refused = problem(web.call(method, path, body, token=scorer), 403)
    assert refused["required_role"] == "organiser"
    assert problem(web.call(method, path, body, token=None), 401)
    assert version(web) == before
    organiser = web.caller(Role.ORGANISER, "club")
    assert web.call(method, path, body, token=organiser).status_code not in (401, 403)


def test_the_log_records_the_account_that_registered_not_a_name_from_the_body(
    web: Web,
) -> None:
    web.tournament("club")
    organiser = web.caller(Role.ORGANISER, "club", email="desk@club.at")
    body = web.ok("POST", PLAYERS, {"name": "Anna"}, token=organiser)
    with web.app.app_context():
        (event,) = services().tournaments.events("club")[-1:]
    assert event.version == body["version"]
    assert event.metadata["actor"] == "desk@club.at" and event.metadata["via"] == "api"


def test_a_stale_if_match_is_412_and_stores_nothing(web: Web) -> None:
    field_of(web, "Anna")
    seen = version(web)
    add(web, "Berta")
    now = version(web)
    for method, path, body in WRITES:
        if path == IMPORT:
            reply = upload(web, "name\nCarl\n", headers={"If-Match": f'"{seen}"'})
        else:
            reply = web.call(method, path, body, headers={"If-Match": f'"{seen}"'})
        refused = problem(reply, 412)
        assert refused["version"] == now and reply.headers["ETag"] == f'"{now}"'
    assert version(web) == now
    fresh = web.call("POST", f"{PLAYERS}/1/check-in", headers={"If-Match": f'"{now}"'})
    assert fresh.status_code == 200 and version(web) == now + 1


def test_a_retried_registration_gets_the_first_answer_and_registers_once(web: Web) -> None:
    web.tournament("club")
    key = {"Idempotency-Key": "3f1c-anna"}
    first = web.post(PLAYERS, {"name": "Anna"}, headers=key)
    again = web.post(PLAYERS, {"name": "Anna"}, headers=key)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Location"] == first.headers["Location"]
    assert len(web.ok("GET", PLAYERS)["players"]) == 1
    other = problem(web.post(PLAYERS, {"name": "Berta"}, headers=key), 422)
    assert other["field"] == "Idempotency-Key"
    assert len(web.ok("GET", PLAYERS)["players"]) == 1


# --- PostgreSQL ---------------------------------------------------------------------------


def test_on_postgresql_an_import_and_its_retry_store_the_list_once(web_pg: Web) -> None:
    web_pg.tournament("club")
    key = {"Idempotency-Key": "pg-import"}
    first = upload(web_pg, LIST, headers=key)
    assert first.status_code == 201, first.get_json()
    again = upload(web_pg, LIST, headers=key)
    assert again.get_json() == first.get_json()
    assert problem(upload(web_pg, LIST), 409)["field"] == "file"
    assert len(web_pg.ok("GET", PLAYERS)["players"]) == 2


def test_on_postgresql_players_are_registered_checked_in_and_seeded(web_pg: Web) -> None:
    field_of(web_pg, "Anna", "Berta", "Carl")
    web_pg.ok("POST", f"{PLAYERS}/2/check-in")
    web_pg.ok("POST", f"{BASE}/seeding", {"method": "manual", "order": [2]})
    players = web_pg.ok("GET", PLAYERS)["players"]
    assert [(p["checked_in"], p["seed"]) for p in players] == [
        (False, None),
        (True, 1),
        (False, None),
    ]

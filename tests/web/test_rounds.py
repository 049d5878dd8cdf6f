"""The rounds over HTTP: drawing (the format's draw, the organiser's own pairings, a dry
run), a round's pairings by table, the list of rounds, cancelling the latest round, and
the rules every write keeps (roles, If-Match, Idempotency-Key, nothing stored on a
refusal). Players and results are set up through the app's service (tests/web/helpers.py
says why)."""

from __future__ import annotations

from tests.web.conftest import Web
from tests.web.helpers import register, state, tally, version, win_all
from tournament.accounts.roles import Role

ROUNDS = "/api/v1/tournaments/club/rounds"


def club(web: Web, players: int = 5, **settings: object) -> str:
    tid = web.tournament("club", **settings)
    register(web, tid, players)
    return tid


def test_a_swiss_draw_is_201_with_its_tables_from_the_events_and_the_round_as_location(
    web: Web,
) -> None:
    club(web)
    reply = web.post(ROUNDS, {})
    assert reply.status_code == 201, reply.get_json()
    assert reply.headers["Location"] == f"{ROUNDS}/1"
    body = reply.get_json()
    drawn = body["round"]
    assert drawn["number"] == 1 and not drawn["manual"]
    assert [(x["match_id"], x["table"]) for x in drawn["tables"]] == [("1.1", 1), ("1.2", 2)]
    assert drawn["byes"] == [5]  # five players: the lowest gets the bye
    for table in drawn["tables"]:
        assert table["first_dealer"] in table["players"]  # R18: drawn with the round
    assert body["version"] == version(web, "club") == int(reply.headers["ETag"].strip('"'))
    assert body["events"][0]["type"] == "round.started"


def test_a_round_shows_its_tables_with_names_start_numbers_first_dealers_and_byes(
    web: Web,
) -> None:
    club(web)
    drawn = web.ok("POST", ROUNDS, {})["round"]
    shown = web.ok("GET", f"{ROUNDS}/1", token=None)  # public
    assert shown["number"] == 1 and shown["stage"] == "Swiss round 1 of 3"
    assert shown["seed"] == drawn["seed"]
    for table, row in zip(shown["tables"], drawn["tables"], strict=True):
        assert [p["id"] for p in table["players"]] == row["players"]
        assert [p["name"] for p in table["players"]] == [f"Player {p}" for p in row["players"]]
        assert table["first_dealer"]["id"] == row["first_dealer"]
        assert table["status"] == "open" and table["needs"] == "enter its result"
    assert shown["byes"] == [{"player": {"id": 5, "name": "Player 5"}, "slot": None}]
    assert (shown["complete"], shown["open"]) == (False, 2)


def test_a_swiss_round_from_round_two_shows_the_points_it_was_paired_by(web: Web) -> None:
    club(web, players=4)
    web.ok("POST", ROUNDS, {})
    win_all(web, "club")
    web.ok("POST", ROUNDS, {})
    shown = web.ok("GET", f"{ROUNDS}/2")
    assert sorted(shown["points"].values()) == [0, 0, 1, 1]
    assert web.ok("GET", f"{ROUNDS}/1")["complete"] is True


def test_the_rounds_list_says_when_each_was_drawn_and_what_is_open(web: Web) -> None:
    club(web, players=4)
    assert web.ok("GET", ROUNDS, token=None) == {"current_round": 0, "rounds": []}
    web.ok("POST", ROUNDS, {})
    tally(web, "club", "1.1", "7 4 1 0 / 7 5 2", "7 4 2 0 / 7 6")
    listed = web.ok("GET", ROUNDS, token=None)
    assert listed["current_round"] == 1
    [first] = listed["rounds"]
    assert (first["matches"], first["byes"], first["open"], first["complete"]) == (2, 0, 1, False)
    assert first["drawn_by"] == "admin@club.at"  # the account, never a name of the body
    assert first["drawn_at"].startswith("20")


def test_a_knockout_draw_names_its_bracket_round_and_where_each_bye_goes(web: Web) -> None:
    club(web, players=6, format="single_elimination")
    drawn = web.ok("POST", ROUNDS, {})["round"]
    assert all(t["slot"] == t["match_id"] for t in drawn["tables"])
    assert len(drawn["byes"]) == 2 and len(drawn["bye_slots"]) == 2
    shown = web.ok("GET", f"{ROUNDS}/1")
    assert shown["sections"] == ["Quarter-finals"]
    assert {b["slot"] for b in shown["byes"]} == set(drawn["bye_slots"])
    slot = shown["tables"][0]["slot"]
    match = web.ok("GET", f"/api/v1/tournaments/club/matches/{slot.lower()}")
    assert match["match_id"] == slot  # a bracket id, in any case, as the CLI takes it


def test_a_dry_run_answers_the_draw_it_would_make_and_stores_nothing(web: Web) -> None:
    club(web)
    before = version(web, "club")
    preview = web.ok("POST", f"{ROUNDS}?dry_run=true", {})
    assert preview["dry_run"] is True and preview["version"] == before
    assert preview["round"]["byes"] == [5] and len(preview["round"]["tables"]) == 2
    assert version(web, "club") == before
    assert web.ok("GET", ROUNDS)["rounds"] == []
    # The draw that is then stored is the one previewed: the same seed, the same tables.
    assert web.ok("POST", ROUNDS, {})["round"] == preview["round"]


def test_a_manual_draw_that_breaks_a_rule_is_refused_until_confirmed(web: Web) -> None:
    """As the command line asks before storing it (trial 1, finding 14): player 5 is
    neither paired nor given a bye."""
    club(web)
    before = version(web, "club")
    manual = {"pairings": [[1, 2], [3, 4]]}
    refused = web.post(ROUNDS, manual)
    assert refused.status_code == 422
    problem = refused.get_json()
    assert (problem["field"], problem["rule"]) == ("body.confirm", "T-override")
    assert any("not paired and no bye: 5" in w for w in problem["warnings"])
    assert "confirm" in problem["detail"] and "nothing stored" in problem["detail"]
    assert version(web, "club") == before

    preview = web.ok("POST", f"{ROUNDS}?dry_run=true", manual)
    assert preview["confirm_needed"] is True and preview["round"]["warnings"]
    assert version(web, "club") == before

    stored = web.post(ROUNDS, {**manual, "confirm": True})
    assert stored.status_code == 201
    drawn = stored.get_json()["round"]
    assert drawn["manual"] is True and drawn["warnings"] == problem["warnings"]
    assert [t["players"] for t in drawn["tables"]] == [[1, 2], [3, 4]]
    assert web.ok("GET", f"{ROUNDS}/1")["manual"] is True


def test_a_manual_draw_within_the_rules_is_stored_at_once_with_its_tables(web: Web) -> None:
    club(web, players=4)
    body = {"pairings": [[1, 4], [3, 2]], "tables": {"3": 1}}
    drawn = web.ok("POST", ROUNDS, body)["round"]
    assert drawn["warnings"] == []
    assert [(t["table"], t["players"]) for t in drawn["tables"]] == [(1, [3, 2]), (2, [1, 4])]


def test_bad_draw_requests_are_422_naming_the_field_and_store_nothing(web: Web) -> None:
    club(web)
    before = version(web, "club")
    cases = [
        ({"byes": [5]}, "body.byes"),  # a bye without pairings: the draw gives its own
        ({"pairings": [[1, 99]], "confirm": True}, "pairings"),
        ({"pairings": [[1, 2], [2, 3]], "confirm": True}, "pairings"),
        ({"tables": {"77": 1}}, "tables"),
        ({"pairings": [[1, 1]]}, "pairings"),  # not two players
        ({"paring": [[1, 2]]}, "body.paring"),
        ({"seed": -1}, "body.seed"),
    ]
    for body, field in cases:
        reply = web.post(ROUNDS, body)
        problem = reply.get_json()
        assert reply.status_code == 422, (body, problem)
        assert problem["field"] == field, (body, problem)
    assert version(web, "club") == before


def test_a_draw_while_matches_are_open_is_409_naming_every_one(web: Web) -> None:
    club(web, players=4)
    web.ok("POST", ROUNDS, {})
    before = version(web, "club")
    refused = web.post(ROUNDS, {})
    assert refused.status_code == 409
    problem = refused.get_json()
    assert problem["rule"] == "T-round" and "1.1, 1.2" in problem["detail"]
    assert version(web, "club") == before


def test_a_round_not_drawn_is_404_naming_the_rounds_there_are(web: Web) -> None:
    club(web, players=4)
    missing = web.get(f"{ROUNDS}/1")
    assert missing.status_code == 404
    assert "no round has been drawn yet" in missing.get_json()["detail"]
    web.ok("POST", ROUNDS, {})
    missing = web.get(f"{ROUNDS}/3")
    assert missing.status_code == 404
    assert missing.get_json()["detail"] == (
        "round: round 3 is not drawn yet (only round 1 is) (T-round)"
    )
    assert web.get(f"{ROUNDS}/0").get_json()["field"] == "path.n"
    assert web.get("/api/v1/tournaments/nope/rounds/1").status_code == 404


def test_cancelling_the_latest_round_lets_it_be_drawn_again(web: Web) -> None:
    club(web, players=4)
    first = web.ok("POST", ROUNDS, {})["round"]
    cancelled = web.ok("POST", f"{ROUNDS}/1/cancel", {"why": "a late arrival", "by": "Anna"})
    assert (cancelled["round"], cancelled["why"], cancelled["by"]) == (1, "a late arrival", "Anna")
    assert cancelled["events"][0]["type"] == "round.cancelled"
    assert web.ok("GET", ROUNDS)["rounds"] == []
    again = web.ok("POST", ROUNDS, {})["round"]
    assert again["number"] == 1 and again["seed"] != first["seed"]  # a fresh seed


def test_a_cancel_dry_run_says_what_it_would_cancel_and_stores_nothing(web: Web) -> None:
    club(web, players=4)
    web.ok("POST", ROUNDS, {})
    before = version(web, "club")
    preview = web.ok("POST", f"{ROUNDS}/1/cancel?dry_run=true", {"why": "wrong list"})
    assert preview["dry_run"] is True and preview["round"] == 1
    assert version(web, "club") == before and web.ok("GET", f"{ROUNDS}/1")["number"] == 1


def test_a_round_with_a_result_or_an_earlier_round_is_not_cancelled(web: Web) -> None:
    club(web, players=4)
    web.ok("POST", ROUNDS, {})
    win_all(web, "club")
    web.ok("POST", ROUNDS, {})
    before = version(web, "club")
    earlier = web.post(f"{ROUNDS}/1/cancel", {"why": "oops"})
    assert earlier.status_code == 409
    assert "only the latest round (2)" in earlier.get_json()["detail"]
    tally(web, "club", "2.1", "7 4 1 0 / 7 5 2")
    before = version(web, "club")
    played = web.post(f"{ROUNDS}/2/cancel", {"why": "oops"})
    assert played.status_code == 409
    assert "match 2.1 already has a tally result" in played.get_json()["detail"]
    assert web.post(f"{ROUNDS}/3/cancel", {"why": "oops"}).status_code == 404
    blank = web.post(f"{ROUNDS}/2/cancel", {"why": "\x1b[2J"})
    assert blank.status_code == 422 and blank.get_json()["field"] == "body.why"
    assert version(web, "club") == before


def test_a_scorer_may_not_draw_or_cancel_and_nobody_signed_in_is_asked_to(web: Web) -> None:
    club(web, players=4)
    scorer = web.caller(Role.SCORER, "club")
    for path, body in ((ROUNDS, {}), (f"{ROUNDS}/1/cancel", {"why": "x"})):
        forbidden = web.post(path, body, token=scorer)
        assert forbidden.status_code == 403
        assert forbidden.get_json()["required_role"] == "organiser"
        assert web.post(path, body, token=None).status_code == 401
    assert web.post(f"{ROUNDS}?dry_run=true", {}, token=scorer).status_code == 403
    organiser = web.caller(Role.ORGANISER, "club")
    assert web.post(ROUNDS, {}, token=organiser).status_code == 201
    assert web.ok("GET", ROUNDS)["rounds"][0]["drawn_by"] == "organiser@club.at"


def test_a_stale_if_match_is_412_and_draws_nothing(web: Web) -> None:
    club(web, players=4)
    now = version(web, "club")
    stale = web.post(ROUNDS, {}, headers={"If-Match": f'"{now - 1}"'})
    assert stale.status_code == 412
    assert stale.get_json()["field"] == "If-Match" and stale.headers["ETag"] == f'"{now}"'
    assert version(web, "club") == now
    assert web.post(ROUNDS, {}, headers={"If-Match": f'"{now}"'}).status_code == 201


def test_a_dry_run_is_decided_as_the_draw_would_be_so_a_stale_if_match_is_412(
    web: Web,
) -> None:
    club(web, players=4)
    now = version(web, "club")
    stale = web.post(f"{ROUNDS}?dry_run=true", {}, headers={"If-Match": f'"{now - 1}"'})
    assert stale.status_code == 412
    fresh = web.post(f"{ROUNDS}?dry_run=true", {}, headers={"If-Match": f'"{now}"'})
    assert fresh.status_code == 200 and fresh.get_json()["dry_run"] is True
    assert version(web, "club") == now


def test_a_retried_draw_answers_the_first_draw_again(web: Web) -> None:
    club(web)
    key = {"Idempotency-Key": "draw-round-1"}
    first = web.post(ROUNDS, {}, headers=key)
    after = version(web, "club")
    again = web.post(ROUNDS, {}, headers=key)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert again.headers["Location"] == first.headers["Location"]
    assert version(web, "club") == after
    other = web.post(ROUNDS, {"seed": 5}, headers=key)
    assert other.status_code == 422 and other.get_json()["field"] == "Idempotency-Key"


def test_a_lives_round_shows_each_players_lives(web: Web) -> None:
    club(web, players=4, format="lives", best_of=1, options={"lives": 2})
    web.ok("POST", ROUNDS, {})
    shown = web.ok("GET", f"{ROUNDS}/1")
    assert shown["lives"] == {"1": 2, "2": 2, "3": 2, "4": 2}


def test_a_round_read_again_at_the_same_version_is_304(web: Web) -> None:
    club(web, players=4)
    web.ok("POST", ROUNDS, {})
    first = web.get(f"{ROUNDS}/1")
    tag = first.headers["ETag"]
    assert web.get(f"{ROUNDS}/1", headers={"If-None-Match": tag}).status_code == 304
    tally(web, "club", "1.1", "7 4 1 0 / 7 5 2")
    changed = web.get(f"{ROUNDS}/1", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.get_json()["tables"][0]["bummerl"] == [1, 0]


def test_a_draw_and_its_retry_on_postgresql(web_pg: Web) -> None:
    web = web_pg
    club(web, players=6, format="single_elimination")
    key = {"Idempotency-Key": "pg-draw"}
    first = web.post(ROUNDS, {}, headers=key)
    assert first.status_code == 201
    assert web.post(ROUNDS, {}, headers=key).get_json() == first.get_json()
    assert len(state(web, "club").rounds) == 1
    assert web.ok("GET", f"{ROUNDS}/1")["sections"] == ["Quarter-finals"]

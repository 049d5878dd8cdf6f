"""The matches over HTTP: the list filtered by status and round (every open match with
what it still needs), and one match in full as ``tournament results show`` gives it.
Results are entered through the app's service until the results routes exist
(tests/web/helpers.py)."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Web
from tests.web.helpers import execute, register, tally, version
from tournament.domain import commands as c

MATCHES = "/api/v1/tournaments/club/matches"


def results(events: list[Any]) -> list[str]:
    """The result ids among the events a command stored."""
    return [e.payload["result_id"] for e in events if "result_id" in e.payload]


def drawn(web: Web, players: int, **settings: object) -> None:
    web.tournament("club", **settings)
    register(web, "club", players)
    web.ok("POST", "/api/v1/tournaments/club/rounds", {})


def test_open_lists_every_open_match_with_what_it_still_needs(web: Web) -> None:
    """All of them, never the first eight (trial 1, finding 19)."""
    drawn(web, 24)
    tally(web, "club", "1.3", "7 4 1 0 / 7 5 2")
    tally(web, "club", "1.5", "7 4 1 0 / 7 5 2", "7 4 2 0 / 7 6")
    listed = web.ok("GET", f"{MATCHES}?status=open", token=None)  # public
    assert listed["count"] == 11 == len(listed["matches"])
    ids = [m["match_id"] for m in listed["matches"]]
    assert ids == [f"1.{n}" for n in range(1, 13) if n != 5]
    half = next(m for m in listed["matches"] if m["match_id"] == "1.3")
    assert half["needs"] == "enter the rest of its result (Bummerl 1:0, first to 2)"
    assert half["progress"] == "Bummerl 1:0, Bummerl 2 hand 1 next"
    assert half["bummerl"] == [1, 0] and half["status"] == "open"
    empty = next(m for m in listed["matches"] if m["match_id"] == "1.1")
    assert (empty["needs"], empty["progress"]) == ("enter its result", "nothing entered")


def test_the_filters_give_decided_matches_and_one_rounds_matches(web: Web) -> None:
    drawn(web, 4)
    tally(web, "club", "1.2", "7 4 1 0 / 7 5 2", "7 4 2 0 / 7 6")
    decided = web.ok("GET", f"{MATCHES}?status=decided")["matches"]
    assert [m["match_id"] for m in decided] == ["1.2"]
    [won] = decided
    assert won["status"] == "decided" and won["needs"] is None
    assert won["winner"] == won["players"][0] and won["bummerl"] == [2, 0]
    assert won["result"].endswith("won 2:0")
    every = web.ok("GET", f"{MATCHES}?round=1")
    assert every["status"] == "all" and [m["match_id"] for m in every["matches"]] == ["1.1", "1.2"]
    execute(web, "club", lambda t: c.record_tallies(t, "1.1", ["7 4 1 0 / 7 5 2"] * 2))
    web.ok("POST", "/api/v1/tournaments/club/rounds", {})
    assert [m["round"] for m in web.ok("GET", f"{MATCHES}?round=2")["matches"]] == [2, 2]
    assert web.ok("GET", f"{MATCHES}?status=open&round=1")["matches"] == []
    assert web.ok("GET", MATCHES)["count"] == 4


def test_a_bad_filter_is_422_naming_it(web: Web) -> None:
    drawn(web, 4)
    for query, field in (
        ("status=finished", "query.status"),
        ("round=0", "query.round"),
        ("round=7", "query.round"),
        ("stauts=open", "query.stauts"),
    ):
        reply = web.get(f"{MATCHES}?{query}")
        assert reply.status_code == 422, query
        assert reply.get_json()["field"] == field, reply.get_json()
    assert "round 7 is not drawn yet" in web.get(f"{MATCHES}?round=7").get_json()["detail"]


def test_a_match_shows_its_bummerl_hands_results_and_who_entered_them(web: Web) -> None:
    drawn(web, 4)
    first, second = results(
        tally(web, "club", "1.1", "7 4 1 0 / 7 5 2", "7 4 2 0 / 7 6", actor="Sepp")
    )
    match = web.ok("GET", f"{MATCHES}/1.1", token=None)  # public
    a, b = match["players"]
    assert match["decided"] is True and match["winner"] == a and match["status"] == "decided"
    assert match["first_dealer"] in (a, b) and match["best_of"] == 3
    assert match["standing"] == f"decided: {a['name']} ({a['id']}) wins 2:0 Bummerl"
    assert [x["result_id"] for x in match["entries"]] == [first, second]
    assert [x["kind"] for x in match["entries"]] == ["tally", "tally"]
    [entered] = match["entries"][0]["history"]
    assert (entered["what"], entered["actor"], entered["source"]) == ("entered", "Sepp", "paper")
    one, two = match["bummerls"]
    assert (one["winner"], one["to_go"], one["counts"]) == (a, [0, 2], 1)
    assert len(one["hands"]) == 5 and {h["result_id"] for h in one["hands"]} == {first}
    assert sum(h["game_points"] for h in one["hands"] if h["winner"] == b) == 5
    assert len(two["hands"]) == 4 and two["hands"][0]["number"] == 1
    assert match["entries"][1]["places"][0] == "Bummerl 2 hand 1"


def test_a_match_shows_void_signatures_and_corrections_with_who_and_why(web: Web) -> None:
    drawn(web, 4)
    [rid] = results(tally(web, "club", "1.1", "7 4 1 0 / 7 5 2"))
    tally(web, "club", "1.1", "7 4 2 0 / 7 6")
    players = web.ok("GET", f"{MATCHES}/1.1")["players"]
    execute(web, "club", lambda t: c.sign_sheet(t, "1.1", players[0]["id"], actor="desk"))
    execute(
        web,
        "club",
        lambda t: c.correct_result(
            t, rid, {"tally": "7 4 1 0 / 7 6 3"}, by="referee", reason="misread", actor="desk"
        ),
    )
    match = web.ok("GET", f"{MATCHES}/1.1")
    assert match["signed_by"] == []  # the sheet changed after signing: the signature is void
    [void] = match["void_signatures"]
    assert void["player"] == players[0] and "after signing" in void["why"]
    entered, corrected = match["entries"][0]["history"]
    assert (corrected["what"], corrected["by"], corrected["reason"]) == (
        "corrected",
        "referee",
        "misread",
    )
    assert entered["what"] == "entered"
    assert corrected["replacement"]["tally"] == match["entries"][0]["result"]["tally"]


def test_a_struck_hand_is_shown_struck_and_counts_no_more(web: Web) -> None:
    drawn(web, 4)
    [rid] = results(tally(web, "club", "1.2", "7 4 1 0 / 7 5 2"))
    before = web.ok("GET", f"{MATCHES}/1.2")
    loser = before["players"][1]
    hand = next(h["number"] for h in before["bummerls"][0]["hands"] if h["winner"] == loser)
    execute(
        web,
        "club",
        lambda t: c.strike_hand(t, rid, hand, by="referee", reason="misdeal", actor="desk"),
    )
    after = web.ok("GET", f"{MATCHES}/1.2")
    [entry] = after["entries"]
    assert entry["struck"] == [hand] and entry["places"][hand - 1] == "struck"
    assert (entry["history"][-1]["what"], entry["history"][-1]["hand"]) == ("struck", hand)
    assert len(after["bummerls"][0]["hands"]) == 4  # R17: its game points count no more
    assert after["bummerls"][0]["to_go"][1] > before["bummerls"][0]["to_go"][1]


def test_a_match_not_there_is_404_saying_what_is(web: Web) -> None:
    drawn(web, 4)
    for mid, said in (
        ("1.9", "round 1 has tables 1 to 2, not table 9"),
        ("2.1", "round 2 is not drawn yet"),
        ("1,2", "did you mean 1.2?"),
    ):
        reply = web.get(f"{MATCHES}/{mid}")
        assert reply.status_code == 404, mid
        problem = reply.get_json()
        assert said in problem["detail"] and problem["rule"] == "T-match"


def test_a_match_read_again_at_the_same_version_is_304_until_a_result_changes_it(
    web: Web,
) -> None:
    drawn(web, 4)
    first = web.get(f"{MATCHES}/1.1")
    tag = first.headers["ETag"]
    assert tag == f'"{version(web, "club")}"'
    assert web.get(f"{MATCHES}/1.1", headers={"If-None-Match": tag}).status_code == 304
    tally(web, "club", "1.1", "7 4 1 0 / 7 5 2")
    assert web.get(f"{MATCHES}/1.1", headers={"If-None-Match": tag}).status_code == 200


def test_a_knockout_match_on_postgresql_by_its_bracket_id(web_pg: Web) -> None:
    web = web_pg
    drawn(web, 4, format="single_elimination")
    listed = web.ok("GET", f"{MATCHES}?status=open")["matches"]
    assert [m["slot"] for m in listed] == [m["match_id"] for m in listed]
    slot = listed[0]["match_id"]
    tally(web, "club", slot, "7 4 1 0 / 7 5 2", "7 4 2 0 / 7 6")
    match = web.ok("GET", f"{MATCHES}/{slot}")
    assert match["decided"] is True and match["slot"] == slot
    assert [m["match_id"] for m in web.ok("GET", f"{MATCHES}?status=decided")["matches"]] == [slot]

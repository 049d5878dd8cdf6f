"""GET /tournaments/{tid}/standings and /bracket: the tables `tournament standings` and
`tournament bracket` print, over HTTP, for anyone.

The tournaments are set up through the app's own service (tests/web/played.py says why);
the command line runs in-process on the same SQLite file, so its --json and --csv are
what the API must equal.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner

from tests.web import played
from tests.web.conftest import Web
from tournament.cli import main
from tournament.domain.commands.registration import register_player

STANDINGS = "/api/v1/tournaments/{}/standings"
#: ``cli(*args)``: what ``tournament ARGS`` prints.
Cli = Callable[..., str]


@pytest.fixture
def cli(web: Web, monkeypatch: pytest.MonkeyPatch) -> Cli:
    """``cli(*args)``: the standard output of ``tournament ARGS`` on the app's store."""
    monkeypatch.setenv("DATABASE_URL", web.app.config["DATABASE_URL"])
    monkeypatch.setenv("SCHNAPSEN_INSTANCE", web.app.instance_path)
    monkeypatch.delenv("SCHNAPSEN_TOURNAMENT", raising=False)

    def run(*args: str) -> str:
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.stdout

    return run


def standings(web: Web, tid: str, query: str = "", **kwargs: Any) -> Any:
    return web.ok("GET", STANDINGS.format(tid) + query, token=None, **kwargs)


def the_cli_keys(answer: dict[str, Any], cli_json: dict[str, Any]) -> dict[str, Any]:
    return {key: answer[key] for key in cli_json}


def test_the_standings_are_the_command_lines_json_with_the_version_and_what_the_table_is(
    web: Web, cli: Cli
) -> None:
    tid = played.swiss(web, rounds=2)
    answer = standings(web, tid)
    printed = json.loads(cli("standings", "--json", "-t", tid))
    assert the_cli_keys(answer, printed) == printed
    assert [r["rank"] for r in answer["rows"]] == list(range(1, 9))
    assert answer["seal"] is not None and answer["seal"].startswith("#")
    assert answer["version"] == answer["as_of"] == played.state(web, tid).version
    assert answer["table"] == {
        "kind": "now", "words": "after round 2", "stage": "after round 2",
        "event": answer["version"], "as_of": None, "round": None, "final": False, "note": "",
    }  # fmt: skip
    assert answer["groups"] is None and answer["group"] is None


def test_the_last_round_makes_the_table_final(web: Web) -> None:
    tid = played.swiss(web, rounds=3)
    table = standings(web, tid)["table"]
    assert table["final"] is True and table["words"] == "final (after round 3)"


def test_before_round_1_the_standings_are_the_players_in_seed_order(web: Web, cli: Cli) -> None:
    web.tournament("early")
    played.register(web, "early", played.NAMES[:4])
    answer = standings(web, "early")
    assert [r["name"] for r in answer["rows"]] == [n for n, _ in played.NAMES[:4]]
    assert [r["decided_by"] for r in answer["rows"]] == [None, "seed", "seed", "seed"]
    assert answer["table"]["words"] == "before round 1 (in seed order)"
    assert the_cli_keys(answer, printed := json.loads(cli("standings", "--json"))) == printed


def test_csv_by_accept_is_the_command_lines_csv_with_its_seal_column(web: Web, cli: Cli) -> None:
    tid = played.swiss(web)
    reply = web.get(STANDINGS.format(tid), token=None, headers={"Accept": "text/csv"})
    assert reply.status_code == 200 and reply.mimetype == "text/csv"
    text = reply.get_data(as_text=True)
    assert text == cli("standings", "--csv", "-t", tid)
    header, first = text.splitlines()[:2]
    assert header.endswith(",seal") and first.endswith(standings(web, tid)["seal"])


def test_an_accept_it_cannot_give_is_406_naming_what_it_gives(web: Web) -> None:
    tid = played.swiss(web, rounds=1)
    reply = web.get(STANDINGS.format(tid), token=None, headers={"Accept": "text/html"})
    assert reply.status_code == 406
    problem = reply.get_json()
    assert problem["field"] == "Accept" and problem["offered"] == ["application/json", "text/csv"]
    browser = "text/html,application/xhtml+xml,*/*;q=0.8"  # takes anything: JSON
    assert (
        web.get(STANDINGS.format(tid), headers={"Accept": browser}).mimetype == "application/json"
    )


def test_if_none_match_with_the_etag_is_304_until_the_tournament_moves_on(web: Web) -> None:
    tid = played.swiss(web, rounds=1)
    url = STANDINGS.format(tid)
    first = web.get(url, token=None)
    tag = first.headers["ETag"]
    again = web.get(url, token=None, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.get_data() == b"" and again.headers["ETag"] == tag
    as_csv = web.get(url, token=None, headers={"Accept": "text/csv"})
    assert as_csv.headers["ETag"] != tag  # another representation, another tag
    assert web.get(url, token=None, headers={"If-None-Match": tag}).get_data() == b""
    played.run(web, tid, lambda t: register_player(t, "Ida Berger"))  # a late entry
    moved = web.get(url, token=None, headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag
    assert "Ida Berger" in [r["name"] for r in moved.get_json()["rows"]]


def test_as_of_and_round_are_the_past_tables_the_command_line_prints(web: Web, cli: Cli) -> None:
    tid = played.swiss(web, rounds=2)
    past = standings(web, tid, "?as_of=15")
    printed = json.loads(cli("standings", "--json", "--as-of", "15", "-t", tid))
    assert the_cli_keys(past, printed) == printed and past["as_of"] == 15
    assert past["table"]["kind"] == "as_of"
    assert past["table"]["words"].startswith("as of event 15: ")
    assert past["version"] == played.state(web, tid).version
    end = standings(web, tid, "?round=1")
    printed = json.loads(cli("standings", "--json", "--round", "1", "-t", tid))
    assert the_cli_keys(end, printed) == printed
    assert end["table"]["words"] == "at the end of round 1 (as it stood when round 2 was drawn)"
    assert end["as_of"] < past["version"] and all(r["played"] == 1 for r in end["rows"])
    # The current round's end is now.
    assert standings(web, tid, "?round=2")["rows"] == standings(web, tid)["rows"]


@pytest.mark.parametrize(
    ("query", "field", "says"),
    [
        ("?as_of=9999", "query.as_of", "has events 1 to"),
        ("?as_of=0", "query.as_of", "greater than or equal to 1"),
        ("?round=3", "query.round", "has rounds 1 to 2 drawn, not round 3"),
        ("?as_of=3&round=1", "query.round", "give round or as_of, not both"),
        ("?category=X", "query.category", "no player has category 'X' (categories here: S, W)"),
        ("?group=1", "query.group", "this tournament has no groups"),
        ("?colour=red", "query.colour", "Extra inputs are not permitted"),
    ],
)
def test_a_table_that_is_not_there_is_422_naming_the_query_field(
    web: Web, query: str, field: str, says: str
) -> None:
    tid = played.swiss(web, rounds=2)
    before = played.state(web, tid).version
    reply = web.get(STANDINGS.format(tid) + query, token=None)
    assert reply.status_code == 422, reply.get_data(as_text=True)
    problem = reply.get_json()
    assert problem["field"] == field and says in problem["detail"]
    assert played.state(web, tid).version == before


def test_a_category_is_ranked_on_its_own_as_the_command_line_ranks_it(web: Web, cli: Cli) -> None:
    tid = played.swiss(web, rounds=2)
    women = standings(web, tid, "?category=w")
    printed = json.loads(cli("standings", "--json", "--category", "w", "-t", tid))
    assert the_cli_keys(women, printed) == printed
    assert {r["category"] for r in women["rows"]} == {"W"} and len(women["rows"]) == 4
    assert [r["rank"] for r in women["rows"]] == [1, 2, 3, 4]


def test_a_group_format_gives_one_table_per_group_and_each_group_alone(web: Web, cli: Cli) -> None:
    web.tournament("rr", format="round_robin", best_of=1, options={"groups": 2})
    played.register(web, "rr", played.NAMES)
    played.play_round(web, "rr", random.Random(1), forfeits=True)
    whole = standings(web, "rr")
    assert the_cli_keys(whole, printed := json.loads(cli("standings", "--json"))) == printed
    assert [g["group"] for g in whole["groups"]] == [1, 2]
    assert sorted(r["player_id"] for g in whole["groups"] for r in g["rows"]) == list(range(1, 9))
    for number, group in enumerate(whole["groups"], 1):
        alone = standings(web, "rr", f"?group={number}")
        printed = json.loads(cli("standings", "--json", "--group", str(number)))
        assert the_cli_keys(alone, printed) == printed
        assert alone["rows"] == group["rows"] and alone["group"] == number
        assert alone["groups"] is None
    reply = web.get(STANDINGS.format("rr") + "?group=3", token=None)
    assert reply.status_code == 422
    assert reply.get_json()["detail"] == "query.group: there are groups 1 to 2, not 3 (T-format)"


def test_an_unknown_tournament_is_404(web: Web) -> None:
    reply = web.get(STANDINGS.format("nowhere"), token=None)
    assert reply.status_code == 404 and reply.get_json()["rule"] == "T-settings"


# --- the bracket ---------------------------------------------------------------------

BRACKET = "/api/v1/tournaments/{}/bracket"


def knockout(web: Web, tid: str = "ko") -> str:
    web.tournament(tid, format="single_elimination", best_of=1)
    played.register(web, tid, played.NAMES[:6])
    return tid


def slot(answer: dict[str, Any], slot_id: str) -> dict[str, Any]:
    return next(s for s in answer["slots"] if s["slot"] == slot_id)


def test_before_round_1_the_bracket_is_the_draw_the_seeding_gives(web: Web, cli: Cli) -> None:
    tid = knockout(web)
    answer = web.ok("GET", BRACKET.format(tid), token=None)
    assert answer["preview"] is True and answer["kind"] == "single"
    assert [s["player_id"] for s in answer["seeds"]] == [1, 2, 3, 4, 5, 6]
    assert [s["slot"] for s in answer["slots"]] == [
        "R1-1",
        "R1-2",
        "R1-3",
        "R1-4",
        "R2-1",
        "R2-2",
        "R3-1",
    ]
    first = slot(answer, "R1-1")
    assert first["sources"] == [{"seed": 1}, {"seed": 8}] and first["status"] == "bye"
    assert first["players"][0] == {"player_id": 1, "name": "Anna Huber", "seed": 1}
    assert first["players"][1] is None and first["sides"] == ["[1] Anna Huber (1)", "(bye)"]
    semi = slot(answer, "R2-2")
    assert semi["sources"] == [{"winner_of": "R1-3"}, {"winner_of": "R1-4"}]
    assert semi["heading"] == "Semi-finals" and semi["match"] is None
    printed = cli("bracket", "-t", tid)
    for s in answer["slots"]:  # every slot reads as the printed sheet's line
        line = next(x for x in printed.splitlines() if x.startswith(f"  {s['slot']} "))
        assert all(side in line for side in s["sides"]) and s["status_words"] in line


def test_the_bracket_of_a_single_elimination_follows_its_results_to_the_champion(
    web: Web, cli: Cli
) -> None:
    tid = knockout(web)
    played.play_round(web, tid, random.Random(2), forfeits=True)
    answer = web.ok("GET", BRACKET.format(tid), token=None)
    assert answer["preview"] is False and answer["champion"] is None
    played_slot = slot(answer, "R1-2")  # 4 v 5: the lower start number wins
    assert played_slot["status"] == "done" and played_slot["match"] == "R1-2"
    assert played_slot["winner"]["player_id"] == 4
    assert played_slot["result"] == {"winner": 4, "bummerl": [1, 0], "forfeit": True,
                                     "words": "1:0 by forfeit"}  # fmt: skip
    final = slot(answer, "R3-1")
    assert final["heading"] == "Final" and final["status"] == "waiting"
    assert final["sides"] == ["winner of R2-1", "winner of R2-2"]
    printed = cli("bracket", "-t", tid)
    assert "R1-2" in printed and "-> Dieter Wagner (4) 1:0 by forfeit" in printed
    played.play_round(web, tid, random.Random(2), forfeits=True)
    played.play_round(web, tid, random.Random(2), forfeits=True)
    done = web.ok("GET", BRACKET.format(tid), token=None)
    assert done["champion"] == {"player_id": 1, "name": "Anna Huber", "seed": 1}
    assert "Champion: Anna Huber (1)" in cli("bracket", "-t", tid)


def test_a_format_without_a_bracket_says_so_with_the_rule(web: Web) -> None:
    tid = played.swiss(web, rounds=1)
    reply = web.get(BRACKET.format(tid), token=None)
    assert reply.status_code == 409
    problem = reply.get_json()
    assert problem["rule"] == "T-format"
    assert (
        problem["detail"]
        == "bracket: a swiss has no bracket: see `tournament standings` (T-format)"
    )

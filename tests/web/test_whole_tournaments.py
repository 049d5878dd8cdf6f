"""Whole tournaments through HTTP only (issue 9): an 8-player Swiss and a 16-player single
elimination, from creation to the final standings, as a club's script would run them --
and the standings the API answers are the ones ``tournament standings`` prints from the
same store."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from tests.web.conftest import Web
from tournament.accounts.roles import Role
from tournament.cli import main

PLAYERS = [
    ("Anna Huber", 1710), ("Bernd Mayr", 1650), ("Christa Egger", 1600), ("Didi Wallner", 1580),
    ("Eva Gruber", 1540), ("Franz Pichler", 1500), ("Gerti Moser", 1470), ("Hans Leitner", 1430),
    ("Inge Bauer", 1400), ("Josef Steiner", 1380), ("Karin Wimmer", 1350), ("Leo Hofer", 1320),
    ("Maria Berger", 1300), ("Norbert Aigner", 1280), ("Olga Fuchs", 1250), ("Peter Lang", 1200),
]  # fmt: skip

#: A best of 3 won 2:0 by the first or the second column's player (pairing order); the
#: loser scores in each Bummerl, so neither is a Schneiderbummerl (R19).
WON_BY_A = ["7 4 1 0 / 7 6", "7 5 2 0 / 7 6"]
WON_BY_B = ["7 6 / 7 4 1 0", "7 6 / 7 5 2 0"]


def the_cli(web: Web, monkeypatch: pytest.MonkeyPatch, *args: str) -> Any:
    monkeypatch.setenv("DATABASE_URL", web.app.config["DATABASE_URL"])
    monkeypatch.setenv("SCHNAPSEN_INSTANCE", web.app.instance_path)
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def run_to_the_end(web: Web, tid: str, token: str, winner_is_a: Any) -> int:
    """Draw round after round and enter every sheet until the tournament is finished;
    the number of rounds played."""
    rounds = 0
    base = f"/api/v1/tournaments/{tid}"
    while web.ok("GET", base, token=None)["progress"]["status"] != "finished":
        version = web.ok("GET", base, token=None)["version"]
        drawn = web.call("POST", f"{base}/rounds", {}, token=token,
                         headers={"If-Match": f'"{version}"'})  # fmt: skip
        assert drawn.status_code == 201, drawn.get_json()
        rounds += 1
        assert rounds <= 10, "the tournament never finished"
        open_ = web.ok("GET", f"{base}/matches?status=open&round={rounds}", token=None)
        for match in open_["matches"]:
            a, b = (p["id"] for p in match["players"])
            tallies = WON_BY_A if winner_is_a(a, b, rounds) else WON_BY_B
            entered = web.call(
                "POST",
                f"{base}/matches/{match['match_id']}/results",
                {"tallies": tallies, "signed": True},
                token=token,
                headers={"Idempotency-Key": f"{tid}-{match['match_id']}"},
            )
            assert entered.status_code == 201, entered.get_json()
        assert web.ok("GET", f"{base}/matches?status=open", token=None)["count"] == 0
    return rounds


def set_up(web: Web, tid: str, players: int, **settings: Any) -> str:
    """The tournament made by its organiser's token, players registered by the API."""
    web.admin()
    organiser = web.token("organiser@club.at")
    body = {"name": "Club Cup", "id": tid, "best_of": 3, "seed": 11, **settings}
    web.ok("POST", "/api/v1/tournaments", body, token=organiser)
    for name, rating in PLAYERS[:players]:
        web.ok("POST", f"/api/v1/tournaments/{tid}/players", {"name": name, "rating": rating},
               token=organiser)  # fmt: skip
    return organiser


def test_an_8_player_swiss_from_creation_to_final_standings(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    organiser = set_up(web, "swiss8", 8, format="swiss", options={"rounds": 3})
    # A scorer enters the sheets; the organiser draws.
    scorer = web.caller(Role.SCORER, "swiss8", email="scorer@club.at")

    def upset(a: int, b: int, n: int) -> bool:
        return (a + b + n) % 3 != 0  # mostly A, sometimes B

    rounds = run_to_the_end_with(web, "swiss8", organiser, scorer, upset)
    assert rounds == 3
    answer = web.ok("GET", "/api/v1/tournaments/swiss8/standings", token=None)
    printed = the_cli(web, monkeypatch, "standings", "--json", "-t", "swiss8")
    assert answer["rows"] == printed["rows"]
    assert len(answer["rows"]) == 8 and all(r["played"] == 3 for r in answer["rows"])
    assert answer["table"]["kind"] == "now" and answer["table"]["final"] is True


def run_to_the_end_with(web: Web, tid: str, organiser: str, scorer: str, winner_is_a: Any) -> int:
    """As :func:`run_to_the_end`, the organiser drawing and the scorer entering."""
    rounds = 0
    base = f"/api/v1/tournaments/{tid}"
    while web.ok("GET", base, token=None)["progress"]["status"] != "finished":
        web.ok("POST", f"{base}/rounds", {}, token=organiser)
        rounds += 1
        assert rounds <= 10, "the tournament never finished"
        for match in web.ok("GET", f"{base}/matches?status=open", token=None)["matches"]:
            a, b = (p["id"] for p in match["players"])
            tallies = WON_BY_A if winner_is_a(a, b, rounds) else WON_BY_B
            web.ok("POST", f"{base}/matches/{match['match_id']}/results",
                   {"tallies": tallies, "signed": True}, token=scorer)  # fmt: skip
    return rounds


def test_a_16_player_single_elimination_from_creation_to_final_standings(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    organiser = set_up(web, "ko16", 16, format="single_elimination")
    web.ok("POST", "/api/v1/tournaments/ko16/seeding", {"method": "rating"}, token=organiser)

    def favourite(a: int, b: int, n: int) -> bool:
        return a < b  # the better seed (the lower start number) wins

    assert run_to_the_end(web, "ko16", organiser, favourite) == 4
    bracket = web.ok("GET", "/api/v1/tournaments/ko16/bracket", token=None)
    assert bracket  # every slot answered (its shape: tests/web/test_standings.py)
    answer = web.ok("GET", "/api/v1/tournaments/ko16/standings", token=None)
    printed = the_cli(web, monkeypatch, "standings", "--json", "-t", "ko16")
    assert answer["rows"] == printed["rows"]
    assert answer["rows"][0]["name"] == "Anna Huber"  # the top seed won every match
    assert answer["rows"][0]["rank"] == 1

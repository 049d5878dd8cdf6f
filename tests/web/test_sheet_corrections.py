"""``POST .../matches/{mid}/sheet-corrections`` (O-M4) does what ``tournament results
correct-sheet`` does: the whole sheet swapped or replaced as one correction, previewed
with ``dry_run``; on SQLite and PostgreSQL."""

from __future__ import annotations

from tests.web.conftest import Web
from tests.web.test_results import drawn, next_round, players_of, results, stores, version
from tournament.accounts.roles import Role

__all__ = ["stores"]  # the fixture, on both stores

PATH = "/api/v1/tournaments/club/matches/1.1/sheet-corrections"


def typed_the_wrong_way_round(web: Web) -> None:
    """Round 1 of eight players entered (1.1 2:0 for its first column), round 2 drawn."""
    drawn(web)
    for table in range(1, 5):
        sheet = {"tallies": ["7 4 1 0 / 7 5", "7 4 2 0 / 7 6"]}
        web.ok("POST", results(f"1.{table}"), sheet)
    next_round(web)


def test_a_swap_dry_run_previews_one_correction_and_no_open_match(stores: Web) -> None:
    typed_the_wrong_way_round(stores)
    before = version(stores)
    organiser = stores.caller(Role.ORGANISER, "club")
    reply = stores.post(f"{PATH}?dry_run=true", {"swap": True, "why": "swapped"}, token=organiser)
    assert reply.status_code == 200, reply.get_json()
    body = reply.get_json()
    assert [e["type"] for e in body["would_store"]] == ["result.corrected"] * 2
    assert not any("open again" in line for line in body["preview"]["lines"])
    assert version(stores) == before


def test_a_swap_is_stored_as_one_correction_flagging_each_later_match_once(stores: Web) -> None:
    typed_the_wrong_way_round(stores)
    _, second = players_of(stores, "1.1")
    organiser = stores.caller(Role.ORGANISER, "club")
    reply = stores.post(PATH, {"swap": True, "why": "swapped"}, token=organiser)
    assert reply.status_code == 201, reply.get_json()
    sheets = {e["payload"]["sheet"]["id"] for e in reply.get_json()["events"]}
    assert len(sheets) == 1
    match = stores.ok("GET", "/api/v1/tournaments/club/matches/1.1")
    assert match["winner"]["id"] == second
    flags = [
        stores.ok("GET", f"/api/v1/tournaments/club/matches/2.{table}")["flags"]
        for table in range(1, 5)
    ]
    assert sorted(len(f) for f in flags) == [0, 0, 1, 1]  # the two players' next matches


def test_swap_and_tallies_together_are_refused_and_nothing_is_stored(web: Web) -> None:
    typed_the_wrong_way_round(web)
    before = version(web)
    body = {"swap": True, "tallies": ["7 5 / 7 4 1 0"], "why": "x"}
    reply = web.post(PATH, body)
    assert reply.status_code == 422 and "one of them" in reply.get_data(as_text=True)
    replaced = web.post(PATH, {"tallies": [{"first": [7, 5], "second": [7, 4, 1, 0]},
                                           "7 5 / 7 4 2 0"], "why": "another sheet"})  # fmt: skip
    assert replaced.status_code == 201, replaced.get_json()
    assert version(web) == before + 2

"""The headers a client uses are in the OpenAPI document, and every 201 says where
(operator F13, attack F14; tournament/web/openapi_headers.py, tournament/web/api/created.py).
"""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Web
from tests.web.test_results import drawn, players_of, results, round_one_by_forfeit
from tournament.web.openapi_headers import KEYED, VERSIONED, WRITES


def operations(doc: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method, path): operation
        for path, found in doc["paths"].items()
        for method, operation in found.items()
    }


def sent_headers(operation: dict[str, Any]) -> set[str]:
    return {
        p["$ref"].rsplit("/", 1)[-1]
        for p in operation.get("parameters", [])
        if "$ref" in p and "/parameters/" in p["$ref"]
    }


def test_operator_f13_the_document_declares_the_request_headers_the_operations_honour(
    web: Web,
) -> None:
    doc = web.get("/openapi.json", token=None).get_json()
    parameters = doc["components"]["parameters"]
    assert {parameters[name]["in"] for name in parameters} == {"header"}
    for key, operation in operations(doc).items():
        expected = (
            {"If-Match", "Idempotency-Key"}
            if key in WRITES
            else {"Idempotency-Key"}
            if key in KEYED
            else {"If-None-Match"}
            if key in VERSIONED
            else set()
        )
        assert sent_headers(operation) == expected, key


def test_operator_f13_the_document_declares_the_response_headers(web: Web) -> None:
    doc = web.get("/openapi.json", token=None).get_json()
    refs = {name: {"$ref": f"#/components/headers/{name}"} for name in doc["components"]["headers"]}
    created = 0
    for key, operation in operations(doc).items():
        for status, answer in operation["responses"].items():
            headers = answer.get("headers", {})
            assert headers.get("X-Request-ID") == refs["X-Request-ID"], (key, status)
            if status == "201":
                created += 1
                assert headers.get("Location") == refs["Location"], key
            if status in ("429", "503"):
                assert headers.get("Retry-After") == refs["Retry-After"], (key, status)
            if key in VERSIONED and status in ("200", "304"):
                assert headers.get("ETag") == refs["ETag"], (key, status)
            if key in WRITES and status in ("200", "201"):
                assert headers.get("ETag") == refs["ETag"], (key, status)
    assert created >= 10


def test_operator_f13_the_versioned_reads_answer_an_etag_and_304(web: Web) -> None:
    drawn(web)
    round_one_by_forfeit(web)
    for _, path in sorted(VERSIONED):
        url = (
            path.replace("{tid}", "club")
            .replace("{mid}", "1.1")
            .replace("{pid}", "1")
            .replace("{n}", "1")
        )
        if url.endswith("/bracket") or url.endswith("/online"):
            continue  # a Swiss tournament has no bracket; the match is not played online
        first = web.get(url)
        assert first.status_code == 200 and first.headers.get("ETag"), url
        again = web.get(url, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304, url


def test_operator_f13_every_201_carries_a_location_that_answers(web: Web) -> None:
    drawn(web)
    a, b = players_of(web, "1.1")
    answers = {"result": web.post(results("1.1"), {"forfeit": {"winner": a}})}
    rid = answers["result"].get_json()["result_ids"][0]
    answers["signatures"] = web.post("/api/v1/tournaments/club/matches/1.1/signatures", {})
    correction = {"winner": b, "why": "misread"}
    answers["correction"] = web.post(
        f"/api/v1/tournaments/club/results/{rid}/corrections", correction
    )
    answers["player"] = web.post("/api/v1/tournaments/club/players", {"name": "Zoe"})
    answers["import"] = web.call(
        "POST",
        "/api/v1/tournaments/club/players/import",
        data="name\nYvonne\n",
        headers={"Content-Type": "text/csv"},
    )
    answers["token"] = web.post(
        "/api/v1/tokens",
        {"email": "admin@club.at", "password": "a long password 1", "name": "script"},
        token=None,
    )
    for what, reply in answers.items():
        assert reply.status_code == 201, (what, reply.get_data(as_text=True))
        location = reply.headers.get("Location")
        assert location and location.startswith("/api/v1/"), what
        assert web.get(location).status_code == 200, (what, location)
    assert answers["result"].headers["Location"] == "/api/v1/tournaments/club/matches/1.1"


def test_operator_f13_a_replayed_result_carries_the_same_location(web: Web) -> None:
    drawn(web)
    a, _ = players_of(web, "1.2")
    key = {"Idempotency-Key": "f13-replay-1"}
    first = web.post(results("1.2"), {"forfeit": {"winner": a}}, headers=key)
    again = web.post(results("1.2"), {"forfeit": {"winner": a}}, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert first.headers["Location"] == again.headers["Location"]
    assert first.headers["Location"] == "/api/v1/tournaments/club/matches/1.2"


def test_attack_f14_if_match_takes_ascii_digits_only(web: Web) -> None:
    drawn(web)
    a, _ = players_of(web, "1.3")
    for sent in ('"\xb2"', '"12a"', "W/x"):
        reply = web.post(results("1.3"), {"forfeit": {"winner": a}}, headers={"If-Match": sent})
        assert reply.status_code == 422, (sent, reply.status_code)
        assert reply.get_json()["field"] == "If-Match"


def test_attack_f14_a_key_used_for_another_tournament_is_refused_not_a_500(web: Web) -> None:
    drawn(web)
    web.tournament("other")
    key = {"Idempotency-Key": "one-key-two-tournaments"}
    first = web.post("/api/v1/tournaments/other/players", {"name": "Xaver"}, headers=key)
    assert first.status_code == 201
    again = web.post("/api/v1/tournaments/club/players", {"name": "Xaver"}, headers=key)
    assert again.status_code == 422, again.get_data(as_text=True)
    assert again.get_json()["field"] == "Idempotency-Key"
    assert "used for another request" in again.get_json()["detail"]
